// The Storage contract (server/src/storage/storage.hpp) on every implementation: MemoryStorage and the
// real SQLite storage on a fresh file (server_logic_tests), and the real PostgreSQL storage on a
// fresh database (pg_tests: this file compiled with SENET_CONTRACT_POSTGRES). Every write is
// read back; refused writes change nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <sqlite3.h>
#include <unistd.h>

#include "memory_storage.hpp"
#include "storage.hpp"
#ifdef SENET_CONTRACT_POSTGRES
#include "pg_temp.hpp"
#endif

namespace senet::server {
namespace {

GameRow sampleRow(const std::string& id) {
    GameRow g;
    g.id = id;
    g.ruleset = "jequier";
    g.opponent = Opponent::Friend;
    g.level = "";
    g.serverSeed = {1, 2, 3, 250, 0, 7};
    g.clientSeeds = {std::optional<std::string>("seedA"), std::nullopt};
    g.seatHashes = {"hash0", ""};
    g.inviteHash = "invitehash";
    g.createdMs = 1700000000123;
    g.updatedMs = 1700000000456;
    return g;
}

class StorageContract : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        if (GetParam() == "memory") {
            storage_ = std::make_unique<MemoryStorage>();
#ifdef SENET_CONTRACT_POSTGRES
        } else if (GetParam() == "postgres") {
            if (!senet::testing::postgresInstalled())
                GTEST_SKIP() << "PostgreSQL is not installed (/usr/lib/postgresql/*/bin; scripts/setup.sh installs it)";
            url_ = senet::testing::freshPostgresDatabase();
            storage_ = openPostgresStorage(url_);
#endif
        } else {
            dir_ = std::filesystem::temp_directory_path() /
                   ("senet-contract-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
            std::filesystem::remove_all(dir_);
            std::filesystem::create_directories(dir_);
            storage_ = openSqliteStorage((dir_ / "games.db").string(), false);
        }
    }
    void TearDown() override {
        storage_.reset();
        if (!dir_.empty()) std::filesystem::remove_all(dir_);
#ifdef SENET_CONTRACT_POSTGRES
        if (!url_.empty()) senet::testing::dropPostgresDatabase(url_);
#endif
    }
    Storage& s() { return *storage_; }

    std::unique_ptr<Storage> storage_;
    std::filesystem::path dir_;
    std::string url_;
};

TEST_P(StorageContract, CreatedRowReadsBackField) {
    s().createGame(sampleRow("g1"));
    const auto g = s().loadGame("g1");
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->id, "g1");
    EXPECT_EQ(g->ruleset, "jequier");
    EXPECT_EQ(g->opponent, Opponent::Friend);
    EXPECT_EQ(g->level, "");
    EXPECT_EQ(g->serverSeed, (std::vector<std::uint8_t>{1, 2, 3, 250, 0, 7}));
    EXPECT_EQ(g->clientSeeds[0], std::optional<std::string>("seedA"));
    EXPECT_EQ(g->clientSeeds[1], std::nullopt);
    EXPECT_EQ(g->seatHashes[0], "hash0");
    EXPECT_EQ(g->seatHashes[1], "");
    EXPECT_EQ(g->inviteHash, "invitehash");
    EXPECT_EQ(g->createdMs, 1700000000123);
    EXPECT_EQ(g->updatedMs, 1700000000456);
    EXPECT_EQ(g->status, GameStatus::Playing);
    EXPECT_EQ(g->result, "");
    EXPECT_EQ(g->rematchOf, "");
    EXPECT_EQ(g->rematch, "");
    EXPECT_FALSE(s().loadGame("nope").has_value());
    EXPECT_TRUE(s().loadActions("nope").empty());
    EXPECT_TRUE(s().loadActions("g1").empty());
    GameRow computer = sampleRow("g2");
    computer.opponent = Opponent::Computer;
    computer.level = "expert";
    computer.clientSeeds = {std::nullopt, std::optional<std::string>("seedB")};
    s().createGame(computer);
    EXPECT_EQ(s().loadGame("g2")->level, "expert");
    EXPECT_EQ(s().loadGame("g2")->clientSeeds[0], std::nullopt);
    EXPECT_EQ(s().loadGame("g2")->clientSeeds[1], std::optional<std::string>("seedB"));
}

TEST_P(StorageContract, DuplicateIdThrowsAndKeepsTheFirst) {
    s().createGame(sampleRow("g1"));
    GameRow other = sampleRow("g1");
    other.ruleset = "bell";
    EXPECT_THROW(s().createGame(other), StorageError);
    EXPECT_EQ(s().loadGame("g1")->ruleset, "jequier");
}

