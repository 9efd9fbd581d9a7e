// The SQLite storage's action log (server/src/storage/sqlite_action_log.hpp): actions are appended to
// `action_log` and folded into `actions` now and then. Reads, duplicate seqs, undone items and a
// killed process's log must be the same as if every action went to `actions` at once; and a
// group commit of many games' actions must write a few pages, not one per game.
#include <gtest/gtest.h>

#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "sqlite_health.hpp"
#include "storage.hpp"

namespace senet::server {
namespace {

namespace fs = std::filesystem;

class SqliteLog : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("senet-action-log-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::unique_ptr<Storage> open(std::size_t foldRows) {
        SqliteOptions o;
        o.foldRows = foldRows;
        return openSqliteStorage(file(), o);
    }
    std::string file() const { return (dir_ / "games.db").string(); }

    /// One integer from a query on a connection of its own (the storage's own stays open).
    long long query(const std::string& sql) const {
        sqlite3* h = nullptr;
        long long out = -1;
        if (sqlite3_open_v2(file().c_str(), &h, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
            sqlite3_stmt* st = nullptr;
            if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
                out = sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
        }
        sqlite3_close(h);
        return out;
    }
    void exec(const std::string& sql) const {
        sqlite3* h = nullptr;
        ASSERT_EQ(sqlite3_open(file().c_str(), &h), SQLITE_OK);
        EXPECT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(h);
        sqlite3_close(h);
    }

    fs::path dir_;
};

GameRow row(const std::string& id) {
    GameRow g;
    g.id = id;
    g.ruleset = "standard";
    g.opponent = Opponent::Friend;
    g.serverSeed = {1, 2, 3};
    g.seatHashes = {"h0", "h1"};
    g.createdMs = g.updatedMs = 1000;
    return g;
}

ActionRow action(long long seq) { return ActionRow{seq, seq % 2 ? 'm' : 't', static_cast<int>(seq % 5), seq % 2 ? "9-11" : ""}; }

bool same(const std::vector<ActionRow>& a, const std::vector<ActionRow>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].seq != b[i].seq || a[i].kind != b[i].kind || a[i].outcome != b[i].outcome || a[i].move != b[i].move) return false;
    return true;
}

TEST_F(SqliteLog, ReadsAndDuplicatesAreTheSameOnBothSidesOfEveryFold) {
    auto s = open(7);
    const int games = 5;
    std::vector<std::vector<ActionRow>> expected(games);
    for (int g = 0; g < games; ++g) s->createGame(row("g" + std::to_string(g)));
    std::mt19937 rng(3);
    long long folds = 0, lastLogged = 0;
    for (int round = 0; round < 40; ++round) {
        // A batch of 1-5 games' next actions, some of them a duplicate of an earlier seq.
        std::vector<BatchedAction> batch;
        std::vector<bool> duplicate;
        for (int g = 0; g < games; ++g) {
            if (rng() % 3 == 0) continue;
            auto& e = expected[static_cast<std::size_t>(g)];
            const bool dup = !e.empty() && rng() % 4 == 0;
            const long long seq = dup ? static_cast<long long>(rng() % e.size()) : static_cast<long long>(e.size());
            batch.push_back(BatchedAction{"g" + std::to_string(g), action(seq), {}});
            duplicate.push_back(dup);
        }
        const auto errors = s->appendBatch(batch);
        ASSERT_EQ(errors.size(), batch.size());
        for (std::size_t i = 0; i < batch.size(); ++i) {
            EXPECT_EQ(errors[i] != nullptr, duplicate[i]) << "round " << round << " item " << i;
            if (!duplicate[i]) expected[std::stoul(batch[i].gameId.substr(1))].push_back(batch[i].action);
        }
        s->maintain();
        const long long logged = query("SELECT count(*) FROM action_log");
        EXPECT_LT(logged, 7) << "maintain() folds once 7 are logged";
        if (logged < lastLogged) ++folds;
        lastLogged = logged;
        for (int g = 0; g < games; ++g) {
            const auto& e = expected[static_cast<std::size_t>(g)];
            EXPECT_TRUE(same(s->loadActions("g" + std::to_string(g)), e)) << "round " << round << " game " << g;
            if (!e.empty()) {
                // A seq already stored is refused whether it is folded or still logged.
                EXPECT_THROW(s->appendAction("g" + std::to_string(g), action(0)), StorageError);
                EXPECT_THROW(s->appendAction("g" + std::to_string(g), e.back()), StorageError);
                EXPECT_GT(s->loadGame("g" + std::to_string(g))->updatedMs, 1000) << "the last action's time";
            }
        }
    }
    EXPECT_GE(folds, 5);
    long long total = 0;
    for (const auto& e : expected) total += static_cast<long long>(e.size());
    EXPECT_EQ(query("SELECT count(*) FROM actions") + query("SELECT count(*) FROM action_log"), total);
    // A clean close folds the rest; reopened, everything reads back.
    s.reset();
    EXPECT_EQ(query("SELECT count(*) FROM action_log"), 0);
    EXPECT_EQ(query("SELECT count(*) FROM actions"), total);
    s = open(7);
    for (int g = 0; g < games; ++g) EXPECT_TRUE(same(s->loadActions("g" + std::to_string(g)), expected[static_cast<std::size_t>(g)]));
}

