// The real senet-server on PostgreSQL (--database): games created and played over the API and
// WebSocket, the server stopped (or killed) and started again, the games resumed from the
// database; a bad URL or an unreachable server is a clear startup error.
#include <gtest/gtest.h>

#include <signal.h>

#include <pqxx/pqxx>

#include "harness.hpp"
#include "pg_temp.hpp"
#include "storage_support.hpp"

namespace senet::testing {
namespace {

class PgServer : public PgServerTest {
protected:
    void TearDown() override {
        server_.reset();  // the server's connections end before its database is dropped
        PgServerTest::TearDown();
    }
    void start() { server_ = std::make_unique<ServerProcess>(dir_.path() / "data", web_, std::vector<std::string>{"--database", url_}); }
    std::int64_t count(const std::string& sql) {
        pqxx::connection c(url_);
        pqxx::nontransaction tx(c);
        return tx.exec1(sql)[0].as<std::int64_t>();
    }

    std::unique_ptr<ServerProcess> server_;
};

TEST_F(PgServer, GamesArePlayedStoredAndResumedAfterARestart) {
    start();
    std::mt19937 rng(14);
    const NewGame local = createGame(server_->port(), "standard", "local");
    const NewGame computer = createGame(server_->port(), "jequier", "computer", "first", "beginner");
    json acknowledged;
    {
        WsClient c(server_->port(), local.id);
        c.hello(local.secret, "pg-seed");
        acknowledged = playActions(c, 12, rng);
    }
    {
        WsClient c(server_->port(), computer.id);
        c.hello(computer.secret, "pg-comp");
        playActions(c, 1, rng);  // a throw, then the computer may act
    }
    const int ply = acknowledged["ply"];
    ASSERT_GE(ply, 12);
    // Every acknowledged action is a row in PostgreSQL, before any restart.
    EXPECT_EQ(count("SELECT count(*) FROM actions WHERE game_id = '" + local.id + "'"), ply);
    EXPECT_EQ(count("SELECT count(*) FROM games"), 2);
    const auto metrics = httpRequest(server_->port(), "GET", "/metrics");
    EXPECT_NE(metrics.body.find("senet_pg_round_trips_total "), std::string::npos);
    EXPECT_EQ(metrics.body.find("senet_pg_round_trips_total 0\n"), std::string::npos) << "no round trip counted";

    // The epoch before the restart (the creator hands a new game on: its first player's instance takes it anew).
    const int epochBefore = count("SELECT epoch FROM games WHERE id = '" + local.id + "'");
    // Killed, not stopped: nothing but the database carries the games over.
    EXPECT_EQ(server_->stop(SIGKILL), 128 + SIGKILL);
    start();
    {
        WsClient c(server_->port(), local.id);
        const json snap = c.hello(local.secret);
        EXPECT_EQ(snap["ply"], ply);
        EXPECT_EQ(snap["position"], acknowledged["position"]);
        EXPECT_EQ(snap["fairness"]["commitment"], acknowledged["fairness"]["commitment"]);
        const json after = playActions(c, 6, rng);  // the restarted server owns the game and writes on
        EXPECT_GE(after["ply"].get<int>(), ply + 1);
        EXPECT_EQ(count("SELECT count(*) FROM actions WHERE game_id = '" + local.id + "'"), after["ply"].get<int>());
    }
    // The restarted server took the leases again, with a new epoch.
    EXPECT_EQ(count("SELECT epoch FROM games WHERE id = '" + local.id + "'"), epochBefore + 1);
    const auto record = httpRequest(server_->port(), "GET", "/api/games/" + computer.id);
    EXPECT_EQ(record.status, 200);
    EXPECT_EQ(server_->stop(SIGTERM), 0);
}

TEST_F(PgServer, ABadUrlOrAnUnreachableServerIsAClearStartupErrorAndBothSchemesWork) {
    {
        CapturedServer s(dir_.path() / "data", web_, {"--database", "mysql://localhost/senet"});
        EXPECT_EQ(s.waitExit(), 2);
        EXPECT_NE(s.output().find("--database must be a postgresql:// or postgres:// URL"), std::string::npos) << s.output();
    }
    {
        // A combination of flags that cannot work is a bad flag too (exit 2: not restarted by the
        // systemd unit), found before the database is touched.
        CapturedServer s(dir_.path() / "data", web_, {"--database", url_, "--backup-dir", (dir_.path() / "backups").string()});
        EXPECT_EQ(s.waitExit(), 2) << s.output();
        EXPECT_NE(s.output().find("--backup-dir backs up SQLite only"), std::string::npos) << s.output();
    }
    {
        // libpq's other scheme, postgres://, reaches the same database (server/README.md).
        ASSERT_TRUE(url_.starts_with("postgresql://")) << url_;
        CapturedServer s(dir_.path() / "data", web_, {"--database", "postgres://" + url_.substr(13), "--instance", "short"});
        ASSERT_TRUE(s.waitFor("listening on", std::chrono::seconds(30))) << s.output();
        EXPECT_EQ(httpRequest(s.port(), "GET", "/healthz").status, 200);
        EXPECT_EQ(s.stop(SIGTERM), 0);
    }
    {
        CapturedServer s(dir_.path() / "data", web_, {"--database", "postgresql:///senet?host=/nonexistent-senet-dir&user=senet"});
        EXPECT_EQ(s.waitExit(), 1);
        EXPECT_NE(s.output().find("cannot connect"), std::string::npos) << s.output();
        EXPECT_EQ(s.output().find("listening on"), std::string::npos) << s.output();
    }
}

}  // namespace
}  // namespace senet::testing