TEST_P(StorageContract, RematchIsLinkedInTheSameWrite) {
    s().createGame(sampleRow("old"));
    GameRow next = sampleRow("new");
    next.rematchOf = "old";
    s().createGame(next);
    EXPECT_EQ(s().loadGame("old")->rematch, "new");
    EXPECT_EQ(s().loadGame("new")->rematchOf, "old");
    EXPECT_EQ(s().loadGame("new")->rematch, "");
    // A rematch of an unknown game is refused and not stored.
    GameRow orphan = sampleRow("orphan");
    orphan.rematchOf = "missing";
    EXPECT_THROW(s().createGame(orphan), StorageError);
    EXPECT_FALSE(s().loadGame("orphan").has_value());
    // The failed write left nothing open: the next one works.
    GameRow after = sampleRow("after");
    after.rematchOf = "new";
    s().createGame(after);
    EXPECT_EQ(s().loadGame("new")->rematch, "after");
    s().setRematch("new", "third");
    EXPECT_EQ(s().loadGame("new")->rematch, "third");
    EXPECT_EQ(s().loadGame("after")->rematchOf, "new");
    EXPECT_EQ(s().loadGame("old")->rematch, "new");
}

TEST_P(StorageContract, SeatIsTakenOnlyWhenFree) {
    s().createGame(sampleRow("g1"));
    EXPECT_FALSE(s().takeSeat("g1", 0, "intruder"));
    EXPECT_EQ(s().loadGame("g1")->seatHashes[0], "hash0");
    EXPECT_TRUE(s().takeSeat("g1", 1, "friend1"));
    EXPECT_EQ(s().loadGame("g1")->seatHashes[1], "friend1");
    EXPECT_EQ(s().loadGame("g1")->seatHashes[0], "hash0");
    EXPECT_FALSE(s().takeSeat("g1", 1, "late"));
    EXPECT_EQ(s().loadGame("g1")->seatHashes[1], "friend1");
    GameRow empty = sampleRow("g2");
    empty.seatHashes = {"", "taken1"};
    s().createGame(empty);
    EXPECT_TRUE(s().takeSeat("g2", 0, "first0"));
    EXPECT_EQ(s().loadGame("g2")->seatHashes[0], "first0");
    EXPECT_EQ(s().loadGame("g2")->seatHashes[1], "taken1");
}

TEST_P(StorageContract, ClientSeedsPerSeat) {
    s().createGame(sampleRow("g1"));
    s().setClientSeed("g1", 1, "second");
    EXPECT_EQ(s().loadGame("g1")->clientSeeds[1], std::optional<std::string>("second"));
    EXPECT_EQ(s().loadGame("g1")->clientSeeds[0], std::optional<std::string>("seedA"));
    s().setClientSeed("g1", 0, "first");
    EXPECT_EQ(s().loadGame("g1")->clientSeeds[0], std::optional<std::string>("first"));
    EXPECT_EQ(s().loadGame("g1")->clientSeeds[1], std::optional<std::string>("second"));
}

TEST_P(StorageContract, ActionsInOrderAndADuplicateRefused) {
    s().createGame(sampleRow("g1"));
    s().createGame(sampleRow("g2"));
    s().appendAction("g1", ActionRow{0, 't', 5, ""});
    s().appendAction("g1", ActionRow{1, 'm', 0, "9-11"});
    s().appendAction("g2", ActionRow{0, 't', 15, ""});
    EXPECT_THROW(s().appendAction("g1", ActionRow{1, 't', 2, ""}), StorageError);
    const auto a = s().loadActions("g1");
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[0].seq, 0);
    EXPECT_EQ(a[0].kind, 't');
    EXPECT_EQ(a[0].outcome, 5);
    EXPECT_EQ(a[0].move, "");
    EXPECT_EQ(a[1].seq, 1);
    EXPECT_EQ(a[1].kind, 'm');
    EXPECT_EQ(a[1].outcome, 0);
    EXPECT_EQ(a[1].move, "9-11");
    ASSERT_EQ(s().loadActions("g2").size(), 1u);
    EXPECT_EQ(s().loadActions("g2")[0].outcome, 15);
    EXPECT_EQ(s().loadGame("g1")->status, GameStatus::Playing);
}

