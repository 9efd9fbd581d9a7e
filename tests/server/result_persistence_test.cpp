// The result of a resignation and of a claim is stored: after the server process is killed
// (SIGKILL) and started again on the same SQLite database, the game reads ended, with the same
// winner, player and reason, over HTTP (summary and record) and in the WebSocket snapshot.
#include "fixture.hpp"

namespace senet::testing {
namespace {

class ResultPersistence : public ServerTest {
protected:
    // Grace 0: a claim is allowed as soon as the opponent is seen offline.
    std::vector<std::string> flags() const override { return {"--grace-seconds", "0"}; }

    /// Plays `actions` actions of a friend game (the first legal move each time).
    void play(WsClient& a, WsClient& b, int actions) {
        for (int i = 0; i < actions; ++i) {
            const json s = a.state();
            ASSERT_FALSE(s["seatToAct"].is_null()) << s.dump();
            WsClient* actor = s["seatToAct"] == 0 ? &a : &b;
            if (s["phase"] == "move") actor->send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
            else actor->send("throw", {{"ply", s["ply"]}});
            ASSERT_TRUE(a.receiveUntilPly(s["ply"].get<int>() + 1));
            ASSERT_TRUE(b.receiveUntilPly(s["ply"].get<int>() + 1));
        }
    }
    /// Waits on `c` for the result event; returns it.
    json waitResult(WsClient& c) {
        for (int i = 0; i < 50; ++i) {
            auto m = c.receiveType("events");
            if (!m) break;
            for (const auto& e : (*m)["d"]["events"])
                if (e["e"] == "result") return e;
        }
        ADD_FAILURE() << "no result event";
        return json();
    }
    /// After a restart: the summary, the record and a fresh snapshot all show `expected`.
    void expectEndedAfterRestart(const std::string& id, const json& expected, std::int64_t ply) {
        restart();
        const HttpReply summary = httpRequest(port(), "GET", "/api/games/" + id);
        ASSERT_EQ(summary.status, 200);
        const json sj = summary.bodyJson();
        EXPECT_EQ(sj["phase"], "over") << summary.body;
        EXPECT_EQ(sj["result"], expected) << summary.body;
        EXPECT_EQ(sj["ply"], ply);
        const HttpReply record = httpRequest(port(), "GET", "/api/games/" + id + "/record");
        ASSERT_EQ(record.status, 200) << record.body;
        EXPECT_EQ(record.bodyJson()["ending"], expected) << record.body;
        EXPECT_EQ(record.bodyJson()["result"], "ongoing");  // the board was not finished
        WsClient c(port(), id);
        const json snap = c.hello();
        EXPECT_EQ(snap["phase"], "over");
        EXPECT_EQ(snap["result"], expected);
        EXPECT_EQ(snap["ply"], ply);
        EXPECT_TRUE(snap["seatToAct"].is_null());
        EXPECT_EQ(snap["fairness"]["serverSeed"].get<std::string>().size(), 64u);
        // Still over: an action is refused as such.
        WsClient seat(port(), id);
        ASSERT_FALSE(seat.hello(secret0_).is_null());
        seat.send("resign");
        auto err = seat.receiveType("error");
        ASSERT_TRUE(err);
        EXPECT_EQ((*err)["d"]["code"], "game-over");
    }

    /// In game `id`, `actor` sends `action` (resign or claim); `viewer` must see the result event with the
    /// winner and reason of `expected`; then the server is restarted and the game must read as
    /// ended with `expected` at `ply` (expectEndedAfterRestart).
    void endAndRestart(const std::string& id, WsClient& actor, WsClient& viewer, const std::string& action, const json& expected, std::int64_t ply) {
        actor.send(action);
        const json ev = waitResult(viewer);
        EXPECT_EQ(ev["reason"], expected["reason"]);
        EXPECT_EQ(ev["winner"], expected["winner"]);
        expectEndedAfterRestart(id, expected, ply);
    }

    std::string secret0_;
};

TEST_F(ResultPersistence, AResignationSurvivesARestart) {
    const NewGame g = createGame(port(), "standard", "friend");
    secret0_ = g.secret;
    auto [status, secretB] = joinGame(port(), g.id, g.inviteToken);
    ASSERT_EQ(status, 200);
    WsClient a(port(), g.id), b(port(), g.id);
    a.hello(g.secret, "resa");
    b.hello(secretB, "resb");
    while (a.state()["seatToAct"].is_null()) ASSERT_TRUE(a.receive());
    play(a, b, 5);
    const std::int64_t ply = a.state()["ply"];
    // Seat 0 resigns: seat 1 (player 2) wins; not the default seat 0.
    endAndRestart(g.id, a, b, "resign", {{"winner", 1}, {"player", 2}, {"reason", "resign"}}, ply);
}

TEST_F(ResultPersistence, AResignationAgainstTheComputerSurvivesARestart) {
    const NewGame g = createGame(port(), "jequier", "computer", "first", "beginner");
    secret0_ = g.secret;
    WsClient a(port(), g.id);
    a.hello(g.secret, "jq");
    ASSERT_EQ(a.state()["you"], json::array({0}));
    // Resign while it is the human's turn to throw in the opening (players not yet decided).
    ASSERT_EQ(a.state()["phase"], "opening");
    ASSERT_EQ(a.state()["seatToAct"], 0);
    endAndRestart(g.id, a, a, "resign", {{"winner", 1}, {"player", nullptr}, {"reason", "resign"}}, 0);
}

TEST_F(ResultPersistence, AClaimSurvivesARestart) {
    const NewGame g = createGame(port(), "bell", "friend", "second");
    secret0_ = g.secret;  // the creator holds seat 1 here
    auto [status, secretB] = joinGame(port(), g.id, g.inviteToken);
    ASSERT_EQ(status, 200);
    WsClient creator(port(), g.id);
    auto friendSeat = std::make_unique<WsClient>(port(), g.id);
    ASSERT_EQ(creator.hello(g.secret, "cr")["you"], json::array({1}));
    ASSERT_EQ(friendSeat->hello(secretB, "fr")["you"], json::array({0}));
    while (friendSeat->state()["seatToAct"].is_null()) ASSERT_TRUE(friendSeat->receive());
    play(*friendSeat, creator, 4);
    const std::int64_t ply = creator.state()["ply"];
    // Seat 0 leaves; seat 1 sees it offline, then claims.
    friendSeat.reset();
    bool offline = false;
    for (int i = 0; i < 20 && !offline; ++i) {
        auto m = creator.receiveType("events");
        ASSERT_TRUE(m) << "no presence event";
        for (const auto& e : (*m)["d"]["events"])
            offline |= e["e"] == "presence" && e["seat"] == 0 && e["online"] == false;
    }
    ASSERT_TRUE(offline);
    ASSERT_FALSE(creator.state()["seats"][0]["online"].get<bool>());
    endAndRestart(g.id, creator, creator, "claim", {{"winner", 1}, {"player", 2}, {"reason", "claim"}}, ply);
}

}  // namespace
}  // namespace senet::testing
