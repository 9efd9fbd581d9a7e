#include "room.hpp"

#include <iostream>

#include "senet/ai.hpp"
#include "senet/fairness.hpp"
#include "senet/record.hpp"

#include "state_json.hpp"

namespace senet::server {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

std::uint64_t seedFrom(const std::string& id) {
    std::uint64_t s = 0;
    for (unsigned char c : fairness::sha256(id)) s = (s << 8) | c;
    return s;
}

}  // namespace

Room::Room(Services& services, GameRow row, Game game, std::int64_t ply, std::int64_t throwIndex)
    : services_(services),
      row_(std::move(row)),
      game_(std::move(game)),
      ply_(ply),
      throwIndex_(throwIndex),
      lastAction_(Clock::now()),
      rng_(seedFrom(row_.id)),
      commitment_(fairness::commitment(row_.serverSeed)) {
    if (!row_.result.empty()) {
        json r = json::parse(row_.result, nullptr, false);
        if (!r.is_discarded()) {
            resultText_ = r.dump();
            result_ = std::move(r);
        }
    }
    offlineSince_.fill(Clock::now());
    if (!result_) services_.metrics.gamesRunning.fetch_add(1);
}

std::variant<std::shared_ptr<Room>, std::string> Room::restore(Services& services, GameRow row,
                                                                 const std::vector<ActionRow>& actions) {
    const auto id = rulesetByKey(row.ruleset);
    if (!id) return "unknown ruleset " + row.ruleset;
    Game game(*id);
    std::int64_t throws = 0;
    int lastThrowSeat = 0;
    for (std::size_t i = 0; i < actions.size(); ++i) {
        const ActionRow& a = actions[i];
        const std::string where = "action " + std::to_string(i) + ": ";
        if (a.seq != static_cast<std::int64_t>(i)) return where + "sequence gap";
        if (a.kind == 't') {
            if (a.outcome < 0 || a.outcome >= game.rules().outcomeCount) return where + "bad outcome";
            if (game.phase() == Phase::Over) return where + "a throw after the end";
            lastThrowSeat = game.seatToAct();
            auto ev = game.applyThrow(throwOfOutcome(game.rules(), a.outcome));
            if (!ev) return where + ev.error().message;
            ++throws;
        } else if (a.kind == 'm') {
            const auto pending = game.pendingThrow();
            if (!pending) return where + "a move without a pending throw";
            auto m = parseMove(game.position(), pending->value, a.move);
            if (!m) return where + m.error().message;
            if (auto ok = game.applyMove(*m); !ok) return where + ok.error().message;
        } else {
            return where + "unknown action kind";
        }
    }
    auto room = std::make_shared<Room>(services, std::move(row), std::move(game), static_cast<std::int64_t>(actions.size()), throws);
    room->lastThrowSeat_ = lastThrowSeat;
    if (room->game_.phase() == Phase::Over && !room->result_) {
        // Stopped between the last move and storing the result: finish it now.
        Events events;
        room->finish(std::nullopt, "bear-off", events);
    }
    return room;
}

bool Room::over() const {
    std::lock_guard lock(mutex_);
    return overLocked();
}

bool Room::idleFor(std::chrono::milliseconds idle) const {
    std::lock_guard lock(mutex_);
    return !overLocked() && Clock::now() - lastAction_ > idle;
}

bool Room::unloadable(std::chrono::milliseconds quiet) const {
    std::lock_guard lock(mutex_);
    return peers_.empty() && !computerScheduled_ && Clock::now() - lastAction_ > quiet;
}

Room::~Room() {
    if (!result_) services_.metrics.gamesRunning.fetch_sub(1);  // unloaded before its end
}

bool Room::waiting() const { return row_.opponent == "friend" && row_.seatHashes[1].empty(); }

bool Room::online(int seat) const { return isComputer(seat) || connections_[seat] > 0; }

std::optional<std::int64_t> Room::playerOfSeat(int seat) const {
    if (game_.phase() == Phase::Opening) return std::nullopt;
    return number(*game_.playerOf(seat));
}

