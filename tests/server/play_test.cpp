// Whole games over real WebSockets: every ruleset against a friend (invite join), the computer
// and on one device; spectators, reconnection, resign, claim, rematch and the checkable record.
#include <fstream>
#include <thread>

#include "fixture.hpp"

namespace senet::testing {
namespace {

class Play : public ServerTest {};

/// Fetches the finished game's record, writes it and runs `senet verify` on it.
void expectVerifiable(unsigned short port, const std::string& id, const std::filesystem::path& dir) {
    auto r = httpRequest(port, "GET", "/api/games/" + id + "/record");
    ASSERT_EQ(r.status, 200) << r.body;
    const json record = r.bodyJson();
    ASSERT_TRUE(record.contains("fairness"));
    const auto file = dir / (id + ".json");
    std::ofstream(file) << r.body;
    auto [code, out] = runCli({"verify", file.string()});
    EXPECT_EQ(code, 0) << out;
    EXPECT_NE(out.find("ok:"), std::string::npos) << out;
    // A single changed throw must fail the check.
    json bad = record;
    auto& plies = bad["plies"];
    if (!plies.empty()) {
        bad["fairness"]["serverSeed"] = std::string(64, '0');
        const auto badFile = dir / (id + "-bad.json");
        std::ofstream(badFile) << bad.dump();
        EXPECT_EQ(runCli({"verify", badFile.string()}).first, 1);
    }
}

struct Case {
    const char* ruleset;
    const char* opponent;
};

class FullGame : public Play, public ::testing::WithParamInterface<Case> {};

TEST_P(FullGame, PlaysToTheEndAndVerifies) {
    const Case c = GetParam();
    const std::string opponent = c.opponent;
    std::mt19937 rng(12345);
    const NewGame g = createGame(port(), c.ruleset, opponent, "first", opponent == "computer" ? "beginner" : "");
    WsClient first(port(), g.id);
    auto snap = first.hello(g.secret, "seedfirst");
    EXPECT_EQ(snap["ruleset"], c.ruleset);
    EXPECT_EQ(snap["fairness"]["commitment"].get<std::string>().size(), 64u);
    EXPECT_TRUE(snap["fairness"]["serverSeed"].is_null());
    WsClient watcher(port(), g.id);
    auto w = watcher.hello();
    EXPECT_EQ(w["you"], json::array());

    std::map<int, WsClient*> players;
    std::unique_ptr<WsClient> second;
    if (opponent == "friend") {
        EXPECT_EQ(snap["phase"], "waiting");
        first.send("throw", {{"ply", 0}});
        first.waitForError("not-started");
        auto [status, secret] = joinGame(port(), g.id, g.inviteToken);
        ASSERT_EQ(status, 200);
        second = std::make_unique<WsClient>(port(), g.id);
        auto s2 = second->hello(secret, "seedsecond");
        EXPECT_EQ(s2["you"], json::array({1}));
        players = {{0, &first}, {1, second.get()}};
        while (first.state()["phase"] == "waiting") ASSERT_TRUE(first.receiveType("events"));
    } else if (opponent == "local") {
        EXPECT_EQ(snap["you"], json::array({0, 1}));
        players = {{0, &first}, {1, &first}};
    } else {
        EXPECT_EQ(snap["seats"][1]["kind"], "computer");
        players = {{0, &first}};
    }
    // Drain the join/presence events so that errors() only shows real errors.
    first.clearErrors();
    // Jéquier's random play can last beyond 5000 actions (seen: a friend game at ply 5000 not
    // over, 1 run in 3 under load): there the moves that take a piece furthest are chosen.
    const int actions = playToEnd(players, {&watcher}, rng, 5000, std::string(c.ruleset) == "jequier");
    EXPECT_GT(actions, 5);
    const json end = first.state();
    ASSERT_EQ(end["phase"], "over");
    EXPECT_EQ(end["result"]["reason"].get<std::string>() == "bear-off" || end["result"]["reason"] == "draw", true);
    EXPECT_EQ(end["fairness"]["serverSeed"].get<std::string>().size(), 64u);
    EXPECT_EQ(watcher.state()["ply"], end["ply"]);
    // The watcher saw every throw: one "thrown" event per throw.
    int thrown = 0;
    for (const auto& e : watcher.events()) thrown += e["e"] == "thrown";
    EXPECT_EQ(thrown, end["throwIndex"].get<int>());
    bool sawResult = false;
    for (const auto& e : watcher.events()) sawResult |= e["e"] == "result";
    EXPECT_TRUE(sawResult);
    expectVerifiable(port(), g.id, dir_.path());
    auto summary = httpRequest(port(), "GET", "/api/games/" + g.id).bodyJson();
    EXPECT_EQ(summary["phase"], "over");
}

INSTANTIATE_TEST_SUITE_P(EveryRulesetAndOpponent, FullGame,
                         ::testing::Values(Case{"standard", "friend"}, Case{"standard", "computer"}, Case{"standard", "local"},
                                           Case{"jequier", "friend"}, Case{"jequier", "computer"}, Case{"jequier", "local"},
                                           Case{"bell", "friend"}, Case{"bell", "computer"}, Case{"bell", "local"}),
                         [](const auto& info) { return std::string(info.param.ruleset) + "_" + info.param.opponent; });

TEST_F(Play, SnapshotShapeAndJequierOpening) {
    const NewGame g = createGame(port(), "jequier", "local");
    WsClient c(port(), g.id);
    auto s = c.hello(g.secret, "abc");
    for (const char* key : {"game", "ruleset", "opponent", "you", "ply", "phase", "seatToAct", "players", "position", "board",
                            "off", "turn", "lastThrow", "legalMoves", "opening", "record", "seats", "result", "fairness", "grace"})
        EXPECT_TRUE(s.contains(key)) << key;
    EXPECT_EQ(s["phase"], "opening");
    EXPECT_TRUE(s["players"].is_null());
    EXPECT_EQ(s["board"].size(), 30u);
    EXPECT_EQ(s["fairness"]["clientSeeds"], json::array({"abc", "abc"}));
    // Throw through the opening until it is decided.
    while (c.state()["phase"] == "opening") {
        c.send("throw", {{"ply", c.state()["ply"]}});
        ASSERT_TRUE(c.receiveUntilPly(c.state()["ply"].get<int>() + 1));
    }
    const json st = c.state();
    EXPECT_FALSE(st["opening"].empty());
    EXPECT_EQ(st["opening"].back()["value"], 1);
    bool decided = false;
    for (const auto& e : c.events()) decided |= e["e"] == "opening-decided";
    EXPECT_TRUE(decided);
    EXPECT_EQ(st["players"].size(), 2u);
    const int winnerSeat = st["opening"].back()["seat"];
    EXPECT_EQ(st["players"][winnerSeat], 2);
    EXPECT_EQ(st["seatToAct"], winnerSeat);  // they throw again
}

TEST_F(Play, ReconnectGetsTheSameStateAndPresenceIsBroadcast) {
    const NewGame g = createGame(port(), "standard", "friend");
    auto [status, secret] = joinGame(port(), g.id, g.inviteToken);
    ASSERT_EQ(status, 200);
    WsClient a(port(), g.id);
    a.hello(g.secret, "a1");
    auto b = std::make_unique<WsClient>(port(), g.id);
    b->hello(secret, "b1");
    ASSERT_TRUE(a.receiveType("events"));  // b's presence
    EXPECT_TRUE(a.state()["seats"][1]["online"].get<bool>());
    std::mt19937 rng(7);
    // A few actions, then b drops.
    for (int i = 0; i < 6; ++i) {
        const json s = a.state();
        WsClient* actor = s["seatToAct"] == 0 ? &a : b.get();
        if (s["phase"] == "move")
            actor->send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
        else
            actor->send("throw", {{"ply", s["ply"]}});
        ASSERT_TRUE(a.receiveUntilPly(s["ply"].get<int>() + 1));
        ASSERT_TRUE(b->receiveUntilPly(s["ply"].get<int>() + 1));
    }
    const json before = a.state();
    b.reset();
    auto presence = a.receiveType("events");
    ASSERT_TRUE(presence);
    EXPECT_EQ((*presence)["d"]["events"][0], json({{"e", "presence"}, {"seat", 1}, {"online", false}}));
    EXPECT_FALSE(a.state()["seats"][1]["online"].get<bool>());
    WsClient again(port(), g.id);
    auto snap = again.hello(secret);
    EXPECT_EQ(snap["ply"], before["ply"]);
    EXPECT_EQ(snap["position"], before["position"]);
    EXPECT_EQ(snap["you"], json::array({1}));
    EXPECT_EQ(snap["fairness"]["clientSeeds"], json::array({"a1", "b1"}));
    auto online = a.receiveType("events");
    ASSERT_TRUE(online);
    EXPECT_EQ((*online)["d"]["events"][0], json({{"e", "presence"}, {"seat", 1}, {"online", true}}));
}

TEST_F(Play, ResignEndsTheGameAndRevealsTheSeed) {
    const NewGame g = createGame(port(), "bell", "computer", "second", "beginner");
    WsClient c(port(), g.id);
    c.hello(g.secret, "x");
    // Resign on the human's turn to throw, when no throw is pending: a record cut after a throw
    // and before its move cannot show that throw (the record format has no place for it yet).
    for (int i = 0; i < 50 && !(c.state()["seatToAct"] == 1 && c.state()["phase"] == "throw"); ++i) c.receive();
    ASSERT_EQ(c.state()["seatToAct"], 1);
    c.send("resign");
    // The computer may still act before the resignation arrives: skip its events.
    const json ev = c.waitForEvent("result");
    ASSERT_TRUE(ev.is_object());
    EXPECT_EQ(ev["reason"], "resign");
    EXPECT_EQ(ev["winner"], 0);
    EXPECT_EQ(ev["serverSeed"].get<std::string>().size(), 64u);
    c.send("resign");
    c.waitForError("game-over");
    expectVerifiable(port(), g.id, dir_.path());
}

class PlayShortGrace : public ServerTest {
protected:
    static constexpr int kGraceSeconds = 2;
    std::vector<std::string> flags() const override { return {"--grace-seconds", std::to_string(kGraceSeconds)}; }
};

// The real process with a short grace period. Every step waits for the message that shows the
// state it needs (the friend's presence, the offline event, each answer); the grace period
// passing is waited for by asking again after each refusal, never by a fixed sleep. The exact
// boundary of the grace period is checked on a manual clock (RoomClock in room_clock_test.cpp).
TEST_F(PlayShortGrace, ClaimAfterTheOpponentIsOfflineLongEnough) {
    using namespace std::chrono;
    const NewGame g = createGame(port(), "standard", "friend");
    auto [status, secret] = joinGame(port(), g.id, g.inviteToken);
    ASSERT_EQ(status, 200);
    WsClient a(port(), g.id);
    a.hello(g.secret);
    steady_clock::time_point left;
    {
        WsClient b(port(), g.id);
        b.hello(secret);
        ASSERT_TRUE(a.waitForEvent("presence", {{"seat", 1}, {"online", true}}).is_object());
        a.send("claim");
        const json online = a.waitForError("cannot-claim");
        ASSERT_TRUE(online.is_object());
        EXPECT_NE(online.value("message", "").find("online"), std::string::npos) << online.dump();
        left = steady_clock::now();
    }  // the friend leaves
    ASSERT_TRUE(a.waitForEvent("presence", {{"seat", 1}, {"online", false}}).is_object()) << "the friend's departure was not announced";
    EXPECT_FALSE(a.state()["seats"][1]["online"].get<bool>());
    // The early claim: refused as too early (not "online": the opponent is known to be away).
    // Its answer is the next message: an error, or the events with the result.
    int refused = 0;
    a.send("claim");
    const auto early = a.receive(seconds(10));
    ASSERT_TRUE(early) << "no answer to the early claim";
    const auto answered = steady_clock::now() - left;  // at least the server's "offline for"
    if ((*early)["t"] == "error") {
        const json e = (*early)["d"];
        EXPECT_EQ(e.value("code", ""), "cannot-claim");
        EXPECT_NE(e.value("message", "").find("has been offline for"), std::string::npos) << e.dump();
        EXPECT_NE(e.value("message", "").find("of " + std::to_string(kGraceSeconds) + " s"), std::string::npos) << e.dump();
        ++refused;
    } else {
        // Only a machine stalled for the whole grace period may see the first claim succeed.
        EXPECT_GE(answered, seconds(kGraceSeconds)) << "a claim was accepted though the opponent had been offline for less "
                                                       "than the grace period: " << early->dump();
    }
    // Ask again after each refusal until the grace period has passed.
    while (a.state()["result"].is_null()) {
        ASSERT_LT(steady_clock::now() - left, seconds(kGraceSeconds + 30)) << "the claim was never accepted";
        std::this_thread::sleep_for(milliseconds(100));  // the pace of asking; no outcome depends on it
        a.send("claim");
        const auto m = a.receive(seconds(10));
        ASSERT_TRUE(m) << "no answer to a claim";
        if ((*m)["t"] == "error") {
            EXPECT_EQ((*m)["d"].value("code", ""), "cannot-claim") << m->dump();
            ++refused;
        }
    }
    const auto claimed = steady_clock::now() - left;
    std::printf("[ figures  ] claim refused %d time(s), accepted %.2f s after the friend left (grace %d s)\n", refused,
                duration<double>(claimed).count(), kGraceSeconds);
    EXPECT_GE(claimed, seconds(kGraceSeconds)) << "claimed before the grace period ended";
    EXPECT_EQ(a.state()["result"]["reason"], "claim");
    EXPECT_EQ(a.state()["result"]["winner"], 0);
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + g.id).bodyJson()["phase"], "over");
}

