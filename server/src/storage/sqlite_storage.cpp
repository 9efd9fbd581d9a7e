// The SQLite backend of Storage: one connection, serialised by a mutex, prepared statements
// (over the RAII wrappers of sqlite_db.hpp), and an exclusive flock on the database file held
// while the process serves it.
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <mutex>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "sqlite_health.hpp"
#include "log_limit.hpp"
#include "sqlite_action_log.hpp"
#include "sqlite_db.hpp"
#include "sqlite_guard.hpp"
#include "sqlite_state.hpp"
#include "storage.hpp"

namespace senet::server {

namespace {

using sqlitedb::Db;
using sqlitedb::Stmt;
using sqlitedb::Use;
using sqlitedb::where;

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
CREATE TABLE IF NOT EXISTS action_log (
  n INTEGER PRIMARY KEY,
  game_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  outcome INTEGER NOT NULL,
  move TEXT NOT NULL,
  at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS store_mark (
  n INTEGER PRIMARY KEY,
  started_ms INTEGER NOT NULL
);
)sql";

/// An exclusive flock on the database file itself, held by the process that serves it: a second
/// senet-server on the same data directory is refused before it touches the database or its WAL
/// (which it would take for one left by a crash). SQLite's own locks are POSIX record locks,
/// which flock locks neither meet nor release.
class DataLock {
public:
    /// Opens (creating, mode 0600, unless only its WAL is there: guardWal reports that) the
    /// database file and takes the lock, waiting up to 5 s for a holder that is going away (a
    /// process just killed). Throws InstanceNameInUse when another process holds it (naming its
    /// pid), StorageError when the file cannot be opened or locked.
    explicit DataLock(const std::string& dbPath) {
        std::error_code ec;
        if (!std::filesystem::exists(dbPath, ec) && std::filesystem::exists(dbPath + "-wal", ec)) return;
        fd_ = ::open(dbPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd_ < 0) throw StorageError("cannot open " + dbPath + ": " + std::strerror(errno));
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            const int err = errno;
            if (err == EWOULDBLOCK && std::chrono::steady_clock::now() < deadline) {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                continue;
            }
            const std::string holder = holderOf(fd_);
            ::close(fd_);
            fd_ = -1;
            if (err == EWOULDBLOCK)
                throw InstanceNameInUse("the database " + dbPath + " is in use by another process" +
                                        (holder.empty() ? std::string() : " (pid " + holder + ")") +
                                        ": is another senet-server running with the same --data-dir? Stop it, or give this "
                                        "one a data directory of its own");
            throw StorageError("cannot lock " + dbPath + ": " + std::strerror(err));
        }
    }
    DataLock(DataLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    DataLock& operator=(DataLock&&) = delete;
    ~DataLock() {
        if (fd_ >= 0) ::close(fd_);  // releases the lock (after the connection closed: see lock_)
    }

private:
    /// The pid holding a flock on the file open as `fd`, from /proc/locks, or "".
    static std::string holderOf(int fd) {
        struct stat st {};
        if (::fstat(fd, &st) != 0) return {};
        std::ifstream locks("/proc/locks");
        std::string line;
        const std::string inode = ":" + std::to_string(st.st_ino);
        while (std::getline(locks, line)) {
            // "1: FLOCK  ADVISORY  WRITE 4242 08:01:123456 0 EOF" ("->" marks a waiter)
            std::istringstream in(line);
            std::string id, kind, mode, access, pid, file;
            if (!(in >> id >> kind) || kind != "FLOCK" || !(in >> mode >> access >> pid >> file)) continue;
            if (file.size() > inode.size() && file.compare(file.size() - inode.size(), inode.size(), inode) == 0) return pid;
        }
        return {};
    }

    int fd_ = -1;
};

class SqliteStorage final : public Storage {
public:
    SqliteStorage(DataLock lock, const std::string& path, const SqliteOptions& options)
        : lock_(std::move(lock)),
          db_(path),
          init_(db_, path, options.syncFull, options.quickCheck),
          insertGame_(db_,
                      "INSERT INTO games (id, ruleset, opponent, level, server_seed, client_seed0, client_seed1, seat_hash0, "
                      "seat_hash1, invite_hash, created_ms, updated_ms, status, result, rematch_of, rematch) VALUES "
                      "(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)"),
          takeSeat0_(db_, "UPDATE games SET seat_hash0 = ?2, updated_ms = ?3 WHERE id = ?1 AND seat_hash0 = ''"),
          takeSeat1_(db_, "UPDATE games SET seat_hash1 = ?2, updated_ms = ?3 WHERE id = ?1 AND seat_hash1 = ''"),
          seed0_(db_, "UPDATE games SET client_seed0 = ?2 WHERE id = ?1"),
          seed1_(db_, "UPDATE games SET client_seed1 = ?2 WHERE id = ?1"),
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
          release_(db_, "RELEASE item"),
          markStart_(db_, "INSERT OR REPLACE INTO store_mark (n, started_ms) VALUES (1, ?1)"),
          log_(db_, options.foldRows),
          path_(path),
          stateFile_(stateFileOf(path)),
          file_(fileIdentity(path)),
          wal_(fileIdentity(path + "-wal")) {
        // The WAL exists from the first read on (the action log's count), and stays the same
        // file while this connection is open.
        if (!file_ || !wal_) throw StorageError("sqlite " + path + ": cannot stat the database file or its WAL, just opened");
    }

