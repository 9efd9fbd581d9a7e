// Time-based rules of a room on a clock the test moves (ManualClock): the claim grace period,
// the quiet time before an unused room leaves memory, and the idle time that expires a game.
// Nothing here waits for real time, so nothing races a timer however busy the machine is.
#include "room_support.hpp"

namespace senet::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

/// The last presence event of `seat` that `c` has seen, or an empty json.
json lastPresence(Client& c, int seat) {
    json found;
    for (const json& e : c.events())
        if (e.value("e", "") == "presence" && e.value("seat", -1) == seat) found = e;
    return found;
}

/// The message of an error (waitForError's answer), "" when none came.
std::string messageOf(const json& error) { return error.is_object() ? error.value("message", "") : std::string(); }

/// `claimer` claims; expects the refusal cannot-claim whose message contains `words`.
void expectClaimRefused(Client& claimer, const std::string& words) {
    claimer.send("claim");
    const json refused = claimer.waitForError("cannot-claim");
    EXPECT_NE(messageOf(refused).find(words), std::string::npos) << refused.dump();
}

/// `claimer` claims; expects no error and the game over by claim.
void expectClaimWins(Client& claimer) {
    claimer.send("claim");
    EXPECT_FALSE(claimer.hasNewError()) << claimer.errors().back().dump();
    ASSERT_TRUE(claimer.state()["result"].is_object()) << claimer.state().dump();
    EXPECT_EQ(claimer.state()["result"]["reason"], "claim");
}

/// A local game (seat 0 creates it) whose first throw a client made; `whileConnected` runs
/// before that client leaves again. Returns the game.
Created localGameThrownOnce(Fixture& f, const std::string& seed, const std::function<void(Client&)>& whileConnected = {}) {
    const Created g = f.create(Opponent::Local, 0);
    Client c(f.room(g.id));
    c.hello(g.secret, seed);
    c.send("throw", {{"ply", 0}});
    EXPECT_EQ(c.state()["ply"], 1);
    if (whileConnected) whileConnected(c);
    return g;
}

/// A friend game with both seats said hello: a (creator) holds seat 0, the friend seat 1.
struct FriendGame {
    explicit FriendGame(Fixture& f) : g(f.create(Opponent::Friend, 0)), room(f.room(g.id)), a(room) {
        a.hello(g.secret, "claimer");
        j = room->join(g.inviteToken);
        EXPECT_EQ(j.status, JoinStatus::Joined);
    }
    Created g;
    std::shared_ptr<Room> room;
    Client a;
    JoinOutcome j;
};

TEST(RoomClock, ClaimIsRefusedUntilTheOpponentWasOfflineForTheGracePeriod) {
    Fixture f;
    f.config.grace = seconds(300);
    FriendGame game(f);
    Client& a = game.a;
    {
        Client b(game.room);
        b.hello(game.j.secret, "leaver");
        ASSERT_EQ(lastPresence(a, 1).value("online", false), true) << "the friend's arrival was not announced";
        expectClaimRefused(a, "online");
        f.clock.advance(std::chrono::hours(1));  // an online opponent is never claimed against
        expectClaimRefused(a, "online");
    }  // the friend leaves
    // The claimer is told the opponent is offline before it tries.
    const json offline = lastPresence(a, 1);
    ASSERT_EQ(offline.value("online", true), false) << "no presence event said the friend went offline";
    // Too early: refused with the time so far, then again 1 ms before the grace period ends.
    expectClaimRefused(a, "offline for 0 s of 300 s");
    f.clock.advance(seconds(300) - milliseconds(1));
    expectClaimRefused(a, "offline for 299 s of 300 s");
    EXPECT_TRUE(a.state()["result"].is_null());
    EXPECT_TRUE(f.memory.loadGame(game.g.id)->result.empty());
    // At the end of the grace period the claim wins, and the result is stored.
    f.clock.advance(milliseconds(1));
    expectClaimWins(a);
    EXPECT_EQ(a.state()["result"]["winner"], 0);
    EXPECT_NE(f.memory.loadGame(game.g.id)->result.find("claim"), std::string::npos);
    a.send("claim");
    a.waitForError("game-over");
}

TEST(RoomClock, AReturnStartsTheGracePeriodAgain) {
    Fixture f;
    f.config.grace = seconds(60);
    FriendGame game(f);
    Client& a = game.a;
    { Client b(game.room); b.hello(game.j.secret, "leaver"); }
    f.clock.advance(seconds(59));
    {
        Client b(game.room);  // back for a moment, 59 s after leaving
        b.hello(game.j.secret);
        ASSERT_EQ(lastPresence(a, 1).value("online", false), true);
    }
    ASSERT_EQ(lastPresence(a, 1).value("online", true), false);
    // 61 s after the first departure, 2 s after the second: too early.
    f.clock.advance(seconds(2));
    expectClaimRefused(a, "offline for 2 s of 60 s");
    f.clock.advance(seconds(58));
    expectClaimWins(a);
}

