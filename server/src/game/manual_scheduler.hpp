// A Scheduler that runs nothing by itself: tasks wait in a queue until the owner runs them
// (delays are ignored, order is kept). For in-process tests and fuzzers that drive a Room
// without threads or timers: the room's computer decisions happen exactly when asked.
#pragma once

#include <deque>
#include <functional>
#include <mutex>

#include "services.hpp"

namespace senet::server {

/// Queues tasks; runOne/runAll run them on the caller's thread. Thread-safe. Must not be
/// called from inside a room's lock (a task takes that lock): call it from the test's own code.
class ManualScheduler final : public Scheduler {
public:
    /// Queues `fn`; the delay is ignored.
    void after(std::chrono::milliseconds, std::function<void()> fn) override {
        std::lock_guard lock(mutex_);
        tasks_.push_back(std::move(fn));
    }
    /// Tasks queued and not yet run.
    std::size_t pending() const override {
        std::lock_guard lock(mutex_);
        return tasks_.size();
    }
    /// Runs the oldest queued task; false when none was queued.
    bool runOne() {
        std::function<void()> fn;
        {
            std::lock_guard lock(mutex_);
            if (tasks_.empty()) return false;
            fn = std::move(tasks_.front());
            tasks_.pop_front();
        }
        fn();
        return true;
    }
    /// Runs tasks (those they queue included) until none is left or `limit` have run; returns how many ran.
    int runAll(int limit = 100000) {
        int n = 0;
        while (n < limit && runOne()) ++n;
        return n;
    }

private:
    mutable std::mutex mutex_;
    std::deque<std::function<void()>> tasks_;
};

}  // namespace senet::server
