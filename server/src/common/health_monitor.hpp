// The storage's health for GET /healthz (API.md): checked on a thread of its own every second,
// so that an I/O thread answering /healthz never waits for the database.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

struct sqlite3;

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
    /// before returning, then every `interval` on its own thread. A probe still running after
    /// `timeout` counts as failed ("storage check unfinished after N ms") until it returns.
    HealthMonitor(std::function<std::string()> probe, std::chrono::milliseconds interval = std::chrono::milliseconds(1000),
                  std::chrono::milliseconds timeout = std::chrono::milliseconds(2000));
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
    std::chrono::milliseconds interval_, timeout_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool running_ = false;        ///< a probe is under way, since runningSince_
    Clock::time_point runningSince_;
    Status last_;
    std::thread thread_;
};

/// A file's device and inode numbers: tell the file a server opened from one put in its place.
struct FileIdentity {
    dev_t device;
    ino_t inode;
    bool operator==(const FileIdentity&) const = default;
};

/// The identity of the file at `path` (stat, following links), or nullopt when there is none.
std::optional<FileIdentity> fileIdentity(const std::string& path);

/// Makes SQLite connection `db` (open, no statement run yet) leave the WAL as it is when it
/// closes: no checkpoint, no deletion. For the connections other than the server's own (the
/// health probe, backups): if the database file was replaced, such a connection could be the
/// only one to the new file, and its close would fold the server's WAL into it and delete it.
void keepWalOnClose(sqlite3* db);

/// The probe of a SQLite database (`path`, the server's file): a fresh connection (never
/// creating the file) must open it read-write and read its schema — without taking the write
/// lock, so the server's writer never waits for it — and its file system must have at least
/// 1 MiB free; and when `opened` is given, the file at `path` must still be that one (not
/// deleted, moved or replaced since the server opened it). "" or the reason (naming the file,
/// not its directory). The probe's connection never folds the WAL nor deletes it when it
/// closes (keepWalOnClose). Never throws.
std::string sqliteHealth(const std::string& path, const std::optional<FileIdentity>& opened = std::nullopt);

}  // namespace senet::server
