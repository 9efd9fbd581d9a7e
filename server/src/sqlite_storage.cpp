// The SQLite backend of Storage: one connection, serialised by a mutex, prepared statements,
// RAII wrappers over the C API.
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <mutex>

#include "sqlite_guard.hpp"
#include "storage.hpp"

namespace senet::server {

namespace {

/// "sqlite PATH" for error messages: every StorageError names the database file.
std::string where(sqlite3* db) {
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
    int changes() const { return sqlite3_changes(s_.db()); }

private:
    void check(int rc) {
        if (rc != SQLITE_OK) throw StorageError(where(s_.db()) + ": bind: " + sqlite3_errmsg(s_.db()));
    }
    Stmt& s_;
};

std::int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY,
  ruleset TEXT NOT NULL,
  opponent TEXT NOT NULL,
  level TEXT NOT NULL,
  server_seed BLOB NOT NULL,
  client_seed0 TEXT,
  client_seed1 TEXT,
  seat_hash0 TEXT NOT NULL,
  seat_hash1 TEXT NOT NULL,
  invite_hash TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  rematch_of TEXT NOT NULL,
  rematch TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE TABLE IF NOT EXISTS actions (
  game_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  outcome INTEGER NOT NULL,
  move TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
)sql";

class SqliteStorage final : public Storage {
public:
    SqliteStorage(const std::string& path, bool syncFull, bool quickCheck)
        : db_(path),
          init_(db_, path, syncFull, quickCheck),
          insertGame_(db_,
                      "INSERT INTO games (id, ruleset, opponent, level, server_seed, client_seed0, client_seed1, seat_hash0, "
                      "seat_hash1, invite_hash, created_ms, updated_ms, status, result, rematch_of, rematch) VALUES "
                      "(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)"),
          takeSeat0_(db_, "UPDATE games SET seat_hash0 = ?2, updated_ms = ?3 WHERE id = ?1 AND seat_hash0 = ''"),
          takeSeat1_(db_, "UPDATE games SET seat_hash1 = ?2, updated_ms = ?3 WHERE id = ?1 AND seat_hash1 = ''"),
          seed0_(db_, "UPDATE games SET client_seed0 = ?2 WHERE id = ?1"),
          seed1_(db_, "UPDATE games SET client_seed1 = ?2 WHERE id = ?1"),
          insertAction_(db_, "INSERT INTO actions (game_id, seq, kind, outcome, move, at_ms) VALUES (?1,?2,?3,?4,?5,?6)"),
          finish_(db_, "UPDATE games SET status = 'over', result = ?2, updated_ms = ?3 WHERE id = ?1"),
          rematch_(db_, "UPDATE games SET rematch = ?2 WHERE id = ?1"),
          expire_(db_, "UPDATE games SET status = 'expired' WHERE id = ?1 AND status = 'playing'"),
          selectGame_(db_,
                      "SELECT id, ruleset, opponent, level, server_seed, client_seed0, client_seed1, seat_hash0, seat_hash1, "
                      "invite_hash, created_ms, "
                      // The last activity: the row's own last change or the game's last action.
                      "MAX(updated_ms, COALESCE((SELECT at_ms FROM actions WHERE game_id = ?1 ORDER BY seq DESC LIMIT 1), 0)), "
                      "status, result, rematch_of, rematch FROM games WHERE id = ?1"),
          selectActions_(db_, "SELECT seq, kind, outcome, move FROM actions WHERE game_id = ?1 ORDER BY seq"),
          unfinished_(db_, "SELECT id FROM games WHERE status = 'playing'"),
          begin_(db_, "BEGIN IMMEDIATE"),
          commit_(db_, "COMMIT"),
          savepoint_(db_, "SAVEPOINT item"),
          release_(db_, "RELEASE item") {}

    void createGame(const GameRow& g) override {
        std::lock_guard lock(mutex_);
        transaction([&] {
            Use u(insertGame_);
            u.text(1, g.id).text(2, g.ruleset).text(3, g.opponent).text(4, g.level).blob(5, g.serverSeed);
            u.optText(6, g.clientSeeds[0]).optText(7, g.clientSeeds[1]).text(8, g.seatHashes[0]).text(9, g.seatHashes[1]);
            u.text(10, g.inviteHash).integer(11, g.createdMs).integer(12, g.updatedMs).text(13, g.status).text(14, g.result);
            u.text(15, g.rematchOf).text(16, g.rematch);
            u.step();
            if (g.rematchOf.empty()) return;
            Use link(rematch_);  // the old game names its rematch in the same transaction
            link.text(1, g.rematchOf).text(2, g.id);
            link.step();
            if (link.changes() != 1) throw StorageError("sqlite: no game " + g.rematchOf + " to link the rematch to");
        });
    }

