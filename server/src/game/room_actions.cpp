// A room's actions: throws, moves, resignation, claim and rematch. Every one is stored before
// anything changes in memory or goes out: a failed write answers `storage` and changes nothing.
// A throw or move that ends the game is stored with its result in one write; throws and moves
// go through the commit queue when there is one (group commit, commitAction).
#include "room.hpp"

#include <nlohmann/json.hpp>

#include "senet/fairness.hpp"
#include "senet/record.hpp"

#include "commit_queue.hpp"
#include "config.hpp"
#include "json_text.hpp"
#include "metrics.hpp"
#include "log_limit.hpp"

namespace senet::server {

using nlohmann::json;
using SteadyTime = std::chrono::steady_clock;

namespace {

/// The player number `game` gives `seat`, nullopt during Jéquier's opening.
std::optional<std::int64_t> playerIn(const Game& game, int seat) {
    if (game.phase() == Phase::Opening) return std::nullopt;
    return number(*game.playerOf(seat));
}

/// Whether a pass from `before` to `after` sent the mover's piece on square 1 back to the hand
/// (Piccione rule 9: the entered piece that cannot move).
bool squareOneToHand(const Position& before, const Position& after) {
    const Player mover = before.turn;
    return (before.pieces(mover) & bit(1)) && !(after.pieces(mover) & bit(1));
}

/// Adds the event of an automatic pass (PROTOCOL.md "Events"): `passed`, or `turn-lost` when the
/// ruleset gives no extra throw after a pass; `value` is the throw (or, with `remainder`, the
/// remainder) that had no legal move; `toHand` when the piece on square 1 went back to the hand.
void addPass(Events& events, const Ruleset& r, std::optional<std::int64_t> player, int seat, int value, bool remainder,
             bool toHand) {
    auto e = events.add();
    e.str("e", r.extraThrowAfterPass ? "passed" : "turn-lost").optNum("player", player);
    if (remainder) e.boolean("remainder", true);
    e.num("seat", seat);
    if (toHand) e.boolean("toHand", true);
    e.num("value", value);
}

}  // namespace

bool Room::checkAction(PeerState& p, std::int64_t ply) {
    if (!p.seats) return error(p, "not-seated", "you are watching this game; only a seat may act"), false;
    if (overLocked()) return error(p, "game-over", "the game is over"), false;
    if (waiting()) return error(p, "not-started", "the other seat has not joined yet"), false;
    if (ply != ply_) {
        error(p, "wrong-ply", "this game is at ply " + std::to_string(ply_) + ", not " + std::to_string(ply));
        sendSnapshot(p);
        return false;
    }
    if (!(p.seats & (1u << game_.seatToAct())))
        return error(p, "not-your-turn", "seat " + std::to_string(game_.seatToAct()) + " is to act"), false;
    return true;
}

Room::Ending Room::endingOf(const Game& game, std::optional<int> winner, std::string reason) const {
    if (reason == "bear-off") {
        const Outcome o = game.outcome();
        if (o == Outcome::Draw) reason = "draw";
        else winner = game.seatOf(o == Outcome::WinOne ? Player::One : Player::Two);
    }
    Ending e;
    e.winner = winner;
    e.player = winner ? playerIn(game, *winner) : std::nullopt;
    e.reason = std::move(reason);
    json result = {{"winner", winner ? json(*winner) : json(nullptr)},
                   {"player", e.player ? json(*e.player) : json(nullptr)},
                   {"reason", e.reason}};
    e.json = jsonText(result);
    if (row_.opponent == Opponent::Friend) result["phrases"] = phraseCounts_;
    if (bots_[0] || bots_[1]) result["bots"] = {bots_[0], bots_[1]};  // kept for the record after a restart
    e.stored = jsonText(result);
    return e;
}

void Room::commitEnding(const Ending& e, Events& events) {
    row_.status = GameStatus::Over;
    row_.result = e.stored;
    resultText_ = e.json;
    services_.metrics.gamesRunning.fetch_sub(1);
    events.add()
        .str("e", "result")
        .optNum("player", e.player)
        .str("reason", e.reason)
        .str("serverSeed", fairness::toHex(row_.serverSeed))
        .optNum("winner", e.winner ? std::optional<std::int64_t>(*e.winner) : std::nullopt);
}

bool Room::endGame(std::optional<int> winner, std::string reason, Events& events, PeerState* p) {
    const Ending e = endingOf(game_, winner, std::move(reason));
    if (!stored(p, "the result", [&] { services_.storage.finishGame(row_.id, e.stored); })) return false;
    commitEnding(e, events);
    return true;
}

void Room::commitAction(PeerState* p, const char* what, BatchedAction write, std::function<void()> apply,
                        std::function<void()> failed) {
    if (!services_.commits) {
        if (stored(p, what, [&] {
                if (write.resultJson.empty()) services_.storage.appendAction(write.gameId, write.action);
                else services_.storage.appendFinalAction(write.gameId, write.action, write.resultJson);
            }))
            apply();
        else if (failed)
            failed();
        return;
    }
    // Group commit: nothing changes and nothing goes out until the batch holding this write
    // committed; the room's other messages wait for it (handle), so the game's order holds.
    Peer* key = p ? p->key : nullptr;
    pending_ = true;
    services_.commits->submit(std::move(write), [self = shared_from_this(), key, what, apply = std::move(apply),
                                                 failed = std::move(failed)](std::exception_ptr error) {
        Guard lock(*self);
        self->pending_ = false;
        PeerState* peer = key ? self->audience_.find(key) : nullptr;
        // The one failure path of every write (stored): logged, `storage` to the sender.
        if (!error || self->stored(peer, what, [&] { std::rethrow_exception(error); })) apply();
        else if (failed) failed();
        self->runDeferred();
    });
}

void Room::runDeferred() {
    while (!pending_ && !deferred_.empty()) {
        Deferred d = std::move(deferred_.front());
        deferred_.pop_front();
        handleLocked(d.key, d.message, d.received);
    }
}

bool Room::doThrow(int seat, PeerState* p, SteadyTime::time_point received, std::function<void()> failed) {
    const Ruleset& r = game_.rules();
    const std::string s0 = row_.clientSeeds[0].value_or(""), s1 = row_.clientSeeds[1].value_or("");
    const int outcome = fairness::outcomeIndex(row_.serverSeed, s0, s1, static_cast<std::uint64_t>(throwIndex_), r.outcomeCount);
    const Throw t = throwOfOutcome(r, outcome);
    // Applied to a copy first: whether it ends the game decides what is stored.
    Game next = game_;
    auto ev = next.applyThrow(t);  // cannot fail: the phase was checked and the throw is an outcome
    if (!ev) {
        if (p) error(*p, "wrong-phase", ev.error().message);
        return false;
    }
    std::optional<Ending> ending;
    if (next.phase() == Phase::Over) ending = endingOf(next, std::nullopt, "bear-off");
    BatchedAction write{row_.id, ActionRow{ply_, 't', outcome, ""}, ending ? ending->stored : std::string()};
    const bool openingDecided = ev->openingDecided, noMove = ev->noMove, keepsTurn = ev->keepsTurn;
    const bool toHand = noMove && squareOneToHand(game_.position(), next.position());
    // Stored: apply it (the room has not changed meanwhile: its messages waited).
    auto apply = [this, seat, t, outcome, next = std::move(next), ending, openingDecided, noMove, keepsTurn, toHand, received]() mutable {
        const Ruleset& r = game_.rules();
        played_.push_back(Played{'t', outcome, "", seat});
        const bool opening = game_.phase() == Phase::Opening;
        const auto playerBefore = playerOfSeat(seat);
        game_ = std::move(next);
        ++ply_;
        lastThrowSeat_ = seat;
        Events events;
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
            if (openingDecided)
                events.add().str("e", "opening-decided").num("seat", seat);
            else
                events.add().str("e", "turn").null("player").num("seat", game_.seatToAct());
        } else if (noMove) {
            const auto player = playerOfSeat(seat);
            addPass(events, r, player, seat, t.value, false, toHand);
            if (game_.phase() != Phase::Over) {
                if (keepsTurn)
                    events.add().str("e", "extra-throw").optNum("player", player).num("seat", seat).num("value", t.value);
                else
                    events.add().str("e", "turn").optNum("player", playerOfSeat(game_.seatToAct())).num("seat", game_.seatToAct());
            }
        }
        if (ending) commitEnding(*ending, events);
        afterAction(events, received);
    };
    commitAction(p, "the throw", std::move(write), std::move(apply), std::move(failed));
    return true;
}