TEST_F(SqliteLog, AnItemUndoneInItsSavepointIsForgottenInMemoryToo) {
    auto s = open(1000);
    s->createGame(row("g1"));
    // The ending of a game that does not exist: its action was logged, then rolled back.
    const auto errors = s->appendBatch({BatchedAction{"g1", action(0), {}}, BatchedAction{"ghost", action(0), R"({"winner":0})"},
                                        BatchedAction{"g1", action(1), {}}});
    ASSERT_EQ(errors.size(), 3u);
    EXPECT_FALSE(errors[0]);
    EXPECT_TRUE(errors[1]);
    EXPECT_FALSE(errors[2]);
    EXPECT_TRUE(s->loadActions("ghost").empty());
    EXPECT_EQ(query("SELECT count(*) FROM action_log WHERE game_id = 'ghost'"), 0);
    // Its seq is free: an action with it is stored, not refused as a duplicate.
    s->appendAction("ghost", action(0));
    EXPECT_EQ(s->loadActions("ghost").size(), 1u);
    EXPECT_EQ(s->loadActions("g1").size(), 2u);
}

TEST_F(SqliteLog, WhatAKilledProcessLoggedIsFoldedAtTheNextStart) {
    {
        auto s = open(1000);
        s->createGame(row("g1"));
        s->appendAction("g1", action(0));
    }
    // What a process killed before its fold leaves: actions in the log only.
    exec("INSERT INTO action_log (game_id, seq, kind, outcome, move, at_ms) VALUES "
         "('g1', 1, 'm', 0, '9-11', 5000), ('g1', 2, 't', 3, '', 6000)");
    auto s = open(1000);
    EXPECT_EQ(query("SELECT count(*) FROM action_log"), 0);
    EXPECT_EQ(query("SELECT count(*) FROM actions WHERE game_id = 'g1'"), 3);
    const auto a = s->loadActions("g1");
    ASSERT_EQ(a.size(), 3u);
    EXPECT_EQ(a[1].move, "9-11");
    EXPECT_EQ(a[2].outcome, 3);
    EXPECT_EQ(s->loadGame("g1")->updatedMs, 6000);
    EXPECT_THROW(s->appendAction("g1", action(2)), StorageError);
    s->appendAction("g1", action(3));
    EXPECT_EQ(s->loadActions("g1").size(), 4u);
}

