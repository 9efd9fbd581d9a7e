// A room's presence in process (MemoryStorage, ManualScheduler): seats and watchers coming and
// going, the coalesced `watchers` frames, the public summary and when a room is idle. The expected
// values are written here (PROTOCOL.md "Events", `watchers`).
#include <chrono>

#include "room_support.hpp"

namespace senet::testing {
namespace {

TEST(RoomPresence, WatchersAndSeatsComeAndGo) {
    Fixture f;
    const Created g = f.create(Opponent::Friend, 0);
    auto room = f.room(g.id);
    auto watcherCount = [](Client& c) {
        int n = -1;
        for (const auto& fr : c.frames()) {
            const json m = json::parse(*fr);
            if (m["t"] == "watchers") n = m["d"]["count"];
        }
        return n;
    };
    auto a = std::make_unique<Client>(room);
    a->hello(g.secret, "a");
    EXPECT_EQ(watcherCount(*a), 0);
    EXPECT_EQ(a->state()["seats"][0]["online"], true);
    EXPECT_EQ(a->state()["seats"][1]["online"], false);
    EXPECT_EQ(a->state()["seats"][1]["taken"], false);
    auto w1 = std::make_unique<Client>(room);
    w1->hello("a wrong secret");
    const json e = newError(*w1, 0);
    EXPECT_EQ(e["code"], "bad-secret");
    EXPECT_EQ(e["message"], "this secret holds no seat of this game; you are watching");
    EXPECT_EQ(watcherCount(*a), 1);
    EXPECT_EQ(watcherCount(*w1), 1);
    Client w2(room);
    w2.hello();
    EXPECT_EQ(room->summary()["watchers"], 2);
    // Within a second of the last `watchers` frame the others are told at the end of it (the
    // room's flush on the scheduler; PROTOCOL.md `watchers`); the newcomer got it with its hello.
    EXPECT_EQ(watcherCount(w2), 2);
    EXPECT_EQ(watcherCount(*a), 1);
    f.scheduler.runAll();
    EXPECT_EQ(watcherCount(*a), 2);
    w1.reset();
    EXPECT_EQ(room->summary()["watchers"], 1);
    f.scheduler.runAll();
    EXPECT_EQ(watcherCount(w2), 1);
    // A watcher's second hello is not counted twice.
    w2.hello();
    EXPECT_EQ(watcherCount(w2), 1);
    // The friend joins and connects, then leaves: presence events for seat 1.
    const JoinOutcome j = room->join(g.inviteToken);
    EXPECT_EQ(lastEvent(*a, "joined")["seat"], 1);
    auto b = std::make_unique<Client>(room);
    b->hello(j.secret, "b");
    EXPECT_EQ(a->state()["seats"][1]["online"], true);
    EXPECT_EQ(a->state()["seats"][1]["taken"], true);
    const json online = lastEvent(*a, "presence");
    EXPECT_EQ(online["e"], "presence");
    EXPECT_EQ(online["seat"], 1);
    EXPECT_EQ(online["online"], true);
    // A second connection of the same seat: no new event; closing one of the two: still online.
    auto b2 = std::make_unique<Client>(room);
    const auto events = a->events().size();
    b2->hello(j.secret);
    b2.reset();
    EXPECT_EQ(a->events().size(), events);
    EXPECT_EQ(a->state()["seats"][1]["online"], true);
    b.reset();
    EXPECT_EQ(a->state()["seats"][1]["online"], false);
    const json offline = lastEvent(*a, "presence");
    EXPECT_EQ(offline["e"], "presence");
    EXPECT_EQ(offline["seat"], 1);
    EXPECT_EQ(offline["online"], false);
    EXPECT_EQ(watcherCount(w2), 1);
}

/// The counts of the `watchers` frames `c` received, in order.
std::vector<int> watchersCounts(Client& c) {
    std::vector<int> counts;
    for (const auto& fr : c.frames()) {
        const json m = json::parse(*fr);
        if (m["t"] == "watchers") counts.push_back(m["d"]["count"]);
    }
    return counts;
}

// A crowd arriving at once (PROTOCOL.md `watchers`): the first change goes out at once, the
// changes within the second after it go out together as one frame with the count at its end.
// Each newcomer still gets the count before its snapshot.
TEST(RoomPresence, ABurstOfSpectatorsIsAnnouncedInOneFrame) {
    Fixture f;
    const Created g = f.create(Opponent::Friend, 0);
    auto room = f.room(g.id);
    Client a(room);
    a.hello(g.secret, "a");
    ASSERT_EQ(watchersCounts(a), std::vector<int>{0});  // its own hello's
    constexpr int kCrowd = 200;
    std::vector<std::unique_ptr<Client>> crowd;
    for (int i = 0; i < kCrowd; ++i) {
        crowd.push_back(std::make_unique<Client>(room));
        crowd.back()->hello();
        ASSERT_EQ(watchersCounts(*crowd.back()), std::vector<int>{i + 1}) << "the count before its snapshot";
    }
    EXPECT_EQ(room->summary()["watchers"], kCrowd);
    EXPECT_EQ(watchersCounts(a), (std::vector<int>{0, 1})) << "only the first arrival was announced at once";
    EXPECT_EQ(f.scheduler.pending(), 1u) << "one flush for the burst, not one per arrival";
    f.scheduler.runAll();
    EXPECT_EQ(watchersCounts(a), (std::vector<int>{0, 1, kCrowd}));
    std::size_t frames = watchersCounts(a).size();
    for (int i = 0; i < kCrowd; ++i) {
        const auto counts = watchersCounts(*crowd[i]);
        EXPECT_EQ(counts.back(), kCrowd) << i;
        EXPECT_LE(counts.size(), 2u) << i << ": its hello's and at most the flush's";
        frames += counts.size();
    }
    // 200 arrivals, 201 connections: one frame for each hello, one flush frame for each that
    // had an older count, one at once for the first (instead of 200 * 201 / 2 = 20,100 frames).
    EXPECT_EQ(frames, (kCrowd + 1u) + kCrowd + 1u);

    // Half leave within the same second: one frame more each, after the flush.
    crowd.resize(kCrowd / 2);
    EXPECT_EQ(room->summary()["watchers"], kCrowd / 2);
    EXPECT_EQ(watchersCounts(a).back(), kCrowd);
    EXPECT_EQ(f.scheduler.pending(), 1u);
    f.scheduler.runAll();
    EXPECT_EQ(watchersCounts(a), (std::vector<int>{0, 1, kCrowd, kCrowd / 2}));
    for (const auto& c : crowd) EXPECT_EQ(watchersCounts(*c).back(), kCrowd / 2);

    // After a quiet second a change goes out at once again, with nothing scheduled.
    f.clock.advance(std::chrono::seconds(1));
    Client late(room);
    late.hello();
    EXPECT_EQ(watchersCounts(a).back(), kCrowd / 2 + 1);
    EXPECT_EQ(f.scheduler.pending(), 0u);
}

TEST(RoomSummary, PublicFields) {
    Fixture f;
    const Created g = f.create(Opponent::Computer, 1, RulesetId::Bell, "expert");
    const json s = f.room(g.id)->summary();
    EXPECT_EQ(s["game"], g.id);
    EXPECT_EQ(s["ruleset"], "bell");
    EXPECT_EQ(s["opponent"], "computer");
    EXPECT_EQ(s["level"], "expert");
    EXPECT_EQ(s["ply"], 0);
    EXPECT_EQ(s["watchers"], 0);
    EXPECT_EQ(s["commitment"], g.commitment);
    EXPECT_EQ(s["commitment"], fairness::commitment(f.memory.loadGame(g.id)->serverSeed));
    EXPECT_TRUE(s["result"].is_null());
    EXPECT_TRUE(s["rematchOf"].is_null());
    EXPECT_EQ(s["seats"][0]["kind"], "computer");
    EXPECT_EQ(s["seats"][1]["kind"], "human");
}

TEST(RoomIdle, IdleAndUnloadable) {
    Fixture f;
    const Created g = f.create(Opponent::Friend, 0);
    auto room = f.room(g.id);
    EXPECT_FALSE(room->idleFor(std::chrono::hours(1)));
    EXPECT_FALSE(room->unloadable(std::chrono::hours(1)));
    {
        Client c(room);
        c.hello(g.secret, "x");
        EXPECT_FALSE(room->unloadable(std::chrono::milliseconds(-1)));  // a connection is attached
        EXPECT_TRUE(room->idleFor(std::chrono::milliseconds(-1)));
        c.send("resign");
    }
    EXPECT_TRUE(room->unloadable(std::chrono::milliseconds(-1)));
    EXPECT_FALSE(room->idleFor(std::chrono::milliseconds(-1)));  // finished games are never idle
}

}  // namespace
}  // namespace senet::testing