bool Room::doMove(int seat, Move move, PeerState* p, SteadyTime::time_point received, std::function<void()> failed) {
    // The throw being spent (in Piccione also while its remainder is spent).
    const int value = game_.lastThrow()->value;
    const Player mover = game_.position().turn;
    Game next = game_;
    auto ply = next.applyMove(move);
    if (!ply) {
        if (p) error(*p, "illegal-move", ply.error().message);
        return false;
    }
    const Move m = ply->move;  // the legal move with its flags
    // Piccione: the step left a remainder with no legal step, so the game passed at once (its
    // own ply in the record, not an action): the unspent remainder, for the pass event.
    std::optional<int> remainderPassed;
    bool toHand = false;
    if (next.passedAfterLastMove()) {
        const Position afterStep = senet::applyMove(game_.position(), game_.moveThrowValue(), m);
        remainderPassed = afterStep.remainder;
        toHand = squareOneToHand(afterStep, next.position());
    }
    std::optional<Ending> ending;
    if (next.phase() == Phase::Over) ending = endingOf(next, std::nullopt, "bear-off");
    // A move played after a hint of this ply is stored so (outcome 1): the record's `hints`.
    const int hinted = nextPlyHinted() ? 1 : 0;
    BatchedAction write{row_.id, ActionRow{ply_, 'm', hinted, formatMove(m)}, ending ? ending->stored : std::string()};
    auto apply = [this, seat, value, mover, m, hinted, next = std::move(next), ending, remainderPassed, toHand, received]() mutable {
        game_ = std::move(next);
        played_.push_back(Played{'m', hinted, formatMove(m), seat});
        ++ply_;
        const Mover by{seat, number(mover)};
        Events events;
        {
            auto moved = events.add();
            writeMove(moved, m, &by);
        }
        const int opp = number(opponent(mover));
        if (m.has(kSwap)) events.add().str("e", "swapped").num("player", opp).num("square", m.to).num("to", m.from);
        if (m.has(kCapture)) events.add().str("e", "captured").num("player", opp).num("square", m.to);
        if (m.has(kWater))
            events.add().num("dest", m.dest).str("e", "water").num("player", by.player).num("seat", seat).num("square", m.to);
        if (m.has(kBearOff))
            events.add().str("e", "borne-off").num("from", m.from).num("off", game_.position().borneOff(mover)).num("player", by.player).num(
                "seat", seat);
        const Position& now = game_.position();
        if (ending) {
            commitEnding(*ending, events);
        } else if (remainderPassed) {
            addPass(events, game_.rules(), by.player, seat, *remainderPassed, true, toHand);
            events.add().str("e", "turn").optNum("player", playerOfSeat(game_.seatToAct())).num("seat", game_.seatToAct());
        } else if (game_.phase() == Phase::Move) {
            // Piccione: a remainder is left and a step exists for it; the same seat moves again.
        } else if (now.turn == mover) {
            auto extra = events.add();
            extra.str("e", "extra-throw");
            if (now.entryThrowDue) extra.boolean("entry", true);
            extra.num("player", by.player).num("seat", seat).num("value", value);
        } else {
            events.add().str("e", "turn").optNum("player", playerOfSeat(game_.seatToAct())).num("seat", game_.seatToAct());
        }
        afterAction(events, received);
    };
    commitAction(p, "the move", std::move(write), std::move(apply), std::move(failed));
    return true;
}

