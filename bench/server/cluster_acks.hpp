// The cluster client's bookkeeping of acknowledged actions (bench/server/cluster_client.cpp),
// apart so that tests can feed it the frames a real server sends.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace senet::cluster {

/// An action as the client sent it and as the record holds it.
struct Action {
    char kind = 't';   ///< 't' throw, 'm' move
    std::string move;  ///< moves: "9-11"
    int value = -1;    ///< throws: the value thrown (known once acknowledged)
};

/// Whether the data `d` of an `events` frame acknowledges `pending`, the action sent at ply
/// `pendingPly`: the frame is at the next ply and holds the action's own event (`thrown` for a
/// throw, `moved` with the same move for a move). Returns the action as acknowledged (a throw
/// with the value thrown), or nullopt.
///
/// The ply alone does not acknowledge: other frames carry the game's current ply too. When the
/// action was stored but its own frame was lost with a dead instance, the frames about the game
/// that follow (the other seat's `presence` as connections drop and come back) are at the next
/// ply without the action's events. The action was applied but never acknowledged to this client
/// (as when the snapshot after the reconnection shows the next ply).
inline std::optional<Action> acknowledged(const nlohmann::json& d, const Action& pending, std::int64_t pendingPly) {
    if (!d.is_object() || d.value("ply", std::int64_t{-1}) != pendingPly + 1) return std::nullopt;
    const auto events = d.find("events");
    if (events == d.end() || !events->is_array()) return std::nullopt;
    for (const auto& e : *events) {
        if (!e.is_object()) continue;
        const std::string name = e.value("e", "");
        if (pending.kind == 't' && name == "thrown") {
            Action a = pending;
            a.value = e.value("value", -1);
            return a;
        }
        if (pending.kind == 'm' && name == "moved" && e.value("move", "") == pending.move) return pending;
    }
    return std::nullopt;
}

}  // namespace senet::cluster
