// Online backups: SQLite's backup API from a read-only connection, written atomically.
#include "sqlite_backup.hpp"

#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>

#include <iostream>

#include "sqlite_health.hpp"
#include "sqlite_guard.hpp"
#include "storage.hpp"

namespace senet::server {

namespace fs = std::filesystem;

namespace {
constexpr int kPagesPerStep = 256;                    // 1 MiB of 4 KiB pages
constexpr std::chrono::milliseconds kPause{5};        // between steps: about 2 s more per 400 MB
}  // namespace

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
        keepWalOnClose(src);  // before its first read (sqlite_health.hpp)
        sqlite3_busy_timeout(src, 5000);
        // A read transaction held on the source for the whole copy: every step reads the same
        // snapshot (WAL mode), so the copy is consistent while the games' writes go on in the WAL.
        // The copy itself is fsynced once, at the end.
        sqlite3_backup* b = nullptr;
        if (sqlite3_exec(src, "BEGIN; SELECT count(*) FROM sqlite_schema;", nullptr, nullptr, nullptr) != SQLITE_OK)
            error = std::string("cannot read ") + dbPath + ": " + sqlite3_errmsg(src);
        else if (sqlite3_exec(dst, "PRAGMA synchronous=OFF", nullptr, nullptr, nullptr) != SQLITE_OK ||
                 !(b = sqlite3_backup_init(dst, "main", src, "main")))
            error = sqlite3_errmsg(dst);
        if (b) {
            // In slices with short pauses, so that a large database does not hold a core and the
            // disk away from play for seconds on end.
            int rc;
            int busy = 0;
            while ((rc = sqlite3_backup_step(b, kPagesPerStep)) == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
                if (rc != SQLITE_OK && ++busy > 50) break;
                std::this_thread::sleep_for(rc == SQLITE_OK ? kPause : std::chrono::milliseconds(100));
            }
            sqlite3_backup_finish(b);
            if (rc != SQLITE_DONE) error = std::string("backup step: ") + sqlite3_errstr(rc) + " (" + sqlite3_errmsg(dst) + ")";
        }
        sqlite3_exec(src, "COMMIT", nullptr, nullptr, nullptr);
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
    // Below the I/O and computer threads: a backup waits for a free core rather than taking one.
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
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