    ~SqliteStorage() override {
        // A clean stop leaves every action in `actions` (a killed process's log is folded at
        // the next start).
        std::lock_guard lock(mutex_);
        try {
            if (log_.size() > 0) log_.fold();
        } catch (const StorageError& e) {
            std::cerr << "senet-server: the action log was not folded at the stop (the next start folds it): " << e.what()
                      << std::endl;
        }
        markClean();
    }

    /// Gives the database its identity (once: PRAGMA application_id, checkpointed into the main
    /// file at once), commits a start mark into the WAL and records the state as serving (an
    /// unclean stop until markClean): from here on a stop that is not clean leaves a WAL that is
    /// not empty. `guard` is what guardLostGames found; a loss it accepted re-bases the state.
    void markServing(const LostGamesGuard& guard) {
        std::lock_guard lock(mutex_);
        auto id = static_cast<std::uint32_t>(pragmaInt("PRAGMA application_id"));
        if (id == 0) {
            id = newStoreId();
            db_.exec(("PRAGMA application_id=" + std::to_string(static_cast<std::int32_t>(id))).c_str());
            if (!fullCheckpoint() || storeIdOnDisk(path_) != id)
                throw StorageError(where(db_.get()) + ": the database's identity could not be written to the main file");
        }
        Use mark(markStart_);
        mark.integer(1, nowMs());
        mark.step();
        const auto& was = guard.recorded;
        const std::int64_t games = pragmaInt("SELECT count(*) FROM games");
        state_ = StoreState{id, games > 0 || (was && was->heldGames && was->id == id && guard.lost.empty()), false, games};
        stateFile_.write(state_);
    }

