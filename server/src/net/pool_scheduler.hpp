// The server's Scheduler: the computer's decisions on a small thread pool, after a delay.
#pragma once

#include <atomic>

#include "net.hpp"
#include "services.hpp"

namespace senet::server {

/// Runs tasks on `threads` worker threads, each after its delay, in the order they fall due.
/// Each room has at most one computer decision queued at a time (Room::scheduleComputer), and
/// at most one flush of its `watchers` frame (not counted in pending()), so the queue is bounded
/// by the rooms in memory and served fairly among them; Registry::create refuses new computer
/// games while `pending()` is at --ai-queue. Thread-safe.
class PoolScheduler final : public Scheduler {
public:
    explicit PoolScheduler(int threads) : pool_(static_cast<std::size_t>(threads)) {}
    /// Queues `fn` to run once after `delay` on a worker thread.
    void after(std::chrono::milliseconds delay, std::function<void()> fn) override;
    /// The same, not counted in pending() (a room's flush of its `watchers` frame).
    void afterUncounted(std::chrono::milliseconds delay, std::function<void()> fn) override;
    /// Tasks queued (waiting for their delay or for a thread) and not yet started.
    std::size_t pending() const override { return static_cast<std::size_t>(pending_.load()); }
    /// Stops the workers (queued tasks are dropped) and joins them.
    void stop();

private:
    /// after() and afterUncounted(): `counted` says whether the task counts in pending().
    void schedule(std::chrono::milliseconds delay, std::function<void()> fn, bool counted);

    net::thread_pool pool_;
    std::atomic<std::int64_t> pending_{0};
};

}  // namespace senet::server