TEST_P(StorageContract, FinalActionEndsTheGameInOneWrite) {
    s().createGame(sampleRow("g1"));
    s().appendAction("g1", ActionRow{0, 't', 3, ""});
    s().appendFinalAction("g1", ActionRow{1, 'm', 0, "30-off"}, R"({"winner":1})");
    const auto g = s().loadGame("g1");
    EXPECT_EQ(g->status, GameStatus::Over);
    EXPECT_EQ(g->result, R"({"winner":1})");
    const auto a = s().loadActions("g1");
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[1].move, "30-off");
    EXPECT_EQ(a[1].kind, 'm');
    // A final action with a taken seq stores neither part.
    s().createGame(sampleRow("g2"));
    s().appendAction("g2", ActionRow{0, 't', 9, ""});
    EXPECT_THROW(s().appendFinalAction("g2", ActionRow{0, 't', 1, ""}, R"({"winner":0})"), StorageError);
    EXPECT_EQ(s().loadGame("g2")->status, GameStatus::Playing);
    EXPECT_EQ(s().loadGame("g2")->result, "");
    ASSERT_EQ(s().loadActions("g2").size(), 1u);
    EXPECT_EQ(s().loadActions("g2")[0].outcome, 9);
    EXPECT_THROW(s().appendFinalAction("missing", ActionRow{0, 't', 1, ""}, "{}"), StorageError);
    // Nothing of the refused writes is pending: a later final action commits.
    s().appendFinalAction("g2", ActionRow{1, 'm', 0, "1-off"}, R"({"winner":1})");
    EXPECT_EQ(s().loadGame("g2")->status, GameStatus::Over);
    EXPECT_EQ(s().loadActions("g2").size(), 2u);
}

#ifndef SENET_CONTRACT_POSTGRES
/// What SQLite stored is there after the storage is closed and opened again.
TEST(SqliteContract, WritesSurviveReopening) {
    const auto dir = std::filesystem::temp_directory_path() / ("senet-contract-reopen-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "games.db").string();
    {
        auto s = openSqliteStorage(file, false);
        s->createGame(sampleRow("g1"));
        GameRow orphan = sampleRow("orphan");
        orphan.rematchOf = "missing";
        EXPECT_THROW(s->createGame(orphan), StorageError);  // rolled back, not left open
        s->appendAction("g1", ActionRow{0, 't', 4, ""});
        s->appendFinalAction("g1", ActionRow{1, 'm', 0, "9-11"}, R"({"winner":0})");
        EXPECT_TRUE(s->takeSeat("g1", 1, "late"));
    }
    auto s = openSqliteStorage(file, true);
    EXPECT_FALSE(s->loadGame("orphan").has_value());
    const auto g = s->loadGame("g1");
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->status, GameStatus::Over);
    EXPECT_EQ(g->result, R"({"winner":0})");
    EXPECT_EQ(g->seatHashes[1], "late");
    ASSERT_EQ(s->loadActions("g1").size(), 2u);
    EXPECT_EQ(s->loadActions("g1")[1].move, "9-11");
    s.reset();
    std::filesystem::remove_all(dir);
}

/// SQLite: a game's last activity (loadGame's updatedMs) is the time of its LAST action, when
/// that is later than the row's own last change. The actions' times are set in the file
/// (increasing with seq, all after the row's updated_ms), then the storage is opened again.
TEST(SqliteContract, LastActivityIsTheLastActionsTime) {
    const auto dir = std::filesystem::temp_directory_path() / ("senet-contract-activity-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "games.db").string();
    {
        auto s = openSqliteStorage(file, false);
        s->createGame(sampleRow("g1"));  // updated_ms 1700000000456
        for (int seq = 0; seq < 4; ++seq) s->appendAction("g1", ActionRow{seq, 't', seq + 1, ""});
    }
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &h), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(h, "UPDATE actions SET at_ms = 1800000000000 + seq * 60000", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(h);
    auto s = openSqliteStorage(file, true);
    const auto g = s->loadGame("g1");
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->updatedMs, 1800000000000 + 3 * 60000) << "not the last action's time";
    EXPECT_EQ(g->createdMs, 1700000000123);
    s.reset();
    std::filesystem::remove_all(dir);
}