void Room::writeState(std::string& out) const {
    StateFields f{game_, row_, commitment_, ply_, throwIndex_, lastThrowSeat_, overLocked(), waiting(),
                  {online(0), online(1)}, rematchOffered_, resultText_, services_.config.grace.count()};
    writeStateJson(out, f);
}

json Room::state() const {
    std::string text;
    writeState(text);
    return json::parse(text);
}

json Room::snapshotFor(const PeerState& p) const {
    json s = state();
    s["record"] = json::parse(recordToJson(game_.record(), game_.outcome()));
    json you = json::array();
    for (int seat = 0; seat < 2; ++seat)
        if (p.seats & (1u << seat)) you.push_back(seat);
    s["you"] = std::move(you);
    return s;
}

void Room::sendTo(const PeerState& p, std::string frame) const {
    if (auto peer = p.peer.lock()) peer->send(std::make_shared<const std::string>(std::move(frame)));
}

void Room::sendSnapshot(const PeerState& p) const { sendTo(p, protocol::envelope("snapshot", snapshotFor(p).dump())); }

void Room::broadcast(const Events& events) {
    // {"t":"events","d":{"events":[...],"ply":N,"state":{...}}}, written without a JSON tree.
    std::string text;
    text.reserve(frameSize_);
    text += R"({"t":"events","d":{"events":[)";
    text += events.text();
    text += R"(],"ply":)";
    jsonout::appendInt(text, ply_);
    text += R"(,"state":)";
    writeState(text);
    text += "}}";
    frameSize_ = std::max(frameSize_, text.size() + 256);
    auto frame = std::make_shared<const std::string>(std::move(text));
    for (auto& [key, p] : peers_)
        if (p.hello)
            if (auto peer = p.peer.lock()) peer->send(frame);
}

void Room::error(PeerState& p, std::string_view code, std::string_view message) {
    services_.metrics.rejected.fetch_add(1, std::memory_order_relaxed);
    sendTo(p, protocol::errorMessage(code, message, ply_));
}

void Room::attach(Peer* key, std::weak_ptr<Peer> peer) {
    std::lock_guard lock(mutex_);
    peers_[key] = PeerState{std::move(peer), 0, false};
}

void Room::setSeats(PeerState& p, unsigned seats, Events& events) {
    for (int seat = 0; seat < 2; ++seat) {
        const bool had = p.seats & (1u << seat), has = seats & (1u << seat);
        if (had == has) continue;
        if (has) {
            if (connections_[seat]++ == 0) events.add().str("e", "presence").boolean("online", true).num("seat", seat);
        } else if (--connections_[seat] == 0) {
            offlineSince_[seat] = Clock::now();
            events.add().str("e", "presence").boolean("online", false).num("seat", seat);
        }
    }
    p.seats = seats;
}

void Room::detach(Peer* key) {
    std::lock_guard lock(mutex_);
    auto it = peers_.find(key);
    if (it == peers_.end()) return;
    Events events;
    setSeats(it->second, 0, events);
    peers_.erase(it);
    if (!events.empty()) broadcast(events);
}

void Room::reject(Peer* key, const protocol::ParseError& e) {
    std::lock_guard lock(mutex_);
    if (auto it = peers_.find(key); it != peers_.end()) error(it->second, e.code, e.message);
}

void Room::onHello(PeerState& p, const protocol::Hello& h) {
    Events events;
    unsigned seats = 0;
    bool badSecret = false;
    if (h.secret) {
        const std::string hash = fairness::sha256Hex(*h.secret);
        for (int seat = 0; seat < 2; ++seat)
            if (!row_.seatHashes[seat].empty() && fairness::constantTimeEqual(hash, row_.seatHashes[seat]))
                seats |= 1u << seat;
        badSecret = seats == 0;
    }
    p.hello = true;
    setSeats(p, seats, events);
    if (h.clientSeed && seats && throwIndex_ == 0 && !overLocked()) {
        // A seat's seed is fixed by its first hello that carries one; frozen at the first throw.
        for (int seat = 0; seat < 2; ++seat) {
            if (!(seats & (1u << seat)) || row_.clientSeeds[seat]) continue;
            try {
                services_.storage.setClientSeed(row_.id, seat, *h.clientSeed);
            } catch (const StorageError&) {
                continue;
            }
            row_.clientSeeds[seat] = *h.clientSeed;
            events.add().str("clientSeed", *h.clientSeed).str("e", "seed").num("seat", seat);
        }
    }
    if (badSecret) error(p, "bad-secret", "this secret holds no seat of this game; you are watching");
    if (!events.empty()) broadcast(events);
    sendSnapshot(p);
}

