#include "sqlite_health.hpp"

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <filesystem>

namespace senet::server {

std::optional<FileIdentity> fileIdentity(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return FileIdentity{st.st_dev, st.st_ino};
}

void keepWalOnClose(sqlite3* db) {
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    int persist = 1;
    sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
}

std::string sqliteHealth(const std::string& path, const std::optional<FileIdentity>& opened) {
    // The reason names the file only (/healthz may be seen from outside).
    const std::string name = "sqlite " + std::filesystem::path(path).filename().string();
    if (opened && fileIdentity(path) != opened) return name + ": the database file was deleted or replaced";
    sqlite3* db = nullptr;
    // No SQLITE_OPEN_CREATE: a database moved or deleted under the server is reported, not remade.
    int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    // Should the file have been replaced all the same, this connection may be the only one to
    // the new file: its close must not fold the server's WAL (same name) into that file and
    // delete it. Set before the first statement opens the WAL.
    if (db) keepWalOnClose(db);
    std::string reason;
    if (rc != SQLITE_OK) {
        reason = name + ": cannot open: " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    } else if (sqlite3_db_readonly(db, "main") == 1) {
        reason = name + ": read-only";
    } else {
        // A read, which in WAL mode never waits for nor delays the server's writer (taking the
        // write lock here could make a commit wait a moment).
        sqlite3_busy_timeout(db, 100);
        rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
        if (rc != SQLITE_OK && rc != SQLITE_BUSY) reason = name + ": cannot read: " + sqlite3_errmsg(db);
    }
    sqlite3_close_v2(db);
    if (!reason.empty()) return reason;
    struct statvfs fs {};
    const std::string dir = std::filesystem::path(path).parent_path().string();
    if (::statvfs(dir.empty() ? "." : dir.c_str(), &fs) == 0 &&
        static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize < 1024ull * 1024)
        return name + ": the disk is full (less than 1 MiB free)";
    return "";
}

}  // namespace senet::server