/// SQLite: while the database file is moved away (or deleted), every write is refused with a
/// StorageError naming the file, and changes nothing; when the same file is back, writes go on.
/// (Writes into a deleted file would succeed and be lost at the next start.)
TEST(SqliteContract, WritesAreRefusedWhileTheFileIsGoneAndGoOnWhenItIsBack) {
    const auto dir = std::filesystem::temp_directory_path() / ("senet-contract-gone-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto file = dir / "games.db", away = dir / "moved.db";
    auto s = openSqliteStorage(file.string(), false);
    s->createGame(sampleRow("g1"));
    s->appendAction("g1", ActionRow{0, 't', 4, ""});
    std::filesystem::rename(file, away);
    try {
        s->appendAction("g1", ActionRow{1, 'm', 0, "9-11"});
        ADD_FAILURE() << "a write into a file that is gone succeeded";
    } catch (const StorageError& e) {
        EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("deleted or replaced"), std::string::npos) << e.what();
    }
    const auto batch = s->appendBatch({BatchedAction{"g1", ActionRow{1, 'm', 0, "9-11"}, {}}});
    ASSERT_EQ(batch.size(), 1u);
    EXPECT_TRUE(batch[0]);
    EXPECT_THROW(s->createGame(sampleRow("g2")), StorageError);
    EXPECT_THROW(s->takeSeat("g1", 1, "late"), StorageError);
    EXPECT_THROW(s->setClientSeed("g1", 1, "seed"), StorageError);
    EXPECT_THROW(s->finishGame("g1", "{}"), StorageError);
    EXPECT_THROW(s->expireGame("g1"), StorageError);
    EXPECT_THROW(s->setRematch("g1", "g2"), StorageError);
    // A new, empty file in its place is not the database either.
    { std::ofstream(file) << ""; }
    EXPECT_THROW(s->appendAction("g1", ActionRow{1, 'm', 0, "9-11"}), StorageError);
    std::filesystem::remove(file);
    // Back: nothing of the refused writes happened, and writing goes on.
    std::filesystem::rename(away, file);
    // The WAL moved away, or replaced by a copy of itself: refused too (writes into the
    // server's open WAL that no later start would read).
    const std::string wal = file.string() + "-wal", walAway = (dir / "moved.db-wal").string();
    std::filesystem::rename(wal, walAway);
    EXPECT_THROW(s->appendAction("g1", ActionRow{1, 'm', 0, "9-11"}), StorageError);
    std::filesystem::copy_file(walAway, wal);
    EXPECT_THROW(s->appendAction("g1", ActionRow{1, 'm', 0, "9-11"}), StorageError);
    std::filesystem::remove(wal);
    std::filesystem::rename(walAway, wal);
    EXPECT_EQ(s->loadActions("g1").size(), 1u);
    EXPECT_FALSE(s->loadGame("g2").has_value());
    EXPECT_EQ(s->loadGame("g1")->seatHashes[1], "");
    s->appendAction("g1", ActionRow{1, 'm', 0, "9-11"});
    EXPECT_EQ(s->loadActions("g1").size(), 2u);
    s.reset();
    std::filesystem::remove_all(dir);
}

#endif

TEST_P(StorageContract, FinishExpireAndUnfinished) {
    for (const char* id : {"a", "b", "c"}) s().createGame(sampleRow(id));
    auto unfinished = s().unfinishedGames();
    std::sort(unfinished.begin(), unfinished.end());
    EXPECT_EQ(unfinished, (std::vector<std::string>{"a", "b", "c"}));
    s().finishGame("a", R"({"reason":"resign"})");
    EXPECT_EQ(s().loadGame("a")->status, GameStatus::Over);
    EXPECT_EQ(s().loadGame("a")->result, R"({"reason":"resign"})");
    s().expireGame("b");
    EXPECT_EQ(s().loadGame("b")->status, GameStatus::Expired);
    s().expireGame("a");  // only a game still playing expires
    EXPECT_EQ(s().loadGame("a")->status, GameStatus::Over);
    EXPECT_EQ(s().unfinishedGames(), std::vector<std::string>{"c"});
    EXPECT_EQ(s().loadGame("c")->status, GameStatus::Playing);
    EXPECT_EQ(s().loadGame("c")->result, "");
}

#ifdef SENET_CONTRACT_POSTGRES
INSTANTIATE_TEST_SUITE_P(Postgres, StorageContract, ::testing::Values("postgres"),
                         [](const auto& info) { return info.param; });
#else
INSTANTIATE_TEST_SUITE_P(Both, StorageContract, ::testing::Values("memory", "sqlite"),
                         [](const auto& info) { return info.param; });

