// RAII wrappers over SQLite's C API for the SQLite storage (sqlite_storage.cpp,
// sqlite_action_log.cpp): a connection, a prepared statement, one use of a statement. Every
// error is a StorageError naming the database file.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage.hpp"

namespace senet::server::sqlitedb {

/// "sqlite PATH" for error messages: every StorageError names the database file.
inline std::string where(sqlite3* db) {
    const char* file = db ? sqlite3_db_filename(db, "main") : nullptr;
    return std::string("sqlite ") + (file && *file ? file : "(no file)");
}

/// Owns a sqlite3 connection.
class Db {
public:
    explicit Db(const std::string& path) {
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) !=
            SQLITE_OK) {
            std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
            sqlite3_close(db_);
            throw StorageError("cannot open " + path + ": " + msg);
        }
        sqlite3_busy_timeout(db_, 5000);
    }
    ~Db() { sqlite3_close(db_); }
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;
    sqlite3* get() const { return db_; }
    void exec(const char* sql) {
        char* err = nullptr;
        if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
            std::string msg = err ? err : "unknown error";
            sqlite3_free(err);
            throw StorageError(where(db_) + ": " + msg);
        }
    }

private:
    sqlite3* db_ = nullptr;
};

/// Owns a prepared statement; reset after each use by Use.
class Stmt {
public:
    Stmt(Db& db, const char* sql) : db_(db.get()) {
        if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) != SQLITE_OK)
            throw StorageError(where(db_) + ": prepare: " + sqlite3_errmsg(db_));
    }
    ~Stmt() { sqlite3_finalize(stmt_); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;
    sqlite3_stmt* get() const { return stmt_; }
    sqlite3* db() const { return db_; }

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

/// One use of a statement: binds, steps, and resets on destruction.
class Use {
public:
    explicit Use(Stmt& s) : s_(s) {}
    ~Use() {
        sqlite3_reset(s_.get());
        sqlite3_clear_bindings(s_.get());
    }
    /// Binds text without copying it: `v` must outlive this Use (which resets the statement).
    Use& text(int i, std::string_view v) {
        check(sqlite3_bind_text(s_.get(), i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC));
        return *this;
    }
    Use& optText(int i, const std::optional<std::string>& v) {
        check(v ? sqlite3_bind_text(s_.get(), i, v->data(), static_cast<int>(v->size()), SQLITE_TRANSIENT)
                : sqlite3_bind_null(s_.get(), i));
        return *this;
    }
    Use& blob(int i, const std::vector<std::uint8_t>& v) {
        check(sqlite3_bind_blob(s_.get(), i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
        return *this;
    }
    Use& integer(int i, std::int64_t v) {
        check(sqlite3_bind_int64(s_.get(), i, v));
        return *this;
    }
    /// Steps once: true when a row is available.
    bool step() {
        const int rc = sqlite3_step(s_.get());
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        throw StorageError(where(s_.db()) + ": " + sqlite3_errmsg(s_.db()));
    }
    std::string columnText(int i) const {
        const auto* p = sqlite3_column_text(s_.get(), i);
        return p ? std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(s_.get(), i)) : std::string();
    }
    std::optional<std::string> columnOptText(int i) const {
        if (sqlite3_column_type(s_.get(), i) == SQLITE_NULL) return std::nullopt;
        return columnText(i);
    }
    std::vector<std::uint8_t> columnBlob(int i) const {
        const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(s_.get(), i));
        return p ? std::vector<std::uint8_t>(p, p + sqlite3_column_bytes(s_.get(), i)) : std::vector<std::uint8_t>();
    }
    std::int64_t columnInt(int i) const { return sqlite3_column_int64(s_.get(), i); }
    bool columnNull(int i) const { return sqlite3_column_type(s_.get(), i) == SQLITE_NULL; }
    int changes() const { return sqlite3_changes(s_.db()); }

private:
    void check(int rc) {
        if (rc != SQLITE_OK) throw StorageError(where(s_.db()) + ": bind: " + sqlite3_errmsg(s_.db()));
    }
    Stmt& s_;
};

}  // namespace senet::server::sqlitedb
