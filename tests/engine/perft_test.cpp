// Perft of each starting position: leaf counts over every distinct throw value and every legal
// move (a pass counts as one) for DEPTH plies; a finished game is a leaf.
//
// Depths 1 and 2 are checked by reasoning from RULES.md, e.g. standard depth 1:
//   throw 1: 1-2 3-4 5-6 7-8 9-10 (each target a lone piece: swap)   5
//   throw 2: only 9-11 (every other piece lands on its own)         1
//   throw 3: 1-4 3-6 5-8 7-10 9-12                                  5
//   throw 4: only 7-11 and 9-13                                     2
//   throw 5: 1-6 3-8 5-10 7-12 9-14                                 5   = 18
// Jéquier (player 2 to move, pieces on 2 4 6 8 11; 5 is not a throw, 6 is):
//   throw 1: 2-3 4-5 6-7 8-9 11-12 = 5; throw 2: 8-10 11-13 = 2; throw 3: 2-5 4-7 6-9 11-14 = 4
//   (8-11 is its own piece); throw 4: 6-10 8-12 11-15 = 3; throw 6: 4-10 6-12 8-14 11-17 = 4 = 18
// Bell: throw 1 captures with all 10 pieces; throw 2: 19-21; throw 3: 1-4 ... 17-20 and 19-22 = 10;
//   throw 4: 17-21 19-23 = 2; total 23.
// Kendall: as standard at depth 1 (18: no runs of three yet, every target a lone piece).
// Piccione (a ply is a step; a throw is expanded only where one is due): depth 1 is in-1 with a
//   1 and a pass with 2-5 = 5; depth 2: after in-1 the entry throw gives 1+2+3+4+5 = 15 steps,
//   after each of the 4 passes player 2 again has 5: 15 + 20 = 35.
// Deeper values of the three older rulesets were confirmed by an independent implementation of
// RULES.md; those of Kendall and Piccione are this engine's, whose move generation agrees with
// the outside oracles' 1,500 cases (tests/oracle).
#include "senet/perft.hpp"

#include "senet_test_support.hpp"

namespace senet::test {
namespace {

struct PerftCase {
    const char* position;
    std::uint64_t counts[4];  // depths 1..4
};

constexpr PerftCase kCases[] = {
    {"standard:1212121212....................:1:0:0", {18, 273, 4071, 61508}},
    {"jequier:121212121.2...................:2:0:0", {18, 283, 4355, 67916}},
    {"bell:12121212121212121212..........:1:0:0", {23, 519, 12220, 277473}},
    {"kendall:1212121212....................:1:0:0", {18, 268, 3919, 58259}},
    {"piccione:..............................:1:0:0:0:-:0:0", {5, 35, 196, 1266}},
};

TEST(Perft, StartingPositionsDepth1To4) {
    for (const PerftCase& c : kCases) {
        const Position p = pos(c.position);
        EXPECT_EQ(perft(p, 0), 1u) << c.position;
        for (int depth = 1; depth <= 4; ++depth) EXPECT_EQ(perft(p, depth), c.counts[depth - 1]) << c.position << " depth " << depth;
    }
}

TEST(Perft, StartPositionsAreWhatSenetStartPrints) {
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Standard)), kCases[0].position);
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Jequier)), kCases[1].position);
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Bell)), kCases[2].position);
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Kendall)), kCases[3].position);
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Piccione)), kCases[4].position);
}

TEST(Perft, Depth1IsTheSumOfMoveCountsOverThrowValues) {
    for (const PerftCase& c : kCases) {
        const Position p = pos(c.position);
        std::uint64_t sum = 0;
        for (int v = 1; v <= 6; ++v)
            if (p.rules().canThrow(v)) sum += movesOf(p, v).size();
        EXPECT_EQ(sum, c.counts[0]) << c.position;
    }
}

TEST(Perft, ARemainderIsOneBranchWithoutAThrow) {
    // RULES.md Piccione worked example 2: the remainder 2 has four steps; after 13-15 (an owed
    // throw) five throw values follow, after the others the remainder 1 or nothing is left.
    const Position p = pos("piccione:.21.........1......2..........:1:0:0:2:f:0:0");
    EXPECT_EQ(perft(p, 1), 4u);
    std::uint64_t two = 0;
    MoveList steps;
    generateMoves(p, kNoThrow, steps);
    for (const Move& m : steps) two += perft(applyMove(p, kNoThrow, m), 1);
    EXPECT_EQ(perft(p, 2), two);
}

TEST(Perft, FinishedGameIsOneLeafAndPassesCountOnce) {
    // Player 1 has borne off all five: a leaf at any depth.
    EXPECT_EQ(perft(pos("standard:.2.2.2.2.2....................:2:5:0"), 3), 1u);
    EXPECT_EQ(perft(pos("bell:..............................:1:3:3"), 2), 1u);
    // Player 1's only piece on 30: throws 1, 3, 4, 5 pass, a 2 bears it off and wins.
    EXPECT_EQ(perft(pos("standard:.2...........................1:1:4:4"), 1), 5u);
}

}  // namespace
}  // namespace senet::test
