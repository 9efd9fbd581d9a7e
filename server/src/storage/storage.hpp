// Where games live between restarts: a small interface (memory, SQLite and PostgreSQL backends).
// Every method is thread-safe and either succeeds or throws StorageError; nothing is cached.
#pragma once

#include <array>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "game_kinds.hpp"

namespace senet::server {

/// A storage failure (I/O, a full disk, a broken database). The action that caused it did not happen.
struct StorageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Thrown by a write to a game whose lease this instance no longer holds (another instance took
/// the game over: its fencing epoch is newer). Nothing was written. The room must leave memory
/// and its connections be closed with the "moved" close code (PROTOCOL.md).
struct LeaseLost : StorageError {
    using StorageError::StorageError;
};

/// Thrown when opening a shared store whose instance name another live process holds
/// (PostgresOptions::lockInstance), or a SQLite database another live process serves (it holds
/// an exclusive flock on the database file itself). Nothing was changed; restarting cannot help
/// until that process stops or this one gets another --instance, so senet-server exits with
/// status 3 on it (server/README.md, "Exit status") and the systemd unit does not restart.
struct InstanceNameInUse : StorageError {
    using StorageError::StorageError;
};

/// The opponent stored as `text` in game `id`'s row. Throws StorageError for a string this
/// server never writes (a damaged row, or one of a newer version).
inline Opponent storedOpponent(const std::string& id, std::string_view text) {
    if (const auto o = parseOpponent(text)) return *o;
    throw StorageError("game " + id + ": unknown opponent \"" + std::string(text) + "\" in the database");
}

/// The status stored as `text` in game `id`'s row; throws StorageError as storedOpponent does.
inline GameStatus storedStatus(const std::string& id, std::string_view text) {
    if (const auto s = parseGameStatus(text)) return *s;
    throw StorageError("game " + id + ": unknown status \"" + std::string(text) + "\" in the database");
}

/// One game's row: everything but its actions.
struct GameRow {
    std::string id;
    std::string ruleset;    ///< "standard" | "jequier" | "bell"
    Opponent opponent = Opponent::Friend;
    std::string level;      ///< computer level name, "" otherwise
    std::vector<std::uint8_t> serverSeed;  ///< 32 bytes, secret until the game is over
    std::array<std::optional<std::string>, 2> clientSeeds;  ///< per seat, nullopt until known
    std::array<std::string, 2> seatHashes;  ///< hex SHA-256 of each seat's secret; "" free; kComputerSeatHash
    std::string inviteHash;                 ///< hex SHA-256 of the invite token ("" when none)
    std::int64_t createdMs = 0;             ///< Unix time in ms
    std::int64_t updatedMs = 0;
    GameStatus status = GameStatus::Playing;
    std::string result;                     ///< the result JSON once over, "" before
    std::string rematchOf;                  ///< the game this one is a rematch of, or ""
    std::string rematch;                    ///< the rematch game of this one, or ""
    /// A lobby game's guests (Room::setGuestNames: names, bot marks, the unstarted abort's
    /// time) as JSON, "" when none. Kept only by a shared store (PostgreSQL), where the next
    /// instance to load the game needs them, and there only until the game ends.
    std::string guests;
};

/// One accepted action, in order: `seq` is the game's ply (0-based action number).
struct ActionRow {
    std::int64_t seq = 0;
    char kind = 't';        ///< 't' a throw, 'm' a move
    int outcome = 0;        ///< throws: the chance outcome index 0..15
    std::string move;       ///< moves: "FROM-TO" / "FROM-off"
};

/// One action of a batch written in one transaction (group commit): `resultJson` non-empty makes
/// it the game's final action (appendFinalAction), else a plain appendAction.
struct BatchedAction {
    std::string gameId;
    ActionRow action;
    std::string resultJson;
};

/// The storage interface. Implementations must make a write durable against a crash of the
/// process before returning.
class Storage {
public:
    virtual ~Storage() = default;
    /// Inserts a new game. When `game.rematchOf` names a game, that game's `rematch` is set to
    /// this one in the same transaction (a rematch exists linked or not at all). Throws
    /// StorageError (also for a duplicate id); nothing is stored then.
    virtual void createGame(const GameRow& game) = 0;
    /// Sets a seat's secret hash only if the seat is still free; false when it was taken.
    virtual bool takeSeat(const std::string& id, int seat, const std::string& hash) = 0;
    /// Records a seat's client seed.
    virtual void setClientSeed(const std::string& id, int seat, const std::string& seed) = 0;
    /// Keeps a lobby game's guests (GameRow::guests) for the instance that loads it next. A
    /// store of one instance keeps nothing (its rooms hold the guests in memory): the default.
    /// Throws StorageError (PostgreSQL: LeaseLost when this instance does not hold the game).
    virtual void setGuests(const std::string& id, const std::string& guests) { (void)id, (void)guests; }
    /// Appends an action; `action.seq` must be the next one (a duplicate seq throws).
    virtual void appendAction(const std::string& id, const ActionRow& action) = 0;
    /// Appends the action that ends the game and marks the game over with its result JSON, in
    /// one transaction: both are stored or neither (the server seed is revealed only after).
    virtual void appendFinalAction(const std::string& id, const ActionRow& action, const std::string& resultJson) = 0;
    /// Writes many games' actions in as few transactions as the store can (group commit); each
    /// item succeeds or fails alone (a savepoint each). Returns one entry per item: null when it
    /// is durable, else the StorageError (or LeaseLost) it met, which changed nothing of it.
    virtual std::vector<std::exception_ptr> appendBatch(const std::vector<BatchedAction>& batch) {
        std::vector<std::exception_ptr> errors(batch.size());
        for (std::size_t i = 0; i < batch.size(); ++i) {
            try {
                if (batch[i].resultJson.empty()) appendAction(batch[i].gameId, batch[i].action);
                else appendFinalAction(batch[i].gameId, batch[i].action, batch[i].resultJson);
            } catch (const StorageError&) {
                errors[i] = std::current_exception();
            }
        }
        return errors;
    }
    /// Marks a game over with its result JSON (a resignation or claim).
    virtual void finishGame(const std::string& id, const std::string& resultJson) = 0;
    /// Links a game to its rematch.
    virtual void setRematch(const std::string& id, const std::string& rematchId) = 0;
    /// Marks an unfinished game expired.
    virtual void expireGame(const std::string& id) = 0;
    /// The game row, or nullopt for an unknown id.
    virtual std::optional<GameRow> loadGame(const std::string& id) = 0;
    /// The game's actions in order.
    virtual std::vector<ActionRow> loadActions(const std::string& id) = 0;
    /// Ids of every game with status "playing".
    virtual std::vector<std::string> unfinishedGames() = 0;
    /// Housekeeping between writes, off every reply's path: the commit queue calls it after it
    /// has delivered a batch's results (SQLite folds its action log here). Never throws.
    virtual void maintain() {}

    // --- Ownership of games by one instance among several (server/README.md, "Several instances").
    // A single-instance store (SQLite) owns every game: the defaults below say so. A shared store
    // (PostgreSQL) keeps a lease per game: (owner instance, fencing epoch, expiry). Every write to a
    // game carries the epoch this store acquired for it; a write whose epoch is stale throws
    // LeaseLost and changes nothing.

    /// Takes or renews the lease of game `id` for `instance` until `nowMs + ttlMs` (Unix ms).
    /// Succeeds when the lease is free, expired, or already this instance's; a takeover from
    /// another instance increments the epoch. Returns the epoch held, or nullopt when another
    /// instance holds a live lease. Later writes to `id` through this store carry that epoch.
    virtual std::optional<std::int64_t> acquireLease(const std::string& id, const std::string& instance,
                                                     std::int64_t nowMs, std::int64_t ttlMs) {
        (void)id, (void)instance, (void)nowMs, (void)ttlMs;
        return 1;
    }
    /// Extends every lease `instance` holds to `nowMs + ttlMs` in one statement. Returns the ids
    /// of the games among `held` whose lease it no longer holds (taken over while it was away).
    virtual std::vector<std::string> renewLeases(const std::string& instance, const std::vector<std::string>& held,
                                                 std::int64_t nowMs, std::int64_t ttlMs) {
        (void)instance, (void)held, (void)nowMs, (void)ttlMs;
        return {};
    }
    /// Gives up the lease of `id` (the room left memory); another instance may take it at once.
    virtual void releaseLease(const std::string& id, const std::string& instance) { (void)id, (void)instance; }
    /// Ids of unfinished games whose lease is free or expired at `nowMs` (the ones an instance
    /// may take over), at most `limit`.
    virtual std::vector<std::string> orphanedGames(std::int64_t nowMs, std::size_t limit) {
        (void)nowMs;
        auto ids = unfinishedGames();
        if (ids.size() > limit) ids.resize(limit);
        return ids;
    }

    /// Whether the store can take writes now, for GET /healthz: "" when it can, else a short
    /// reason fit for the public ("postgresql unreachable": no host, path or URL; details go to
    /// the log). May make one round trip to the database (bounded by the connection's
    /// timeouts); never throws. The default says healthy.
    virtual std::string health() { return {}; }
};

/// How openSqliteStorage treats the database at start (server/README.md, "Damaged database").
struct SqliteOptions {
    bool syncFull = false;          ///< synchronous=FULL (survives power loss) instead of NORMAL (process crashes)
    bool acceptDamagedWal = false;  ///< serve what SQLite recovers from a damaged WAL (logged) instead of refusing
    /// Start though the state file says the database held games that are gone (logged; the state re-based).
    bool acceptLostGames = false;
    bool quickCheck = true;         ///< run PRAGMA quick_check before serving
    std::filesystem::path recoveryDir;  ///< where a crash's WAL is copied; empty: "recovery" beside the database
    /// Actions logged before the action log is folded into `actions` (sqlite_action_log.hpp), >= 1.
    std::size_t foldRows = 16384;
};

/// Recovery copies of intact WALs kept (copies of damaged ones are never deleted).
inline constexpr int kKeptRecoveryCopies = 3;

/// Opens (creating if needed) the SQLite database `path` in WAL mode. Before anything opens it,
/// its state file (sqlite_state.hpp) says whether games are missing; before SQLite opens it, a
/// WAL left by a crash is copied aside and validated; then PRAGMA quick_check runs. Throws
/// StorageError, naming the files, when games are missing or the WAL is damaged (unless
/// accepted), the check fails or the database cannot be opened.
std::unique_ptr<Storage> openSqliteStorage(const std::string& path, const SqliteOptions& options);

/// The same with default options but `syncFull`.
std::unique_ptr<Storage> openSqliteStorage(const std::string& path, bool syncFull);

class Metrics;

/// How openPostgresStorage runs (server/README.md, "PostgreSQL").
struct PostgresOptions {
    /// This instance's name in the games' leases; unique among the instances sharing a database.
    std::string instance = "single";
    /// The lease createGame gives the creating instance (epoch 1), and acquireOnLoad takes, in ms.
    std::int64_t leaseTtlMs = 30000;
    /// Connections in the pool: the most storage calls running at once.
    int poolSize = 4;
    /// Sole owner (one instance): loadGame takes the game's lease when this store holds none,
    /// so a single server needs no lease calls. Several instances: false, and the registry
    /// calls acquireLease before writing to a game.
    bool acquireOnLoad = true;
    /// Where the storage call time and the round trips to PostgreSQL are counted (may be null).
    Metrics* metrics = nullptr;
    /// Holds `instance` for the life of the store (a session advisory lock on a connection of
    /// its own): opening a second store of the same name on the same database, in any process,
    /// fails with InstanceNameInUse naming the instance and the process that holds it.
    bool lockInstance = true;
    /// How long opening waits for a holder of the name that is going away (a process just
    /// killed: PostgreSQL frees its lock when it sees the connection closed), in ms.
    std::int64_t instanceWaitMs = 5000;
};

/// Opens the PostgreSQL database at `url` (postgresql://user[:password]@host[:port]/db or
/// postgresql:///db?host=/socket/dir), applying the schema migrations it lacks (once, under an
/// advisory lock: instances starting at once are safe), then a pool of connections with every
/// statement prepared. Every write to a game is fenced by the lease epoch this store holds for
/// it: a write to a game whose lease it never acquired, or lost, throws LeaseLost. Throws
/// StorageError when the server cannot be reached, the URL is bad, the schema is newer, or
/// (options.lockInstance) InstanceNameInUse when another live process holds options.instance on
/// this database.
std::unique_ptr<Storage> openPostgresStorage(const std::string& url, const PostgresOptions& options = {});

}  // namespace senet::server
