// Online backups: SQLite's backup API from a read-only connection, written atomically.
#include "sqlite_backup.hpp"

#include <sqlite3.h>

#include <iostream>

#include "sqlite_guard.hpp"
#include "storage.hpp"

namespace senet::server {

namespace fs = std::filesystem;

fs::path backupDatabase(const std::string& dbPath, const fs::path& dir, int keep) {
    fs::path target;
    while (true) {  // one backup per second at most: names are stamped to the second
        target = dir / ("senet-" + utcStamp() + ".sqlite3");
        if (!fs::exists(target)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    const fs::path tmp = dir / ("." + target.filename().string() + ".tmp");
    std::error_code ec;
    fs::remove(tmp, ec);
    sqlite3* src = nullptr;
    sqlite3* dst = nullptr;
    std::string error;
    if (sqlite3_open_v2(dbPath.c_str(), &src, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        error = "cannot open " + dbPath + ": " + (src ? sqlite3_errmsg(src) : "out of memory");
    } else if (sqlite3_open_v2(tmp.c_str(), &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        error = "cannot create " + tmp.string() + ": " + (dst ? sqlite3_errmsg(dst) : "out of memory");
    } else {
        sqlite3_busy_timeout(src, 5000);
        sqlite3_backup* b = sqlite3_backup_init(dst, "main", src, "main");
        if (!b) {
            error = sqlite3_errmsg(dst);
        } else {
            // All pages in one step: one read transaction on the source, so one consistent
            // snapshot; writers go on in the WAL meanwhile.
            int rc;
            for (int tries = 0; (rc = sqlite3_backup_step(b, -1)) == SQLITE_BUSY || rc == SQLITE_LOCKED; ++tries) {
                if (tries == 50) break;
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
            sqlite3_backup_finish(b);
            if (rc != SQLITE_DONE) error = std::string("backup step: ") + sqlite3_errstr(rc) + " (" + sqlite3_errmsg(dst) + ")";
        }
    }
    if (sqlite3_close(dst) != SQLITE_OK && error.empty()) error = "cannot close " + tmp.string();
    sqlite3_close(src);
    // The database holds the server seeds of unfinished games: the backup is the owner's alone.
    if (error.empty()) fs::permissions(tmp, fs::perms::owner_read | fs::perms::owner_write, ec);
    if (error.empty() && !syncPath(tmp)) error = "cannot fsync " + tmp.string();
    if (error.empty()) {
        fs::rename(tmp, target, ec);
        if (ec) error = "cannot rename " + tmp.string() + ": " + ec.message();
    }
    if (!error.empty()) {
        fs::remove(tmp, ec);
        fs::remove(tmp.string() + "-journal", ec);
        throw StorageError("backup of " + dbPath + " to " + target.string() + " failed: " + error);
    }
    syncPath(dir);
    pruneCopies(dir, keep);
    return target;
}

BackupTimer::BackupTimer(std::string dbPath, fs::path dir, std::chrono::milliseconds interval, int keep)
    : dbPath_(std::move(dbPath)), dir_(std::move(dir)), interval_(interval), keep_(keep) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_)) throw StorageError("cannot create the backup directory " + dir_.string() + ": " + ec.message());
    thread_ = std::thread([this] { run(); });
}

BackupTimer::~BackupTimer() { stop(false); }

void BackupTimer::stop(bool finalBackup) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && !thread_.joinable()) return;
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    if (finalBackup) once();
}

void BackupTimer::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (wake_.wait_for(lock, interval_, [this] { return stopping_; })) break;
        lock.unlock();
        once();
        lock.lock();
    }
}

bool BackupTimer::once() {
    const auto start = std::chrono::steady_clock::now();
    try {
        const fs::path file = backupDatabase(dbPath_, dir_, keep_);
        std::error_code ec;
        const auto bytes = fs::file_size(file, ec);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
        std::cout << "senet-server: backup " << file.string() << " written (" << bytes << " bytes, " << ms << " ms)" << std::endl;
        return true;
    } catch (const std::exception& e) {
        std::cerr << "senet-server: " << e.what() << "; next try in " << interval_.count() / 1000.0 << " s" << std::endl;
        return false;
    }
}

}  // namespace senet::server
