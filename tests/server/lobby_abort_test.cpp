// The lobby's abandonment rules on the manual clock (PROTOCOL.md "Lobby", "Abandonment"): a
// paired game with no throw 30 s after the pairing is aborted, told to both seats, and counted
// against the browser that failed it; three in a row make that browser wait (1 min, doubling,
// at most 1 h).
#include "abort_ladder.hpp"
#include "lobby_support.hpp"

namespace senet::testing {
namespace {

using namespace std::chrono_literals;
using server::lobby::AbortLadder;

/// Pairs a seeker of `browserA` with one of `browserB`; returns their paired frames (a's first).
std::pair<json, json> pairUp(LobbyFixture& f, const std::string& browserA, const std::string& browserB) {
    LobbyClient a(*f.lobby, "192.0.2.10"), b(*f.lobby, "192.0.2.11");
    a.seek("standard", browserA);
    b.seek("standard", browserB);
    EXPECT_TRUE(a.paired() && b.paired());
    return {a.last("paired"), b.last("paired")};
}

TEST(LobbyAbort, AGameNobodyStartsIsAbortedAfterThirtySeconds) {
    LobbyFixture f;
    auto [pa, pb] = pairUp(f, "browserA", "browserB");
    const std::string id = pa["game"];
    Client ca(f.room(id)), cb(f.room(id));
    ca.hello(pa["secret"], "seed-a");
    cb.hello(pb["secret"], "seed-b");
    f.clock.advance(29s + 999ms);
    f.lobby->tick();
    EXPECT_EQ(f.room(id)->summary()["phase"], "throw");  // 1 ms early: still playable
    f.clock.advance(1ms);
    f.lobby->tick();
    const json s = f.room(id)->summary();
    EXPECT_EQ(s["phase"], "over");
    EXPECT_EQ(s["result"], (json{{"winner", nullptr}, {"player", nullptr}, {"reason", "aborted"}}));
    // Both seats are told on the game socket.
    for (Client* c : {&ca, &cb}) {
        bool told = false;
        for (const json& e : c->events()) told |= e["e"] == "result" && e["reason"] == "aborted";
        EXPECT_TRUE(told);
        EXPECT_EQ(c->state()["phase"], "over");
    }
    EXPECT_EQ(f.lobby->stats().aborted, 1u);
    EXPECT_EQ(f.lobby->stats().watched, 0u);
    // Both came: seat 0 did not throw, the abort counts against seat 0's browser.
    const bool aIsSeat0 = pa["seat"] == 0;
    EXPECT_EQ(f.lobby->abortStreak(aIsSeat0 ? "browserA" : "browserB"), 1);
    EXPECT_EQ(f.lobby->abortStreak(aIsSeat0 ? "browserB" : "browserA"), 0);
    // No throw after the abort.
    const int seat0 = aIsSeat0 ? 0 : 1;
    Client& thrower = seat0 == 0 ? (aIsSeat0 ? ca : cb) : (aIsSeat0 ? cb : ca);
    thrower.send("throw", {{"ply", 0}});
    thrower.waitForError("game-over");
}

TEST(LobbyAbort, AStartedGameIsNotAbortedAndClearsTheRow) {
    LobbyFixture f;
    for (int i = 0; i < 2; ++i) {
        auto [pa, pb] = pairUp(f, "slowpoke", "other" + std::to_string(i));
        f.clock.advance(30s);
        f.lobby->tick();  // nobody came: both blamed
    }
    EXPECT_EQ(f.lobby->abortStreak("slowpoke"), 2);
    auto [pa, pb] = pairUp(f, "slowpoke", "keen");
    const std::string id = pa["game"];
    Client ca(f.room(id)), cb(f.room(id));
    ca.hello(pa["secret"], "seed-a");
    cb.hello(pb["secret"], "seed-b");
    Client& seat0 = pa["seat"] == 0 ? ca : cb;
    seat0.send("throw", {{"ply", 0}});
    EXPECT_FALSE(seat0.hasNewError());
    f.clock.advance(10s);
    f.lobby->tick();
    f.clock.advance(60s);
    f.lobby->tick();
    EXPECT_NE(f.room(id)->summary()["phase"], "over");
    EXPECT_EQ(f.lobby->stats().aborted, 2u);
    EXPECT_EQ(f.lobby->abortStreak("slowpoke"), 0);  // the row is broken
}

TEST(LobbyAbort, TheSeatThatNeverCameIsBlamed) {
    LobbyFixture f;
    auto [pa, pb] = pairUp(f, "present", "absent");
    Client ca(f.room(pa["game"]));
    ca.hello(pa["secret"], "seed-a");  // b never opens the game
    f.clock.advance(30s);
    f.lobby->tick();
    EXPECT_EQ(f.lobby->abortStreak("absent"), 1);
    EXPECT_EQ(f.lobby->abortStreak("present"), 0);
}

TEST(LobbyAbort, ThreeAbortsInARowMakeTheBrowserWait) {
    LobbyFixture f;
    for (int i = 0; i < 3; ++i) {
        pairUp(f, "ghost", "victim" + std::to_string(i));
        f.clock.advance(30s);
        f.lobby->tick();
    }
    EXPECT_EQ(f.lobby->abortStreak("ghost"), 3);
    LobbyClient g(*f.lobby);
    g.seek("standard", "ghost");
    json e = g.last("error");
    EXPECT_EQ(e["code"], "wait");
    EXPECT_EQ(e["seconds"], 60);
    EXPECT_EQ(f.lobby->stats().openSeeks, 0u);
    g.send("take", {{"seek", "AAAAAAAAAAAAAAAA"}, {"browser", "ghost"}});
    EXPECT_EQ(g.last("error")["seconds"], 60);
    f.clock.advance(59s);
    g.seek("standard", "ghost");
    EXPECT_EQ(g.last("error")["seconds"], 1);
    f.clock.advance(1s);
    g.seek("standard", "ghost");
    EXPECT_EQ(g.last("seeking")["ruleset"], "standard");
    g.send("cancel");
    // The fourth abort in a row doubles the wait.
    pairUp(f, "ghost", "victim4");
    f.clock.advance(30s);
    f.lobby->tick();
    g.seek("standard", "ghost");
    EXPECT_EQ(g.last("error")["seconds"], 120);
    // Other browsers are not held up.
    LobbyClient h(*f.lobby);
    h.seek("standard", "victim0");
    EXPECT_EQ(h.last("seeking")["ruleset"], "standard");
}

TEST(LobbyAbort, TheLadderDoublesUpToAnHour) {
    EXPECT_EQ(AbortLadder::waitFor(1), 0s);
    EXPECT_EQ(AbortLadder::waitFor(2), 0s);
    EXPECT_EQ(AbortLadder::waitFor(3), 60s);
    EXPECT_EQ(AbortLadder::waitFor(4), 120s);
    EXPECT_EQ(AbortLadder::waitFor(5), 240s);
    EXPECT_EQ(AbortLadder::waitFor(8), 1920s);
    EXPECT_EQ(AbortLadder::waitFor(9), 3600s);  // 64 min capped at 60
    EXPECT_EQ(AbortLadder::waitFor(50), 3600s);
    AbortLadder ladder;
    server::ManualClock clock;
    for (int i = 0; i < 3; ++i) ladder.aborted("b", clock.now());
    EXPECT_EQ(ladder.waitLeft("b", clock.now()), std::optional<std::chrono::seconds>(60s));
    clock.advance(59500ms);
    EXPECT_EQ(ladder.waitLeft("b", clock.now()), std::optional<std::chrono::seconds>(1s));  // rounded up
    clock.advance(500ms);
    EXPECT_EQ(ladder.waitLeft("b", clock.now()), std::nullopt);
    ladder.aborted("", clock.now());  // seekers without a token are not counted
    EXPECT_EQ(ladder.streak(""), 0);
    ladder.started("b");
    EXPECT_EQ(ladder.streak("b"), 0);
}

}  // namespace
}  // namespace senet::testing