    void createGame(const GameRow& g) override {
        std::lock_guard lock(mutex_);
        checkFile();
        if (!state_.heldGames) {
            // Recorded before the game exists: the state file never says less than the database holds.
            StoreState held = state_;
            held.heldGames = true;
            held.games = state_.games + 1;
            stateFile_.write(held);
            state_ = held;
        }
        transaction([&] {
            Use u(insertGame_);
            u.text(1, g.id).text(2, g.ruleset).text(3, toString(g.opponent)).text(4, g.level).blob(5, g.serverSeed);
            u.optText(6, g.clientSeeds[0]).optText(7, g.clientSeeds[1]).text(8, g.seatHashes[0]).text(9, g.seatHashes[1]);
            u.text(10, g.inviteHash).integer(11, g.createdMs).integer(12, g.updatedMs).text(13, toString(g.status)).text(14, g.result);
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
        checkFile();
        Use u(seat == 0 ? takeSeat0_ : takeSeat1_);
        u.text(1, id).text(2, hash).integer(3, nowMs());
        u.step();
        return u.changes() == 1;
    }

    void setClientSeed(const std::string& id, int seat, const std::string& seed) override {
        std::lock_guard lock(mutex_);
        checkFile();
        Use u(seat == 0 ? seed0_ : seed1_);
        u.text(1, id).text(2, seed);
        u.step();
    }

    void appendAction(const std::string& id, const ActionRow& a) override { appendOne(BatchedAction{id, a, {}}); }

    void appendFinalAction(const std::string& id, const ActionRow& a, const std::string& resultJson) override {
        appendOne(BatchedAction{id, a, resultJson});
    }

    std::vector<std::exception_ptr> appendBatch(const std::vector<BatchedAction>& batch) override {
        std::lock_guard lock(mutex_);
        return appendLocked(batch);
    }

    void maintain() override {
        std::lock_guard lock(mutex_);
        foldIfDue();
    }

    void finishGame(const std::string& id, const std::string& resultJson) override {
        std::lock_guard lock(mutex_);
        checkFile();
        Use u(finish_);
        u.text(1, id).text(2, resultJson).integer(3, nowMs());
        u.step();
    }

    void setRematch(const std::string& id, const std::string& rematchId) override {
        std::lock_guard lock(mutex_);
        checkFile();
        Use u(rematch_);
        u.text(1, id).text(2, rematchId);
        u.step();
    }

    void expireGame(const std::string& id) override {
        std::lock_guard lock(mutex_);
        checkFile();
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
        g.opponent = storedOpponent(id, u.columnText(2));
        g.level = u.columnText(3);
        g.serverSeed = u.columnBlob(4);
        g.clientSeeds = {u.columnOptText(5), u.columnOptText(6)};
        g.seatHashes = {u.columnText(7), u.columnText(8)};
        g.inviteHash = u.columnText(9);
        g.createdMs = u.columnInt(10);
        g.updatedMs = u.columnInt(11);
        g.updatedMs = std::max(g.updatedMs, log_.lastLoggedMs(id));  // an action not yet folded
        g.status = storedStatus(id, u.columnText(12));
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
        if (const auto* logged = log_.logged(id)) {
            // Logged actions follow the folded ones (a seq is stored once); merged in seq order.
            const auto middle = out.insert(out.end(), logged->begin(), logged->end());
            std::inplace_merge(out.begin(), middle, out.end(), [](const ActionRow& a, const ActionRow& b) { return a.seq < b.seq; });
        }
        return out;
    }

    /// sqliteHealth of the file this store opened (sqlite_health.hpp): without the store's mutex, so
    /// a long batch or fold never holds /healthz up.
    std::string health() override { return sqliteHealth(path_, file_); }

    std::vector<std::string> unfinishedGames() override {
        std::lock_guard lock(mutex_);
        Use u(unfinished_);
        std::vector<std::string> out;
        while (u.step()) out.push_back(u.columnText(0));
        return out;
    }

private:
    /// The first column of the first row of `sql`, an integer.
    std::int64_t pragmaInt(const char* sql) {
        Stmt st(db_, sql);
        Use u(st);
        return u.step() ? u.columnInt(0) : 0;
    }

    /// PRAGMA wal_checkpoint(FULL): true when every frame of the WAL is in the main file.
    bool fullCheckpoint() {
        Stmt st(db_, "PRAGMA wal_checkpoint(FULL)");
        Use u(st);
        return u.step() && u.columnInt(0) == 0 && u.columnInt(1) == u.columnInt(2);
    }

    /// At a clean stop, after the last write: once a full checkpoint has put every frame into
    /// the main file, the state file records the stop as clean. Never throws (a failure is
    /// logged; the next start then sees an unclean stop, and the WAL SQLite's close leaves).
    /// The caller holds mutex_.
    void markClean() {
        if (state_.id == 0) return;  // never served
        try {
            checkFile();  // the files at the paths are still the ones served
            if (!fullCheckpoint()) throw StorageError(where(db_.get()) + ": the final checkpoint did not complete");
            state_.clean = true;
            state_.games = pragmaInt("SELECT count(*) FROM games");
            stateFile_.write(state_);
        } catch (const StorageError& e) {
            std::cerr << "senet-server: the stop is not recorded as clean: " << e.what() << std::endl;
        }
    }

    /// Before every write: throws StorageError when the database file or its WAL was deleted or
    /// replaced since it was opened. Such writes would succeed into a file nobody will open again (the
    /// next start would not see them): refused, they change nothing and the player is told.
    /// Two stat()s per write or per batch. The caller holds mutex_.
    void checkFile() const {
        if (fileIdentity(path_) != file_ || fileIdentity(path_ + "-wal") != wal_)
            throw StorageError("sqlite " + path_ +
                               ": the database file or its WAL was deleted or replaced while the server was running; writes "
                               "are refused until it is back (server/README.md, Damaged database)");
    }

    /// appendAction and appendFinalAction: a batch of one, its error thrown.
    void appendOne(const BatchedAction& item) {
        std::lock_guard lock(mutex_);
        const auto errors = appendLocked(std::vector<BatchedAction>{item});
        if (errors[0]) std::rethrow_exception(errors[0]);
        foldIfDue();  // no commit queue calls maintain() after these
    }

    /// appendBatch, the caller holding mutex_.
    std::vector<std::exception_ptr> appendLocked(const std::vector<BatchedAction>& batch) {
        std::vector<std::exception_ptr> errors(batch.size());
        if (batch.empty()) return errors;
        // One transaction (one WAL commit) for the whole batch; the actions go to the action log
        // (sqlite_action_log.hpp), at the end of one table. An item that fails (a duplicate seq,
        // a game to finish that does not exist) is undone alone: a plain action is one INSERT,
        // which SQLite undoes by itself when it fails (the transaction stays open); an action
        // that ends the game is two statements, inside a savepoint of their own. The control
        // statements are prepared once: parsing them per item cost more than the insert.
        try {
            checkFile();
            Use(begin_).step();
        } catch (const StorageError&) {
            std::fill(errors.begin(), errors.end(), std::current_exception());
            return errors;
        }
        const std::int64_t now = nowMs();
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const BatchedAction& b = batch[i];
            const bool final = !b.resultJson.empty();
            bool logged = false;
            try {
                if (final) Use(savepoint_).step();
            } catch (const StorageError&) {
                errors[i] = std::current_exception();
                continue;
            }
            try {
                log_.insert(b.gameId, b.action, now);
                logged = true;
                if (final) {
                    Use f(finish_);
                    f.text(1, b.gameId).text(2, b.resultJson).integer(3, now);
                    f.step();
                    if (f.changes() != 1) throw StorageError("sqlite: no game " + b.gameId + " to finish");
                    Use(release_).step();
                }
            } catch (const StorageError&) {
                errors[i] = std::current_exception();
                if (logged) log_.undoLast();
                if (final) {
                    sqlite3_exec(db_.get(), "ROLLBACK TO item", nullptr, nullptr, nullptr);
                    sqlite3_exec(db_.get(), "RELEASE item", nullptr, nullptr, nullptr);
                }
                if (sqlite3_get_autocommit(db_.get())) {
                    // Some errors (a full disk, I/O) roll the whole transaction back: nothing of
                    // the batch is stored, and no later item may run outside a transaction.
                    log_.rolledBack();
                    std::fill(errors.begin(), errors.end(), errors[i]);
                    return errors;
                }
            }
        }
        try {
            Use(commit_).step();
            log_.committed();
        } catch (const StorageError&) {
            // Nothing of the batch is durable: every item fails with the commit's error.
            sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
            log_.rolledBack();
            std::fill(errors.begin(), errors.end(), std::current_exception());
        }
        return errors;
    }

    /// Folds the action log into `actions` once enough is logged; a failed fold is logged and
    /// tried again later (the log and its copy in memory stay whole). The caller holds mutex_.
    void foldIfDue() {
        if (!log_.foldDue()) return;
        try {
            log_.fold();
        } catch (const StorageError& e) {
            logLimited("sqlite fold", std::string("folding the action log failed (tried again later): ") + e.what());
        }
    }

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
            // 64 MiB of pages (-N is N KiB; the default is 2000 KiB): the leaves a fold writes and
            // the B-tree's inner pages stay in memory instead of being read again from the file.
            db.exec("PRAGMA cache_size=-65536");
            db.exec("PRAGMA foreign_keys=ON");
            if (check) quickCheck(db.get(), path);  // before anything is written
            db.exec(kSchema);
        }
    };

