// Where the rooms read the time for their limits: the claim grace period (how long a seat has
// been offline), the idle time that expires a game and the quiet time that unloads a room.
// Production uses the steady clock; in-process tests inject a ManualClock (manual_clock.hpp)
// and move time forward themselves, so no test races a timer.
#pragma once

#include <chrono>

namespace senet::server {

/// A source of monotonic time. `now` is thread-safe and never goes backwards.
class Clock {
public:
    using time_point = std::chrono::steady_clock::time_point;
    virtual ~Clock() = default;
    /// The current time.
    virtual time_point now() const = 0;
};

/// std::chrono::steady_clock.
class SteadyClock final : public Clock {
public:
    time_point now() const override { return std::chrono::steady_clock::now(); }
};

/// The process-wide steady clock: the default of Services and Registry.
inline Clock& steadyClock() {
    static SteadyClock clock;
    return clock;
}

}  // namespace senet::server