int Room::actingSeat(const PeerState& p) const {
    if (p.seats == 3u) return game_.phase() == Phase::Over ? 0 : game_.seatToAct();
    return (p.seats & 1u) ? 0 : 1;
}

bool Room::checkAction(PeerState& p, std::int64_t ply) {
    if (!p.seats) return error(p, "not-seated", "you are watching this game; only a seat may act"), false;
    if (overLocked()) return error(p, "game-over", "the game is over"), false;
    if (waiting()) return error(p, "not-started", "the second seat has not joined yet"), false;
    if (ply != ply_) {
        error(p, "wrong-ply", "this game is at ply " + std::to_string(ply_) + ", not " + std::to_string(ply));
        sendSnapshot(p);
        return false;
    }
    if (!(p.seats & (1u << game_.seatToAct())))
        return error(p, "not-your-turn", "seat " + std::to_string(game_.seatToAct()) + " is to act"), false;
    return true;
}

bool Room::doThrow(int seat, Events& events, PeerState* p) {
    const Ruleset& r = game_.rules();
    const std::string s0 = row_.clientSeeds[0].value_or(""), s1 = row_.clientSeeds[1].value_or("");
    const int outcome = fairness::outcomeIndex(row_.serverSeed, s0, s1, static_cast<std::uint64_t>(throwIndex_), r.outcomeCount);
    try {
        services_.storage.appendAction(row_.id, ActionRow{ply_, 't', outcome, ""});
    } catch (const StorageError& e) {
        if (p) error(*p, "storage", std::string("the throw could not be saved: ") + e.what());
        return false;
    }
    const Throw t = throwOfOutcome(r, outcome);
    const bool opening = game_.phase() == Phase::Opening;
    const auto playerBefore = playerOfSeat(seat);
    auto ev = game_.applyThrow(t);  // cannot fail: the phase was checked and the throw is an outcome
    ++ply_;
    lastThrowSeat_ = seat;
    events.add()
        .str("e", "thrown")
        .num("index", throwIndex_)
        .boolean("opening", opening)
        .optNum("player", playerBefore)
        .num("seat", seat)
        .str("sticks", sticksString(r, t))
        .num("value", t.value);
    ++throwIndex_;
    if (opening) {
        if (ev->openingDecided)
            events.add().str("e", "opening-decided").num("seat", seat);
        else
            events.add().str("e", "turn").null("player").num("seat", game_.seatToAct());
    } else if (ev->noMove) {
        const auto player = playerOfSeat(seat);
        const bool lost = !r.extraThrowAfterPass;
        events.add().str("e", lost ? "turn-lost" : "passed").optNum("player", player).num("seat", seat).num("value", t.value);
        if (game_.phase() != Phase::Over) {
            if (ev->keepsTurn)
                events.add().str("e", "extra-throw").optNum("player", player).num("seat", seat).num("value", t.value);
            else
                events.add().str("e", "turn").optNum("player", playerOfSeat(game_.seatToAct())).num("seat", game_.seatToAct());
        }
    }
    if (game_.phase() == Phase::Over) finish(std::nullopt, "bear-off", events);
    return true;
}