TEST(RoomClock, AnUnusedRoomLeavesMemoryOnlyAfterTheQuietTime) {
    Fixture f;
    const Created g = localGameThrownOnce(f, "quiet", [&](Client&) {
        f.clock.advance(std::chrono::hours(2));
        EXPECT_EQ(f.registry->sweep(seconds(600)).unloaded, 0) << "a room with a connection was unloaded";
    });  // the last connection has left
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 1);
    // The quiet time counts from the last action: 2 h ago, so the room goes at the next sweep.
    EXPECT_EQ(f.registry->sweep(seconds(600)).unloaded, 1);
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 0);
    // Restored by the next lookup, exactly where it was; its quiet time starts again.
    Client back(f.room(g.id));
    EXPECT_EQ(back.hello(g.secret)["ply"], 1);
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 1);
}

TEST(RoomClock, QuietTimeBoundary) {
    Fixture f;
    const Created g = localGameThrownOnce(f, "edge");
    EXPECT_EQ(f.registry->sweep(seconds(600)).unloaded, 0) << "unloaded at once, before any quiet time";
    f.clock.advance(seconds(600));
    EXPECT_EQ(f.registry->sweep(seconds(600)).unloaded, 0) << "unloaded at the quiet time, not after it";
    f.clock.advance(milliseconds(1));
    const SweepResult swept = f.registry->sweep(seconds(600));
    EXPECT_EQ(swept.unloaded, 1);
    EXPECT_EQ(swept.expired, 0);
    EXPECT_EQ(f.memory.loadGame(g.id)->status, GameStatus::Playing);
}

TEST(RoomClock, AGameIdleLongerThanTheExpiryExpires) {
    Fixture f;
    f.config.expireDays = 30;
    const Created g = f.create(Opponent::Local, 0);
    const Created kept = f.create(Opponent::Local, 0);
    {
        Client c(f.room(g.id));
        c.hello(g.secret, "idle");
        c.send("throw", {{"ply", 0}});
    }
    f.clock.advance(std::chrono::hours(24 * 30) - milliseconds(1));
    {
        Client k(f.room(kept.id));  // an action late in the month keeps this one
        k.hello(kept.secret, "kept");
        k.send("throw", {{"ply", 0}});
        ASSERT_EQ(k.state()["ply"], 1);
    }
    EXPECT_EQ(f.registry->find(g.id).status, LookupStatus::Found) << "expired before its idle time";
    f.clock.advance(milliseconds(2));
    // A lookup of a room in memory idle past the expiry answers Expired and stores it.
    EXPECT_EQ(f.registry->find(g.id).status, LookupStatus::Expired);
    EXPECT_EQ(f.memory.loadGame(g.id)->status, GameStatus::Expired);
    EXPECT_EQ(f.registry->find(g.id).status, LookupStatus::Expired);
    // The other room was quiet for 1 ms only: a sweep with a short quiet time unloads it, not expires it.
    const SweepResult swept = f.registry->sweep(milliseconds(1));
    EXPECT_EQ(swept.expired, 0);
    EXPECT_EQ(swept.unloaded, 1);
    EXPECT_EQ(f.memory.loadGame(kept.id)->status, GameStatus::Playing);
}


/// The grace period counts from the friend's join, not from the room's start: a friend who
/// just took the seat (and has not connected yet) cannot be claimed against at once.
TEST(RoomClock, TheGracePeriodStartsWhenTheFriendJoins) {
    Fixture f;
    f.config.grace = seconds(300);
    const Created g = f.create(Opponent::Friend, 0);
    const auto room = f.room(g.id);
    Client a(room);
    a.hello(g.secret, "claimer");
    expectClaimRefused(a, "no human opponent");  // the seat is still free
    f.clock.advance(seconds(301));              // longer than the grace period before anyone joins
    const JoinOutcome j = room->join(g.inviteToken);
    ASSERT_EQ(j.status, JoinStatus::Joined);
    ASSERT_EQ(j.seat, 1);
    expectClaimRefused(a, "offline for 0 s of 300 s");
    f.clock.advance(seconds(300) - milliseconds(1));
    expectClaimRefused(a, "offline for 299 s of 300 s");
    EXPECT_TRUE(a.state()["result"].is_null());
    f.clock.advance(milliseconds(1));
    expectClaimWins(a);
    EXPECT_EQ(a.state()["result"]["winner"], 0);
}

}  // namespace
}  // namespace senet::testing
