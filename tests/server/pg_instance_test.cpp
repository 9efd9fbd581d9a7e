// One instance name, one live process: two senet-server processes started with the same
// --instance against one PostgreSQL database would each believe they own the other's games
// (leases are keyed by the name). The second one must refuse to start, naming the instance and
// the fix; a process restarted after a crash (the old one SIGKILLed) must start at once.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <iostream>

#include "harness.hpp"
#include "pg_temp.hpp"
#include "storage_support.hpp"

namespace senet::testing {
namespace {

class PgInstance : public ::testing::Test {
protected:
    void SetUp() override {
        if (!postgresInstalled()) GTEST_SKIP() << "PostgreSQL is not installed (/usr/lib/postgresql/*/bin; scripts/setup.sh installs it)";
        url_ = freshPostgresDatabase();
        web_ = makeWebRoot(dir_.path());
    }
    void TearDown() override {
        if (!url_.empty()) dropPostgresDatabase(url_);
    }
    /// The flags of instance `name` on the test database.
    std::vector<std::string> flags(const std::string& name) const { return {"--database", url_, "--instance", name}; }

    TempDir dir_;
    std::filesystem::path web_;
    std::string url_;
};

TEST_F(PgInstance, ASecondProcessWithTheSameNameRefusesToStart) {
    ServerProcess first(dir_.path() / "a", web_, flags("dup"));
    const NewGame game = createGame(first.port(), "standard", "local");
    {
        // Another host's process, same name: refused before it listens, with the name and the fix.
        CapturedServer second(dir_.path() / "b", web_, flags("dup"));
        EXPECT_EQ(second.waitExit(std::chrono::seconds(30)), 1) << second.output();
        const std::string& out = second.output();
        EXPECT_EQ(out.find("listening on"), std::string::npos) << out;
        EXPECT_NE(out.find("instance \"dup\" is already running"), std::string::npos) << out;
        EXPECT_NE(out.find("--instance"), std::string::npos) << "the message says how to fix it: " << out;
        EXPECT_NE(out.find("pid"), std::string::npos) << "the message names the running process: " << out;
    }
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

}  // namespace
}  // namespace senet::testing
