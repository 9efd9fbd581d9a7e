// The lobby across instances (server/README.md, "The lobby across instances"): two real
// senet-server processes on one PostgreSQL database pair seekers connected to different
// instances, list each other's open seeks, take them, never pair one seeker twice when many
// seek at once on both, and never pair with a seek of an instance that was killed.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <map>
#include <set>
#include <thread>

#include <pqxx/pqxx>

#include "harness.hpp"
#include "pg_temp.hpp"

namespace senet::testing {
namespace {

using Clock = std::chrono::steady_clock;

class PgLobby : public PgServerTest {
protected:
    void TearDown() override {
        a_.reset();
        b_.reset();
        PgServerTest::TearDown();
    }
    void startBoth(std::vector<std::string> extra = {}) {
        const auto flags = [&](const char* name) {
            std::vector<std::string> f{"--database", url_, "--instance", name};
            f.insert(f.end(), extra.begin(), extra.end());
            return f;
        };
        a_ = std::make_unique<ServerProcess>(dir_.path() / "a", web_, flags("la"));
        b_ = std::make_unique<ServerProcess>(dir_.path() / "b", web_, flags("lb"));
    }
    /// The game `id` as GET /api/games/{id} on `port` answers, once `pred` holds of it (polled up to `seconds`).
    template <class Pred>
    json gameOnce(unsigned short port, const std::string& id, Pred pred, int seconds = 10) {
        json body;
        const auto until = Clock::now() + std::chrono::seconds(seconds);
        do {
            const HttpReply r = httpRequest(port, "GET", "/api/games/" + id);
            body = r.bodyJson();
            if (r.status == 200 && pred(body)) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        } while (Clock::now() < until);
        return body;
    }
    /// Pairs a seeker on a (browser `ta`) with one on b (browser `tb`); their paired frames' data.
    std::pair<json, json> pairAcross(const std::string& ta, const std::string& tb, std::unique_ptr<WsClient>& ca,
                                     std::unique_ptr<WsClient>& cb) {
        ca = std::make_unique<WsClient>(a_->port(), "/ws/lobby");
        cb = std::make_unique<WsClient>(b_->port(), "/ws/lobby");
        ca->send("seek", {{"ruleset", "standard"}, {"browser", ta}});
        EXPECT_TRUE(ca->receiveType("seeking"));
        std::this_thread::sleep_for(std::chrono::milliseconds(1200));  // b reads a's seek: not needed to pair, to list
        cb->send("seek", {{"ruleset", "standard"}, {"browser", tb}});
        const auto pb = cb->receiveType("paired");
        const auto pa = ca->receiveType("paired");
        if (!pa || !pb) return {json(), json()};
        return {(*pa)["d"], (*pb)["d"]};
    }
    /// GET /api/lobby of `port` once `pred` holds of it (polled up to 5 s: each instance reads the others' seeks every second).
    template <class Pred>
    json lobbyOnce(unsigned short port, Pred pred) {
        json body;
        const auto until = Clock::now() + std::chrono::seconds(5);
        do {
            body = httpRequest(port, "GET", "/api/lobby").bodyJson();
            if (pred(body)) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        } while (Clock::now() < until);
        return body;
    }

    /// Advisory locks held on the test's database (one per live instance's name).
    int advisoryLocks() {
        pqxx::connection c(url_);
        pqxx::nontransaction tx(c);
        return tx.exec1("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = "
                        "(SELECT oid FROM pg_database WHERE datname = current_database())")[0]
            .as<int>();
    }

