// Take-back in games on one device and against the computer (PROTOCOL.md "Take-back"): the
// human's last move goes back, with the computer's answer after it. Throws stay as drawn: the
// game is replayed without the undone actions, so the throw index goes back with them and the
// same throws come again (the throw of the undone move is the one to move with again).
#include "room.hpp"

#include "senet/record.hpp"

#include "metrics.hpp"

namespace senet::server {

using SteadyTime = std::chrono::steady_clock;

std::variant<Game, std::string> Room::replayPlayed(RulesetId id, const std::vector<Played>& played) {
    Game game(id);
    for (std::size_t i = 0; i < played.size(); ++i) {
        const Played& a = played[i];
        const std::string where = "action " + std::to_string(i) + ": ";
        if (a.kind == 't') {
            if (a.outcome < 0 || a.outcome >= game.rules().outcomeCount) return where + "bad outcome";
            if (game.phase() == Phase::Over) return where + "a throw after the end";
            auto ev = game.applyThrow(throwOfOutcome(game.rules(), a.outcome));
            if (!ev) return where + ev.error().message;
        } else {
            if (game.phase() != Phase::Move) return where + "a move without a pending throw";
            auto m = parseMove(game.position(), game.moveThrowValue(), a.move);
            if (!m) return where + m.error().message;
            if (auto ok = game.applyMove(*m); !ok) return where + ok.error().message;
        }
    }
    return game;
}

std::size_t Room::takeBackCount() const {
    if (row_.opponent == Opponent::Friend) return 0;
    for (std::size_t i = played_.size(); i-- > 0;)
        if (played_[i].kind == 'm' && !isComputer(played_[i].seat)) return played_.size() - i;
    return 0;
}

bool Room::canTakeBack() const {
    return row_.opponent != Opponent::Friend && !overLocked() && !isComputer(game_.seatToAct()) && takeBackCount() > 0;
}

void Room::onTakeBack(PeerState& p, const protocol::TakeBack& request, SteadyTime::time_point received) {
    if (!p.seats) return error(p, "not-seated", "you are watching this game; only a seat may act");
    if (row_.opponent == Opponent::Friend)
        return error(p, "no-takeback", "a game between two people has no take-back: a move made stays made");
    if (overLocked()) return error(p, "game-over", "the game is over");
    if (request.ply != ply_) {
        error(p, "wrong-ply", "this game is at ply " + std::to_string(ply_) + ", not " + std::to_string(request.ply));
        sendSnapshot(p);
        return;
    }
    if (isComputer(game_.seatToAct()))
        return error(p, "computer-thinking", "the computer is choosing its answer; take back once it has played");
    const std::size_t count = takeBackCount();
    if (count == 0) return error(p, "nothing-to-take-back", "no move has been made yet");
    std::vector<Played> kept(played_.begin(), played_.end() - static_cast<std::ptrdiff_t>(count));
    auto replayed = replayPlayed(game_.rules().id, kept);
    if (auto* why = std::get_if<std::string>(&replayed)) return error(p, "internal", "the take-back does not replay: " + *why);
    Game back = std::move(std::get<Game>(replayed));
    const int seat = played_[played_.size() - count].seat;  // whose move goes back: that seat moves again
    BatchedAction write{row_.id, ActionRow{ply_, 'b', static_cast<int>(count), ""}, std::string()};
    auto apply = [this, seat, kept = std::move(kept), back = std::move(back), received]() mutable {
        const std::size_t pliesBefore = game_.record().plies.size();
        game_ = std::move(back);
        played_ = std::move(kept);
        ++ply_;
        noteReplayed();
        const std::size_t plies = game_.record().plies.size();
        takebacks_.push_back({static_cast<std::int64_t>(plies), static_cast<std::int64_t>(pliesBefore - plies)});
        // Hint marks stay: a ply index once hinted is marked whatever is played there again
        // (taking back two plies and replaying the first must not hide a hint that was seen).
        Events events;
        events.add()
            .str("e", "taken-back")
            .optNum("player", playerOfSeat(seat))
            .num("plies", static_cast<std::int64_t>(pliesBefore - plies))
            .num("seat", seat);
        afterAction(events, received);
        // The move list is the record's: every connection gets it again in a snapshot.
        audience_.forEachSynced([this](PeerState& peer) { sendSnapshot(peer); });
    };
    commitAction(&p, "the take-back", std::move(write), std::move(apply), {});
}

void Room::noteReplayed() {
    throwIndex_ = 0;
    for (const Played& a : played_)
        if (a.kind == 't') ++throwIndex_, lastThrowSeat_ = a.seat;
}

}  // namespace senet::server