    std::mutex mutex_;
    DataLock lock_;  // first: released last, after the connection is closed
    Db db_;
    Init init_;
    Stmt insertGame_, takeSeat0_, takeSeat1_, seed0_, seed1_, finish_, rematch_, expire_, selectGame_,
        selectActions_, unfinished_, begin_, commit_, savepoint_, release_, markStart_;
    SqliteActionLog log_;
    const std::string path_;
    const StoreStateFile stateFile_;  ///< what the database should hold, kept beside it (sqlite_state.hpp)
    StoreState state_;                ///< as last written; id 0 until markServing
    const std::optional<FileIdentity> file_;  ///< the database file opened
    const std::optional<FileIdentity> wal_;   ///< its WAL, as opened
};

}  // namespace

std::unique_ptr<Storage> openSqliteStorage(const std::string& path, const SqliteOptions& options) {
    // Before SQLite opens the file (and recovers, then at the last close deletes, the WAL).
    const std::filesystem::path db(path);
    const std::filesystem::path recovery = options.recoveryDir.empty() ? db.parent_path() / "recovery" : options.recoveryDir;
    // Before the WAL is looked at: a live server's WAL is no crash's. A new database is the
    // owner's alone (it holds the secret server seeds of running games), created 0600 here;
    // SQLite gives its WAL and shared-memory files the same permissions.
    // Before anything creates or opens the files: is what the state file says held all there?
    const LostGamesGuard lost = guardLostGames(db, StoreStateFile(stateFileOf(db)), options.acceptLostGames);
    if (lost.mainLost) setAsideForeignWal(db, recovery);
    DataLock lock(path);
    const WalGuard guard = guardWal(db, recovery, options.acceptDamagedWal);
    auto storage = std::make_unique<SqliteStorage>(std::move(lock), path, options);
    storage->markServing(lost);
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