bool Room::doMove(int seat, Move move, Events& events, PeerState* p) {
    try {
        services_.storage.appendAction(row_.id, ActionRow{ply_, 'm', 0, formatMove(move)});
    } catch (const StorageError& e) {
        if (p) error(*p, "storage", std::string("the move could not be saved: ") + e.what());
        return false;
    }
    const Position before = game_.position();
    const int value = game_.pendingThrow()->value;
    const Player mover = before.turn;
    auto ply = game_.applyMove(move);
    const Move m = ply->move;  // the legal move with its flags
    ++ply_;
    const Mover by{seat, number(mover)};
    {
        auto moved = events.add();
        writeMove(moved, m, &by);
    }
    const int opp = number(opponent(mover));
    if (m.has(kSwap)) events.add().str("e", "swapped").num("player", opp).num("square", m.to).num("to", m.from);
    if (m.has(kCapture)) events.add().str("e", "captured").num("player", opp).num("square", m.to);
    if (m.has(kWater)) events.add().num("dest", m.dest).str("e", "water").num("player", by.player).num("seat", seat).num("square", m.to);
    if (m.has(kBearOff))
        events.add().str("e", "borne-off").num("from", m.from).num("off", game_.position().borneOff(mover)).num("player", by.player).num(
            "seat", seat);
    if (game_.phase() == Phase::Over) {
        finish(std::nullopt, "bear-off", events);
    } else if (keepsTurn(game_.rules(), value, m)) {
        events.add().str("e", "extra-throw").num("player", by.player).num("seat", seat).num("value", value);
    } else {
        events.add().str("e", "turn").optNum("player", playerOfSeat(game_.seatToAct())).num("seat", game_.seatToAct());
    }
    return true;
}

void Room::finish(std::optional<int> winner, std::string reason, Events& events) {
    if (reason == "bear-off") {
        const Outcome o = game_.outcome();
        if (o == Outcome::Draw) {
            reason = "draw";
        } else {
            winner = game_.seatOf(o == Outcome::WinOne ? Player::One : Player::Two);
        }
    }
    const std::optional<std::int64_t> player = winner ? playerOfSeat(*winner) : std::nullopt;
    json r = {{"winner", winner ? json(*winner) : json(nullptr)},
              {"player", player ? json(*player) : json(nullptr)},
              {"reason", reason}};
    try {
        services_.storage.finishGame(row_.id, r.dump());
    } catch (const StorageError&) {
        // The actions are stored; a restart replays them and finds the same board result. A
        // resignation or claim that could not be stored is still announced.
    }
    row_.status = "over";
    row_.result = r.dump();
    resultText_ = row_.result;
    result_ = r;
    services_.metrics.gamesRunning.fetch_sub(1);
    events.add()
        .str("e", "result")
        .optNum("player", player)
        .str("reason", reason)
        .str("serverSeed", fairness::toHex(row_.serverSeed))
        .optNum("winner", winner ? std::optional<std::int64_t>(*winner) : std::nullopt);
}

void Room::afterAction(const Events& events, Clock::time_point received) {
    lastAction_ = Clock::now();
    broadcast(events);
    services_.metrics.actions.fetch_add(1, std::memory_order_relaxed);
    services_.metrics.observeActionLatency(std::chrono::duration<double>(Clock::now() - received).count());
    scheduleComputer();
}