TEST_F(SqliteLog, AGroupCommitOfManyGamesWritesAFewPagesNotOneEach) {
    auto s = open(100000);
    const int games = 64;
    // Each game's actions sit in its own leaf of `actions` (a game with many actions, as in play).
    for (int g = 0; g < games; ++g) {
        const std::string id = "game" + std::to_string(1000 + g);
        s->createGame(row(id));
        std::vector<BatchedAction> history;
        for (int seq = 0; seq < 80; ++seq) history.push_back(BatchedAction{id, action(seq), {}});
        s->appendBatch(history);
    }
    s.reset();  // folded into `actions`, checkpointed
    s = open(100000);
    const auto walBytes = [&] { return fs::exists(file() + "-wal") ? static_cast<long long>(fs::file_size(file() + "-wal")) : 0LL; };
    std::vector<BatchedAction> batch;
    for (int g = 0; g < games; ++g) batch.push_back(BatchedAction{"game" + std::to_string(1000 + g), action(80), {}});
    s->appendBatch({BatchedAction{"game1000", action(80), {}}});  // the WAL's header and first frames
    batch.erase(batch.begin());
    const long long before = walBytes();
    for (const auto& e : s->appendBatch(batch)) EXPECT_FALSE(e);
    const long long pageBytes = query("PRAGMA page_size") + 24;  // a WAL frame: header and page
    const long long frames = (walBytes() - before) / pageBytes;
    EXPECT_GE(frames, 1);
    EXPECT_LE(frames, 4) << games - 1 << " games' actions in one commit";
    for (int g = 0; g < games; ++g) EXPECT_EQ(s->loadActions("game" + std::to_string(1000 + g)).size(), 81u);
}

/// One process at a time serves a database: a second store on the same file is refused with
/// InstanceNameInUse naming the holder's pid, and can open once the first is closed.
TEST_F(SqliteLog, ASecondStoreOnTheSameDatabaseIsRefusedUntilTheFirstCloses) {
    auto s = open(1000);
    s->createGame(row("g1"));
    try {
        open(1000);
        ADD_FAILURE() << "a second store opened the database in use";
    } catch (const InstanceNameInUse& e) {
        EXPECT_NE(std::string(e.what()).find("(pid " + std::to_string(::getpid()) + ")"), std::string::npos) << e.what();
    }
    s->appendAction("g1", action(0));  // the first store is untouched
    s.reset();
    s = open(1000);
    EXPECT_EQ(s->loadActions("g1").size(), 1u);
}

/// The health probe while the database file is replaced by a copy: it reports the replacement
/// without opening the copy; and even a probe that is not told which file was opened leaves the
/// server's WAL alone (it used to fold it into the copy and delete it, and every action that
/// lived only in the WAL was lost once the original came back).
TEST_F(SqliteLog, AHealthProbeOfAReplacedFileNeitherFoldsNorDeletesTheWal) {
    auto s = open(1000);
    s->createGame(row("g1"));
    for (int seq = 0; seq < 5; ++seq) s->appendAction("g1", action(seq));
    const auto opened = fileIdentity(file());
    ASSERT_TRUE(opened.has_value());
    EXPECT_EQ(sqliteHealth(file(), opened), "");
    const fs::path original = dir_ / "original.db", copy = dir_ / "copy.db";
    fs::copy_file(file(), copy);
    fs::rename(file(), original);
    fs::rename(copy, file());
    EXPECT_NE(sqliteHealth(file(), opened).find("deleted or replaced"), std::string::npos);
    sqliteHealth(file());  // a probe that opens the copy
    EXPECT_TRUE(fs::exists(file() + "-wal")) << "the server's WAL was deleted";
    EXPECT_THROW(s->appendAction("g1", action(5)), StorageError);
    fs::rename(original, file());
    EXPECT_EQ(sqliteHealth(file(), opened), "");
    s->appendAction("g1", action(5));
    s.reset();
    s = open(1000);
    EXPECT_EQ(s->loadActions("g1").size(), 6u);
}

}  // namespace
}  // namespace senet::server
