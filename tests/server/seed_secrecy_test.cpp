// The server seed stays secret until the game ends (PROTOCOL.md "Fairness"): no frame any
// connection receives (snapshots, events, errors of both seats and of spectators, after throws
// and moves, after reconnecting) and no HTTP answer contains it before the end; once the game
// has ended it is revealed (result event, snapshot, record) and hashes to the commitment.
// The server runs with a known --test-seed so that every frame's text can be searched for it.
#include <algorithm>
#include <cctype>

#include "fixture.hpp"
#include "senet/fairness.hpp"

namespace senet::testing {
namespace {

constexpr const char* kSeed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

/// Whether `text` holds the seed, in lower- or upper-case hex.
bool holdsSeed(const std::string& text) {
    return text.find(kSeed) != std::string::npos || text.find(upper(kSeed)) != std::string::npos;
}

class SeedSecrecy : public ServerTest {
protected:
    std::vector<std::string> flags() const override { return {"--test-seed", kSeed}; }

    /// The next message of `c`, which must not reveal the seed while `secret` holds.
    std::optional<json> next(WsClient& c, const char* who) {
        auto m = c.receive();
        if (m && secret_) {
            EXPECT_FALSE(holdsSeed(m->dump())) << who << " got the server seed before the end: " << m->dump();
            const json& d = (*m)["d"];
            const json* state = (*m)["t"] == "snapshot" ? &d : (*m)["t"] == "events" ? &d["state"] : nullptr;
            if (state && state->contains("fairness")) {
                EXPECT_TRUE((*state)["fairness"]["serverSeed"].is_null()) << who << ": " << m->dump();
            }
        }
        if (m) ++checked_;
        return m;
    }
    /// Receives (checking each message) until `c`'s state reaches `ply`.
    ::testing::AssertionResult untilPly(WsClient& c, std::int64_t ply, const char* who) {
        while (!(c.state().is_object() && (c.state().value("ply", -1) >= ply || c.state().value("phase", "") == "over")))
            if (!next(c, who)) return ::testing::AssertionFailure() << who << " never reached ply " << ply;
        return ::testing::AssertionSuccess();
    }
    /// Receives (checking each message) until one of type `type`; returns it.
    std::optional<json> until(WsClient& c, const std::string& type, const char* who) {
        for (auto m = next(c, who); m; m = next(c, who))
            if ((*m)["t"] == type) return m;
        ADD_FAILURE() << who << " got no " << type;
        return std::nullopt;
    }
    /// hello, every message up to its snapshot checked; returns the snapshot's data.
    json hello(WsClient& c, const std::string& secret, const std::string& seed, const char* who) {
        json d = json::object();
        if (!secret.empty()) d["secret"] = secret;
        if (!seed.empty()) d["clientSeed"] = seed;
        c.send("hello", d);
        auto m = until(c, "snapshot", who);
        return m ? (*m)["d"] : json();
    }
    /// The public HTTP answers of the game hold no seed.
    void expectHttpSecret(const std::string& id) {
        const HttpReply summary = httpRequest(port(), "GET", "/api/games/" + id);
        EXPECT_EQ(summary.status, 200);
        EXPECT_FALSE(holdsSeed(summary.body)) << summary.body;
        const HttpReply record = httpRequest(port(), "GET", "/api/games/" + id + "/record");
        EXPECT_EQ(record.status, 409) << record.body;
        EXPECT_FALSE(holdsSeed(record.body)) << record.body;
    }
    /// Sends the action due (throw, or the first legal move) from whichever of `seats` is to act.
    void act(std::map<int, WsClient*> seats) {
        const json s = seats.begin()->second->state();
        WsClient* actor = seats.at(s["seatToAct"].get<int>());
        if (s["phase"] == "move") actor->send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
        else actor->send("throw", {{"ply", s["ply"]}});
    }

