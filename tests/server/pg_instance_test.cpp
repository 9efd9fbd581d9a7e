// One instance name, one live process: two senet-server processes started with the same
// --instance against one PostgreSQL database would each believe they own the other's games
// (leases are keyed by the name). The second one must refuse to start, naming the instance and
// the fix; a process restarted after a crash (the old one SIGKILLed) must start at once. Below,
// the same on the store itself, and a name lost while its connection was down.
#include <gtest/gtest.h>

#include <signal.h>

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <thread>

#include <pqxx/pqxx>

#include "harness.hpp"
#include "pg_temp.hpp"
#include "storage.hpp"
#include "storage_support.hpp"

namespace senet::testing {
namespace {

class PgInstance : public PgServerTest {
protected:
    /// The flags of instance `name` on the test database.
    std::vector<std::string> flags(const std::string& name) const { return {"--database", url_, "--instance", name}; }
};

TEST_F(PgInstance, ASecondProcessWithTheSameNameRefusesToStart) {
    ServerProcess first(dir_.path() / "a", web_, flags("dup"));
    const NewGame game = createGame(first.port(), "standard", "local");
    {
        // Another host's process, same name: refused before it listens, with the name and the fix,
        // and with exit status 3 (server/README.md), which the systemd unit does not restart on:
        // restarting cannot free the name.
        CapturedServer second(dir_.path() / "b", web_, flags("dup"));
        EXPECT_EQ(second.waitExit(std::chrono::seconds(30)), 3) << second.output();
        const std::string& out = second.output();
        EXPECT_EQ(out.find("listening on"), std::string::npos) << out;
        EXPECT_NE(out.find("instance \"dup\" is already running"), std::string::npos) << out;
        EXPECT_NE(out.find("--instance"), std::string::npos) << "the message says how to fix it: " << out;
        EXPECT_NE(out.find("pid"), std::string::npos) << "the message names the running process: " << out;
    }
    EXPECT_FALSE(std::filesystem::exists(dir_.path() / "b" / "signing-key.pem")) << "a refused start made a signing key";
    // The first one is untouched: it still owns and serves its game.
    EXPECT_EQ(httpRequest(first.port(), "GET", "/healthz").status, 200);
    {
        WsClient c(first.port(), game.id);
        EXPECT_TRUE(c.hello(game.secret).contains("ply"));
    }
    // Another name on the same database starts beside it.
    ServerProcess other(dir_.path() / "c", web_, flags("other"));
    EXPECT_EQ(httpRequest(other.port(), "GET", "/healthz").status, 200);
    EXPECT_EQ(other.stop(SIGTERM), 0);
    EXPECT_EQ(first.stop(SIGTERM), 0);
}

TEST_F(PgInstance, AnInstanceRestartedAfterACrashOrAStopStartsAtOnce) {
    auto first = std::make_unique<ServerProcess>(dir_.path() / "a", web_, flags("s1"));
    const NewGame game = createGame(first->port(), "standard", "local");
    EXPECT_EQ(first->stop(SIGKILL), 128 + SIGKILL);
    first.reset();
    // The killed process's name is free again as soon as PostgreSQL notices its connections closed.
    const auto t0 = std::chrono::steady_clock::now();
    CapturedServer again(dir_.path() / "a", web_, flags("s1"));
    ASSERT_TRUE(again.waitFor("listening on", std::chrono::seconds(30))) << again.output();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "[ figures ] restart after SIGKILL listening after " << ms << " ms\n";
    {
        WsClient c(again.port(), game.id);
        EXPECT_EQ(c.hello(game.secret)["ply"], 0);
    }
    EXPECT_EQ(again.stop(SIGTERM), 0);
    // A clean stop frees it too.
    CapturedServer third(dir_.path() / "a", web_, flags("s1"));
    ASSERT_TRUE(third.waitFor("listening on", std::chrono::seconds(30))) << third.output();
    EXPECT_EQ(third.stop(SIGTERM), 0);
}

// A rolling upgrade stops one instance at a time (deploy/README.md, "Rolling upgrade"): a clean
// stop hands its games' leases on, so that the instance the pages reconnect to serves them at
// once instead of answering 503 until the lease expires (60 s here).
TEST_F(PgInstance, ACleanStopHandsItsGamesOn) {
    auto withTtl = [&](const std::string& name) {
        auto f = flags(name);
        f.insert(f.end(), {"--lease-ttl", "60000"});
        return f;
    };
    auto owner = [&](const std::string& id) {
        pqxx::connection c(url_);
        pqxx::nontransaction tx(c);
        return tx.exec_params1("SELECT owner FROM games WHERE id = $1", id)[0].as<std::string>();
    };
    CapturedServer first(dir_.path() / "a", web_, withTtl("s1"));
    ASSERT_TRUE(first.waitFor("listening on", std::chrono::seconds(30))) << first.output();
    const NewGame game = createGame(first.port(), "standard", "local");
    {
        WsClient c(first.port(), game.id);
        EXPECT_EQ(c.hello(game.secret)["ply"], 0);
        EXPECT_EQ(owner(game.id), "s1") << "a player's connection takes the game's lease";
        EXPECT_EQ(first.stop(SIGTERM), 0) << first.output();
    }
    EXPECT_EQ(owner(game.id), "") << "the lease was still held after a clean stop: " << first.output();
    EXPECT_NE(first.output().find("handed on 1 games"), std::string::npos) << first.output();
    // Another instance serves the game at once (with the lease still held it would answer 503).
    ServerProcess second(dir_.path() / "b", web_, withTtl("s2"));
    {
        WsClient c(second.port(), game.id);
        EXPECT_EQ(c.hello(game.secret)["ply"], 0);
    }
    EXPECT_EQ(owner(game.id), "s2");
    EXPECT_EQ(second.stop(SIGTERM), 0);
}

}  // namespace
}  // namespace senet::testing

