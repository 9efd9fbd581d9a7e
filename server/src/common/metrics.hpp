// Counters for GET /metrics (Prometheus text format 0.0.4). Lock-free; safe from any thread.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

namespace senet::server {

/// Process-wide counters and the action latency histogram.
class Metrics {
public:
    /// Upper bounds of the latency buckets, in seconds.
    static constexpr std::array<double, 12> kBuckets{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                     0.01,   0.025,   0.05,   0.1,   0.25,   1.0};

    std::atomic<std::int64_t> gamesRunning{0};   ///< rooms in memory whose game is not over
    std::atomic<std::int64_t> gamesCreated{0};
    std::atomic<std::int64_t> roomsLoaded{0};    ///< rooms in memory, finished or not
    std::atomic<std::int64_t> openSockets{0};    ///< WebSocket connections
    std::atomic<std::int64_t> openConnections{0};  ///< TCP connections counted under --max-connections
    std::atomic<std::int64_t> httpRequests{0};
    std::atomic<std::int64_t> actions{0};        ///< accepted throws and moves (computer's included)
    std::atomic<std::int64_t> rejected{0};       ///< client messages answered with an error
    // Several instances (server/README.md "Several instances"):
    std::atomic<std::int64_t> leaseAcquisitions{0};  ///< game leases taken to load a game into memory
    std::atomic<std::int64_t> leaseTakeovers{0};     ///< of those, games another instance had held until its lease expired
    std::atomic<std::int64_t> leasesLost{0};         ///< rooms dropped because another instance took their game over
    std::atomic<std::int64_t> leaseRefusals{0};      ///< lookups refused because another instance holds the game
    std::atomic<std::int64_t> movedCloses{0};        ///< WebSockets closed with 4001 "moved"

    /// Records the time from receiving an action to having it stored and broadcast, in seconds.
    void observeActionLatency(double seconds);

    // Storage (PostgreSQL): the time of each Storage call and the round trips to the server.
    std::atomic<std::int64_t> storageCalls{0};     ///< Storage calls timed
    std::atomic<std::int64_t> storageMicros{0};    ///< their total time in µs
    std::atomic<std::int64_t> pgRoundTrips{0};     ///< statements sent to PostgreSQL (BEGIN/COMMIT/SAVEPOINT included)
    /// Records one Storage call that took `micros` µs.
    void observeStorageCall(std::int64_t micros) {
        storageCalls.fetch_add(1, std::memory_order_relaxed);
        storageMicros.fetch_add(micros, std::memory_order_relaxed);
    }
    /// The Prometheus text exposition of every metric.
    std::string render() const;

private:
    std::array<std::atomic<std::uint64_t>, kBuckets.size()> buckets_{};
    std::atomic<std::uint64_t> count_{0};
    std::atomic<std::uint64_t> sumMicros_{0};
};

}  // namespace senet::server
