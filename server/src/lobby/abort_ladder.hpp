// The lobby's abort ladder (PROTOCOL.md "Lobby", "Abandonment"): per browser token, how many
// paired games in a row were aborted because of it, and until when it must wait before it may
// seek again. Not thread-safe: the lobby uses it under its lock.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <unordered_map>

#include "clock.hpp"

namespace senet::server::lobby {

/// Aborts in a row per browser token and the waits they earn: from the third, 1 minute,
/// doubling with each further abort in a row, at most 1 hour.
class AbortLadder {
public:
    /// Aborts in a row that start the waits.
    static constexpr int kFreeAborts = 2;
    static constexpr std::chrono::minutes kFirstWait{1};
    static constexpr std::chrono::minutes kLongestWait{60};
    /// Browsers remembered at most; beyond it those not waiting are forgotten.
    static constexpr std::size_t kMaxBrowsers = 100000;

    /// A paired game of `browser` was aborted because of it, at `now`. "" is ignored.
    void aborted(const std::string& browser, Clock::time_point now);
    /// A paired game of `browser` got its first throw: the row is broken.
    void started(const std::string& browser);
    /// How long `browser` must still wait at `now` (rounded up to whole seconds), nullopt when it may seek.
    std::optional<std::chrono::seconds> waitLeft(const std::string& browser, Clock::time_point now) const;
    /// Aborts in a row of `browser` (0 when unknown).
    int streak(const std::string& browser) const;

    /// The wait earned by the `streak`-th abort in a row (zero below the third).
    static std::chrono::seconds waitFor(int streak);

private:
    struct Entry {
        int streak = 0;
        Clock::time_point until{};
    };
    std::unordered_map<std::string, Entry> entries_;
};

}  // namespace senet::server::lobby
