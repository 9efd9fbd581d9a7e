// The server's Scheduler: the computer's decisions on a small thread pool, after a delay.
#pragma once

#include <atomic>

#include "net.hpp"
#include "services.hpp"

namespace senet::server {

/// Runs tasks on `threads` worker threads, each after its delay, in the order they fall due.
/// Each room has at most one task queued at a time (Room::scheduleComputer), so the queue is
/// bounded by the rooms in memory and served fairly among them; Registry::create refuses new
/// computer games while `pending()` is at --ai-queue. Thread-safe.
class PoolScheduler final : public Scheduler {
public:
    explicit PoolScheduler(int threads) : pool_(static_cast<std::size_t>(threads)) {}
    /// Queues `fn` to run once after `delay` on a worker thread.
    void after(std::chrono::milliseconds delay, std::function<void()> fn) override;
    /// Tasks queued (waiting for their delay or for a thread) and not yet started.
    std::size_t pending() const override { return static_cast<std::size_t>(pending_.load()); }
    /// Stops the workers (queued tasks are dropped) and joins them.
    void stop();

private:
    net::thread_pool pool_;
    std::atomic<std::int64_t> pending_{0};
};

}  // namespace senet::server