    std::unique_ptr<ServerProcess> a_, b_;
};

TEST_F(PgLobby, SeekersOnTwoInstancesArePairedIntoOneGame) {
    startBoth();
    WsClient sa(a_->port(), "/ws/lobby"), sb(b_->port(), "/ws/lobby");
    ASSERT_TRUE(sa.receiveType("lobby"));
    ASSERT_TRUE(sb.receiveType("lobby"));
    sa.send("seek", {{"ruleset", "bell"}, {"name", "Hatshepsut"}, {"browser", "tokenA"}});
    const auto seeking = sa.receiveType("seeking");
    ASSERT_TRUE(seeking);
    // Instance b lists a's seek (no secret, no browser token) and counts it.
    const json seen = lobbyOnce(b_->port(), [](const json& j) { return j["open"].size() == 1; });
    ASSERT_EQ(seen["open"].size(), 1u) << seen.dump();
    EXPECT_EQ(seen["open"][0]["id"], (*seeking)["d"]["id"]);
    EXPECT_EQ(seen["open"][0]["name"], "Hatshepsut");
    EXPECT_EQ(seen["rulesets"]["bell"]["seeking"], 1);
    EXPECT_EQ(seen.dump().find("tokenA"), std::string::npos);

    const auto tapped = Clock::now();
    sb.send("seek", {{"ruleset", "any"}, {"browser", "tokenB"}});
    const auto pb = sb.receiveType("paired");
    const auto pa = sa.receiveType("paired");
    const auto took = Clock::now() - tapped;
    ASSERT_TRUE(pa && pb);
    // Within a second of the second seeker's tap, both know (the NOTIFY wakes instance a at once).
    EXPECT_LT(took, std::chrono::seconds(1)) << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
    const json da = (*pa)["d"], db = (*pb)["d"];
    EXPECT_EQ(da["game"], db["game"]);
    EXPECT_EQ(da["ruleset"], "bell");
    EXPECT_EQ(db["ruleset"], "bell");
    EXPECT_EQ(db["opponent"], "Hatshepsut");
    EXPECT_EQ(da["name"], "Hatshepsut");
    EXPECT_EQ(da["opponent"], db["name"]);
    EXPECT_NE(da["seat"], db["seat"]);
    EXPECT_NE(da["secret"], db["secret"]);

    // Both seats play the game at the other instance (a): b made it and handed it on at once,
    // with the guest names, so a takes it without waiting ("moved") and shows them.
    const std::string id = da["game"];
    const auto connecting = Clock::now();
    WsClient ga(a_->port(), id), gb(a_->port(), id);
    const json sta = ga.hello(da["secret"], "seed-a");
    const json stb = gb.hello(db["secret"], "seed-b");
    EXPECT_EQ(sta["you"], json::array({da["seat"]}));
    EXPECT_EQ(stb["you"], json::array({db["seat"]}));
    EXPECT_LT(Clock::now() - connecting, std::chrono::seconds(1));
    EXPECT_EQ(stb["seats"][da["seat"].get<int>()]["name"], "Hatshepsut") << stb.dump();
    EXPECT_EQ(sta["seats"][db["seat"].get<int>()]["name"], db["name"]);
    WsClient& seat0 = da["seat"] == 0 ? ga : gb;
    seat0.send("throw", {{"ply", 0}});
    EXPECT_TRUE(seat0.receiveUntilPly(1));
    // The seeks are gone from both boards, and the game counts as playing on both.
    const json after = lobbyOnce(a_->port(), [](const json& j) { return j["rulesets"]["bell"]["playing"] == 2; });
    EXPECT_EQ(after["open"].size(), 0u);
    EXPECT_EQ(after["rulesets"]["bell"]["playing"], 2) << after.dump();
    EXPECT_EQ(httpRequest(b_->port(), "GET", "/api/lobby").bodyJson()["rulesets"]["bell"]["playing"], 2);
}

TEST_F(PgLobby, AnOpenSeekIsTakenFromAnotherInstanceAndAClosedOneLeavesItsBoard) {
    startBoth();
    WsClient sa(a_->port(), "/ws/lobby");
    sa.send("seek", {{"ruleset", "kendall"}, {"name", "Ahmose"}, {"browser", "tokenA"}});
    const auto seeking = sa.receiveType("seeking");
    ASSERT_TRUE(seeking);
    const std::string seekId = (*seeking)["d"]["id"];
    ASSERT_EQ(lobbyOnce(b_->port(), [](const json& j) { return j["open"].size() == 1; })["open"].size(), 1u);

    // The same browser's other tab, on b, may not take it; it stays open.
    WsClient tab(b_->port(), "/ws/lobby");
    tab.send("take", {{"seek", seekId}, {"browser", "tokenA"}});
    EXPECT_EQ(tab.waitForError("same-browser")["code"], "same-browser");
    EXPECT_EQ(lobbyOnce(b_->port(), [](const json& j) { return j["open"].size() == 1; })["open"].size(), 1u);
    // A bot may not take a seek that accepts no bots; it stays open too.
    WsClient bot(b_->port(), "/ws/lobby");
    bot.send("take", {{"seek", seekId}, {"bot", true}});
    EXPECT_EQ(bot.waitForError("no-bots")["code"], "no-bots");

    WsClient taker(b_->port(), "/ws/lobby");
    taker.send("take", {{"seek", seekId}, {"name", "Thutmose"}});
    const auto pt = taker.receiveType("paired");
    const auto pa = sa.receiveType("paired");
    ASSERT_TRUE(pt && pa);
    EXPECT_EQ((*pt)["d"]["game"], (*pa)["d"]["game"]);
    EXPECT_EQ((*pt)["d"]["ruleset"], "kendall");
    EXPECT_EQ((*pa)["d"]["opponent"], "Thutmose");
    // Taken once: a second take is told it is gone.
    WsClient late(b_->port(), "/ws/lobby");
    late.send("take", {{"seek", seekId}});
    EXPECT_EQ(late.waitForError("gone")["code"], "gone");

    // A seek whose socket closes leaves the other instance's board.
    {
        WsClient gone(a_->port(), "/ws/lobby");
        gone.send("seek", {{"ruleset", "standard"}});
        ASSERT_TRUE(gone.receiveType("seeking"));
        ASSERT_EQ(lobbyOnce(b_->port(), [](const json& j) { return j["rulesets"]["standard"]["seeking"] == 1; })["rulesets"]["standard"]["seeking"], 1);
    }
    EXPECT_EQ(lobbyOnce(b_->port(), [](const json& j) { return j["rulesets"]["standard"]["seeking"] == 0; })["rulesets"]["standard"]["seeking"], 0);
}

TEST_F(PgLobby, TwelveSeekersAtOnceOnTwoInstancesMakeSixGames) {
    startBoth();
    constexpr int kSeekers = 12;
    std::vector<std::unique_ptr<WsClient>> clients;
    for (int i = 0; i < kSeekers; ++i) clients.push_back(std::make_unique<WsClient>(i % 2 ? b_->port() : a_->port(), "/ws/lobby"));
    for (auto& c : clients) ASSERT_TRUE(c->receiveType("lobby"));
    std::vector<std::thread> threads;
    std::vector<std::optional<json>> paired(kSeekers);
    for (int i = 0; i < kSeekers; ++i)
        threads.emplace_back([&, i] {
            clients[i]->send("seek", {{"ruleset", "standard"}});
            paired[i] = clients[i]->tryReceiveType("paired", std::chrono::seconds(10));
        });
    for (auto& t : threads) t.join();
    std::map<std::string, std::set<int>> seatsByGame;
    for (int i = 0; i < kSeekers; ++i) {
        ASSERT_TRUE(paired[i]) << "seeker " << i << " was never paired";
        seatsByGame[(*paired[i])["d"]["game"]].insert((*paired[i])["d"]["seat"].get<int>());
    }
    EXPECT_EQ(seatsByGame.size(), static_cast<std::size_t>(kSeekers / 2));
    for (const auto& [game, seats] : seatsByGame) EXPECT_EQ(seats, (std::set<int>{0, 1})) << game;
    // Nobody is paired a second time, and nothing is left open.
    for (auto& c : clients) EXPECT_FALSE(c->tryReceiveType("paired", std::chrono::milliseconds(100)));
    for (auto port : {a_->port(), b_->port()})
        EXPECT_EQ(lobbyOnce(port, [](const json& j) { return j["rulesets"]["standard"]["seeking"] == 0; })["rulesets"]["standard"]["seeking"], 0);
}

TEST_F(PgLobby, ASeekOfAKilledInstanceIsNeverClaimed) {
    startBoth();
    {
        WsClient sa(a_->port(), "/ws/lobby");
        sa.send("seek", {{"ruleset", "jequier"}});
        ASSERT_TRUE(sa.receiveType("seeking"));
        ASSERT_EQ(lobbyOnce(b_->port(), [](const json& j) { return j["open"].size() == 1; })["open"].size(), 1u);
        a_->stop(SIGKILL);
    }
    // PostgreSQL frees the killed process's name once it reads its connection's end (moments).
    const auto until = Clock::now() + std::chrono::seconds(5);
    while (Clock::now() < until && advisoryLocks() > 1) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(advisoryLocks(), 1) << "only b's name is held";
    // At once after the kill: b's seeker waits, unpaired, and a's seek leaves b's board.
    WsClient sb(b_->port(), "/ws/lobby");
    sb.send("seek", {{"ruleset", "jequier"}});
    const auto mine = sb.receiveType("seeking");
    ASSERT_TRUE(mine);
    // (A timed-out read would close the socket: its seek's staying open shows it was not paired.)
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const json board = lobbyOnce(b_->port(), [](const json& j) { return j["open"].size() == 1; });
    ASSERT_EQ(board["open"].size(), 1u) << board.dump();  // its own seek only
    EXPECT_EQ(board["open"][0]["id"], (*mine)["d"]["id"]);
    EXPECT_EQ(board["rulesets"]["jequier"]["seeking"], 1);
    // a restarted under its name starts clean, and pairs with b's seeker.
    a_ = std::make_unique<ServerProcess>(dir_.path() / "a", web_, std::vector<std::string>{"--database", url_, "--instance", "la"});
    WsClient again(a_->port(), "/ws/lobby");
    again.send("seek", {{"ruleset", "jequier"}});
    const auto p1 = again.receiveType("paired");
    const auto p2 = sb.receiveType("paired");
    ASSERT_TRUE(p1 && p2);
    EXPECT_EQ((*p1)["d"]["game"], (*p2)["d"]["game"]);
}

TEST_F(PgLobby, AnUnstartedGameIsAbortedWhereverItIsAndTheLadderCountsIt) {
    startBoth({"--lobby-abort-seconds", "2"});
    // Both seats come to the game at a (b made it), nobody throws: a aborts it at its time.
    std::unique_ptr<WsClient> l1, l2;
    const auto [p1, p2] = pairAcross("came-a", "came-b", l1, l2);
    ASSERT_TRUE(p1.is_object() && p2.is_object());
    const std::string played = p1["game"];
    WsClient g1(a_->port(), played), g2(a_->port(), played);
    g1.hello(p1["secret"], "s1");
    g2.hello(p2["secret"], "s2");
    const json over = gameOnce(a_->port(), played, [](const json& g) { return g.value("phase", "") == "over"; });
    EXPECT_EQ(over["result"], (json{{"winner", nullptr}, {"player", nullptr}, {"reason", "aborted"}})) << over.dump();

    // Three games from one browser (three tabs on b) that nobody comes to: b, which made them,
    // aborts them once their time is past (no instance holds them) and its ladder counts them.
    std::vector<std::unique_ptr<WsClient>> lobbies;
    std::vector<std::string> games;
    for (int i = 0; i < 3; ++i) {
        std::unique_ptr<WsClient> ca, cb;
        const auto [pa, pb] = pairAcross("partner-" + std::to_string(i), "gone", ca, cb);
        ASSERT_TRUE(pa.is_object() && pb.is_object());
        games.push_back(pa["game"]);
        lobbies.push_back(std::move(ca));
        lobbies.push_back(std::move(cb));
    }
    for (const auto& id : games) {
        const json g = gameOnce(b_->port(), id, [](const json& j) { return j.value("phase", "") == "over"; }, 15);
        EXPECT_EQ(g["result"]["reason"], "aborted") << id << " " << g.dump();
    }
    // The third abort in a row: that browser waits before it may seek again, at b.
    WsClient again(b_->port(), "/ws/lobby");
    json refused;
    const auto until = Clock::now() + std::chrono::seconds(5);
    while (Clock::now() < until) {
        again.send("seek", {{"ruleset", "standard"}, {"browser", "gone"}});
        while (true) {  // its answer: `seeking` or `error` (lobby frames may come between)
            const auto f = again.receive();
            if (!f) break;
            if ((*f)["t"] == "error" || (*f)["t"] == "seeking") {
                refused = *f;
                break;
            }
        }
        if (refused["t"] == "error") break;
        again.send("cancel");
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    EXPECT_EQ(refused["t"], "error") << refused.dump();
    EXPECT_EQ(refused["d"]["code"], "wait") << refused.dump();
}

TEST_F(PgLobby, ACancelOrANewSeekThatComesAsAnotherInstancePairsTheSeekLosesTheRace) {
    startBoth();
    // O waits at b; S seeks at a, and O cancels (or seeks another ruleset) at once: either both
    // are paired with each other, or neither is (never S alone, against nobody).
    int both = 0;
    for (int trial = 0; trial < 8; ++trial) {
        // The last trial's sockets are closed, but their seeks leave both boards only when each
        // instance has seen its close: until then O's new seek could be paired with S's old one.
        for (const unsigned short port : {a_->port(), b_->port()})
            ASSERT_EQ(lobbyOnce(port, [](const json& j) { return j["open"].empty(); })["open"].size(), 0u) << "trial " << trial;
        WsClient o(b_->port(), "/ws/lobby"), sa(a_->port(), "/ws/lobby");
        o.send("seek", {{"ruleset", "jequier"}, {"browser", "o" + std::to_string(trial)}});
        ASSERT_TRUE(o.receiveType("seeking"));
        ASSERT_EQ(lobbyOnce(a_->port(), [](const json& j) { return j["open"].size() == 1; })["open"].size(), 1u);
        sa.send("seek", {{"ruleset", "jequier"}, {"browser", "s" + std::to_string(trial)}});
        if (trial % 2) o.send("cancel");
        else o.send("seek", {{"ruleset", "piccione"}, {"browser", "o" + std::to_string(trial)}});
        const auto first = sa.receive();  // seeking or paired (lobby frames aside)
        std::optional<json> answerS = first;
        while (answerS && (*answerS)["t"] == "lobby") answerS = sa.receive();
        ASSERT_TRUE(answerS);
        std::optional<json> answerO = o.receive();
        while (answerO && (*answerO)["t"] == "lobby") answerO = o.receive();
        ASSERT_TRUE(answerO);
        if ((*answerS)["t"] == "paired") {
            ++both;
            EXPECT_EQ((*answerO)["t"], "paired") << "trial " << trial << ": S was paired, O got " << answerO->dump();
            EXPECT_EQ((*answerO)["d"]["game"], (*answerS)["d"]["game"]);
        } else {
            EXPECT_EQ((*answerS)["t"], "seeking") << answerS->dump();
            EXPECT_EQ((*answerO)["t"], trial % 2 ? "cancelled" : "seeking") << "trial " << trial << ": " << answerO->dump();
        }
    }
    std::cout << "[ figures ] the cancel or new seek lost the race (both paired) in " << both << " of 8 trials\n";
}

TEST(PgLobbyOutage, SeeksMadeOrClosedWhileTheDatabaseIsAwayAreSharedOrWithdrawnWhenItIsBack) {
    if (!postgresInstalled()) GTEST_SKIP() << "PostgreSQL is not installed (/usr/lib/postgresql/*/bin; scripts/setup.sh installs it)";
    TempDir dir;
    OwnPostgres pg;  // a server of this test's own: it goes down and up
    ASSERT_EQ(pg.error, "");
    const std::string url = pg.url();
    const auto web = makeWebRoot(dir.path());
    {
        ServerProcess a(dir.path() / "a", web, {"--database", url, "--instance", "oa"});
        ServerProcess b(dir.path() / "b", web, {"--database", url, "--instance", "ob"});
        const auto openAt = [](unsigned short port) {
            const HttpReply r = httpRequest(port, "GET", "/api/lobby");
            return r.status == 200 ? r.bodyJson()["open"].size() : 99u;
        };
        const auto until = [](auto pred, int seconds) {
            const auto end = Clock::now() + std::chrono::seconds(seconds);
            while (Clock::now() < end && !pred()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
            return pred();
        };
        auto gone = std::make_unique<WsClient>(a.port(), "/ws/lobby");
        gone->send("seek", {{"ruleset", "piccione"}});
        ASSERT_TRUE(gone->receiveType("seeking"));
        ASSERT_TRUE(until([&] { return openAt(b.port()) == 1; }, 5)) << "b lists a's seek";

        pg.down();
        WsClient x(a.port(), "/ws/lobby"), y(b.port(), "/ws/lobby");
        x.send("seek", {{"ruleset", "kendall"}, {"browser", "x"}});
        y.send("seek", {{"ruleset", "kendall"}, {"browser", "y"}});
        EXPECT_TRUE(x.receiveType("seeking", std::chrono::seconds(10)));  // each waits at its own instance meanwhile
        EXPECT_TRUE(y.receiveType("seeking", std::chrono::seconds(10)));
        gone.reset();  // its withdrawal cannot reach the database now
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        pg.up();

        // Once it is back, the two seeks made meanwhile are shared and paired with each other,
        // and the closed seek leaves b's board (its row withdrawn again).
        const auto px = x.receiveType("paired", std::chrono::seconds(15));
        const auto py = y.receiveType("paired", std::chrono::seconds(5));
        ASSERT_TRUE(px && py);
        EXPECT_EQ((*px)["d"]["game"], (*py)["d"]["game"]);
        EXPECT_TRUE(until([&] { return openAt(b.port()) == 0 && openAt(a.port()) == 0; }, 10))
            << "a: " << openAt(a.port()) << ", b: " << openAt(b.port());
    }
}

}  // namespace
}  // namespace senet::testing