/// MemoryStorage refuses what SQLite's constraints refuse: a seat outside 0..1, an unknown game.
TEST(MemoryStorageChecks, BadSeatAndUnknownGameThrow) {
    MemoryStorage m;
    m.createGame(sampleRow("g1"));
    EXPECT_THROW(m.takeSeat("g1", 2, "x"), StorageError);
    EXPECT_THROW(m.takeSeat("g1", -1, "x"), StorageError);
    EXPECT_THROW(m.setClientSeed("g1", 2, "x"), StorageError);
    EXPECT_THROW(m.setClientSeed("g1", -1, "x"), StorageError);
    EXPECT_THROW(m.takeSeat("zz", 1, "x"), StorageError);
    EXPECT_THROW(m.appendAction("zz", ActionRow{0, 't', 1, ""}), StorageError);
    EXPECT_THROW(m.appendAction("g1", ActionRow{1, 't', 1, ""}), StorageError);  // a gap
    EXPECT_THROW(m.finishGame("zz", "{}"), StorageError);
    EXPECT_THROW(m.expireGame("zz"), StorageError);
    EXPECT_THROW(m.setRematch("zz", "g1"), StorageError);
    EXPECT_TRUE(m.loadActions("g1").empty());
    EXPECT_EQ(m.loadGame("g1")->seatHashes[1], "");
}

/// FaultyStorage fails exactly the write it is told to, and only that one.
TEST(FaultyStorageChecks, FailsTheNthWriteOnly) {
    MemoryStorage m;
    FaultyStorage f(m);
    f.createGame(sampleRow("g1"));
    f.failNth(2);
    f.appendAction("g1", ActionRow{0, 't', 1, ""});
    EXPECT_THROW(f.appendAction("g1", ActionRow{1, 't', 2, ""}), StorageError);
    f.appendAction("g1", ActionRow{1, 't', 3, ""});
    ASSERT_EQ(m.loadActions("g1").size(), 2u);
    EXPECT_EQ(m.loadActions("g1")[1].outcome, 3);
    f.failAll();
    EXPECT_THROW(f.setClientSeed("g1", 1, "s"), StorageError);
    EXPECT_THROW(f.takeSeat("g1", 1, "s"), StorageError);
    EXPECT_THROW(f.finishGame("g1", "{}"), StorageError);
    EXPECT_EQ(m.loadGame("g1")->clientSeeds[1], std::nullopt);
    EXPECT_EQ(m.loadGame("g1")->status, GameStatus::Playing);
}

/// A batch is one write (one transaction): when it fails, every item fails and nothing of it
/// is stored, as when a real COMMIT fails; the next batch goes through whole.
TEST(FaultyStorageChecks, AFailedBatchFailsWholeAndStoresNothing) {
    MemoryStorage m;
    FaultyStorage f(m);
    f.createGame(sampleRow("g1"));
    f.createGame(sampleRow("g2"));
    const std::int64_t before = f.writes();
    f.failNth(1);
    const std::vector<BatchedAction> batch = {{"g1", ActionRow{0, 't', 1, ""}, ""}, {"g2", ActionRow{0, 't', 2, ""}, ""}};
    const auto failed = f.appendBatch(batch);
    ASSERT_EQ(failed.size(), 2u);
    for (const auto& e : failed) {
        ASSERT_TRUE(e) << "an item of the failed batch was reported durable";
        EXPECT_THROW(std::rethrow_exception(e), StorageError);
    }
    EXPECT_EQ(f.writes() - before, 1) << "a batch is one write";
    EXPECT_TRUE(m.loadActions("g1").empty());
    EXPECT_TRUE(m.loadActions("g2").empty());
    const auto stored = f.appendBatch(batch);
    EXPECT_EQ(std::count(stored.begin(), stored.end(), nullptr), 2);
    ASSERT_EQ(m.loadActions("g2").size(), 1u);
    EXPECT_EQ(m.loadActions("g2")[0].outcome, 2);
}

/// Lease writes fail like the others (a database that takes no write renews no lease) and
/// change nothing when they do.
TEST(FaultyStorageChecks, LeaseWritesFailToo) {
    MemoryStorage m;
    FaultyStorage f(m);
    f.createGame(sampleRow("g1"));
    f.failAll();
    EXPECT_THROW(f.acquireLease("g1", "a", 1000, 5000), StorageError);
    EXPECT_THROW(f.renewLeases("a", {"g1"}, 1000, 5000), StorageError);
    EXPECT_THROW(f.releaseLease("g1", "a"), StorageError);
    f.setFault({});
    EXPECT_EQ(f.acquireLease("g1", "a", 1000, 5000), std::optional<std::int64_t>(1)) << "the failed acquire took the lease";
    EXPECT_EQ(f.acquireLease("g1", "b", 2000, 5000), std::nullopt);
    EXPECT_TRUE(f.renewLeases("a", {"g1"}, 2000, 5000).empty());
}

#endif  // SENET_CONTRACT_POSTGRES

}  // namespace
}  // namespace senet::server
