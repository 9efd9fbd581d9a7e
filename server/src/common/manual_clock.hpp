// A Clock that stands still until the owner moves it: for in-process tests and fuzzers that
// drive rooms (grace periods, idle and unload limits) without waiting for real time to pass.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "clock.hpp"

namespace senet::server {

/// Starts at a fixed point (one hour after the steady clock's epoch, so that "an hour ago" is
/// representable) and moves only by advance(). Thread-safe.
class ManualClock final : public Clock {
public:
    time_point now() const override { return time_point(std::chrono::hours(1)) + std::chrono::nanoseconds(offset_.load()); }
    /// Moves the time forward by `by` (a negative duration is ignored: time never goes back).
    template <class Rep, class Period>
    void advance(std::chrono::duration<Rep, Period> by) {
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(by).count();
        if (ns > 0) offset_.fetch_add(ns);
    }

private:
    std::atomic<std::int64_t> offset_{0};
};

}  // namespace senet::server
