// What a room is given from outside: the connections it sends to (Peer), the worker threads that
// run its later work (Scheduler) and the services every room shares (Services). No networking
// types here: the WebSocket session and the thread pool implement these in net/.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>

#include "clock.hpp"

namespace senet::ai {
class ExactValues;
}

namespace senet::server {

class CommitQueue;
struct Config;
struct GameRow;
class Metrics;
class Room;
class Storage;

/// A connection that receives text frames (a WebSocket session). `send` is thread-safe and
/// never blocks: it queues the frame.
class Peer {
public:
    virtual ~Peer() = default;
    /// Queues one text frame for the client.
    virtual void send(std::shared_ptr<const std::string> frame) = 0;
    /// Closes the connection with a WebSocket close `code` and `reason` (thread-safe, never
    /// blocks); frames queued before it still go out first. The default does nothing.
    virtual void closeWith(std::uint16_t code, const std::string& reason) { (void)code, (void)reason; }
};

/// The close code of a connection whose game moved to another instance (PROTOCOL.md): the
/// client reconnects at once and says hello again; nothing it was told is lost.
inline constexpr std::uint16_t kMovedCloseCode = 4001;

/// Runs work later on a thread that may block (the computer's decisions; rooms' short flushes).
class Scheduler {
public:
    virtual ~Scheduler() = default;
    /// Calls `fn` once after `delay` (0 = as soon as possible), on a worker thread.
    virtual void after(std::chrono::milliseconds delay, std::function<void()> fn) = 0;
    /// Calls `fn` once after `delay` like after(), for a short task that is no computer
    /// decision (a room's coalesced `watchers` frame): not counted in pending(), which
    /// Registry::create reads as the computer's queue. By default the same as after().
    virtual void afterUncounted(std::chrono::milliseconds delay, std::function<void()> fn) { after(delay, std::move(fn)); }
    /// Tasks queued and not yet started (0 when unknown).
    virtual std::size_t pending() const { return 0; }
};

/// A log line let through at most once per interval, counting the occurrences in between (the
/// computer's "queue busy" line, room_computer.cpp). Times are milliseconds of Services::clock.
struct LogLimit {
    std::atomic<std::int64_t> count{0};  ///< occurrences not yet reported in a line
    std::atomic<std::int64_t> lastMs{std::numeric_limits<std::int64_t>::min() / 2};  ///< when the last line went out
};

/// What every room uses. Outlives every room.
struct Services {
    Storage& storage;       ///< where every game is stored before anything changes in memory
    Metrics& metrics;       ///< the counters of /metrics
    Scheduler& scheduler;   ///< the computer's decisions and the rooms' watchers flushes
    const Config& config;   ///< the flags (grace period, computer delay and budget, …)
    /// Creates, stores and registers the rematch of a finished game (sides swapped) and returns its id.
    /// Throws StorageError.
    std::function<std::string(const GameRow& finished)> createRematch;
    /// The time of the room's limits (claim grace period, idle and unload times); the steady
    /// clock unless a test injects another (manual_clock.hpp).
    Clock& clock = steadyClock();
    /// The "computer queue busy" line's limit: once per 10 s of `clock`, per registry.
    LogLimit busyLog{};
    /// Group commit of throws and moves (commit_queue.hpp); null: each is written at once on
    /// the calling thread. Must outlive every room's pending write.
    CommitQueue* commits = nullptr;
    /// Called (under the room's lock) when a write of `room` met LeaseLost: the registry drops
    /// it from memory. Takes only the registry's mutex. Empty: nothing is called.
    std::function<void(const std::string& id, const Room* room)> leaseLost{};
    /// The endgame tables' exact values for the computer's expert level (senet/ai_tables.hpp);
    /// null: none. Must outlive every room.
    const ai::ExactValues* exact = nullptr;
};

}  // namespace senet::server