void Room::afterAction(const Events& events, SteadyTime::time_point received) {
    lastAction_ = services_.clock.now();
    broadcast(events);
    services_.metrics.actions.fetch_add(1, std::memory_order_relaxed);
    services_.metrics.observeActionLatency(std::chrono::duration<double>(SteadyTime::now() - received).count());
    scheduleComputer();
}

void Room::handle(Peer* key, const protocol::ClientMessage& message, SteadyTime::time_point received) {
    Guard lock(*this);
    if (moved_) return;  // its connections are being closed with "moved"
    if (pending_) {
        // An action of this game is being stored: this message waits for it (in order), so
        // that it sees the game as stored. Bounded: each connection is rate limited.
        deferred_.push_back(Deferred{key, message, received});
        return;
    }
    handleLocked(key, message, received);
}

void Room::handleLocked(Peer* key, const protocol::ClientMessage& message, SteadyTime::time_point received) {
    if (moved_) return;  // the lease was lost while an action was being stored
    PeerState* found = audience_.find(key);
    if (!found) return;
    PeerState& p = *found;
    if (const auto* h = std::get_if<protocol::Hello>(&message)) return onHello(p, *h);
    if (std::holds_alternative<protocol::Ping>(message)) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch());
        return audience_.send(p, protocol::envelope("pong", jsonText(json({{"time", ms.count()}}))));
    }
    if (!p.hello) return error(p, "hello-first", "send hello first");
    onAction(p, message, received);
}

