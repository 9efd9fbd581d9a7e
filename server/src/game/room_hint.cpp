// Hints (PROTOCOL.md "Hints"): on one device and against the computer, never between two
// people, the seat to act may ask for every legal move of the throw in hand with its win chance.
// The list is computed once per ply, on the Scheduler and outside the room's lock (as the
// computer's decisions are, room_computer.cpp), and answered to the asking connections only.
// The record marks the plies played after a hint was shown (`hints`).
#include <cmath>
#include <iostream>

#include <nlohmann/json.hpp>

#include "json_text.hpp"
#include "room.hpp"
#include "senet/ai_analysis.hpp"

namespace senet::server {

using nlohmann::json;

void Room::onHint(PeerState& p, const protocol::HintRequest& request) {
    if (!p.seats) return error(p, "not-seated", "you are watching this game; only a seat may ask for a hint");
    if (row_.opponent == Opponent::Friend)
        return error(p, "no-hint", "a game between two people has no hints: each player plays unaided");
    if (!checkAction(p, request.ply)) return;  // game-over, not-started, wrong-ply (with a snapshot), not-your-turn
    if (game_.phase() != Phase::Move) return error(p, "wrong-phase", "a hint is for a move: throw first");
    if (hint_.ply == ply_ && !hint_.computing) return audience_.send(p, hint_.frame);
    if (hint_.ply == ply_) {
        // Being computed: this connection gets the answer with the others (once each).
        if (std::find(hint_.waiting.begin(), hint_.waiting.end(), p.key) == hint_.waiting.end()) hint_.waiting.push_back(p.key);
        return;
    }
    hint_ = HintCache{ply_, true, std::string(), {p.key}};
    const Position position = game_.position();
    const int throwValue = game_.moveThrowValue();  // kNoThrow while a Piccione remainder is spent
    ai::AnalysisOptions options;
    options.exact = services_.exact;
    std::weak_ptr<Room> weak = weak_from_this();
    const std::int64_t ply = ply_;
    services_.scheduler.after(std::chrono::milliseconds(0), [weak, ply, position, throwValue, options] {
        auto room = weak.lock();
        if (!room) return;
        std::optional<std::string> moves;
        std::string failure;
        try {
            auto ranked = ai::rankMoves(position, throwValue, options);
            if (ranked) {
                json list = json::array();
                for (const ai::MoveValue& v : *ranked)
                    list.push_back({{"move", formatMove(v.move)},
                                    {"winChance", std::round(v.winChance * 10000.0) / 10000.0},
                                    {"exact", v.exact}});
                moves = jsonText(list);
            } else {
                failure = ranked.error().message;
            }
        } catch (const std::exception& e) {
            failure = e.what();
        }
        room->hintComputed(ply, std::move(moves), std::move(failure));
    });
}

void Room::hintComputed(std::int64_t ply, std::optional<std::string> moves, std::string failure) {
    Guard lock(*this);
    if (hint_.ply != ply || !hint_.computing) return;
    std::vector<Peer*> waiting = std::move(hint_.waiting);
    hint_.waiting.clear();
    hint_.computing = false;
    // The game moved on meanwhile (a move, a take-back, a resignation): nobody is told this list.
    if (moved_ || ply_ != ply || overLocked() || game_.phase() != Phase::Move) {
        hint_ = HintCache{};
        return;
    }
    if (!moves) {
        std::cerr << "senet-server: game " << row_.id << ": hint failed (" << failure << ")\n";
        hint_ = HintCache{};  // the next request tries again
        for (Peer* key : waiting)
            if (PeerState* p = audience_.find(key)) error(*p, "internal", "the hint could not be computed; try again");
        return;
    }
    hint_.frame = protocol::envelope("hint", "{\"moves\":" + *moves + ",\"ply\":" + std::to_string(ply) + "}");
    hinted_.insert(static_cast<std::int64_t>(game_.record().plies.size()));  // the next ply is played after a hint
    for (Peer* key : waiting)
        if (PeerState* p = audience_.find(key)) audience_.send(*p, hint_.frame);
}

}  // namespace senet::server