void Room::handle(Peer* key, const protocol::ClientMessage& message, Clock::time_point received) {
    std::lock_guard lock(mutex_);
    auto it = peers_.find(key);
    if (it == peers_.end()) return;
    PeerState& p = it->second;
    if (const auto* h = std::get_if<protocol::Hello>(&message)) return onHello(p, *h);
    if (std::holds_alternative<protocol::Ping>(message)) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch());
        return sendTo(p, protocol::envelope("pong", json({{"time", ms.count()}}).dump()));
    }
    if (!p.hello) return error(p, "hello-first", "send hello first");

    if (const auto* t = std::get_if<protocol::ThrowRequest>(&message)) {
        if (!checkAction(p, t->ply)) return;
        if (game_.phase() != Phase::Throw && game_.phase() != Phase::Opening)
            return error(p, "wrong-phase", "a move is due, not a throw");
        Events events;
        if (doThrow(game_.seatToAct(), events, &p)) afterAction(events, received);
        return;
    }
    if (const auto* m = std::get_if<protocol::MoveRequest>(&message)) {
        if (!checkAction(p, m->ply)) return;
        if (game_.phase() != Phase::Move) return error(p, "wrong-phase", "a throw is due, not a move");
        auto move = parseMove(game_.position(), game_.pendingThrow()->value, m->move);
        if (!move) return error(p, "illegal-move", move.error().message);
        if (move->isPass()) return error(p, "illegal-move", "pass is not a move here: a legal move exists");
        Events events;
        if (doMove(game_.seatToAct(), *move, events, &p)) afterAction(events, received);
        return;
    }
    if (!p.seats) return error(p, "not-seated", "you are watching this game; only a seat may act");
    const int mine = actingSeat(p);
    if (std::holds_alternative<protocol::Resign>(message)) {
        if (overLocked()) return error(p, "game-over", "the game is over");
        Events events;
        finish(1 - mine, "resign", events);
        lastAction_ = Clock::now();
        return broadcast(events);
    }
    if (std::holds_alternative<protocol::Claim>(message)) {
        if (overLocked()) return error(p, "game-over", "the game is over");
        const int other = 1 - mine;
        if (row_.opponent == "local" || isComputer(other) || row_.seatHashes[other].empty())
            return error(p, "cannot-claim", "there is no human opponent to claim against");
        if (connections_[other] > 0) return error(p, "cannot-claim", "your opponent is online");
        const auto away = Clock::now() - offlineSince_[other];
        if (away < services_.config.grace)
            return error(p, "cannot-claim",
                         "your opponent has been offline for " +
                             std::to_string(std::chrono::duration_cast<std::chrono::seconds>(away).count()) + " s of " +
                             std::to_string(services_.config.grace.count()) + " s");
        Events events;
        finish(mine, "claim", events);
        return broadcast(events);
    }
    if (std::holds_alternative<protocol::Rematch>(message)) {
        if (!overLocked()) return error(p, "not-over", "a rematch is offered once the game is over");
        Events events;
        if (row_.rematch.empty()) {
            for (int seat = 0; seat < 2; ++seat)
                if (p.seats & (1u << seat)) rematchOffered_[seat] = true;
            const bool both = (rematchOffered_[0] || isComputer(0)) && (rematchOffered_[1] || isComputer(1));
            if (!both) {
                events.add().str("e", "rematch-offered").num("seat", mine);
                return broadcast(events);
            }
            try {
                row_.rematch = services_.createRematch(row_);
                services_.storage.setRematch(row_.id, row_.rematch);
            } catch (const std::exception& e) {
                row_.rematch.clear();
                return error(p, "storage", std::string("the rematch could not be created: ") + e.what());
            }
        }
        events.add().str("e", "rematch").str("game", row_.rematch);
        return broadcast(events);
    }
}

JoinOutcome Room::join(const std::string& inviteToken) {
    std::lock_guard lock(mutex_);
    JoinOutcome out;
    if (row_.opponent != "friend" || row_.inviteHash.empty()) return out;
    if (!fairness::constantTimeEqual(fairness::sha256Hex(inviteToken), row_.inviteHash)) {
        out.status = JoinOutcome::BadInvite;
        return out;
    }
    if (!row_.seatHashes[1].empty() || overLocked()) return out;
    const std::string secret = fairness::randomToken(32);
    const std::string hash = fairness::sha256Hex(secret);
    if (!services_.storage.takeSeat(row_.id, 1, hash)) return out;
    row_.seatHashes[1] = hash;
    out.status = JoinOutcome::Joined;
    out.secret = secret;
    offlineSince_[1] = Clock::now();
    Events events;
    events.add().str("e", "joined").num("seat", 1);
    broadcast(events);
    return out;
}

json Room::summary() const {
    std::lock_guard lock(mutex_);
    json s = state();
    json out;
    for (const char* k : {"game", "ruleset", "opponent", "level", "phase", "ply", "seats", "result", "rematch", "rematchOf"})
        out[k] = s[k];
    out["commitment"] = s["fairness"]["commitment"];
    return out;
}