namespace senet::server {
namespace {

GameRow gameRow(const std::string& id) {
    GameRow g;
    g.id = id;
    g.ruleset = "standard";
    g.opponent = Opponent::Local;
    g.serverSeed = std::vector<std::uint8_t>(32, 3);
    g.createdMs = g.updatedMs = 1700000000000;
    return g;
}

class PgInstanceStore : public senet::testing::PgDatabaseTest {
protected:
    std::unique_ptr<Storage> open(const std::string& name, std::int64_t waitMs = 0) {
        PostgresOptions o;
        o.instance = name;
        o.acquireOnLoad = false;
        o.instanceWaitMs = waitMs;
        return openPostgresStorage(url_, o);
    }
};

TEST_F(PgInstanceStore, ASecondStoreOfOneNameIsRefusedUntilTheFirstCloses) {
    auto a = open("a");
    try {
        open("a");
        FAIL() << "a second store of instance a opened";
    } catch (const StorageError& e) {
        EXPECT_NE(std::string(e.what()).find("instance \"a\" is already running"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("senet-server pid " + std::to_string(::getpid())), std::string::npos)
            << "names the holder: " << e.what();
    }
    auto b = open("b");  // another name: fine
    a.reset();  // its backend ends a moment after the connection closes: wait for it
    EXPECT_NO_THROW(open("a", 20000));
    // Waiting: a holder that goes away meanwhile hands the name on.
    auto held = open("c");
    std::thread closer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        held.reset();
    });
    EXPECT_NO_THROW(open("c", 20000));
    closer.join();
}

TEST_F(PgInstanceStore, ANameTakenWhileTheConnectionWasLostStopsEveryWrite) {
    auto a = open("a");
    a->createGame(gameRow("g"));
    ASSERT_TRUE(a->acquireLease("g", "a", 1000, 60000).has_value());
    EXPECT_EQ(a->health(), "");
    // PostgreSQL drops the name's connection (as at a restart); another process takes the name.
    {
        pqxx::connection c(url_);
        pqxx::nontransaction tx(c);
        tx.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'senet-server pid%' "
                "AND datname = current_database()");
    }
    auto intruder = open("a", 20000);
    EXPECT_EQ(a->health(), "postgresql: another process took this instance's name");
    EXPECT_EQ(a->health(), "postgresql: another process took this instance's name") << "it stays lost";
    EXPECT_THROW(a->appendAction("g", ActionRow{0, 't', 1, ""}), LeaseLost);
    EXPECT_THROW(a->acquireLease("g", "a", 2000, 60000), StorageError);
    EXPECT_THROW(a->createGame(gameRow("h")), StorageError);
    EXPECT_EQ(a->renewLeases("a", {"g"}, 2000, 60000), std::vector<std::string>{"g"});
    EXPECT_TRUE(a->loadActions("g").empty());
    // Without an intruder, a lost connection is simply taken again.
    EXPECT_EQ(intruder->health(), "");
}

}  // namespace
}  // namespace senet::server
