// The frames that carry a room's game state to its connections: the events frame, which holds
// only the state members that changed since the previous one (PROTOCOL.md "events"), and the
// snapshot, built once per state and per set of seats and shared by every connection that holds
// those seats. Not thread-safe: a room uses it under its lock.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "events.hpp"
#include "state_json.hpp"

namespace senet::server {

/// The events and snapshot frames of one room, and what they need to remember between frames:
/// the state the last events frame left every connection holding, and the snapshots of the
/// current state.
class StateFrames {
public:
    /// The snapshot frame (PROTOCOL.md "Snapshot") at the state `fields` for a connection that
    /// holds `seats` (bit s: seat s), shared by every such connection until changed().
    std::shared_ptr<const std::string> snapshot(unsigned seats, const StateFields& fields);
    /// The events frame of `events` at `ply`, the state after them being `fields`: only the
    /// members that differ from the previous events frame's state (all of them after a snapshot
    /// went out at a state no events frame carried). Calls changed().
    std::shared_ptr<const std::string> events(const Events& events, std::int64_t ply, const StateFields& fields);
    /// The state changed: the snapshots built so far are stale.
    void changed() { snapshots_ = {}; }

private:
    std::size_t frameSize_ = 2048;  ///< capacity to reserve for the next events frame
    // The state every connection that said hello holds: the last events frame's full state.
    // The next events frame sends only the members that differ from it (PROTOCOL.md "events").
    std::string sentState_, spareState_;
    StateMarks sentMarks_;
    bool sendAllMembers_ = true;  ///< a snapshot went out at a state no events frame sent
    std::array<std::shared_ptr<const std::string>, 4> snapshots_;  ///< by seats bitmask; cleared on change
};

}  // namespace senet::server
