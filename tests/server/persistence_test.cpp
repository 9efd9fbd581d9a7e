// Persistence: every acknowledged action survives a SIGKILL; unfinished games are restored by
// replaying their records; a graceful shutdown closes sockets with "going away".
#include <sys/stat.h>

#include <signal.h>
#include <sqlite3.h>

#include <fstream>
#include <thread>

#include "fixture.hpp"

namespace senet::testing {
namespace {

class Persistence : public ServerTest {};

TEST_F(Persistence, SigkillLosesNoAcknowledgedAction) {
    std::mt19937 rng(99);
    struct Live {
        NewGame game;
        json acknowledged;
        json record;
    };
    std::vector<Live> games;
    for (const char* ruleset : {"standard", "jequier", "bell"}) {
        Live l{createGame(port(), ruleset, "local"), {}, {}};
        WsClient c(port(), l.game.id);
        c.hello(l.game.secret, "persist");
        l.acknowledged = playActions(c, 25 + static_cast<int>(rng() % 20), rng);
        // Send one more action and kill the server right away: it may or may not be stored,
        // but everything acknowledged before must be.
        c.send("throw", {{"ply", l.acknowledged["ply"]}});
        games.push_back(l);
    }
    // A computer game mid-way too.
    const NewGame comp = createGame(port(), "standard", "computer", "first", "beginner");
    json compState;
    {
        WsClient c(port(), comp.id);
        c.hello(comp.secret, "cs");
        for (int i = 0; i < 10; ++i) {
            const json s = c.state();
            if (s["phase"] == "over") break;
            if (s["seatToAct"] != 0) {  // the computer's turn: wait for its action
                ASSERT_TRUE(c.receiveUntilPly(s["ply"].get<int>() + 1));
                continue;
            }
            if (s["phase"] == "move")
                c.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
            else
                c.send("throw", {{"ply", s["ply"]}});
            c.receiveUntilPly(s["ply"].get<int>() + 1);
        }
        compState = c.state();
    }
    EXPECT_EQ(server_->stop(SIGKILL), 128 + SIGKILL);
    restart();
    for (const Live& l : games) {
        WsClient c(port(), l.game.id);
        const json snap = c.hello(l.game.secret);
        const int ackPly = l.acknowledged["ply"];
        EXPECT_GE(snap["ply"].get<int>(), ackPly) << l.game.id;
        EXPECT_LE(snap["ply"].get<int>(), ackPly + 1) << l.game.id;
        if (snap["ply"] == ackPly) {
            EXPECT_EQ(snap["position"], l.acknowledged["position"]);
            EXPECT_EQ(snap["phase"], l.acknowledged["phase"]);
        }
        EXPECT_EQ(snap["fairness"]["commitment"], l.acknowledged["fairness"]["commitment"]);
        EXPECT_EQ(snap["fairness"]["clientSeeds"], l.acknowledged["fairness"]["clientSeeds"]);
        // The restored game plays on to its end and its throws still verify.
        std::mt19937 more(5);
        playToEnd({{0, &c}, {1, &c}}, {}, more);
        EXPECT_EQ(c.state()["phase"], "over");
        auto rec = httpRequest(port(), "GET", "/api/games/" + l.game.id + "/record");
        ASSERT_EQ(rec.status, 200);
        const auto file = dir_.path() / (l.game.id + ".json");
        std::ofstream(file) << rec.body;
        auto [code, out] = runCli({"verify", file.string()});
        EXPECT_EQ(code, 0) << out;
    }
    WsClient c(port(), comp.id);
    const json snap = c.hello(comp.secret);
    EXPECT_GE(snap["ply"].get<int>(), compState["ply"].get<int>());
    auto metrics = httpRequest(port(), "GET", "/metrics").body;
    EXPECT_NE(metrics.find("senet_games_running"), std::string::npos);
}

TEST_F(Persistence, GracefulShutdownClosesSocketsAndKeepsGames) {
    const NewGame g = createGame(port(), "bell", "local");
    WsClient c(port(), g.id);
    c.hello(g.secret, "s");
    std::mt19937 rng(1);
    const json before = playActions(c, 8, rng);
    EXPECT_EQ(server_->stop(SIGTERM), 0);
    while (c.receive(std::chrono::seconds(20))) {  // until the close (a read ends at once then)
    }
    EXPECT_TRUE(c.closed());
    EXPECT_EQ(c.closeCode(), 1001);
    restart();
    WsClient again(port(), g.id);
    EXPECT_EQ(again.hello(g.secret)["ply"], before["ply"]);
}

/// Runs one SQL statement on the (stopped) server's database.
void execSql(const std::filesystem::path& db, const std::string& sql) {
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(db.string().c_str(), &h), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(h);
    sqlite3_close(h);
}

TEST_F(Persistence, ExpiryCountsFromTheLastAction) {
    // The games row is not rewritten on every action: a game's last activity is its last
    // stored action. A game created long ago but played recently must not expire at restart.
    const NewGame recent = createGame(port(), "standard", "local");
    const NewGame idle = createGame(port(), "standard", "local");
    std::mt19937 rng(5);
    for (const NewGame* g : {&recent, &idle}) {
        WsClient c(port(), g->id);
        c.hello(g->secret, "x");
        playActions(c, 4, rng);
    }
    EXPECT_EQ(server_->stop(SIGTERM), 0);
    const auto db = dir_.path() / "data" / "senet.sqlite3";
    execSql(db, "UPDATE games SET created_ms = 0, updated_ms = 0");
    execSql(db, "UPDATE actions SET at_ms = 0 WHERE game_id = '" + idle.id + "'");
    restart();
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + recent.id).status, 200);
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + idle.id).status, 410);
}

