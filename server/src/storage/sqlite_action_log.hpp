// The SQLite storage's action log. Throws and moves are appended to `action_log`, a rowid table
// whose new rows all go to its last page, so a group commit of N games' actions writes a page or
// two instead of one B-tree leaf of `actions` (keyed by game and seq) per game. Now and then
// the log is folded into `actions` in one transaction, sorted by game: each game's leaf is then
// written once for all its logged actions. What is logged and not yet folded is also kept in
// memory, per game, for reads and for refusing a duplicate seq. server/README.md, "Persistence".
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sqlite_db.hpp"
#include "storage.hpp"

namespace senet::server {

/// The log of one SQLite connection. Not thread-safe: SqliteStorage calls it under its mutex.
class SqliteActionLog {
public:
    /// Prepares its statements on `db`, whose schema holds `actions` and `action_log`, then
    /// folds what a stopped or killed process left in the log. A fold is due once `foldRows`
    /// (>= 1) actions are logged. Throws StorageError when the statements or that fold fail.
    SqliteActionLog(sqlitedb::Db& db, std::size_t foldRows);

    /// Inserts action `a` of game `id`, done at `atMs` (Unix ms), into the log inside the
    /// caller's open transaction, and remembers it (until undoLast, rolledBack or a fold).
    /// Throws StorageError when game `id` already has an action with seq `a.seq`, logged or
    /// folded: nothing is inserted or remembered then.
    void insert(const std::string& id, const ActionRow& a, std::int64_t atMs);
    /// Forgets the last insert (its savepoint was rolled back).
    void undoLast();
    /// Forgets every insert since the last committed() (its transaction was rolled back).
    void rolledBack();
    /// The inserts so far are durable: they can no longer be undone.
    void committed() { undo_.clear(); }

    /// Game `id`'s logged actions in seq order (to put after what `actions` holds), or null.
    const std::vector<ActionRow>* logged(const std::string& id) const;
    /// When game `id` last had an action logged (Unix ms), or 0 when none is logged.
    std::int64_t lastLoggedMs(const std::string& id) const;
    /// Actions logged and not yet folded.
    std::size_t size() const { return rows_; }
    /// Whether enough actions are logged for a fold (after a failed fold: as many again).
    bool foldDue() const { return rows_ >= nextFold_; }

    /// Moves every logged action into `actions` in one transaction (the caller holds none).
    /// Throws StorageError; then nothing moved, and the next fold is due after `foldRows` more.
    void fold();

private:
    struct Game {
        std::int64_t maxSeq = -1;    ///< highest seq stored, folded or logged (-1: none)
        std::int64_t lastAtMs = 0;   ///< at_ms of the last logged action
        std::vector<ActionRow> rows; ///< logged actions, in seq order
    };
    struct Undo {
        Game* game;
        std::int64_t seq, maxSeq, lastAtMs;  ///< the inserted seq; the game's values before it
    };
    Game& game(const std::string& id);
    bool stored(const std::string& id, const Game& g, std::int64_t seq);

    sqlitedb::Db& db_;
    std::size_t foldRows_, nextFold_;
    sqlitedb::Stmt insert_, maxSeq_, hasSeq_, count_, foldInsert_, foldDelete_;
    std::unordered_map<std::string, Game> games_;
    std::vector<Undo> undo_;
    std::size_t rows_ = 0;
};

}  // namespace senet::server
