// The benchmark's client: one WebSocket connection per game (or per echo peer), driven either
// closed-loop (the next action leaves as soon as the reply arrives: saturation throughput) or
// paced (each game acts at a fixed mean interval with jitter: latency at a known offered load).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace bench {

/// Latencies (µs) and counts of one run.
struct Stats {
    std::vector<std::uint32_t> latencies;
    std::uint64_t actions = 0;
    std::uint64_t errors = 0;  ///< error messages and failed connections
    double seconds = 0;
    /// Completed actions per second over the measured window.
    double perSecond() const { return seconds > 0 ? static_cast<double>(actions) / seconds : 0; }
    /// The latency quantile `p` (0..1) in ms; sorts the samples.
    double percentile(double p);
    /// The largest latency in ms.
    double maxMs() const;
};

/// How to drive one run.
struct RunOptions {
    unsigned short port = 0;
    bool echo = false;       ///< talk to the echo server (send a fixed action-sized message)
    int connections = 1000;  ///< concurrent games (one connection each)
    double seconds = 5;      ///< measured window
    double warmup = 1;       ///< seconds before the window opens (connections, first actions)
    bool paced = false;      ///< false: closed loop; true: each game acts every `intervalMs` on average
    double intervalMs = 1000;
    double jitter = 0.5;  ///< each interval is intervalMs × uniform(1 − jitter, 1 + jitter)
};

/// A game to play: id and seat secret of a local (pass-and-play) game.
using GameRef = std::pair<std::string, std::string>;

/// Runs one measurement. `games` must hold at least `connections` games; the extra ones replace
/// games that end during the run. Latency is from the (scheduled) send to the `events` reply.
Stats drive(const RunOptions& options, std::vector<GameRef> games);

}  // namespace bench
