// GET /healthz follows the database: the real server on a PostgreSQL server of this test's own
// (scripts/pg-temp.sh), which the test stops and starts again. While PostgreSQL is down /healthz
// answers 503 with a short JSON reason, without waiting for the database; once it is back, 200.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "harness.hpp"
#include "pg_temp.hpp"
#include "storage_support.hpp"

namespace senet::testing {
namespace {

using Clock = std::chrono::steady_clock;

/// Polls /healthz until its status is `status` (true) or `timeout` passes (false); `slowest`
/// gets the longest answer time seen.
bool waitForHealth(unsigned short port, int status, HttpReply& last, std::chrono::milliseconds& slowest,
                   std::chrono::seconds timeout = std::chrono::seconds(30)) {
    const auto end = Clock::now() + timeout;
    while (Clock::now() < end) {
        const auto t0 = Clock::now();
        last = httpRequest(port, "GET", "/healthz");
        slowest = std::max(slowest, std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0));
        if (last.status == status) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

TEST(PgHealth, HealthzIs503WhilePostgresIsDownAnd200WhenItIsBack) {
    if (!postgresInstalled()) GTEST_SKIP() << "PostgreSQL is not installed (/usr/lib/postgresql/*/bin; scripts/setup.sh installs it)";
    TempDir dir;
    OwnPostgres pg;  // a server of this test's own: it goes down and up (the shared one must stay up)
    ASSERT_EQ(pg.error, "");
    const std::string url = pg.url();
    {
        ServerProcess server(dir.path() / "data", makeWebRoot(dir.path()), {"--database", url, "--instance", "h1"});
        HttpReply reply;
        std::chrono::milliseconds slowest{0};
        ASSERT_TRUE(waitForHealth(server.port(), 200, reply, slowest)) << reply.status << " " << reply.body;
        EXPECT_EQ(reply.body, "ok\n");

        pg.down();
        ASSERT_TRUE(waitForHealth(server.port(), 503, reply, slowest)) << "still " << reply.status << " with PostgreSQL down";
        const json body = reply.bodyJson();
        EXPECT_EQ(body.value("status", ""), "unavailable") << reply.body;
        EXPECT_EQ(body.value("reason", ""), "postgresql unreachable") << reply.body;
        EXPECT_NE(reply.header("content-type").find("application/json"), std::string::npos);
        EXPECT_EQ(reply.header("cache-control"), "no-store");
        // The pages do not depend on the database: the server itself answers on.
        EXPECT_EQ(httpRequest(server.port(), "GET", "/en/").status, 200);
        // A game lookup cannot reach the database: "try again", not an internal error.
        const HttpReply lookup = httpRequest(server.port(), "GET", "/api/games/AAAAAAAAAAAAAAAAAAAAAA");
        EXPECT_EQ(lookup.status, 503) << lookup.body;
        EXPECT_EQ(lookup.bodyJson().value("error", ""), "storage") << lookup.body;
        EXPECT_EQ(lookup.header("retry-after"), "2");

        pg.up();
        const auto back = Clock::now();
        ASSERT_TRUE(waitForHealth(server.port(), 200, reply, slowest)) << "still " << reply.status << " " << reply.body;
        const auto lag = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - back);
        std::cout << "[ figures ] /healthz 200 again " << lag.count() << " ms after PostgreSQL accepted connections\n";
        EXPECT_EQ(reply.body, "ok\n");
        // Writes work again (the instance took its name back on a new connection).
        EXPECT_EQ(createGame(server.port(), "standard", "local").id.size() > 0, true);
        std::cout << "[ figures ] slowest /healthz answer during the outage: " << slowest.count() << " ms\n";
        EXPECT_EQ(server.stop(SIGTERM), 0);
    }
}

}  // namespace
}  // namespace senet::testing
