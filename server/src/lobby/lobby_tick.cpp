// The lobby's clockwork: the counts frame (at most once a tick), the abort of paired games that
// nobody starts, and the ladder it feeds.
#include <nlohmann/json.hpp>

#include "json_text.hpp"
#include "log_limit.hpp"
#include "lobby.hpp"
#include "senet/ruleset.hpp"

namespace senet::server::lobby {

using nlohmann::json;

void Lobby::scheduleTick() {
    if (!options_.selfTick || tickScheduled_) return;
    tickScheduled_ = true;
    scheduler_.afterUncounted(std::chrono::duration_cast<std::chrono::milliseconds>(options_.tick),
                              [weak = weak_from_this()] {
                                  if (auto lobby = weak.lock()) lobby->tick();
                              });
}

std::string Lobby::countsJson() {
    std::lock_guard lock(mutex_);
    return countsJsonLocked();
}

std::map<std::string, int> Lobby::playingLocked() const {
    std::map<std::string, int> games;
    for (const Watched& g : games_) ++games[g.ruleset];
    return games;
}

std::string Lobby::countsJsonLocked() {
    // This lobby's seeks and games, and (sharing a database) the other instances' as last read.
    const SeekBoard board = exchange_ ? exchange_->board() : SeekBoard{};
    std::map<std::string, int> seeking = board.seeking, games = board.playing;
    std::vector<const SharedSeek*> remote;
    for (const SharedSeek& s : board.open) remote.push_back(&s);
    for (const SeekEntry& s : seeks_)
        if (!s.claimed) ++seeking[s.ruleset];
    for (const auto& [ruleset, n] : playingLocked()) games[ruleset] += n;
    json rulesets = json::object();
    for (const Ruleset* r : allRulesets()) {
        const std::string key(r->key);
        const auto n = [](const std::map<std::string, int>& m, const std::string& k) {
            const auto it = m.find(k);
            return it == m.end() ? 0 : it->second;
        };
        rulesets[key] = json{{"seeking", n(seeking, key) + n(seeking, "any")}, {"playing", 2 * n(games, key)}};
    }
    // The open list, oldest first: this lobby's seeks merged with the others'.
    json open = json::array();
    auto mine = seeks_.begin();
    auto theirs = remote.begin();
    const auto entry = [](const std::string& id, const std::string& ruleset, const std::string& name, std::int64_t since, bool bot,
                          bool bots) {
        json e{{"id", id}, {"ruleset", ruleset}, {"name", name}, {"since", since}};
        if (bot) e["bot"] = true;    // a program's seek, marked
        if (bots) e["bots"] = true;  // it may be paired with a program: a bot may take it
        return e;
    };
    while (open.size() < options_.openListMax) {
        while (mine != seeks_.end() && mine->claimed) ++mine;
        const bool haveMine = mine != seeks_.end(), haveTheirs = theirs != remote.end();
        if (!haveMine && !haveTheirs) break;
        if (haveMine && (!haveTheirs || mine->sinceMs <= (*theirs)->sinceMs)) {
            open.push_back(entry(mine->id, mine->ruleset, mine->name, mine->sinceMs, mine->bot, mine->bots));
            ++mine;
        } else {
            const SharedSeek& s = **theirs;
            open.push_back(entry(s.id, s.ruleset, s.name, s.sinceMs, s.bot, s.bots));
            ++theirs;
        }
    }
    return jsonText(json{{"rulesets", std::move(rulesets)}, {"open", std::move(open)}});
}

void Lobby::tick() {
    std::vector<Watched> games;
    {
        std::lock_guard lock(mutex_);
        tickScheduled_ = false;
        games = games_;
    }
    // The rooms are asked without the lobby's lock (an abort stores and broadcasts).
    std::vector<Finding> findings;
    const auto now = clock_.now();
    for (const Watched& g : games) {
        if (g.away) {
            if (now - g.pairedAt >= options_.abortAfter + kAwayMargin && now >= g.nextCheck) findings.push_back(checkAway(g));
            continue;
        }
        const auto room = g.room.lock();
        if (!room || room->over()) {
            findings.push_back({g.id, Seen::Ended});
            continue;
        }
        if (g.started) continue;
        if (room->started()) {
            findings.push_back({g.id, Seen::Started});
            continue;
        }
        if (now - g.pairedAt < options_.abortAfter) continue;
        // Blamed: the seats that never came to the game; when both came, seat 0 (it did not throw).
        Finding f{g.id, Seen::Aborted};
        f.blamed = {!room->seatCame(0), !room->seatCame(1)};
        if (!f.blamed[0] && !f.blamed[1]) f.blamed[0] = true;
        if (room->abortUnstarted()) findings.push_back(f);
        else if (room->over()) findings.push_back({g.id, Seen::Ended});
        else if (room->started()) findings.push_back({g.id, Seen::Started});
    }
    Outbox out;
    {
        std::lock_guard lock(mutex_);
        for (const Finding& f : findings) {
            const auto it = std::find_if(games_.begin(), games_.end(), [&](const Watched& g) { return g.id == f.id; });
            if (it == games_.end()) continue;
            if (f.seen == Seen::Later) {
                it->nextCheck = now + kAwayEvery;
                continue;
            }
            if (f.seen == Seen::Started) {
                if (!it->started)
                    for (const auto& b : it->browsers) ladder_.started(b);
                it->started = true;
                it->nextCheck = now + kAwayEvery;
                continue;
            }
            if (f.seen == Seen::Aborted) {
                ++aborted_;
                for (int seat = 0; seat < 2; ++seat)
                    if (f.blamed[seat]) ladder_.aborted(it->browsers[seat], now);
            }
            games_.erase(it);
        }
        if (exchange_) {
            retryShared();
            matchShared(out);
            exchange_->setPlaying(playingLocked());
        }
        std::string counts = countsJsonLocked();
        if (counts != lastCounts_) {
            lastCounts_ = std::move(counts);
            const auto frame = std::make_shared<const std::string>(protocol::envelope("lobby", lastCounts_));
            for (auto& [key, conn] : conns_) out.add(conn->peer, frame);
        }
        if (!conns_.empty() || !games_.empty()) scheduleTick();
    }
    out.send();
}

Lobby::Finding Lobby::checkAway(const Watched& g) {
    const auto blame = [&](bool came0, bool came1) {
        Finding f{g.id, Seen::Aborted};
        f.blamed = {!came0, !came1};  // the seats that never came; when both came, seat 0 (it did not throw)
        if (!f.blamed[0] && !f.blamed[1]) f.blamed[0] = true;
        return f;
    };
    try {
        const std::optional<GameRow> row = registry_.peek(g.id);
        if (!row) return {g.id, Seen::Ended};
        if (row->status != GameStatus::Playing) {
            const json result = json::parse(row->result, nullptr, false);
            const bool aborted = result.is_object() && result.value("reason", "") == "aborted";
            if (aborted && !g.started) return blame(row->clientSeeds[0].has_value(), row->clientSeeds[1].has_value());
            return {g.id, Seen::Ended};
        }
        if (g.started) return {g.id, Seen::Later};  // its end is awaited for the counts
        // Past its abort time and not over: being played at the instance that holds it, or at
        // none (nobody came), and then loaded here and aborted as an unstarted game here would be.
        const auto room = registry_.find(g.id).room;
        if (!room || room->over()) return {g.id, Seen::Ended};
        if (room->started()) return {g.id, Seen::Started};
        Finding f = blame(room->seatCame(0), room->seatCame(1));
        if (room->abortUnstarted()) return f;
        return {g.id, room->over() ? Seen::Ended : Seen::Later};
    } catch (const GameElsewhere&) {
        return {g.id, Seen::Started};  // held by another instance past its abort time: someone is playing it
    } catch (const std::exception& e) {
        logLimited("storage", std::string("lobby: game ") + g.id + " could not be read: " + e.what());
        return {g.id, Seen::Later};
    }
}

Stats Lobby::stats() const {
    std::lock_guard lock(mutex_);
    Stats s;
    s.connections = conns_.size();
    s.openSeeks = seeks_.size();
    s.paired = paired_;
    s.aborted = aborted_;
    s.watched = games_.size();
    return s;
}

}  // namespace senet::server::lobby
