// The storage's health for GET /healthz (API.md): a probe run on a thread of its own every second
// (every quarter second while it fails), so that an I/O thread answering /healthz never waits for
// the database. The SQLite probe itself is storage/sqlite_health.hpp.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace senet::server {

class HealthMonitor {
public:
    /// What /healthz reports: ok, or not with a short reason.
    struct Status {
        bool ok = true;
        std::string reason;  ///< "" when ok
    };
    using Clock = std::chrono::steady_clock;

    /// Runs `probe` ("" when the storage can take writes, else why not; must not throw) once
    /// before returning, then every `interval` on its own thread, every `retry` (when shorter)
    /// after a failed probe, so that a recovery shows soon. A probe still running after
    /// `timeout` counts as failed ("storage check unfinished after N ms") until it returns.
    HealthMonitor(std::function<std::string()> probe, std::chrono::milliseconds interval = std::chrono::milliseconds(1000),
                  std::chrono::milliseconds timeout = std::chrono::milliseconds(2000),
                  std::chrono::milliseconds retry = std::chrono::milliseconds(250));
    ~HealthMonitor();
    HealthMonitor(const HealthMonitor&) = delete;
    HealthMonitor& operator=(const HealthMonitor&) = delete;

    /// The last result (at most about `interval` old), without waiting. Thread-safe.
    Status current() const;
    /// Stops the thread, waiting for a probe under way. Idempotent.
    void stop();

private:
    void run();
    /// Runs the probe once and records (and, on a change, logs) its result.
    void checkOnce();

    std::function<std::string()> probe_;
    std::chrono::milliseconds interval_, timeout_, retry_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool running_ = false;        ///< a probe is under way, since runningSince_
    Clock::time_point runningSince_;
    Status last_;
    std::thread thread_;
};

}  // namespace senet::server
