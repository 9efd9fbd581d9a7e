#include "lobby.hpp"

#include <algorithm>
#include <tuple>

#include <nlohmann/json.hpp>

#include "guest_name.hpp"
#include "json_text.hpp"
#include "log_limit.hpp"
#include "senet/fairness.hpp"
#include "senet/ruleset.hpp"

namespace senet::server::lobby {

using nlohmann::json;

namespace {

std::int64_t unixMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string errorFrame(std::string_view code, std::string_view message, json extra = json::object()) {
    extra["code"] = code;
    extra["message"] = message;
    return protocol::envelope("error", jsonText(extra));
}

/// Whether a seek for `a` and one for `b` may play each other.
bool compatible(const std::string& a, const std::string& b) { return a == b || a == "any" || b == "any"; }

/// Whether a seeker (`bot`, accepting bots: `bots`) and a waiting seek may be paired: a bot only
/// with a seeker that accepts bots, so two bots only when both asked for it (PROTOCOL.md "Bots").
bool botsAgree(bool bot, bool bots, bool waitingBot, bool waitingBots) { return (!bot || waitingBots) && (!waitingBot || bots); }

}  // namespace

/// One lobby WebSocket: forwards to the lobby with its client address.
class Lobby::Connection final : public SocketTarget {
public:
    Connection(std::shared_ptr<Lobby> lobby, std::string address) : lobby_(std::move(lobby)), address_(std::move(address)) {}
    void attach(Peer*, std::weak_ptr<Peer> peer) override { lobby_->attach(this, std::move(peer), address_); }
    void detach(Peer*) override { lobby_->detach(this); }
    void receive(Peer*, std::string_view frame, std::chrono::steady_clock::time_point) override { lobby_->receive(this, frame); }
    void reject(Peer*, const protocol::ParseError& error) override { lobby_->reject(this, error); }

private:
    std::shared_ptr<Lobby> lobby_;
    std::string address_;
};

void Lobby::Outbox::add(const std::weak_ptr<Peer>& peer, std::shared_ptr<const std::string> frame) {
    if (auto p = peer.lock()) frames.emplace_back(std::move(p), std::move(frame));
}

void Lobby::Outbox::send() {
    for (auto& [peer, frame] : frames) peer->send(std::move(frame));
    frames.clear();
}

Lobby::Lobby(Registry& registry, Scheduler& scheduler, Clock& clock, Options options)
    : registry_(registry), scheduler_(scheduler), clock_(clock), options_(options) {}

std::shared_ptr<SocketTarget> Lobby::connect(std::string address) {
    return std::make_shared<Connection>(shared_from_this(), std::move(address));
}

void Lobby::share(std::shared_ptr<SeekExchange> exchange) {
    {
        std::lock_guard lock(mutex_);
        exchange_ = exchange;
    }
    exchange->start([weak = weak_from_this()](const std::string& seekId, const std::string& frame) {
        if (auto lobby = weak.lock()) lobby->delivered(seekId, frame);
    });
}

void Lobby::stopSharing() {
    std::shared_ptr<SeekExchange> exchange;
    {
        std::lock_guard lock(mutex_);
        exchange.swap(exchange_);
        for (SeekEntry& e : seeks_) e.shared = false;
    }
    exchange.reset();  // joins its thread outside the lock (a frame handed now waits for the lock)
}

void Lobby::delivered(const std::string& seekId, const std::string& frame) {
    Outbox out;
    {
        std::lock_guard lock(mutex_);
        const auto it = std::find_if(seeks_.begin(), seeks_.end(), [&](const SeekEntry& e) { return e.id == seekId; });
        if (it == seeks_.end()) return;  // its connection closed meanwhile: the game's abort will tell the other
        const auto conn = conns_.find(it->conn);
        if (conn == conns_.end()) return;
        it->shared = false;  // the claim took it off the exchange
        out.add(conn->second->peer, frame);
        eraseSeek(*conn->second);
    }
    out.send();
}

bool Lobby::takeBack(SeekEntry& e) {
    if (!exchange_ || !e.shared) return true;
    e.shared = false;
    try {
        if (exchange_->withdraw(e.id)) return true;
        e.claimed = true;
        return false;
    } catch (const std::exception& ex) {
        // The database is unreachable, so no other instance can claim it either: pair it here.
        logLimited("storage", std::string("lobby: a shared seek could not be taken back: ") + ex.what());
        return true;
    }
}

bool Lobby::reshare(SeekEntry& e) {
    if (!exchange_ || e.shared || e.claimed) return true;
    try {
        exchange_->publish(sharedOf(e));
        e.shared = true;
        return true;
    } catch (const std::exception& ex) {
        // Shared at a later tick (retryShared), once the database answers.
        logLimited("storage", std::string("lobby: a seek could not be shared: ") + ex.what());
        return false;
    }
}

void Lobby::attach(Connection* c, std::weak_ptr<Peer> peer, const std::string& address) {
    Outbox out;
    {
        std::lock_guard lock(mutex_);
        auto conn = std::make_unique<Conn>();
        conn->key = c;
        conn->peer = peer;
        conn->address = address;
        conns_[c] = std::move(conn);
        out.add(peer, protocol::envelope("lobby", countsJsonLocked()));
        scheduleTick();
    }
    out.send();
}

void Lobby::detach(Connection* c) {
    std::lock_guard lock(mutex_);
    const auto it = conns_.find(c);
    if (it == conns_.end()) return;
    withdraw(*it->second);  // a seek dies with its connection
    eraseSeek(*it->second);  // also one claimed meanwhile by another instance (its game's abort tells the other)
    conns_.erase(it);
}

void Lobby::reject(Connection* c, const protocol::ParseError& error) {
    Outbox out;
    {
        std::lock_guard lock(mutex_);
        if (const auto it = conns_.find(c); it != conns_.end()) out.add(it->second->peer, errorFrame(error.code, error.message));
    }
    out.send();
}

void Lobby::receive(Connection* c, std::string_view frame) {
    const auto parsed = protocol::lobby::parse(frame);
    Outbox out;
    {
        std::lock_guard lock(mutex_);
        const auto it = conns_.find(c);
        if (it == conns_.end()) return;
        Conn& conn = *it->second;
        if (const auto* e = std::get_if<protocol::ParseError>(&parsed)) {
            out.add(conn.peer, errorFrame(e->code, e->message));
        } else {
            const auto& m = std::get<protocol::lobby::Message>(parsed);
            if (const auto* s = std::get_if<protocol::lobby::Seek>(&m)) onSeek(conn, *s, out);
            else if (const auto* t = std::get_if<protocol::lobby::Take>(&m)) onTake(conn, *t, out);
            else if (std::holds_alternative<protocol::lobby::Cancel>(m)) {
                // Claimed by another instance a moment before: its `paired` frame is on the way, not `cancelled`.
                if (withdraw(conn)) out.add(conn.peer, protocol::envelope("cancelled", "{}"));
            } else {
                out.add(conn.peer, protocol::envelope("pong", jsonText(json{{"time", unixMs()}})));
            }
        }
    }
    out.send();
}

std::optional<std::string> Lobby::admit(Conn& c, const std::optional<std::string>& name, const std::optional<std::string>& browser,
                                        Outbox& out) {
    if (const auto wait = ladder_.waitLeft(browser.value_or(""), clock_.now())) {
        const auto s = wait->count();
        out.add(c.peer, errorFrame("wait",
                                   "three or more paired games in a row were abandoned from this browser: you may seek again in " +
                                       std::to_string(s) + " s",
                                   json{{"seconds", s}}));
        return std::nullopt;
    }
    if (name) {
        const CheckedName checked = checkGuestName(*name);
        if (!checked.ok()) {
            out.add(c.peer, errorFrame("bad-name", checked.error.message, json{{"reason", checked.error.reason}}));
            return std::nullopt;
        }
        if (!checked.name.empty()) return checked.name;
    }
    return randomGuestName();
}

void Lobby::onSeek(Conn& c, const protocol::lobby::Seek& s, Outbox& out) {
    if (s.ruleset != "any" && !rulesetByKey(s.ruleset))
        return out.add(c.peer, errorFrame("bad-ruleset", "seek: \"ruleset\" must be standard, jequier, bell, kendall, piccione or any"));
    const auto name = admit(c, s.name, s.browser, out);
    if (!name) return;
    // One seek per connection: a new one replaces it, unless another instance paired the old
    // one a moment before (its `paired` frame is on the way: that pairing stands).
    if (!withdraw(c)) return;
    if (const auto it = seeksByAddress_.find(c.address);
        it != seeksByAddress_.end() && it->second >= static_cast<std::size_t>(options_.seeksPerAddress))
        return out.add(c.peer, errorFrame("too-many-seeks", "this address already has " + std::to_string(it->second) +
                                                                " open seeks; close one or try again later"));
    const std::string browser = s.browser.value_or("");
    // A waiting seek here first (no round trip), else the oldest of another instance.
    for (auto it = seeks_.begin(); it != seeks_.end(); ++it) {
        if (it->claimed || !compatible(it->ruleset, s.ruleset)) continue;
        if (!browser.empty() && it->browser == browser) continue;  // two tabs of one browser
        if (!botsAgree(s.bot, s.bots, it->bot, it->bots)) continue;
        const bool wasShared = it->shared;
        if (!takeBack(*it)) continue;  // another instance paired it a moment ago
        if (!pair(Older{sharedOf(*it), it->conn}, c, *name, browser, s.ruleset, s.bot, out) &&
            wasShared)
            reshare(*it);
        return;
    }
    if (exchange_) {
        if (const auto remote = claimFor(SharedSeek{"", "", s.ruleset, *name, browser, 0, s.bot, s.bots})) {
            if (!pair(Older{*remote, nullptr}, c, *name, browser, s.ruleset, s.bot, out)) restoreRemote(*remote);
            return;
        }
    }
    SeekEntry e;
    e.id = fairness::randomToken(12);
    e.ruleset = s.ruleset;
    e.name = *name;
    e.browser = browser;
    e.sinceMs = unixMs();
    e.bot = s.bot;
    e.bots = s.bots;
    e.address = c.address;
    e.conn = c.key;
    seeks_.push_back(std::move(e));
    c.seek = std::prev(seeks_.end());
    ++seeksByAddress_[c.address];
    reshare(seeks_.back());
    out.add(c.peer, protocol::envelope("seeking", jsonText(json{{"ruleset", s.ruleset}, {"id", seeks_.back().id}, {"name", *name}})));
}

void Lobby::onTake(Conn& c, const protocol::lobby::Take& t, Outbox& out) {
    const auto name = admit(c, t.name, t.browser, out);  // the ladder's wait first, as for a seek
    if (!name) return;
    auto it = seeks_.begin();
    while (it != seeks_.end() && it->id != t.seek) ++it;
    const std::string browser = t.browser.value_or("");
    if (it == seeks_.end() && exchange_) return takeRemote(c, t, *name, browser, out);
    if (it == seeks_.end() || it->claimed) return out.add(c.peer, errorFrame("gone", "take: this seek is no longer open"));
    if ((c.seek && *c.seek == it) || (!browser.empty() && it->browser == browser))
        return out.add(c.peer, errorFrame("same-browser", "take: this seek is from this browser"));
    // A person who takes a bot's seek chose it; a bot takes only a seek that accepts bots.
    if (t.bot && !it->bots) return out.add(c.peer, errorFrame("no-bots", "take: this seek does not accept bots"));
    const bool wasShared = it->shared;
    if (!takeBack(*it)) return out.add(c.peer, errorFrame("gone", "take: this seek is no longer open"));
    if (!withdraw(c)) {  // this connection's own seek was paired elsewhere a moment before: that pairing stands
        if (wasShared) reshare(*it);
        return;
    }
    if (!pair(Older{sharedOf(*it), it->conn}, c, *name, browser, it->ruleset, t.bot, out) &&
        wasShared)
        reshare(*it);
}

void Lobby::takeRemote(Conn& c, const protocol::lobby::Take& t, const std::string& name, const std::string& browser, Outbox& out) {
    std::optional<SharedSeek> remote;
    bool failed = false;
    try {
        remote = exchange_->claimId(t.seek);
    } catch (const std::exception& ex) {
        logLimited("storage", std::string("lobby: the other instances' seeks could not be read: ") + ex.what());
        failed = true;
    }
    if (failed) return out.add(c.peer, errorFrame("storage", "the open seeks could not be read; try again"));
    if (!remote) return out.add(c.peer, errorFrame("gone", "take: this seek is no longer open"));
    if (!browser.empty() && remote->browser == browser) {
        restoreRemote(*remote);
        return out.add(c.peer, errorFrame("same-browser", "take: this seek is from this browser"));
    }
    if (t.bot && !remote->bots) {
        restoreRemote(*remote);
        return out.add(c.peer, errorFrame("no-bots", "take: this seek does not accept bots"));
    }
    if (!withdraw(c)) {  // this connection's own seek was paired elsewhere a moment before: that pairing stands
        restoreRemote(*remote);
        return;
    }
    if (!pair(Older{*remote, nullptr}, c, name, browser, remote->ruleset, t.bot, out)) restoreRemote(*remote);
}

SharedSeek Lobby::sharedOf(const SeekEntry& e) { return SharedSeek{e.id, "", e.ruleset, e.name, e.browser, e.sinceMs, e.bot, e.bots}; }

std::optional<SharedSeek> Lobby::claimFor(const SharedSeek& newcomer) {
    try {
        return exchange_->claim(newcomer);
    } catch (const std::exception& ex) {
        logLimited("storage", std::string("lobby: the other instances' seeks could not be read: ") + ex.what());
        return std::nullopt;
    }
}

void Lobby::restoreRemote(const SharedSeek& seek) {
    try {
        exchange_->publish(seek);
    } catch (const std::exception& ex) {
        // Its seeker waits on without being seen; a reconnect of its page seeks again.
        logLimited("storage", std::string("lobby: a claimed seek could not be given back: ") + ex.what());
    }
}

bool Lobby::withdraw(Conn& c) {
    if (!c.seek) return true;
    SeekEntry& e = **c.seek;
    if (e.claimed) return false;
    if (e.shared && exchange_) {
        e.shared = false;
        try {
            if (!exchange_->withdraw(e.id)) {
                e.claimed = true;  // kept for delivered() to find
                return false;
            }
        } catch (const std::exception& ex) {
            // Its row is withdrawn again at the next ticks (retryShared) until that succeeds.
            logLimited("storage", std::string("lobby: a shared seek could not be withdrawn: ") + ex.what());
            orphans_.push_back(e.id);
        }
    }
    eraseSeek(c);
    return true;
}

void Lobby::eraseSeek(Conn& c) {
    if (!c.seek) return;
    const auto it = *c.seek;
    if (auto a = seeksByAddress_.find(it->address); a != seeksByAddress_.end() && --a->second == 0) seeksByAddress_.erase(a);
    seeks_.erase(it);
    c.seek.reset();
}

void Lobby::matchShared(Outbox& out) {
    const SeekBoard board = exchange_->board();
    // Whether an older seek of another instance that `e` may play waits on the board: then
    // `e` acts as a newcomer would. The newer seek's instance acts, so two instances never
    // take each other's seeks back at once; a seek shared late (the database was away) or two
    // shared in the same instant on two instances are paired within a tick or two so.
    const auto olderMatch = [&](const SeekEntry& e) {
        for (const SharedSeek& s : board.open) {
            if (std::tie(s.sinceMs, s.id) >= std::tie(e.sinceMs, e.id)) break;  // oldest first
            if (compatible(s.ruleset, e.ruleset) && (e.browser.empty() || s.browser != e.browser) &&
                botsAgree(e.bot, e.bots, s.bot, s.bots))
                return true;
        }
        return false;
    };
    std::vector<SeekList::iterator> due;
    for (auto it = seeks_.begin(); it != seeks_.end(); ++it)
        if (it->shared && !it->claimed && olderMatch(*it)) due.push_back(it);
    for (const auto it : due) {
        if (!takeBack(*it)) continue;  // claimed meanwhile: its `paired` frame is on the way
        const SeekEntry seek = *it;
        const auto remote = claimFor(sharedOf(seek));
        if (!remote) {
            reshare(*it);
            continue;
        }
        Conn& c = *conns_.at(seek.conn);
        eraseSeek(c);
        Outbox attempt;  // a failure's error frame is not sent: this seeker keeps waiting as before
        if (pair(Older{*remote, nullptr}, c, seek.name, seek.browser, seek.ruleset, seek.bot, attempt)) {
            for (auto& f : attempt.frames) out.frames.push_back(std::move(f));
            continue;
        }
        restoreRemote(*remote);
        seeks_.push_back(seek);
        c.seek = std::prev(seeks_.end());
        ++seeksByAddress_[seek.address];
        reshare(seeks_.back());
    }
}

void Lobby::retryShared() {
    // One failure ends the round: the database is away, and each call waits for it.
    while (!orphans_.empty()) {
        try {
            exchange_->withdraw(orphans_.back());
        } catch (const std::exception&) {
            return;
        }
        orphans_.pop_back();
    }
    for (SeekEntry& e : seeks_)
        if (!e.shared && !e.claimed && !reshare(e)) return;
}

bool Lobby::pair(const Older& older, Conn& c, const std::string& name, const std::string& browser, const std::string& wanted,
                 bool bot, Outbox& out) {
    if (!takeCreateToken(c.address)) {
        out.add(c.peer, errorFrame("rate-limited", "too many games from this address; try again in a moment"));
        return false;
    }
    const std::string ruleset = older.seek.ruleset != "any" ? older.seek.ruleset : wanted != "any" ? wanted : "standard";
    CreateRequest req;
    req.ruleset = *rulesetByKey(ruleset);
    req.opponent = Opponent::Friend;
    req.creatorSeat = fairness::randomBytes(1)[0] & 1;  // the seats drawn by the server's random source
    Created created;
    JoinOutcome joined;
    std::shared_ptr<Room> room;
    try {
        created = registry_.create(req);
        room = registry_.find(created.id).room;
        if (!room) throw std::runtime_error("the new game is not found");
        joined = room->join(created.inviteToken);
        if (joined.status != JoinStatus::Joined) throw std::runtime_error("the second seat could not be taken");
    } catch (const std::exception& e) {
        logLimited("storage", std::string("lobby: the game could not be made: ") + e.what());
        out.add(c.peer, errorFrame("storage", "the game could not be stored; try again"));
        return false;
    }
    const int olderSeat = req.creatorSeat, newSeat = joined.seat;
    std::array<std::string, 2> names, browsers;
    std::array<bool, 2> bots{};
    names[olderSeat] = older.seek.name;
    names[newSeat] = name;
    browsers[olderSeat] = older.seek.browser;
    browsers[newSeat] = browser;
    bots[olderSeat] = older.seek.bot;
    bots[newSeat] = bot;
    // Sharing a database, the game is handed on at once (its players come through nginx by its
    // id, most likely to another instance): its guests and its unstarted abort go with it.
    const bool away = exchange_ != nullptr;
    try {
        room->setGuestNames(names, bots, away ? unixMs() + options_.abortAfter.count() : 0);
    } catch (const std::exception& e) {
        logLimited("storage", std::string("lobby: the game's guests could not be stored: ") + e.what());
        out.add(c.peer, errorFrame("storage", "the game could not be stored; try again"));
        return false;
    }
    if (away) registry_.handOn(created.id);
    auto paired = [&](int seat, const std::string& secret) {
        return protocol::envelope(
            "paired", jsonText(json{{"game", created.id},
                                    {"secret", secret},
                                    {"seat", seat},
                                    {"ruleset", ruleset},
                                    {"socket", "/ws/games/" + created.id},
                                    {"url", "/play/" + created.id + "#seat=" + secret},
                                    {"commitment", created.commitment},
                                    {"name", names[seat]},
                                    {"opponent", names[1 - seat]},
                                    {"opponentBot", bots[1 - seat]}}));
    };
    if (older.conn) {
        Conn& waiting = *conns_.at(older.conn);
        out.add(waiting.peer, paired(olderSeat, created.secret));
        eraseSeek(waiting);  // taken back from the exchange before
    } else {
        try {
            exchange_->deliver(older.seek, paired(olderSeat, created.secret));
        } catch (const std::exception& e) {
            // The other seeker never hears of it; the game's abort after abortAfter tells this one.
            logLimited("storage", std::string("lobby: a paired frame could not be handed over: ") + e.what());
        }
    }
    out.add(c.peer, paired(newSeat, joined.secret));
    games_.push_back(Watched{created.id, ruleset, room, clock_.now(), browsers, false, away});
    ++paired_;
    scheduleTick();
    return true;
}

bool Lobby::takeCreateToken(const std::string& address) {
    const auto now = clock_.now();
    if (buckets_.size() > 100000) buckets_.clear();  // bounded; a cleared bucket starts full
    auto [it, fresh] = buckets_.try_emplace(address);
    Bucket& b = it->second;
    if (fresh) b = Bucket{options_.createBurst, now};
    b.tokens = std::min(options_.createBurst, b.tokens + std::chrono::duration<double>(now - b.refilled).count() * options_.createRate);
    b.refilled = now;
    if (b.tokens < 1.0) return false;
    b.tokens -= 1.0;
    return true;
}

int Lobby::abortStreak(const std::string& browser) const {
    std::lock_guard lock(mutex_);
    return ladder_.streak(browser);
}

}  // namespace senet::server::lobby