void Room::onAction(PeerState& p, const protocol::ClientMessage& message, SteadyTime::time_point received) {
    if (const auto* tb = std::get_if<protocol::TakeBack>(&message)) return onTakeBack(p, *tb, received);
    if (const auto* hr = std::get_if<protocol::HintRequest>(&message)) return onHint(p, *hr);
    if (const auto* t = std::get_if<protocol::ThrowRequest>(&message)) {
        if (!checkAction(p, t->ply)) return;
        if (game_.phase() != Phase::Throw && game_.phase() != Phase::Opening)
            return error(p, "wrong-phase", "a move is due, not a throw");
        Events events;
        if (seedsPending()) {
            // This connection's own seed may have failed to store at its hello: try again.
            // A seed stored before another's write failed is announced all the same.
            const bool fixed = fixSeeds(p, events);
            if (!events.empty()) broadcast(events);
            if (!fixed) return;  // `storage` sent
            if (seedsPending())
                return error(p, "seeds-pending",
                             "the first throw waits until both seats' client seeds are fixed (each seat's first hello fixes it)");
            events = Events();
        }
        doThrow(game_.seatToAct(), &p, received);
        return;
    }
    if (const auto* m = std::get_if<protocol::MoveRequest>(&message)) {
        if (!checkAction(p, m->ply)) return;
        if (game_.phase() != Phase::Move) return error(p, "wrong-phase", "a throw is due, not a move");
        auto move = parseMove(game_.position(), game_.moveThrowValue(), m->move);
        if (!move) return error(p, "illegal-move", move.error().message);
        if (move->isPass()) return error(p, "illegal-move", "pass is not a move here: a legal move exists");
        doMove(game_.seatToAct(), *move, &p, received);
        return;
    }
    if (!p.seats) return error(p, "not-seated", "you are watching this game; only a seat may act");
    if (const auto* ph = std::get_if<protocol::PhraseRequest>(&message)) return onPhrase(p, *ph);
    const int mine = actingSeat(p);
    if (std::holds_alternative<protocol::Resign>(message)) {
        if (overLocked()) return error(p, "game-over", "the game is over");
        Events events;
        if (!endGame(1 - mine, "resign", events, &p)) return;
        lastAction_ = services_.clock.now();
        return broadcast(events);
    }
    if (std::holds_alternative<protocol::Claim>(message)) {
        if (overLocked()) return error(p, "game-over", "the game is over");
        const int other = 1 - mine;
        if (row_.opponent == Opponent::Local || isComputer(other) || row_.seatHashes[other].empty())
            return error(p, "cannot-claim", "there is no human opponent to claim against");
        if (audience_.connected(other)) return error(p, "cannot-claim", "your opponent is online");
        if (neverCameToRematch(other))
            return error(p, "cannot-claim", "your opponent has not come to this rematch yet");
        const auto away = services_.clock.now() - audience_.offlineSince(other);
        if (away < services_.config.grace)
            return error(p, "cannot-claim",
                         "your opponent has been offline for " +
                             std::to_string(std::chrono::duration_cast<std::chrono::seconds>(away).count()) + " s of " +
                             std::to_string(services_.config.grace.count()) + " s");
        Events events;
        if (!endGame(mine, "claim", events, &p)) return;
        return broadcast(events);
    }
    if (std::holds_alternative<protocol::Rematch>(message)) return onRematch(p, mine);
}

