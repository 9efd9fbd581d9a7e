// The lobby's clockwork: the counts frame (at most once a tick), the abort of paired games that
// nobody starts, and the ladder it feeds.
#include <nlohmann/json.hpp>

#include "json_text.hpp"
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

std::string Lobby::countsJsonLocked() {
    json rulesets = json::object();
    for (const Ruleset* r : allRulesets()) rulesets[std::string(r->key)] = json{{"seeking", 0}, {"playing", 0}};
    for (const SeekEntry& s : seeks_) {
        if (s.ruleset != "any") {
            rulesets[s.ruleset]["seeking"] = rulesets[s.ruleset]["seeking"].get<int>() + 1;
            continue;
        }
        for (auto& [key, counts] : rulesets.items()) counts["seeking"] = counts["seeking"].get<int>() + 1;
    }
    for (const Watched& g : games_) rulesets[g.ruleset]["playing"] = rulesets[g.ruleset]["playing"].get<int>() + 2;
    json open = json::array();
    for (const SeekEntry& s : seeks_) {
        if (open.size() >= options_.openListMax) break;
        json entry{{"id", s.id}, {"ruleset", s.ruleset}, {"name", s.name}, {"since", s.sinceMs}};
        if (s.bot) entry["bot"] = true;  // a program's seek, marked
        open.push_back(std::move(entry));
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
    enum class Seen { Playing, Started, Ended, Aborted };
    struct Finding {
        std::string id;
        Seen seen;
        std::array<bool, 2> blamed{};
    };
    std::vector<Finding> findings;
    const auto now = clock_.now();
    for (const Watched& g : games) {
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
            if (f.seen == Seen::Started) {
                it->started = true;
                for (const auto& b : it->browsers) ladder_.started(b);
                continue;
            }
            if (f.seen == Seen::Aborted) {
                ++aborted_;
                for (int seat = 0; seat < 2; ++seat)
                    if (f.blamed[seat]) ladder_.aborted(it->browsers[seat], now);
            }
            games_.erase(it);
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
