// Group commit (server/src/commit_queue.*, SqliteStorage::appendBatch, Room::commitAction) over
// real SQLite: several games' actions in one transaction, a failing item alone undone with its
// room unchanged, the order of one game's actions, and no action accepted before the previous
// one of its game is stored.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "commit_queue.hpp"
#include "forwarding_storage.hpp"
#include "room_support.hpp"
#include "wait_support.hpp"

namespace senet::testing {
namespace {

using namespace std::chrono_literals;

/// A temporary directory removed at the end.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        path = std::filesystem::temp_directory_path() / ("senet-commit-" + std::to_string(::getpid()) + "-" +
                                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

/// Real SQLite storage with a gate in front of appendBatch: while closed, the writer thread
/// waits inside its batch (so that the test can queue more writes meanwhile). Records the size
/// of every batch. Everything else goes straight to SQLite.
class GatedStorage final : public ForwardingStorage {
public:
    explicit GatedStorage(Storage& inner) : ForwardingStorage(inner) {}
    void close() {
        std::lock_guard lock(mutex_);
        open_ = false;
    }
    void open() {
        {
            std::lock_guard lock(mutex_);
            open_ = true;
        }
        cv_.notify_all();
    }
    /// Waits until the writer waits at the closed gate (at most 10 s); false on timeout.
    bool waitUntilHeld() {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, 10s, [&] { return held_; });
    }
    std::vector<std::size_t> sizes() {
        std::lock_guard lock(mutex_);
        return sizes_;
    }
    std::vector<std::exception_ptr> appendBatch(const std::vector<BatchedAction>& batch) override {
        {
            std::unique_lock lock(mutex_);
            sizes_.push_back(batch.size());
            held_ = !open_;
            cv_.notify_all();
            cv_.wait(lock, [&] { return open_; });
            held_ = false;
        }
        return ForwardingStorage::appendBatch(batch);
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    bool open_ = true, held_ = false;
    std::vector<std::size_t> sizes_;
};

GameRow gameRow(const std::string& id) {
    GameRow g;
    g.id = id;
    g.ruleset = "standard";
    g.opponent = Opponent::Local;
    g.serverSeed.assign(32, 7);
    g.seatHashes = {"a", "b"};
    return g;
}

TEST(SqliteBatch, OneTransactionEachItemAlone) {
    TempDir dir;
    const auto file = (dir.path / "games.db").string();
    {
        auto s = openSqliteStorage(file, false);
        for (const char* id : {"g1", "g2", "g3"}) s->createGame(gameRow(id));
        s->appendAction("g2", ActionRow{0, 't', 3, ""});
        const std::vector<BatchedAction> batch = {
            {"g1", ActionRow{0, 't', 5, ""}, ""},
            {"g2", ActionRow{0, 't', 9, ""}, ""},  // a duplicate seq: fails alone
            {"g2", ActionRow{1, 'm', 0, "9-11"}, ""},
            {"g3", ActionRow{0, 'm', 0, "1-2"}, R"({"winner":0})"},
            {"nope", ActionRow{0, 't', 1, ""}, R"({"winner":1})"},  // no such game to finish: undone alone
        };
        const auto errors = s->appendBatch(batch);
        ASSERT_EQ(errors.size(), 5u);
        EXPECT_FALSE(errors[0]);
        EXPECT_TRUE(errors[1]);
        EXPECT_FALSE(errors[2]);
        EXPECT_FALSE(errors[3]);
        EXPECT_TRUE(errors[4]);
        EXPECT_THROW(std::rethrow_exception(errors[1]), StorageError);
    }
    auto s = openSqliteStorage(file, false);  // durable: read back after reopening
    const auto g1 = s->loadActions("g1");
    ASSERT_EQ(g1.size(), 1u);
    EXPECT_EQ(g1[0].outcome, 5);
    const auto g2 = s->loadActions("g2");
    ASSERT_EQ(g2.size(), 2u);
    EXPECT_EQ(g2[0].outcome, 3);  // the first row, not the failed duplicate
    EXPECT_EQ(g2[1].move, "9-11");
    EXPECT_EQ(s->loadGame("g3")->status, GameStatus::Over);
    EXPECT_EQ(s->loadGame("g3")->result, R"({"winner":0})");
    EXPECT_TRUE(s->loadActions("nope").empty());  // its action was rolled back with it
}

TEST(CommitQueue, BatchesConcurrentWritersInOneTransaction) {
    TempDir dir;
    auto sqlite = openSqliteStorage((dir.path / "games.db").string(), false);
    GatedStorage gated(*sqlite);
    constexpr int kGames = 24;
    for (int g = 0; g < kGames; ++g) sqlite->createGame(gameRow("g" + std::to_string(g)));
    std::atomic<int> ok{0}, failed{0};
    auto done = [&](std::exception_ptr e) { (e ? failed : ok).fetch_add(1); };
    CommitQueue queue(gated);
    gated.close();
    queue.submit({"g0", ActionRow{0, 't', 1, ""}, ""}, done);
    ASSERT_TRUE(gated.waitUntilHeld());
    // While the writer is inside the first batch, four threads queue one action for each other game.
    std::vector<std::thread> writers;
    for (int w = 0; w < 4; ++w)
        writers.emplace_back([&, w] {
            for (int g = 1 + w; g < kGames; g += 4) queue.submit({"g" + std::to_string(g), ActionRow{0, 't', g % 16, ""}, ""}, done);
        });
    for (auto& t : writers) t.join();
    gated.open();
    ASSERT_TRUE(eventually([&] { return ok + failed == kGames; }));
    EXPECT_EQ(failed.load(), 0);
    EXPECT_EQ(gated.sizes(), (std::vector<std::size_t>{1, kGames - 1}));
    const auto stats = queue.stats();
    EXPECT_EQ(stats.batches, 2u);
    EXPECT_EQ(stats.items, static_cast<std::uint64_t>(kGames));
    EXPECT_EQ(stats.largest, static_cast<std::uint64_t>(kGames - 1));
    for (int g = 0; g < kGames; ++g) {
        const auto actions = sqlite->loadActions("g" + std::to_string(g));
        ASSERT_EQ(actions.size(), 1u) << g;
        EXPECT_EQ(actions[0].outcome, g == 0 ? 1 : g % 16);
    }
}

TEST(CommitQueue, KeepsTheOrderOfOneGame) {
    TempDir dir;
    auto sqlite = openSqliteStorage((dir.path / "games.db").string(), false);
    sqlite->createGame(gameRow("g"));
    std::mutex m;
    std::vector<std::int64_t> completed;
    {
        CommitQueue queue(*sqlite, 7);  // several batches of at most 7
        for (std::int64_t seq = 0; seq < 50; ++seq)
            queue.submit({"g", ActionRow{seq, 'm', 0, std::to_string(seq) + "-x"}, ""}, [&, seq](std::exception_ptr e) {
                EXPECT_FALSE(e) << seq;
                std::lock_guard lock(m);
                completed.push_back(seq);
            });
        ASSERT_TRUE(eventually([&] { return std::lock_guard(m), completed.size() == 50; }));
        EXPECT_LE(queue.stats().largest, 7u);
    }
    for (std::int64_t seq = 0; seq < 50; ++seq) EXPECT_EQ(completed[static_cast<std::size_t>(seq)], seq);
    const auto actions = sqlite->loadActions("g");
    ASSERT_EQ(actions.size(), 50u);
    for (std::int64_t seq = 0; seq < 50; ++seq) EXPECT_EQ(actions[static_cast<std::size_t>(seq)].move, std::to_string(seq) + "-x");
}

TEST(CommitQueue, StoppedQueueRefusesWithAStorageError) {
    TempDir dir;
    auto sqlite = openSqliteStorage((dir.path / "games.db").string(), false);
    sqlite->createGame(gameRow("g"));
    CommitQueue queue(*sqlite);
    queue.stop();
    std::exception_ptr error;
    queue.submit({"g", ActionRow{0, 't', 1, ""}, ""}, [&](std::exception_ptr e) { error = e; });
    ASSERT_TRUE(error);
    EXPECT_THROW(std::rethrow_exception(error), StorageError);
    EXPECT_TRUE(sqlite->loadActions("g").empty());
}

/// A registry over real SQLite (behind the gate) whose rooms write through a commit queue.
struct QueuedRooms {
    TempDir dir;
    std::unique_ptr<Storage> sqlite = openSqliteStorage((dir.path / "games.db").string(), false);
    GatedStorage gated{*sqlite};
    Metrics metrics;
    ManualScheduler scheduler;
    Config config;
    std::unique_ptr<CommitQueue> queue = std::make_unique<CommitQueue>(gated);
    std::unique_ptr<Registry> registry;
    QueuedRooms() {
        registry = std::make_unique<Registry>(gated, metrics, scheduler, config);
        registry->setCommitQueue(queue.get());
    }
    ~QueuedRooms() { queue->stop(); }
    /// A local game (one client holding both seats) said hello to.
    std::pair<std::string, std::unique_ptr<Client>> localGame() {
        CreateRequest req;
        req.opponent = Opponent::Local;
        const Created c = registry->create(req);
        auto client = std::make_unique<Client>(registry->find(c.id).room);
        client->hello(c.secret, "seed" + c.id.substr(0, 4));
        return {c.id, std::move(client)};
    }
};

std::int64_t plyOf(Client& c) { return c.state().value("ply", std::int64_t{-1}); }

TEST(CommitQueueRooms, FailingItemLeavesOthersDurableAndItsRoomUnchanged) {
    QueuedRooms q;
    auto [a, clientA] = q.localGame();
    auto [b, clientB] = q.localGame();
    ASSERT_EQ(plyOf(*clientA), 0);
    // Game a's first action is already stored (as by another writer): its write will fail.
    q.sqlite->appendAction(a, ActionRow{0, 't', 0, ""});
    q.sqlite->createGame(gameRow("hold"));
    q.gated.close();
    q.queue->submit({"hold", ActionRow{0, 't', 0, ""}, ""}, [](std::exception_ptr) {});  // holds the writer at the gate
    ASSERT_TRUE(q.gated.waitUntilHeld());
    clientA->send("throw", {{"ply", 0}});
    clientB->send("throw", {{"ply", 0}});
    // Nothing goes out before the write committed.
    EXPECT_EQ(plyOf(*clientA), 0);
    EXPECT_EQ(plyOf(*clientB), 0);
    EXPECT_FALSE(clientA->hasNewError());
    q.gated.open();
    ASSERT_TRUE(eventually([&] { return plyOf(*clientB) == 1; }));
    ASSERT_TRUE(eventually([&] { return clientA->hasNewError(); }));
    clientA->waitForError("storage");
    EXPECT_EQ(q.gated.sizes(), (std::vector<std::size_t>{1, 2}));  // a's and b's throws in one transaction
    EXPECT_EQ(plyOf(*clientA), 0);
    EXPECT_EQ(Client(q.registry->find(a).room).hello().value("ply", -1), 0);  // the room did not move on
    ASSERT_EQ(q.sqlite->loadActions(b).size(), 1u);  // b's throw is durable
    EXPECT_EQ(q.sqlite->loadActions(b)[0].seq, 0);
    ASSERT_EQ(q.sqlite->loadActions(a).size(), 1u);  // only the row written before
}

TEST(CommitQueueRooms, NextActionWaitsUntilThePreviousIsStored) {
    QueuedRooms q;
    auto [a, client] = q.localGame();
    q.gated.close();
    client->send("throw", {{"ply", 0}});
    ASSERT_TRUE(q.gated.waitUntilHeld());
    client->send("throw", {{"ply", 0}});  // the same ply again while the first is being stored
    client->send("resign");
    EXPECT_EQ(plyOf(*client), 0);
    EXPECT_FALSE(client->hasNewError());  // not judged yet: it waits for the first write
    q.gated.open();
    ASSERT_TRUE(eventually([&] { return client->state().value("phase", "") == "over"; }));
    // Judged after the first throw was stored: at ply 1 the second throw is a wrong ply, then the resignation.
    const auto& errors = client->errors();
    ASSERT_FALSE(errors.empty());
    EXPECT_EQ(errors.front().value("code", ""), "wrong-ply");
    EXPECT_EQ(errors.front().value("ply", -1), 1);
    EXPECT_EQ(q.gated.sizes(), (std::vector<std::size_t>{1}));
    ASSERT_EQ(q.sqlite->loadActions(a).size(), 1u);
    EXPECT_EQ(q.sqlite->loadGame(a)->status, GameStatus::Over);
}

}  // namespace
}  // namespace senet::testing