    bool takeSeat(const std::string& id, int seat, const std::string& hash) override {
        std::lock_guard lock(mutex_);
        Use u(seat == 0 ? takeSeat0_ : takeSeat1_);
        u.text(1, id).text(2, hash).integer(3, nowMs());
        u.step();
        return u.changes() == 1;
    }

    void setClientSeed(const std::string& id, int seat, const std::string& seed) override {
        std::lock_guard lock(mutex_);
        Use u(seat == 0 ? seed0_ : seed1_);
        u.text(1, id).text(2, seed);
        u.step();
    }

    void appendAction(const std::string& id, const ActionRow& a) override {
        std::lock_guard lock(mutex_);
        // One statement in autocommit mode is one transaction: committed to the WAL file when
        // step() returns. The game's last activity is this row's at_ms (see selectGame_), so
        // the games row is not rewritten on every action.
        Use u(insertAction_);
        u.text(1, id).integer(2, a.seq).text(3, std::string_view(&a.kind, 1)).integer(4, a.outcome).text(5, a.move);
        u.integer(6, nowMs());
        u.step();
    }

    void appendFinalAction(const std::string& id, const ActionRow& a, const std::string& resultJson) override {
        std::lock_guard lock(mutex_);
        transaction([&] {
            Use u(insertAction_);
            u.text(1, id).integer(2, a.seq).text(3, std::string_view(&a.kind, 1)).integer(4, a.outcome).text(5, a.move);
            u.integer(6, nowMs());
            u.step();
            Use f(finish_);
            f.text(1, id).text(2, resultJson).integer(3, nowMs());
            f.step();
            if (f.changes() != 1) throw StorageError("sqlite: no game " + id + " to finish");
        });
    }

    std::vector<std::exception_ptr> appendBatch(const std::vector<BatchedAction>& batch) override {
        std::vector<std::exception_ptr> errors(batch.size());
        if (batch.empty()) return errors;
        std::lock_guard lock(mutex_);
        // One transaction (one WAL commit) for the whole batch. An item that fails (a duplicate
        // seq, a game to finish that does not exist) is undone alone: a plain action is one
        // INSERT, which SQLite undoes by itself when it fails (the transaction stays open); an
        // action that ends the game is two statements, inside a savepoint of their own. The
        // control statements are prepared once: parsing them per item cost more than the insert.
        try {
            Use(begin_).step();
        } catch (const StorageError&) {
            std::fill(errors.begin(), errors.end(), std::current_exception());
            return errors;
        }
        const std::int64_t now = nowMs();
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const BatchedAction& b = batch[i];
            const bool final = !b.resultJson.empty();
            try {
                if (final) Use(savepoint_).step();
            } catch (const StorageError&) {
                errors[i] = std::current_exception();
                continue;
            }
            try {
                Use u(insertAction_);
                u.text(1, b.gameId).integer(2, b.action.seq).text(3, std::string_view(&b.action.kind, 1));
                u.integer(4, b.action.outcome).text(5, b.action.move).integer(6, now);
                u.step();
                if (final) {
                    Use f(finish_);
                    f.text(1, b.gameId).text(2, b.resultJson).integer(3, now);
                    f.step();
                    if (f.changes() != 1) throw StorageError("sqlite: no game " + b.gameId + " to finish");
                    Use(release_).step();
                }
            } catch (const StorageError&) {
                errors[i] = std::current_exception();
                if (final) {
                    sqlite3_exec(db_.get(), "ROLLBACK TO item", nullptr, nullptr, nullptr);
                    sqlite3_exec(db_.get(), "RELEASE item", nullptr, nullptr, nullptr);
                }
                if (sqlite3_get_autocommit(db_.get())) {
                    // Some errors (a full disk, I/O) roll the whole transaction back: nothing of
                    // the batch is stored, and no later item may run outside a transaction.
                    std::fill(errors.begin(), errors.end(), errors[i]);
                    return errors;
                }
            }
        }
        try {
            Use(commit_).step();
        } catch (const StorageError&) {
            // Nothing of the batch is durable: every item fails with the commit's error.
            sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
            std::fill(errors.begin(), errors.end(), std::current_exception());
        }
        return errors;
    }

    void finishGame(const std::string& id, const std::string& resultJson) override {
        std::lock_guard lock(mutex_);
        Use u(finish_);
        u.text(1, id).text(2, resultJson).integer(3, nowMs());
        u.step();
    }

    void setRematch(const std::string& id, const std::string& rematchId) override {
        std::lock_guard lock(mutex_);
        Use u(rematch_);
        u.text(1, id).text(2, rematchId);
        u.step();
    }

