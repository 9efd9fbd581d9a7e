// The lobby over the real server (PROTOCOL.md "Lobby"): /ws/lobby pairs two sockets into a game
// both can play; GET /api/lobby; the game socket's size and rate limits and Origin rules on the
// lobby socket; a bad message leaves the connection usable; a closed socket's seek is gone.
#include <thread>

#include "fixture.hpp"
#include "raw_client.hpp"

namespace senet::testing {
namespace {

class LobbyServer : public ServerTest {};

/// The open seeks of `ruleset` in GET /api/lobby once they are `want` (polled up to 2 s: a
/// closed socket's seek leaves when the server has read the close).
int seekingOnce(unsigned short port, const std::string& ruleset, int want) {
    int n = -1;
    for (int i = 0; i < 100; ++i) {
        n = httpRequest(port, "GET", "/api/lobby").bodyJson()["rulesets"][ruleset]["seeking"].get<int>();
        if (n == want) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return n;
}

TEST_F(LobbyServer, TwoSocketsArePairedIntoAPlayableGame) {
    WsClient a(port(), "/ws/lobby"), b(port(), "/ws/lobby");
    const auto first = a.receiveType("lobby");
    ASSERT_TRUE(first);
    EXPECT_EQ((*first)["d"]["rulesets"].size(), 5u);
    a.send("seek", {{"ruleset", "bell"}, {"name", "Hatshepsut"}, {"browser", "tokenA"}});
    const auto seeking = a.receiveType("seeking");
    ASSERT_TRUE(seeking);
    const json counts = httpRequest(port(), "GET", "/api/lobby").bodyJson();
    EXPECT_EQ(counts["rulesets"]["bell"]["seeking"], 1);
    ASSERT_EQ(counts["open"].size(), 1u);
    EXPECT_EQ(counts["open"][0]["name"], "Hatshepsut");
    EXPECT_EQ(counts["open"][0]["id"], (*seeking)["d"]["id"]);
    b.send("seek", {{"ruleset", "any"}, {"browser", "tokenB"}});
    const auto pa = a.receiveType("paired"), pb = b.receiveType("paired");
    ASSERT_TRUE(pa && pb);
    const json da = (*pa)["d"], db = (*pb)["d"];
    EXPECT_EQ(da["game"], db["game"]);
    EXPECT_EQ(da["ruleset"], "bell");
    EXPECT_EQ(db["opponent"], "Hatshepsut");
    const std::string id = da["game"];
    const std::string body = httpRequest(port(), "GET", "/api/lobby").body;
    EXPECT_EQ(body.find(da["secret"].get<std::string>()), std::string::npos);
    EXPECT_EQ(body.find("tokenA"), std::string::npos);
    // Both seats play the game over the ordinary game socket.
    WsClient ga(port(), id), gb(port(), id);
    const json sa = ga.hello(da["secret"], "seed-a");
    const json sb = gb.hello(db["secret"], "seed-b");
    EXPECT_EQ(sa["you"], json::array({da["seat"]}));
    EXPECT_EQ(sb["you"], json::array({db["seat"]}));
    EXPECT_EQ(sb["seats"][da["seat"].get<int>()]["name"], "Hatshepsut");
    WsClient& seat0 = da["seat"] == 0 ? ga : gb;
    seat0.send("throw", {{"ply", 0}});
    EXPECT_TRUE(seat0.receiveUntilPly(1));
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + id).bodyJson()["seats"][da["seat"].get<int>()]["name"], "Hatshepsut");
}

TEST_F(LobbyServer, ASeekDiesWithItsSocketAndBadMessagesLeaveItUsable) {
    {
        WsClient gone(port(), "/ws/lobby");
        gone.send("seek", {{"ruleset", "standard"}});
        ASSERT_TRUE(gone.receiveType("seeking"));
    }
    WsClient c(port(), "/ws/lobby");
    EXPECT_EQ(seekingOnce(port(), "standard", 0), 0);  // the closed socket's seek is gone
    c.sendText("{oops");
    EXPECT_EQ(c.waitForError("bad-json")["code"], "bad-json");
    c.send("seek", {{"ruleset", "standard"}, {"name", "😀"}});
    EXPECT_EQ(c.waitForError("bad-name")["reason"], "character");
    c.send("hello", {});
    c.waitForError("unknown-type");
    c.send("seek", {{"ruleset", "standard"}});
    EXPECT_TRUE(c.receiveType("seeking"));
    EXPECT_EQ(httpRequest(port(), "GET", "/api/lobby").bodyJson()["rulesets"]["standard"]["seeking"], 1);
}

TEST_F(LobbyServer, FrameOverTheSizeLimitCloses) {
    WsClient w(port(), "/ws/lobby");
    w.sendText(R"({"t":"seek","d":{"ruleset":"standard","name":")" + std::string(10000, 'x') + "\"}}");
    while (w.receive(std::chrono::seconds(20))) {
    }
    EXPECT_TRUE(w.closed());
    EXPECT_EQ(w.closeCode(), 1009);
    EXPECT_EQ(httpRequest(port(), "GET", "/api/lobby").status, 200);
}

TEST_F(LobbyServer, OriginRulesAsTheGameSocket) {
    const std::string self = "http://127.0.0.1:" + std::to_string(port());
    EXPECT_EQ(rawExchange(port(), upgradeRequest(port(), "/ws/lobby", "Origin: http://evil.example")).status, 403);
    EXPECT_EQ(rawExchange(port(), upgradeRequest(port(), "/ws/lobby", "Origin: " + self)).status, 101);
    EXPECT_EQ(rawExchange(port(), upgradeRequest(port(), "/ws/lobby")).status, 101);
    EXPECT_EQ(httpRequest(port(), "POST", "/api/lobby", "{}").status, 405);
}

class LobbyFlood : public ServerTest {
    std::vector<std::string> flags() const override { return {"--rate", "1", "--burst", "3", "--max-dropped", "10"}; }
};

TEST_F(LobbyFlood, RateLimitDropsThenCloses) {
    WsClient c(port(), "/ws/lobby");
    // 3 pass (the burst), the next 11 are dropped and the 11th closes; 6 more in case the
    // bucket refills while these are sent. Not many more: frames the server never reads could
    // turn its close into a reset that loses the close frame.
    for (int i = 0; i < 20; ++i) c.send("seek", {{"ruleset", "standard"}});
    int received = 0;
    while (c.receive(std::chrono::seconds(20))) ++received;
    int limited = 0;
    std::string errors;
    for (const auto& e : c.errors()) limited += e["code"] == "rate-limited", errors += e.dump() + "\n";
    EXPECT_GE(limited, 1) << received << " messages received; errors:\n" << errors;
    EXPECT_TRUE(c.closed());
    EXPECT_EQ(c.closeCode(), 1008) << received << " messages received; errors:\n" << errors;
    EXPECT_EQ(seekingOnce(port(), "standard", 0), 0);  // the seek died with the connection
}

}  // namespace
}  // namespace senet::testing