    bool secret_ = true;
    int checked_ = 0;
};

TEST_F(SeedSecrecy, NeverInAnyFrameBeforeTheEndOfAFriendGameThenRevealedAndCommitted) {
    const NewGame g = createGame(port(), "standard", "friend");
    EXPECT_FALSE(holdsSeed(g.raw.dump()));
    auto [status, secretB] = joinGame(port(), g.id, g.inviteToken);
    ASSERT_EQ(status, 200);
    WsClient a(port(), g.id), w(port(), g.id);
    auto b = std::make_unique<WsClient>(port(), g.id);
    ASSERT_EQ(hello(a, g.secret, "seeda", "seat 0")["you"], json::array({0}));
    ASSERT_EQ(hello(*b, secretB, "seedb", "seat 1")["you"], json::array({1}));
    ASSERT_EQ(hello(w, "", "", "spectator")["you"], json::array());
    // Seat 0 said hello before seat 1's seed was fixed: wait for the seed event.
    while (a.state()["seatToAct"].is_null()) ASSERT_TRUE(next(a, "seat 0"));
    const std::string commitment = a.state()["fairness"]["commitment"];
    ASSERT_EQ(commitment, fairness::commitment(*fairness::fromHex(kSeed)));

    // Twelve actions (the first throw, then throws and moves), every frame of all three checked.
    for (int i = 0; i < 12 && a.state()["phase"] != "over"; ++i) {
        const std::int64_t ply = a.state()["ply"];
        act({{0, &a}, {1, b.get()}});
        ASSERT_TRUE(untilPly(a, ply + 1, "seat 0"));
        ASSERT_TRUE(untilPly(*b, ply + 1, "seat 1"));
        ASSERT_TRUE(untilPly(w, ply + 1, "spectator"));
        if (i == 0) expectHttpSecret(g.id);
    }
    ASSERT_NE(a.state()["phase"], "over");
    ASSERT_GE(a.state()["throwIndex"].get<int>(), 3);
    expectHttpSecret(g.id);

    // Seat 1 reconnects, a second spectator comes, seat 0 says hello again.
    b.reset();
    ASSERT_TRUE(until(a, "events", "seat 0"));  // seat 1 offline
    WsClient b2(port(), g.id), w2(port(), g.id);
    const std::int64_t now = a.state()["ply"];
    EXPECT_EQ(hello(b2, secretB, "", "seat 1 again")["ply"], now);
    EXPECT_EQ(hello(w2, "", "", "second spectator")["ply"], now);
    EXPECT_EQ(hello(a, g.secret, "", "seat 0 again")["ply"], now);
    // A refused action's error and snapshot hold no seed either.
    const std::int64_t stale = a.state()["ply"].get<std::int64_t>() - 1;
    a.send("throw", {{"ply", stale}});
    ASSERT_TRUE(until(a, "error", "seat 0"));
    ASSERT_TRUE(until(a, "snapshot", "seat 0"));
    EXPECT_GT(checked_, 40);

    // The end: seat 0 resigns. Now the seed is revealed to everyone and hashes to the commitment.
    secret_ = false;
    a.send("resign");
    auto result = until(w2, "events", "second spectator");
    ASSERT_TRUE(result);
    const json& ev = (*result)["d"]["events"].back();
    ASSERT_EQ(ev["e"], "result") << result->dump();
    EXPECT_EQ(ev["serverSeed"], kSeed);
    EXPECT_EQ(ev["winner"], 1);
    for (WsClient* c : {&a, &b2, &w, &w2}) {
        ASSERT_TRUE(c->receiveUntilPly(1 << 30));
        EXPECT_EQ(c->state()["fairness"]["serverSeed"], kSeed);
    }
    WsClient late(port(), g.id);
    const json snap = late.hello();
    EXPECT_EQ(snap["fairness"]["serverSeed"], kSeed);
    EXPECT_EQ(fairness::commitment(*fairness::fromHex(snap["fairness"]["serverSeed"].get<std::string>())),
              snap["fairness"]["commitment"].get<std::string>());
    EXPECT_EQ(snap["fairness"]["commitment"], commitment);
    const HttpReply record = httpRequest(port(), "GET", "/api/games/" + g.id + "/record");
    ASSERT_EQ(record.status, 200);
    EXPECT_EQ(record.bodyJson()["fairness"]["serverSeed"], kSeed);
    EXPECT_EQ(record.bodyJson()["fairness"]["commitment"], commitment);
}

TEST_F(SeedSecrecy, NeverInAComputerGameWhileTheComputerThrowsAndMoves) {
    // The human holds seat 1: the computer throws first and acts on its own.
    const NewGame g = createGame(port(), "bell", "computer", "second", "beginner");
    WsClient h(port(), g.id);
    ASSERT_EQ(hello(h, g.secret, "human", "human seat")["you"], json::array({1}));
    for (int i = 0; i < 30 && h.state()["phase"] != "over"; ++i) {
        const json s = h.state();
        const std::int64_t ply = s["ply"];
        if (s["seatToAct"] == 1) act({{1, &h}});
        ASSERT_TRUE(untilPly(h, ply + 1, "human seat"));
    }
    ASSERT_NE(h.state()["phase"], "over");
    ASSERT_GE(h.state()["throwIndex"].get<int>(), 5);
    expectHttpSecret(g.id);
    WsClient again(port(), g.id);
    hello(again, g.secret, "", "human again");
    WsClient w(port(), g.id);
    hello(w, "", "", "spectator");
    secret_ = false;
    h.send("resign");
    ASSERT_TRUE(h.receiveUntilPly(1 << 30));
    EXPECT_EQ(h.state()["result"]["reason"], "resign");
    EXPECT_EQ(h.state()["fairness"]["serverSeed"], kSeed);
}

}  // namespace
}  // namespace senet::testing
