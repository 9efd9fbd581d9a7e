// The PostgreSQL storage beyond the common contract: schema migrations, leases with fencing
// epochs between two instances (two stores on one database), orphaned games, batches that fail
// item by item, round trips counted, reopening. Each test has a fresh database on a real server.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <pqxx/pqxx>
#include <thread>

#include "metrics.hpp"
#include "pg_pool.hpp"
#include "pg_temp.hpp"
#include "storage.hpp"

namespace senet::server {
namespace {

constexpr std::int64_t kTtl = 10000;
// The leases' clock in these tests (Unix ms): an hour ahead of the real time, so that the
// leases createGame gives (from the real time) have expired at kNow.
const std::int64_t kNow = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch()).count() + 3600000;

GameRow row(const std::string& id) {
    GameRow g;
    g.id = id;
    g.ruleset = "standard";
    g.opponent = Opponent::Friend;
    g.serverSeed = std::vector<std::uint8_t>(32, 7);
    g.seatHashes = {"hash0", ""};
    g.createdMs = 1700000000000;
    g.updatedMs = 1700000000000;
    return g;
}

class Postgres : public ::testing::Test {
protected:
    void SetUp() override {
        if (!senet::testing::postgresInstalled())
            GTEST_SKIP() << "PostgreSQL is not installed (/usr/lib/postgresql/*/bin; scripts/setup.sh installs it)";
        url_ = senet::testing::freshPostgresDatabase();
    }
    void TearDown() override {
        if (!url_.empty()) senet::testing::dropPostgresDatabase(url_);
    }
    /// A store of instance `name` that takes leases only when told (like a cluster member).
    std::unique_ptr<Storage> open(const std::string& name, Metrics* metrics = nullptr) {
        PostgresOptions o;
        o.instance = name;
        o.leaseTtlMs = kTtl;
        o.acquireOnLoad = false;
        o.metrics = metrics;
        return openPostgresStorage(url_, o);
    }
    /// One value read straight from the database.
    std::string query(const std::string& sql) {
        pqxx::connection c(url_);
        pqxx::nontransaction tx(c);
        const auto r = tx.exec(sql);
        return r.empty() || r[0][0].is_null() ? std::string("NULL") : r[0][0].as<std::string>();
    }
    std::string url_;
};

TEST_F(Postgres, MigrationsAreAppliedOnceAndRestartIsIdempotent) {
    { auto s = open("a"); }
    EXPECT_EQ(query("SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations"), "1,2,3");
    const std::string applied = query("SELECT string_agg(applied_ms::text, ',' ORDER BY version) FROM schema_migrations");
    EXPECT_EQ(query("SELECT count(*) FROM information_schema.columns WHERE table_name = 'games' AND column_name = 'epoch'"), "1");
    {
        auto s = open("a");  // a restart: nothing applied again
        s->createGame(row("g1"));
    }
    EXPECT_EQ(query("SELECT count(*) FROM schema_migrations"), "3");
    EXPECT_EQ(query("SELECT string_agg(applied_ms::text, ',' ORDER BY version) FROM schema_migrations"), applied);
    EXPECT_EQ(query("SELECT count(*) FROM games"), "1");
}

TEST_F(Postgres, InstancesStartingAtOnceMigrateOnce) {
    std::vector<std::thread> threads;
    std::atomic<int> opened{0}, failed{0};
    for (int i = 0; i < 4; ++i)
        threads.emplace_back([&, i] {
            try {
                auto s = open("i" + std::to_string(i));
                ++opened;
            } catch (const std::exception& e) {
                std::cerr << "open failed: " << e.what() << "\n";
                ++failed;
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(opened.load(), 4);
    EXPECT_EQ(failed.load(), 0);
    EXPECT_EQ(query("SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations"), "1,2,3");
}

TEST_F(Postgres, ANewerSchemaIsRefused) {
    { auto s = open("a"); }
    query("INSERT INTO schema_migrations VALUES (99, 'from the future', 0) RETURNING version");
    try {
        open("a");
        FAIL() << "a schema newer than the server's was accepted";
    } catch (const StorageError& e) {
        EXPECT_NE(std::string(e.what()).find("version 99"), std::string::npos) << e.what();
    }
}

TEST_F(Postgres, BadUrlAndUnreachableServerAreClearErrors) {
    EXPECT_THROW(openPostgresStorage("mysql://localhost/senet"), StorageError);
    try {
        openPostgresStorage("postgresql:///senet?host=/nonexistent-senet-dir&user=senet");
        FAIL() << "an unreachable server was accepted";
    } catch (const StorageError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot connect"), std::string::npos) << e.what();
    }
    // A URL the driver cannot parse is quoted in its error: never with the password.
    for (const char* url : {"postgresql://u:hunter2@[::1:1/db", "postgresql://u@[::1:1/db?password=hunter2"}) {
        try {
            openPostgresStorage(url);
            FAIL() << "a malformed URL was accepted: " << url;
        } catch (const StorageError& e) {
            EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(senet::server::pg::withoutPasswordIn("in URI: \"postgresql://u:hunter2@h/db\" hunter2", "postgresql://u:hunter2@h/db"),
              "in URI: \"postgresql://u:***@h/db\" ***");
}

TEST_F(Postgres, LeaseAcquireRenewAndTakeoverEpochs) {
    auto a = open("a");
    auto b = open("b");
    a->createGame(row("g"));  // a holds it at epoch 1
    EXPECT_EQ(query("SELECT owner || ':' || epoch FROM games WHERE id = 'g'"), "a:1");
    // createGame's lease runs from the real time; the test's clock starts there.
    const std::int64_t expires = std::stoll(query("SELECT lease_expires_ms FROM games WHERE id = 'g'"));
    EXPECT_EQ(b->acquireLease("g", "b", expires - 1, kTtl), std::nullopt) << "a's lease is live";
    EXPECT_EQ(a->acquireLease("g", "a", expires - 1, kTtl), std::optional<std::int64_t>(1)) << "a renewing keeps epoch 1";
    EXPECT_TRUE(a->renewLeases("a", {"g"}, expires - 1, kTtl).empty());
    EXPECT_EQ(query("SELECT lease_expires_ms FROM games WHERE id = 'g'"), std::to_string(expires - 1 + kTtl));
    // Expired: b takes it over, the epoch moves on; b renewing keeps it.
    const std::int64_t later = expires - 1 + kTtl;
    EXPECT_EQ(b->acquireLease("g", "b", later, kTtl), std::optional<std::int64_t>(2));
    EXPECT_EQ(b->acquireLease("g", "b", later + 1, kTtl), std::optional<std::int64_t>(2));
    EXPECT_EQ(query("SELECT owner || ':' || epoch FROM games WHERE id = 'g'"), "b:2");
    // a learns it lost the game when renewing; its lease is not extended.
    EXPECT_EQ(a->renewLeases("a", {"g"}, later + 2, kTtl), std::vector<std::string>{"g"});
    EXPECT_EQ(query("SELECT lease_expires_ms FROM games WHERE id = 'g'"), std::to_string(later + 1 + kTtl));
    // b releases: a may take it at once, at epoch 3.
    b->releaseLease("g", "b");
    EXPECT_EQ(query("SELECT owner FROM games WHERE id = 'g'"), "");
    EXPECT_EQ(a->acquireLease("g", "a", later + 3, kTtl), std::optional<std::int64_t>(3));
    EXPECT_THROW(a->acquireLease("nope", "a", later, kTtl), StorageError);
}

TEST_F(Postgres, AStaleOwnersWritesThrowLeaseLostAndChangeNothing) {
    auto a = open("a");
    auto b = open("b");
    a->createGame(row("g"));
    a->createGame(row("other"));
    a->appendAction("g", ActionRow{0, 't', 3, ""});
    ASSERT_EQ(b->acquireLease("g", "b", kNow + 10 * kTtl, kTtl), std::optional<std::int64_t>(2));  // a's lease expired
    EXPECT_THROW(a->appendAction("g", ActionRow{1, 'm', 0, "9-12"}), LeaseLost);
    // a forgot its epoch, and every other write is refused as well.
    EXPECT_THROW(a->appendFinalAction("g", ActionRow{1, 'm', 0, "9-12"}, R"({"winner":0})"), LeaseLost);
    EXPECT_THROW(a->takeSeat("g", 1, "late"), LeaseLost);
    EXPECT_THROW(a->setClientSeed("g", 0, "seed"), LeaseLost);
    EXPECT_THROW(a->finishGame("g", R"({"reason":"resign"})"), LeaseLost);
    EXPECT_THROW(a->setRematch("g", "other"), LeaseLost);
    EXPECT_THROW(a->expireGame("g"), LeaseLost);
    GameRow rematch = row("r");
    rematch.rematchOf = "g";
    EXPECT_THROW(a->createGame(rematch), LeaseLost);
    EXPECT_EQ(a->appendBatch({{"g", ActionRow{1, 't', 1, ""}, ""}}).size(), 1u);
    // Nothing of it is stored.
    const auto g = b->loadGame("g");
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->status, GameStatus::Playing);
    EXPECT_EQ(g->result, "");
    EXPECT_EQ(g->seatHashes[1], "");
    EXPECT_EQ(g->clientSeeds[0], std::nullopt);
    EXPECT_EQ(g->rematch, "");
    EXPECT_FALSE(b->loadGame("r").has_value());
    ASSERT_EQ(b->loadActions("g").size(), 1u);
    // The new owner writes on; a still owns its other game.
    b->appendAction("g", ActionRow{1, 'm', 0, "9-12"});
    EXPECT_TRUE(b->takeSeat("g", 1, "friend"));
    a->appendAction("other", ActionRow{0, 't', 2, ""});
    EXPECT_EQ(b->loadActions("g").size(), 2u);
    EXPECT_EQ(b->loadActions("other").size(), 1u);
    // A store that never acquired a game cannot write to it (no implicit acquisition).
    auto c = open("c");
    EXPECT_THROW(c->appendAction("other", ActionRow{1, 't', 1, ""}), LeaseLost);
    EXPECT_EQ(b->loadActions("other").size(), 1u);
}

TEST_F(Postgres, ATakeoverFencesAnOwnerWritingMeanwhile) {
    auto a = open("a");
    auto b = open("b");
    a->createGame(row("g"));
    std::atomic<bool> stop{false}, fenced{false};
    std::atomic<std::int64_t> stored{0};  // actions a was told are durable
    std::string lastError;                // written by the writer before `fenced`
    std::thread writer([&] {
        for (std::int64_t seq = 0; !stop; ++seq) {
            try {
                a->appendAction("g", ActionRow{seq, 't', static_cast<int>(seq % 16), ""});
                stored = seq + 1;
            } catch (const LeaseLost& e) {
                lastError = e.what();
                fenced = true;
                return;
            }
        }
    });
    while (stored < 20) std::this_thread::yield();
    const auto epoch = b->acquireLease("g", "b", kNow + 10 * kTtl, kTtl);
    const auto seenByB = b->loadActions("g").size();
    // The writer keeps writing until its next write is refused (on a busy machine it may not
    // have written at all since the takeover): wait for that, at most 20 s.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!fenced && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    stop = true;
    writer.join();
    ASSERT_EQ(epoch, std::optional<std::int64_t>(2));
    ASSERT_TRUE(fenced) << "a never learned it lost the game";
    EXPECT_FALSE(lastError.empty());
    // Every action a had acknowledged is there for b, and none after the takeover.
    EXPECT_EQ(static_cast<std::int64_t>(seenByB), stored.load());
    EXPECT_EQ(static_cast<std::int64_t>(b->loadActions("g").size()), stored.load());
}

// As above through group commit: each batch (BEGIN, SAVEPOINT and a fenced insert per item,
// COMMIT) holds the game's row from its insert until the batch commits, so a takeover waits for
// the batch in flight and then reads every action of it; later batches of the old owner write
// nothing of that game. The game taken over comes first in each batch: most of a batch's time
// lies between its insert and the COMMIT.
TEST_F(Postgres, ATakeoverFencesBatchesCommittedMeanwhile) {
    auto a = open("a");
    auto b = open("b");
    const std::vector<std::string> others = {"h0", "h1", "h2", "h3"};
    a->createGame(row("g"));
    for (const auto& id : others) a->createGame(row(id));
    std::atomic<bool> stop{false};
    std::atomic<std::int64_t> storedG{0}, storedH{0};  // actions a was told are durable (g, h0)
    std::string lastError;
    std::thread writer([&] {
        for (std::int64_t seq = 0;; ++seq) {
            // A batch begun after the takeover (stop was set once it returned) must fail for g:
            // the writer ends only with g's error, or after such a batch that wrongly succeeded.
            const bool afterTakeover = stop;
            std::vector<BatchedAction> batch{{"g", ActionRow{seq, 't', static_cast<int>(seq % 16), ""}, ""}};
            for (const auto& id : others) batch.push_back({id, ActionRow{seq, 't', static_cast<int>(seq % 16), ""}, ""});
            const auto errors = a->appendBatch(batch);
            if (!errors[1]) storedH = seq + 1;
            if (!errors[0]) {
                storedG = seq + 1;
                if (afterTakeover) return;
                continue;
            }
            try {
                std::rethrow_exception(errors[0]);
            } catch (const LeaseLost& e) {
                lastError = e.what();
            } catch (const std::exception& e) {
                lastError = "not LeaseLost: ";
                lastError += e.what();
            }
            return;
        }
    });
    while (storedG < 20) std::this_thread::yield();
    const auto epoch = b->acquireLease("g", "b", kNow + 10 * kTtl, kTtl);
    const auto seenByB = b->loadActions("g").size();
    stop = true;
    writer.join();
    ASSERT_EQ(epoch, std::optional<std::int64_t>(2));
    EXPECT_EQ(lastError.rfind("postgresql: game g was taken over", 0), 0u) << lastError;
    // Every action of g that a was told is durable is there for b, and none after the takeover.
    EXPECT_EQ(static_cast<std::int64_t>(seenByB), storedG.load());
    EXPECT_EQ(static_cast<std::int64_t>(b->loadActions("g").size()), storedG.load());
    // The other games of the same batches went on being written.
    EXPECT_EQ(static_cast<std::int64_t>(b->loadActions("h0").size()), storedH.load());
    EXPECT_GE(storedH.load(), storedG.load());
}

// An instance renews its leases (one UPDATE of many games' rows) on one connection while its
// group commit writes (a FOR SHARE lock of each game's row, held until COMMIT) on another. The
// two lock the same rows; taken in different orders they deadlock, and PostgreSQL aborts one:
// a failed renewal round (the leases may expire) or a batch's action answered `storage`. Both
// must lock in one order. Here the batches name the games in the reverse of the renewal's order.
TEST_F(Postgres, RenewalsAndGroupCommitsOfTheSameGamesNeverDeadlock) {
    auto a = open("a");
    std::vector<std::string> ids;
    for (int i = 0; i < 40; ++i) {
        ids.push_back("d" + std::to_string(100 + i));
        a->createGame(row(ids.back()));
    }
    const std::vector<std::string> reversed(ids.rbegin(), ids.rend());
    std::atomic<bool> stop{false};
    std::atomic<int> renewals{0}, renewalErrors{0};
    std::string renewalError;
    std::thread renewer([&] {
        while (!stop) {
            try {
                const auto lost = a->renewLeases("a", ids, kNow, kTtl);
                if (!lost.empty()) renewalError = "lost " + lost.front();
                else ++renewals;
            } catch (const StorageError& e) {
                ++renewalErrors;
                renewalError = e.what();
            }
        }
    });
    int batches = 0, failed = 0;
    std::string batchError;
    // Until the first failure (a deadlock costs PostgreSQL's deadlock_timeout, 1 s) or 25 batches.
    for (std::int64_t seq = 0; seq < 25 && failed == 0 && renewalErrors == 0; ++seq) {
        std::vector<BatchedAction> batch;
        for (const auto& id : reversed) batch.push_back({id, ActionRow{seq, 't', static_cast<int>(seq % 16), ""}, ""});
        for (const auto& e : a->appendBatch(batch)) {
            if (!e) continue;
            ++failed;
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& x) {
                batchError = x.what();
            }
        }
        ++batches;
    }
    stop = true;
    renewer.join();
    EXPECT_EQ(failed, 0) << batchError;
    EXPECT_EQ(renewalErrors.load(), 0) << renewalError;
    EXPECT_GT(renewals.load(), 0) << renewalError;
    EXPECT_EQ(batches, 25);
    // Every batch is durable, every game's actions in order.
    EXPECT_EQ(a->loadActions(ids.front()).size(), static_cast<std::size_t>(batches));
    EXPECT_EQ(a->loadActions(ids.back()).size(), static_cast<std::size_t>(batches));
}

TEST_F(Postgres, OrphanedGamesAreTheUnfinishedWithAFreeOrExpiredLease) {
    auto a = open("a");
    for (const char* id : {"live", "expired", "released", "over", "expired-over"}) a->createGame(row(id));
    ASSERT_EQ(a->acquireLease("live", "a", kNow, kTtl), std::optional<std::int64_t>(1));
    ASSERT_EQ(a->acquireLease("expired", "a", kNow - 2 * kTtl, kTtl), std::optional<std::int64_t>(1));
    a->releaseLease("released", "a");
    a->finishGame("over", R"({"reason":"resign"})");
    a->releaseLease("over", "a");
    a->finishGame("expired-over", R"({"reason":"resign"})");
    ASSERT_EQ(a->acquireLease("expired-over", "a", kNow - 2 * kTtl, kTtl), std::optional<std::int64_t>(1));
    auto orphans = a->orphanedGames(kNow, 100);
    std::sort(orphans.begin(), orphans.end());
    EXPECT_EQ(orphans, (std::vector<std::string>{"expired", "released"}));
    EXPECT_EQ(a->orphanedGames(kNow, 1).size(), 1u);
    // After the live lease runs out it is an orphan too.
    orphans = a->orphanedGames(kNow + kTtl, 100);
    std::sort(orphans.begin(), orphans.end());
    EXPECT_EQ(orphans, (std::vector<std::string>{"expired", "live", "released"}));
}

TEST_F(Postgres, ABatchFailsItemByItemAndCountsItsRoundTrips) {
    Metrics metrics;
    auto a = open("a", &metrics);
    auto b = open("b");
    for (const char* id : {"g1", "g2", "g3"}) a->createGame(row(id));
    ASSERT_EQ(b->acquireLease("g2", "b", kNow + 10 * kTtl, kTtl), std::optional<std::int64_t>(2));
    const std::int64_t before = metrics.pgRoundTrips.load();
    const auto errors = a->appendBatch({
        {"g1", ActionRow{0, 't', 5, ""}, ""},
        {"g2", ActionRow{0, 't', 6, ""}, ""},                 // taken over: LeaseLost
        {"g3", ActionRow{0, 't', 7, ""}, ""},
        {"g1", ActionRow{0, 't', 8, ""}, ""},                 // a duplicate seq
        {"g3", ActionRow{1, 'm', 0, "1-off"}, R"({"winner":0})"},  // the final action
        {"zz", ActionRow{0, 't', 1, ""}, ""},                 // never acquired: refused before the batch
    });
    ASSERT_EQ(errors.size(), 6u);
    auto kind = [&](std::size_t i) -> std::string {
        if (!errors[i]) return "ok";
        try {
            std::rethrow_exception(errors[i]);
        } catch (const LeaseLost&) {
            return "lease";
        } catch (const StorageError&) {
            return "storage";
        }
    };
    EXPECT_EQ(kind(0), "ok");
    EXPECT_EQ(kind(1), "lease");
    EXPECT_EQ(kind(2), "ok");
    EXPECT_EQ(kind(3), "storage");
    EXPECT_EQ(kind(4), "ok");
    EXPECT_EQ(kind(5), "lease");
    // The others are durable; the failed ones changed nothing.
    ASSERT_EQ(b->loadActions("g1").size(), 1u);
    EXPECT_EQ(b->loadActions("g1")[0].outcome, 5);
    EXPECT_TRUE(b->loadActions("g2").empty());
    ASSERT_EQ(b->loadActions("g3").size(), 2u);
    EXPECT_EQ(b->loadGame("g3")->status, GameStatus::Over);
    EXPECT_EQ(b->loadGame("g3")->result, R"({"winner":0})");
    EXPECT_EQ(b->loadGame("g1")->status, GameStatus::Playing);
    // Round trips: BEGIN, 5 x (SAVEPOINT + statement), 1 lease check after no row matched
    // (g2), 1 ROLLBACK TO SAVEPOINT each for g2 and g1's duplicate, COMMIT.
    const std::int64_t trips = metrics.pgRoundTrips.load() - before;
    EXPECT_EQ(trips, 1 + 5 * 2 + 1 + 2 + 1);

    // A clean batch of N actions costs 2N + 2 round trips; one action alone costs 1.
    const int n = 40;
    std::vector<BatchedAction> batch;
    for (int i = 0; i < n; ++i) {
        const std::string id = "b" + std::to_string(i);
        a->createGame(row(id));
        batch.push_back({id, ActionRow{0, 't', i % 16, ""}, ""});
    }
    std::int64_t start = metrics.pgRoundTrips.load();
    const auto clean = a->appendBatch(batch);
    EXPECT_EQ(std::count(clean.begin(), clean.end(), nullptr), n);
    EXPECT_EQ(metrics.pgRoundTrips.load() - start, 2 * n + 2);
    std::cout << "[ figures ] appendBatch of " << n << " actions: " << (metrics.pgRoundTrips.load() - start)
              << " round trips (" << static_cast<double>(metrics.pgRoundTrips.load() - start) / n << " per action)\n";
    start = metrics.pgRoundTrips.load();
    a->appendAction("b0", ActionRow{1, 't', 1, ""});
    EXPECT_EQ(metrics.pgRoundTrips.load() - start, 1) << "appendAction is one statement";
    EXPECT_GT(metrics.storageCalls.load(), 40);
    EXPECT_GT(metrics.storageMicros.load(), 0);
}

TEST_F(Postgres, WritesSurviveReopeningAndLastActivityIsTheLastAction) {
    {
        auto a = open("a");
        a->createGame(row("g"));
        a->appendAction("g", ActionRow{0, 't', 4, ""});
        a->appendFinalAction("g", ActionRow{1, 'm', 0, "9-11"}, R"({"winner":0})");
        EXPECT_TRUE(a->takeSeat("g", 1, "late"));
    }
    query("UPDATE actions SET at_ms = 1800000000000 + seq * 60000 RETURNING seq");
    PostgresOptions sole;  // a single instance restarted (same name): loading takes the lease
    sole.instance = "a";
    auto s = openPostgresStorage(url_, sole);
    const auto g = s->loadGame("g");
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->status, GameStatus::Over);
    EXPECT_EQ(g->seatHashes[1], "late");
    EXPECT_EQ(g->updatedMs, 1800000000000 + 60000) << "not the last action's time";
    EXPECT_EQ(g->createdMs, 1700000000000);
    ASSERT_EQ(s->loadActions("g").size(), 2u);
    EXPECT_EQ(s->loadActions("g")[1].move, "9-11");
    EXPECT_EQ(query("SELECT owner || ':' || epoch FROM games WHERE id = 'g'"), "a:2");
    s->setRematch("g", "next");  // it owns what it loaded
    EXPECT_EQ(s->loadGame("g")->rematch, "next");
}

TEST_F(Postgres, ManyThreadsShareThePool) {
    auto a = open("a");
    const int threads = 8, actions = 30;
    for (int t = 0; t < threads; ++t) a->createGame(row("t" + std::to_string(t)));
    std::vector<std::thread> pool;
    std::atomic<int> errors{0};
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (int i = 0; i < actions; ++i) {
                try {
                    a->appendAction("t" + std::to_string(t), ActionRow{i, 't', i % 16, ""});
                } catch (const std::exception&) {
                    ++errors;
                }
            }
        });
    for (auto& t : pool) t.join();
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(query("SELECT count(*) FROM actions"), std::to_string(threads * actions));
}

}  // namespace
}  // namespace senet::server
