// GET /healthz follows PostgreSQL within about a second of a recovery, also when the network
// misbehaves: the real server reaches a PostgreSQL of this test's own (scripts/pg-temp.sh)
// through a proxy (cut_proxy.hpp) that cuts connections, black-holes new ones and comes back.
// - A black hole: the check's reconnect must not wait for libpq's connect_timeout (10 s) on a
//   connection that never answers: it gives up after its own short deadline and tries again.
// - A cut that PostgreSQL does not notice: the former connection's backend still holds the
//   instance's name; the check ends it instead of waiting for TCP keepalives.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "cut_proxy.hpp"
#include "harness.hpp"
#include "pg_temp.hpp"
#include "storage_support.hpp"

namespace senet::testing {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

/// What the tests allow from PostgreSQL answering again to /healthz 200: a check under way
/// starts a new connection every 250 ms, the next check follows a failed one within 250 ms;
/// plus a margin for a loaded machine.
constexpr milliseconds kRecoveryBound{1500};
/// From a cut (after which PostgreSQL answers new connections at once) to /healthz 200: the
/// check notices the cut when it next runs, up to a second later; plus the same margin.
constexpr milliseconds kCutBound{2000};

/// Polls /healthz every 20 ms until `done(reply)` or `timeout`; false when it timed out.
template <class F>
bool pollHealth(unsigned short port, HttpReply& last, F done, milliseconds timeout = milliseconds(20000)) {
    const auto end = Clock::now() + timeout;
    while (Clock::now() < end) {
        last = httpRequest(port, "GET", "/healthz");
        if (done(last)) return true;
        std::this_thread::sleep_for(milliseconds(20));
    }
    return false;
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

milliseconds since(Clock::time_point t) { return std::chrono::duration_cast<milliseconds>(Clock::now() - t); }

class PgHealthCut : public ::testing::Test {
protected:
    void SetUp() override {
        if (!postgresInstalled()) GTEST_SKIP() << "PostgreSQL is not installed (/usr/lib/postgresql/*/bin; scripts/setup.sh installs it)";
        pg_ = std::make_unique<OwnPostgres>();
        ASSERT_EQ(pg_->error, "");
        proxy_ = std::make_unique<CutProxy>(pg_->socket());
        url_ = "postgresql://senet@127.0.0.1:" + std::to_string(proxy_->port()) + "/senet";
    }
    void TearDown() override {
        proxy_.reset();
        pg_.reset();
    }

    /// The database vanishes (every connection cut, new ones never answered) and comes back
    /// just after the check began a new connection; `flags` are the server's besides --database.
    void blackHoleRecovery(std::vector<std::string> flags, const std::string& what) {
        flags.insert(flags.begin(), {"--database", url_});
        ServerProcess server(dir_.path() / "data", makeWebRoot(dir_.path()), flags);
        HttpReply reply;
        ASSERT_TRUE(pollHealth(server.port(), reply, [](const HttpReply& r) { return r.status == 200; })) << reply.status;

        proxy_->blackHole();
        proxy_->cut(false);
        ASSERT_TRUE(pollHealth(server.port(), reply, [](const HttpReply& r) { return r.status == 503; })) << "still " << reply.status;
        EXPECT_EQ(reply.bodyJson().value("status", ""), "unavailable") << reply.body;
        EXPECT_FALSE(reply.bodyJson().value("reason", "").empty()) << reply.body;
        // Back just after the check began a new connection (the worst moment: it went into the hole).
        const int held = proxy_->held();
        ASSERT_TRUE(pollHealth(server.port(), reply, [&](const HttpReply&) { return proxy_->held() > held; }))
            << "the check made no new connection";
        EXPECT_EQ(httpRequest(server.port(), "GET", "/healthz").status, 503) << "the database is still unreachable";
        proxy_->pass();
        const auto back = Clock::now();
        ASSERT_TRUE(pollHealth(server.port(), reply, [](const HttpReply& r) { return r.status == 200; }))
            << "still " << reply.status << " " << reply.body << " " << since(back).count() << " ms after the recovery";
        const milliseconds lag = since(back);
        std::cout << "[ figures ] /healthz 200 again " << lag.count() << " ms after PostgreSQL answers again (black hole, " << what << ")\n";
        EXPECT_LE(lag, kRecoveryBound);
        EXPECT_FALSE(createGame(server.port(), "standard", "local").id.empty()) << "writes work again";
        EXPECT_EQ(server.stop(SIGTERM), 0);
    }

    TempDir dir_;
    std::unique_ptr<OwnPostgres> pg_;
    std::unique_ptr<CutProxy> proxy_;
    std::string url_;
};

TEST_F(PgHealthCut, AReconnectIntoABlackHoleDoesNotDelayTheRecovery) {
    blackHoleRecovery({"--instance", "b1"}, "--instance b1");
}

TEST_F(PgHealthCut, ACutThatPostgresDoesNotNoticeEndsTheFormerConnection) {
    const auto log = dir_.path() / "server.log";
    ServerProcess server(dir_.path() / "data", makeWebRoot(dir_.path()), {"--database", url_, "--instance", "s1"}, log);
    HttpReply reply;
    ASSERT_TRUE(pollHealth(server.port(), reply, [](const HttpReply& r) { return r.status == 200; })) << reply.status;

    // The server's side of every connection is cut; PostgreSQL's backends go on holding what
    // they held (the instance's name too) and new connections work at once.
    proxy_->cut(true);
    const auto cut = Clock::now();
    ASSERT_TRUE(pollHealth(server.port(), reply, [&](const HttpReply& r) {
        return r.status == 200 && readFile(log).find("holds its name again") != std::string::npos;
    })) << "still " << reply.status << " " << reply.body << " " << since(cut).count() << " ms after the cut; the log:\n" << readFile(log);
    const milliseconds lag = since(cut);
    std::cout << "[ figures ] /healthz 200 on a new connection " << lag.count() << " ms after a cut PostgreSQL did not notice\n";
    EXPECT_LE(lag, kCutBound);
    EXPECT_GE(proxy_->databaseSidesEnded(), 1) << "the former connection's backend was ended";
    EXPECT_NE(readFile(log).find("ended its former connection"), std::string::npos) << readFile(log);
    EXPECT_FALSE(createGame(server.port(), "standard", "local").id.empty()) << "writes work again";
    EXPECT_EQ(server.stop(SIGTERM), 0);
}

}  // namespace
}  // namespace senet::testing