std::optional<std::string> Room::verifiableRecord() const {
    std::lock_guard lock(mutex_);
    if (!overLocked()) return std::nullopt;
    json j = json::parse(recordToJson(game_.record(), game_.outcome()));
    j["game"] = row_.id;
    j["ending"] = *result_;
    j["fairness"] = {{"version", 1},
                     {"serverSeed", fairness::toHex(row_.serverSeed)},
                     {"commitment", fairness::commitment(row_.serverSeed)},
                     {"clientSeeds", {row_.clientSeeds[0].value_or(""), row_.clientSeeds[1].value_or("")}},
                     {"throws", throwIndex_}};
    return j.dump();
}

void Room::kick() {
    std::lock_guard lock(mutex_);
    scheduleComputer();
}

void Room::scheduleComputer() {
    if (overLocked() || computerScheduled_ || waiting()) return;
    if (!isComputer(game_.seatToAct())) return;
    computerScheduled_ = true;
    std::weak_ptr<Room> weak = weak_from_this();
    const std::int64_t ply = ply_;
    services_.scheduler.after(services_.config.computerDelay, [weak, ply] {
        if (auto room = weak.lock()) room->computerAct(ply);
    });
}

void Room::computerAct(std::int64_t expectedPly) {
    // 1. Under the lock: is it still the computer's turn at this ply? Copy what the search needs.
    std::optional<Position> position;
    int throwValue = 0;
    ai::Options options;
    {
        // computerScheduled_ stays set until step 3, so no second decision can start meanwhile
        // (rng_ is used by this one only).
        std::lock_guard lock(mutex_);
        if (overLocked() || ply_ != expectedPly || !isComputer(game_.seatToAct())) {
            computerScheduled_ = false;
            return scheduleComputer();
        }
        if (game_.phase() == Phase::Move) {
            position = game_.position();
            throwValue = game_.pendingThrow()->value;
            options.level = ai::levelByName(row_.level).value_or(ai::Level::Intermediate);
            options.budget = services_.config.aiBudget;
        }
    }
    // 2. Without the lock, so that the room's players and spectators are served meanwhile:
    //    the decision, bounded by its budget. A failure or an overrun is logged; a failure
    //    falls back to a legal move so that the game never stalls.
    std::optional<Move> decided;
    if (position) {
        const auto started = Clock::now();
        try {
            decided = ai::chooseMove(*position, throwValue, options, rng_);
        } catch (const std::exception& e) {
            std::cerr << "senet-server: game " << row_.id << ": computer player failed (" << e.what()
                      << "); playing a fallback move\n";
        }
        const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
        if (took > 2 * options.budget + std::chrono::milliseconds(50))
            std::cerr << "senet-server: game " << row_.id << ": computer decision took " << took.count()
                      << " ms (budget " << options.budget.count() << " ms)\n";
    }
    // 3. Under the lock again: play it, unless the game moved on meanwhile (a resignation).
    std::lock_guard lock(mutex_);
    computerScheduled_ = false;
    if (overLocked() || ply_ != expectedPly) return scheduleComputer();
    const int seat = game_.seatToAct();
    if (!isComputer(seat)) return;
    const auto received = Clock::now();
    Events events;
    bool ok = false;
    if (game_.phase() == Phase::Move) {
        Move m = game_.legalMoves()[0];
        bool legal = false;
        if (decided)
            for (const Move& l : game_.legalMoves()) legal = legal || l.sameAs(*decided);
        if (legal) m = *decided;
        else if (decided)
            std::cerr << "senet-server: game " << row_.id << ": computer chose an illegal move " << formatMove(*decided)
                      << "; playing a fallback move\n";
        ok = doMove(seat, m, events, nullptr);
    } else {
        ok = doThrow(seat, events, nullptr);
    }
    if (ok) {
        afterAction(events, received);
    } else {
        // Storage failed: try again later.
        computerScheduled_ = true;
        std::weak_ptr<Room> weak = weak_from_this();
        services_.scheduler.after(std::chrono::milliseconds(1000), [weak, expectedPly] {
            if (auto room = weak.lock()) room->computerAct(expectedPly);
        });
    }
}

}  // namespace senet::server