/// The value of one gauge in /metrics, or -1 when it is missing.
long long gauge(unsigned short port, const std::string& name) {
    const std::string body = httpRequest(port, "GET", "/metrics").body;
    const auto at = body.find("\n" + name + " ");
    if (at == std::string::npos) return -1;
    return std::stoll(body.substr(at + name.size() + 2));
}

class Sweep : public ServerTest {
protected:
    std::vector<std::string> flags() const override { return {"--sweep-seconds", "1", "--unload-seconds", "1"}; }
};

TEST_F(Sweep, UnusedGamesLeaveMemoryAndComeBackFromStorage) {
    const NewGame left = createGame(port(), "standard", "local");
    const NewGame playing = createGame(port(), "jequier", "local");
    std::mt19937 rng(3);
    json before;
    {
        WsClient c(port(), left.id);
        c.hello(left.secret, "x");
        before = playActions(c, 6, rng);
    }  // disconnected
    WsClient stays(port(), playing.id);
    stays.hello(playing.secret, "y");
    playActions(stays, 2, rng);
    EXPECT_EQ(gauge(port(), "senet_rooms_loaded"), 2);
    EXPECT_EQ(gauge(port(), "senet_games_running"), 2);
    // Within a few sweeps (1 s apart) the game nobody is connected to leaves memory; the other
    // stays. Polled for up to 30 s: a busy machine may run the sweeps late, never early. The exact
    // quiet time is checked on a manual clock (RoomClock in room_clock_test.cpp).
    long long loaded = 2;
    for (int i = 0; i < 300 && loaded != 1; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        loaded = gauge(port(), "senet_rooms_loaded");
    }
    EXPECT_EQ(loaded, 1);
    EXPECT_EQ(gauge(port(), "senet_games_running"), 1);
    // It comes back from storage exactly where it was, and play goes on.
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + left.id).status, 200);
    WsClient back(port(), left.id);
    const json state = back.hello(left.secret, "x");
    EXPECT_EQ(state["ply"], before["ply"]);
    EXPECT_EQ(state["position"], before["position"]);
    const json after = playActions(back, 2, rng);
    EXPECT_GT(after["ply"].get<int>(), before["ply"].get<int>());
    EXPECT_EQ(gauge(port(), "senet_rooms_loaded"), 2);
}


TEST_F(Persistence, DatabaseFilesAreTheOwnersAlone) {
    // The database holds the secret server seeds of running games: no other local user may read it.
    const NewGame g = createGame(port(), "standard", "local");
    {
        WsClient c(port(), g.id);
        c.hello(g.secret, "perm");
    }
    for (const char* name : {"senet.sqlite3", "senet.sqlite3-wal", "senet.sqlite3-shm"}) {
        struct stat st {};
        const auto file = dir_.path() / "data" / name;
        ASSERT_EQ(stat(file.c_str(), &st), 0) << file;
        EXPECT_EQ(st.st_mode & 0777, 0600u) << file;
    }
}

}  // namespace
}  // namespace senet::testing

