#include "sqlite_action_log.hpp"

#include <algorithm>

namespace senet::server {

using sqlitedb::Use;

SqliteActionLog::SqliteActionLog(sqlitedb::Db& db, std::size_t foldRows)
    : db_(db),
      foldRows_(std::max<std::size_t>(1, foldRows)),
      nextFold_(foldRows_),
      insert_(db, "INSERT INTO action_log (game_id, seq, kind, outcome, move, at_ms) VALUES (?1,?2,?3,?4,?5,?6)"),
      maxSeq_(db, "SELECT max(seq) FROM actions WHERE game_id = ?1"),
      hasSeq_(db, "SELECT 1 FROM actions WHERE game_id = ?1 AND seq = ?2"),
      count_(db, "SELECT count(*) FROM action_log"),
      // Sorted by game, so that each game's leaf of `actions` is written once per fold.
      foldInsert_(db,
                  "INSERT INTO actions (game_id, seq, kind, outcome, move, at_ms) "
                  "SELECT game_id, seq, kind, outcome, move, at_ms FROM action_log ORDER BY game_id, seq"),
      foldDelete_(db, "DELETE FROM action_log") {
    {
        Use c(count_);
        c.step();
        rows_ = static_cast<std::size_t>(c.columnInt(0));
    }
    if (rows_ == 0) return;
    try {
        fold();  // what the last process logged: `actions` holds it all from here on
    } catch (const StorageError& e) {
        // Only actions stored twice can make it fail (two processes wrote the database at once,
        // or it was edited): the server must not start on it, and the operator must know why.
        throw StorageError(std::string("refusing to start: the ") + std::to_string(rows_) +
                           " actions in the action log could not be folded into the actions table (" + e.what() +
                           "); see server/README.md (Damaged database, \"The action log does not fold\")");
    }
}

SqliteActionLog::Game& SqliteActionLog::game(const std::string& id) {
    if (auto it = games_.find(id); it != games_.end()) return it->second;
    Use u(maxSeq_);
    u.text(1, id);
    u.step();
    Game g;
    if (!u.columnNull(0)) g.maxSeq = u.columnInt(0);
    return games_.emplace(id, std::move(g)).first->second;
}

bool SqliteActionLog::stored(const std::string& id, const Game& g, std::int64_t seq) {
    if (seq > g.maxSeq) return false;  // every action so far: a seq above the highest is new
    if (std::any_of(g.rows.begin(), g.rows.end(), [&](const ActionRow& r) { return r.seq == seq; })) return true;
    Use u(hasSeq_);
    u.text(1, id).integer(2, seq);
    return u.step();
}

void SqliteActionLog::insert(const std::string& id, const ActionRow& a, std::int64_t atMs) {
    Game& g = game(id);
    if (stored(id, g, a.seq))
        throw StorageError(sqlitedb::where(db_.get()) + ": game " + id + " already has action " + std::to_string(a.seq));
    {
        Use u(insert_);
        u.text(1, id).integer(2, a.seq).text(3, std::string_view(&a.kind, 1)).integer(4, a.outcome).text(5, a.move);
        u.integer(6, atMs);
        u.step();
    }
    undo_.push_back(Undo{&g, a.seq, g.maxSeq, g.lastAtMs});
    // Kept in seq order: an action filling a gap below the highest goes to its place.
    const auto at = std::upper_bound(g.rows.begin(), g.rows.end(), a.seq, [](std::int64_t s, const ActionRow& r) { return s < r.seq; });
    g.rows.insert(at, a);
    g.maxSeq = std::max(g.maxSeq, a.seq);
    g.lastAtMs = atMs;
    ++rows_;
}

void SqliteActionLog::undoLast() {
    if (undo_.empty()) return;
    const Undo u = undo_.back();
    undo_.pop_back();
    auto& rows = u.game->rows;  // duplicates are refused: exactly one row has the seq
    rows.erase(std::find_if(rows.begin(), rows.end(), [&](const ActionRow& r) { return r.seq == u.seq; }));
    u.game->maxSeq = u.maxSeq;
    u.game->lastAtMs = u.lastAtMs;
    --rows_;
}

void SqliteActionLog::rolledBack() {
    while (!undo_.empty()) undoLast();
}

const std::vector<ActionRow>* SqliteActionLog::logged(const std::string& id) const {
    const auto it = games_.find(id);
    return it == games_.end() || it->second.rows.empty() ? nullptr : &it->second.rows;
}

std::int64_t SqliteActionLog::lastLoggedMs(const std::string& id) const {
    const auto it = games_.find(id);
    return it == games_.end() || it->second.rows.empty() ? 0 : it->second.lastAtMs;
}

void SqliteActionLog::fold() {
    undo_.clear();  // called between transactions: every insert so far is committed
    db_.exec("BEGIN IMMEDIATE");
    try {
        Use(foldInsert_).step();
        Use(foldDelete_).step();
        db_.exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
        nextFold_ = rows_ + foldRows_;
        throw;
    }
    games_.clear();
    rows_ = 0;
    nextFold_ = foldRows_;
}

}  // namespace senet::server
