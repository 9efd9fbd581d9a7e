// The arena counts every game once, alternates seats, and reports Wilson intervals.
#include <gtest/gtest.h>

#include "senet/ai_arena.hpp"

namespace senet::ai {
namespace {

ArenaConfig randomArena(RulesetId id, std::int64_t games, std::uint64_t seed) {
    ArenaConfig c;
    c.rules = id;
    c.a.level = Level::Random;
    c.b.level = Level::Random;
    c.games = games;
    c.seed = seed;
    return c;
}

TEST(Arena, EveryGameIsCountedOnce) {
    for (RulesetId id : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell}) {
        const ArenaResult r = runArena(randomArena(id, 300, 9));
        EXPECT_EQ(r.games, 300);
        EXPECT_EQ(r.winsA + r.winsB + r.draws + r.unfinished, 300);
        EXPECT_EQ(r.unfinished, 0);
        EXPECT_GT(r.plies, 300 * 20);
        // Random against random: neither side wins nearly all games.
        EXPECT_GT(r.winsA, 60);
        EXPECT_GT(r.winsB, 60);
        if (id == RulesetId::Bell) EXPECT_GT(r.draws, 0);
        else EXPECT_EQ(r.draws, 0);
        EXPECT_TRUE(r.expertMicros.empty());
    }
}

TEST(Arena, SameSeedSameCounts) {
    const ArenaResult a = runArena(randomArena(RulesetId::Jequier, 100, 4));
    const ArenaResult b = runArena(randomArena(RulesetId::Jequier, 100, 4));
    EXPECT_EQ(a.winsA, b.winsA);
    EXPECT_EQ(a.winsB, b.winsB);
    EXPECT_EQ(a.plies, b.plies);
    const ArenaResult c = runArena(randomArena(RulesetId::Jequier, 100, 5));
    EXPECT_NE(a.plies, c.plies);
}

TEST(Arena, SeatsAlternateSoAWinsAsMuchAsBWithTheSameLevel) {
    // A level against itself: the first seat's share and A's share are independent counts.
    const ArenaResult r = runArena(randomArena(RulesetId::Standard, 400, 12));
    EXPECT_EQ(r.firstSeatWins + (r.games - r.firstSeatWins - r.draws - r.unfinished), r.winsA + r.winsB);
}

TEST(Arena, StrongerLevelWinsMoreAndProgressIsReported) {
    ArenaConfig c = randomArena(RulesetId::Bell, 60, 3);
    c.a.level = Level::Intermediate;
    std::int64_t calls = 0;
    const ArenaResult r = runArena(c, [&](std::int64_t played) { calls = played; });
    EXPECT_EQ(calls, 60);
    EXPECT_GT(r.winsA, r.winsB);
}

TEST(Arena, ExpertDecisionsAreTimed) {
    ArenaConfig c = randomArena(RulesetId::Standard, 2, 3);
    c.a.level = Level::Expert;
    c.a.budget = std::chrono::milliseconds(0);
    c.a.nodeBudget = 300;
    const ArenaResult r = runArena(c);
    EXPECT_EQ(r.games, 2);
    EXPECT_FALSE(r.expertMicros.empty());
}

TEST(Wilson, KnownIntervals) {
    // 50 of 100 at 95%: 0.5 -+ 0.0962.
    const Interval half = wilsonInterval(50, 100);
    EXPECT_NEAR(half.low, 0.40383, 1e-5);
    EXPECT_NEAR(half.high, 0.59617, 1e-5);
    // 0 of 10: the lower end is 0, the upper 0.2775 (z^2 / (n + z^2)).
    const Interval none = wilsonInterval(0, 10);
    EXPECT_NEAR(none.low, 0.0, 1e-12);
    EXPECT_NEAR(none.high, 3.8416 / 13.8416, 1e-9);
    // 10 of 10 mirrors it.
    const Interval all = wilsonInterval(10, 10);
    EXPECT_NEAR(all.low, 10.0 / 13.8416, 1e-9);
    EXPECT_NEAR(all.high, 1.0, 1e-12);
    // 600 of 1000: 0.5693 - 0.6299.
    const Interval sixty = wilsonInterval(600, 1000);
    EXPECT_NEAR(sixty.low, 0.56928, 1e-4);
    EXPECT_NEAR(sixty.high, 0.62993, 1e-4);
    const Interval empty = wilsonInterval(0, 0);
    EXPECT_EQ(empty.low, 0.0);
    EXPECT_EQ(empty.high, 1.0);
}

}  // namespace
// Piccione's expert above the intermediate (engine/ai/README.md "Kendall and Piccione"): with
// the race evaluation the expert at depth 2 won about 56% of these games (about a third with
// the race's first terms); with the learned evaluation about 80%. Reproducible: depth-capped, no
// time budget, a fixed seed.
TEST(Arena, PiccionesExpertBeatsTheIntermediate) {
    ArenaConfig c;
    c.rules = RulesetId::Piccione;
    c.a.level = Level::Expert;
    c.a.maxDepth = 2;
    c.b.level = Level::Intermediate;
    c.games = 400;
    c.seed = 12;
    const ArenaResult r = runArena(c);
    EXPECT_EQ(r.unfinished, 0);
    EXPECT_GE(r.winsA, 280) << "the expert won " << r.winsA << " of 400";  // 70%; see the comment above for the figure now
}

}  // namespace senet::ai