    void expireGame(const std::string& id) override {
        std::lock_guard lock(mutex_);
        Use u(expire_);
        u.text(1, id);
        u.step();
    }

    std::optional<GameRow> loadGame(const std::string& id) override {
        std::lock_guard lock(mutex_);
        Use u(selectGame_);
        u.text(1, id);
        if (!u.step()) return std::nullopt;
        GameRow g;
        g.id = u.columnText(0);
        g.ruleset = u.columnText(1);
        g.opponent = u.columnText(2);
        g.level = u.columnText(3);
        g.serverSeed = u.columnBlob(4);
        g.clientSeeds = {u.columnOptText(5), u.columnOptText(6)};
        g.seatHashes = {u.columnText(7), u.columnText(8)};
        g.inviteHash = u.columnText(9);
        g.createdMs = u.columnInt(10);
        g.updatedMs = u.columnInt(11);
        g.status = u.columnText(12);
        g.result = u.columnText(13);
        g.rematchOf = u.columnText(14);
        g.rematch = u.columnText(15);
        return g;
    }

    std::vector<ActionRow> loadActions(const std::string& id) override {
        std::lock_guard lock(mutex_);
        Use u(selectActions_);
        u.text(1, id);
        std::vector<ActionRow> out;
        while (u.step()) {
            const std::string kind = u.columnText(1);
            out.push_back(ActionRow{u.columnInt(0), kind.empty() ? '?' : kind[0], static_cast<int>(u.columnInt(2)), u.columnText(3)});
        }
        return out;
    }

    std::vector<std::string> unfinishedGames() override {
        std::lock_guard lock(mutex_);
        Use u(unfinished_);
        std::vector<std::string> out;
        while (u.step()) out.push_back(u.columnText(0));
        return out;
    }

private:
    /// Runs `body` as one transaction: committed when it returns, rolled back when it throws
    /// (the error is rethrown). The caller holds mutex_.
    template <class F>
    void transaction(F&& body) {
        db_.exec("BEGIN IMMEDIATE");
        try {
            body();
            db_.exec("COMMIT");
        } catch (...) {
            sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    }

    /// Runs the pragmas, the integrity check and the schema before any statement is prepared.
    struct Init {
        Init(Db& db, const std::string& path, bool syncFull, bool check) {
            db.exec("PRAGMA journal_mode=WAL");
            // NORMAL in WAL mode: a commit is durable once written to the WAL file (survives a
            // killed process); FULL also fsyncs every commit (survives power loss). README.md.
            db.exec(syncFull ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
            // Checkpoints (which fsync) run rarely and in bulk rather than every ~1000 pages.
            db.exec("PRAGMA wal_autocheckpoint=20000");
            db.exec("PRAGMA foreign_keys=ON");
            if (check) quickCheck(db.get(), path);  // before anything is written
            db.exec(kSchema);
        }
    };

    std::mutex mutex_;
    Db db_;
    Init init_;
    Stmt insertGame_, takeSeat0_, takeSeat1_, seed0_, seed1_, insertAction_, finish_, rematch_, expire_, selectGame_,
        selectActions_, unfinished_, begin_, commit_, savepoint_, release_;
};

}  // namespace

std::unique_ptr<Storage> openSqliteStorage(const std::string& path, const SqliteOptions& options) {
    // Before SQLite opens the file (and recovers, then at the last close deletes, the WAL).
    const std::filesystem::path db(path);
    const std::filesystem::path recovery = options.recoveryDir.empty() ? db.parent_path() / "recovery" : options.recoveryDir;
    const WalGuard guard = guardWal(db, recovery, options.acceptDamagedWal);
    // A new database is the owner's alone (it holds the secret server seeds of running games);
    // SQLite gives its WAL and shared-memory files the same permissions.
    if (const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600); fd >= 0) ::close(fd);
    auto storage = std::make_unique<SqliteStorage>(path, options.syncFull, options.quickCheck);
    if (guard.walLeft && guard.report.damaged) {
        const auto rows = countRows(path);
        std::cerr << "senet-server: WARNING: after the damaged WAL, " << path << " holds "
                  << (rows ? std::to_string(rows->first) + " games and " + std::to_string(rows->second) + " actions"
                           : std::string("rows that could not be counted"))
                  << std::endl;
    }
    if (guard.walLeft) pruneCopies(recovery, kKeptRecoveryCopies);
    return storage;
}

std::unique_ptr<Storage> openSqliteStorage(const std::string& path, bool syncFull) {
    SqliteOptions options;
    options.syncFull = syncFull;
    return openSqliteStorage(path, options);
}

}  // namespace senet::server
