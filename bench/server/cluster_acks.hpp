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
/// `pendingPly`. Returns the action as acknowledged (a throw with the value thrown), or nullopt.
inline std::optional<Action> acknowledged(const nlohmann::json& d, const Action& pending, std::int64_t pendingPly) {
    const std::int64_t ply = d.value("ply", std::int64_t{0});
    if (ply != pendingPly + 1) return std::nullopt;
    Action a = pending;
    if (a.kind == 't')
        for (const auto& e : d["events"])
            if (e.value("e", "") == "thrown") {
                a.value = e.value("value", -1);
                break;
            }
    return a;
}

}  // namespace senet::cluster
