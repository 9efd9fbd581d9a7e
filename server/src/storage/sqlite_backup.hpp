// Online backups of the SQLite database: on their own thread and their own read-only connection
// (WAL mode lets the game's writes go on meanwhile), through SQLite's backup API.
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

namespace senet::server {

/// Writes a consistent copy of the database `dbPath` to `dir`/senet-YYYYMMDDTHHMMSSZ.sqlite3:
/// first under a hidden temporary name, fsynced, then renamed, so a backup file is always whole.
/// Then deletes the oldest backups beyond `keep`. Returns the file written. Throws StorageError
/// naming the files on failure (the temporary file is removed).
std::filesystem::path backupDatabase(const std::string& dbPath, const std::filesystem::path& dir, int keep);

/// Runs backupDatabase every `interval` on a thread of its own. A failed backup is logged and
/// tried again at the next interval; nothing here touches the games.
class BackupTimer {
public:
    /// Creates `dir` if needed (throws StorageError when it cannot) and starts the thread; the
    /// first backup is written one interval after start.
    BackupTimer(std::string dbPath, std::filesystem::path dir, std::chrono::milliseconds interval, int keep);
    /// Stops the thread (see stop).
    ~BackupTimer();
    BackupTimer(const BackupTimer&) = delete;
    BackupTimer& operator=(const BackupTimer&) = delete;
    /// Stops the thread, waiting for a backup in progress; with `finalBackup`, then writes one
    /// more (at a clean shutdown, after the last write). Logs, never throws.
    void stop(bool finalBackup);

private:
    void run();
    /// One backup, logged; false when it failed.
    bool once();

    std::string dbPath_;
    std::filesystem::path dir_;
    std::chrono::milliseconds interval_;
    int keep_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace senet::server
