// Limits on the API's costly requests, per client address (Request::remoteAddress): token
// buckets for creations and joins, and a cap on friend games waiting for their second player.
// Answers are 429 with Retry-After and a JSON error body (server/API.md).
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "http_types.hpp"

namespace senet::server {

/// One token bucket per address: `burst` tokens, refilled at `rate` per second. The map is
/// bounded: full buckets are pruned as it grows, and it never holds more than `maxAddresses`.
class TokenBuckets {
public:
    TokenBuckets(double rate, double burst, std::size_t maxAddresses = 100000);
    /// Takes one token for `address`. nullopt when taken; otherwise the whole seconds (>= 1)
    /// until a token is available again.
    std::optional<int> take(const std::string& address);
    /// Addresses currently tracked (for tests and metrics).
    std::size_t size() const;

private:
    using Clock = std::chrono::steady_clock;
    struct Bucket {
        double tokens;
        Clock::time_point at;
    };
    void prune(Clock::time_point now);

    const double rate_, burst_;
    const std::size_t maxAddresses_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
    std::size_t pruneAt_ = 1024;
};

/// Friend games created by each address and not yet joined; at most `cap` per address.
/// Kept in memory (a restart forgets it). Thread-safe.
class WaitingGames {
public:
    /// `stillWaiting(id)` tells whether a game still waits for its second player; it is asked
    /// only when an address reaches the cap (to forget games joined, ended or expired meanwhile).
    WaitingGames(int cap, std::function<bool(const std::string& id)> stillWaiting);
    /// Reserves a place for a new waiting game of `address`: true when under the cap.
    bool reserve(const std::string& address);
    /// Ends a reservation: records `id` as waiting, or frees the place when `id` is empty (not created).
    void settle(const std::string& address, const std::string& id);
    /// Forgets `id` (it was joined).
    void joined(const std::string& id);

private:
    struct Entry {
        std::vector<std::string> ids;
        int pending = 0;
    };
    const int cap_;
    std::function<bool(const std::string&)> stillWaiting_;
    std::mutex mutex_;
    std::unordered_map<std::string, Entry> byAddress_;
    std::unordered_map<std::string, std::string> owner_;  ///< game id -> address
};

/// A 429 answer: {"error": code, "message": message} with Retry-After: seconds.
Response tooManyRequests(std::string_view code, std::string_view message, int retryAfterSeconds);

}  // namespace senet::server