TEST_F(Play, RematchSwapsSidesAndKeepsTheSecrets) {
    const NewGame g = createGame(port(), "standard", "friend", "first");
    auto [status, secret] = joinGame(port(), g.id, g.inviteToken);
    WsClient a(port(), g.id), b(port(), g.id);
    a.hello(g.secret);
    b.hello(secret);
    a.send("rematch");
    a.waitForError("not-over");
    b.send("resign");
    ASSERT_TRUE(a.receiveUntilPly(1 << 30));
    a.send("rematch");
    bool offered = false;
    while (!offered) {
        auto m = b.receiveType("events");
        ASSERT_TRUE(m);
        for (auto& e : (*m)["d"]["events"]) offered |= e["e"] == "rematch-offered";
    }
    b.send("rematch");
    std::string next;
    while (next.empty()) {
        auto m = a.receiveType("events");
        ASSERT_TRUE(m);
        for (auto& e : (*m)["d"]["events"])
            if (e["e"] == "rematch") next = e["game"];
    }
    EXPECT_NE(next, g.id);
    WsClient a2(port(), next), b2(port(), next);
    auto sa = a2.hello(g.secret);
    auto sb = b2.hello(secret);
    EXPECT_EQ(sa["you"], json::array({1}));  // the creator had seat 0, now seat 1
    EXPECT_EQ(sb["you"], json::array({0}));
    EXPECT_EQ(sa["rematchOf"], g.id);
    EXPECT_EQ(sa["phase"], "throw");
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + g.id).bodyJson()["rematch"], next);
}

}  // namespace
}  // namespace senet::testing