void Room::onPhrase(PeerState& p, const protocol::PhraseRequest& request) {
    if (row_.opponent != Opponent::Friend)
        return error(p, "no-opponent",
                     row_.opponent == Opponent::Local ? "a game on one device has no opponent to send a phrase to"
                                                      : "the computer does not read phrases");
    if (waiting()) return error(p, "no-opponent", "your friend has not joined yet");
    const int mine = actingSeat(p);
    if (auto refused = phraseLimiter_.admit(mine, services_.clock.now())) return error(p, "phrase-limit", *refused);
    // The record counts the phrases of the game; a "good game" after the end is not counted (the record is fixed).
    if (!overLocked()) ++phraseCounts_[static_cast<std::size_t>(mine)];
    json d = {{"phrase", request.phrase}, {"seat", mine}};
    audience_.sendToSeated(std::make_shared<const std::string>(protocol::envelope("phrase", jsonText(d))));
}

bool Room::neverCameToRematch(int seat) const {
    return !row_.rematchOf.empty() && throwIndex_ == 0 && !row_.clientSeeds[seat];
}

void Room::onRematch(PeerState& p, int mine) {
    if (!overLocked()) return error(p, "not-over", "a rematch is offered once the game is over");
    Events events;
    if (row_.rematch.empty()) {
        auto offered = rematchOffered_;
        bool already = true;  // a repeated (double-tapped) offer is the same offer: announced once
        for (int seat = 0; seat < 2; ++seat)
            if (p.seats & (1u << seat)) already = std::exchange(offered[seat], true) && already;
        if (already) return;
        const bool both = (offered[0] || isComputer(0)) && (offered[1] || isComputer(1));
        if (!both) {
            rematchOffered_ = offered;
            events.add().str("e", "rematch-offered").num("seat", mine);
            return broadcast(events);
        }
        // The new game and the link to it are one write (Storage::createGame with rematchOf).
        std::string id;
        if (!stored(&p, "the rematch", [&] { id = services_.createRematch(row_); })) return;
        rematchOffered_ = offered;
        row_.rematch = id;
    }
    events.add().str("e", "rematch").str("game", row_.rematch);
    broadcast(events);
}

bool Room::abortUnstarted() {
    try {
        Guard lock(*this);
        if (overLocked() || throwIndex_ > 0 || pending_) return false;  // a throw being stored has started it
        Events events;
        if (!endGame(std::nullopt, "aborted", events, nullptr)) return false;
        broadcast(events);
        return true;
    } catch (const std::exception& e) {
        logLimited("internal error", "game " + row_.id + ": abort: " + e.what());
        return false;
    }
}

}  // namespace senet::server
