// RULES.md "Kendall": one named test per numbered rule (the rest is as in standard).
// Boards are drawn as in senet_test_support.hpp; the outside cases are in tests/oracle.
#include "senet_test_support.hpp"

namespace senet::test {
namespace {

TEST(Kendall, Rule01_StandardSetupSticksAndFirstMoverNoOpening) {
    const Ruleset& r = ruleset(RulesetId::Kendall);
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Kendall)), "kendall:1212121212....................:1:0:0");
    EXPECT_EQ(r.opening, OpeningRule::None);
    const Game game(RulesetId::Kendall);
    EXPECT_EQ(game.phase(), Phase::Throw);
    for (int v = 1; v <= 5; ++v) EXPECT_EQ(r.weightOfValue(v), ruleset(RulesetId::Standard).weightOfValue(v)) << v;
    EXPECT_FALSE(r.canThrow(6));
}

TEST(Kendall, Rule02_ExtraThrowAfter1_4_5OnlyWhenTheThrowMoved) {
    const char* start = "kendall:1212121212....................:1:0:0";
    EXPECT_EQ(after(start, 1, "9-10"), "kendall:1212121221....................:1:0:0");  // 1: again (a swap)
    EXPECT_EQ(after(start, 2, "9-11"), "kendall:12121212.21...................:2:0:0");  // 2: turn passes
    EXPECT_EQ(after(start, 3, "9-12"), "kendall:12121212.2.1..................:2:0:0");
    EXPECT_EQ(after(start, 4, "9-13"), "kendall:12121212.2..1.................:1:0:0");
    EXPECT_EQ(after(start, 5, "9-14"), "kendall:12121212.2...1................:1:0:0");
    // A 4 or a 1 with no legal move at all ends the turn: player 1's piece on 1 faces a run.
    //   1 2 2 2 2 . . . . .    squares  1..10  (player 1 has borne off 4, player 2 one)
    const Position p = pos("kendall:12222.........................:1:4:1");
    EXPECT_EQ(movesOf(p, 4), Moves{"pass"});
    EXPECT_EQ(movesOf(p, 1), Moves{"pass"});
    EXPECT_EQ(formatPosition(applyMove(p, 4, Move::pass())), "kendall:12222.........................:2:4:1");
    EXPECT_EQ(formatPosition(applyMove(p, 1, Move::pass())), "kendall:12222.........................:2:4:1");
}

TEST(Kendall, Rule03_NoSafeSquaresLoneOpponentSwapsNeighbourProtectsEverywhere) {
    // Player 1 on 26 throws 2 onto a lone player 2 piece on 28, which goes to 26.
    //   . . . . 1 1 . 2 . .    squares 21..30
    EXPECT_EQ(movesOf("kendall:........................11.2..:1:3:4", 2), (Moves{"26-28"}));
    EXPECT_EQ(after("kendall:........................11.2..:1:3:4", 2, "26-28"), "kendall:........................12.1..:2:3:4");
    // With a second player 2 piece on 29 the one on 28 is protected, also in the final houses:
    // no forward move (25 may not pass 26), so both pieces must go back.
    EXPECT_EQ(movesOf("kendall:........................11.22.:1:3:3", 2), (Moves{"25-23", "26-24"}));
    // A lone piece is swapped; never onto one's own piece.
    //   1 . 2 . 2 2 . . . .    squares  1..10
    EXPECT_EQ(movesOf("kendall:1.2.22........................:1:4:2", 2), (Moves{"1-3"}));
    EXPECT_EQ(after("kendall:1.2.22........................:1:4:2", 2, "1-3"), "kendall:2.1.22........................:2:4:2");
    EXPECT_EQ(movesOf("kendall:1.1.......2...................:1:3:4", 2), (Moves{"3-5"}));
}

TEST(Kendall, Rule04_NoMovePassesARunOfThreeOpponentsForwardOrBackward) {
    //   1 . 2 2 2 . . . . .    squares  1..10
    EXPECT_EQ(movesOf("kendall:1.222.........................:1:4:2", 5), Moves{"pass"});
    EXPECT_EQ(movesOf("kendall:1.222.........................:1:4:2", 1), (Moves{"1-2"}));
    // Two in a row do not block.
    EXPECT_EQ(movesOf("kendall:1.22..........................:1:4:3", 4), (Moves{"1-5"}));
    // A bear-off from 26 passes 27-30: a run on 28-30 blocks it, so the piece goes back.
    EXPECT_EQ(movesOf("kendall:.........................1.222:1:4:2", 5), (Moves{"26-21"}));
    // Backward too: 6 with a 4 would pass the run on 3-5 (and 6-10 lands on a protected piece).
    //   . . 2 2 2 1 . . . 2    squares  1..10
    //   . . . . . . . . . 2    squares 20..11
    //   . . . . . . . . 1 .    squares 21..30
    EXPECT_EQ(movesOf("kendall:..2221...22.................1.:1:3:0", 4), Moves{"pass"});
    EXPECT_EQ(movesOf("kendall:..2221...22.................1.:1:3:0", 2), (Moves{"6-8", "29-off"}));
}

TEST(Kendall, Rule05_NoPieceMovesPastTheHouseOfBeauty) {
    // 24 with a 3 would pass 26: that piece has no forward move (it does not stop short), so it
    // must go back, here onto a lone piece.
    EXPECT_EQ(movesOf("kendall:....................2..1......:1:4:4", 3), (Moves{"24-21"}));
    EXPECT_EQ(movesOf("kendall:....................2..1......:1:4:4", 2), (Moves{"24-26"}));
    EXPECT_EQ(after("kendall:....................2..1......:1:4:4", 3, "24-27"),
              "illegal: illegal move: 24-27 would pass square 26, the House of Beauty, where every piece must stop");
}

TEST(Kendall, Rule06_From26_2_3_4LandOn28_29_30_5BearsOff_1IntoTheWater) {
    const char* p = "kendall:2........................1....:1:4:4";
    EXPECT_EQ(movesOf(p, 2), (Moves{"26-28"}));
    EXPECT_EQ(movesOf(p, 3), (Moves{"26-29"}));
    EXPECT_EQ(movesOf(p, 4), (Moves{"26-30"}));
    EXPECT_EQ(movesOf(p, 5), (Moves{"26-off"}));
    EXPECT_EQ(outcomeAfter(p, 5, "26-off"), "win 1");
    EXPECT_EQ(movesOf(p, 1), (Moves{"26-27"}));
}

TEST(Kendall, Rule07_TheWaterSendsThePieceTo15OrTheNearestEmptySquareBefore) {
    EXPECT_EQ(after("kendall:2........................1....:1:4:4", 1, "26-27"), "kendall:2.............1...............:1:4:4");
    // 15 and 14 are taken: to 13. The 1 moved a piece, so player 1 throws again.
    EXPECT_EQ(after("kendall:2............21..........1....:1:3:3", 1, "26-27"), "kendall:2...........121...............:1:3:3");
    EXPECT_FALSE(parsePosition("kendall:..........................1...:1:4:5").ok());  // nothing stands on 27
}

TEST(Kendall, Rule08_FinalHousesMoveOnlyToBearOffWithTheirOwnThrow) {
    const char* p = "kendall:2..........................111:1:2:4";
    EXPECT_EQ(movesOf(p, 3), (Moves{"28-off"}));
    EXPECT_EQ(movesOf(p, 2), (Moves{"29-off"}));
    EXPECT_EQ(movesOf(p, 1), (Moves{"30-off"}));
    EXPECT_EQ(movesOf(p, 4), Moves{"pass"});  // nothing else moves, never backward
    EXPECT_EQ(movesOf(p, 5), Moves{"pass"});
    EXPECT_EQ(after(p, 1, "28-29"), "illegal: illegal move: a piece on squares 28-30 moves only to bear off");
    EXPECT_EQ(after(p, 4, "28-24"), "illegal: illegal move: a piece on squares 28-30 never moves backward");
}

TEST(Kendall, Rule09_BackwardOnlyWithoutAForwardMoveOntoEmptyOrALonePiece) {
    // 10 with a 4 would pass the run on 11-13; backward 10 -> 6 swaps with a lone piece, and the
    // 4 moved a piece, so player 1 throws again.
    //   . . . . . 2 . . . 1    squares  1..10
    //   . . . . . . . 2 2 2    squares 20..11
    EXPECT_EQ(movesOf("kendall:.....2...1222.................:1:4:1", 4), (Moves{"10-6"}));
    EXPECT_EQ(after("kendall:.....2...1222.................:1:4:1", 4, "10-6"), "kendall:.....1...2222.................:1:4:1");
    // Not onto a protected piece, not below square 1.
    EXPECT_EQ(movesOf("kendall:.....22..1222.................:1:4:0", 4), Moves{"pass"});
    EXPECT_EQ(movesOf("kendall:..1222........................:1:4:2", 4), Moves{"pass"});
    // A forward move of any piece forbids backward moves.
    EXPECT_EQ(movesOf("kendall:.....2...1222.......1.........:1:3:1", 4), (Moves{"21-25"}));
}

TEST(Kendall, Rule10And11_NoMoveEndsTheTurnFirstToBearOffAllFiveWins) {
    EXPECT_EQ(outcomeAfter("kendall:2222.........................1:1:4:1", 1, "30-off"), "win 1");
    EXPECT_EQ(outcomeOf("kendall:2222..........................:1:5:1"), "win 1");
    EXPECT_EQ(outcomeOf("kendall:1212121212....................:1:0:0"), "ongoing");
}

TEST(Kendall, Rule12_HousesForDisplay) {
    const Ruleset& r = ruleset(RulesetId::Kendall);
    EXPECT_EQ(r.houseSquare("rebirth"), 15);
    EXPECT_EQ(r.houseSquare("beauty"), 26);
    EXPECT_EQ(r.houseSquare("water"), 27);
    EXPECT_EQ(r.houseSquare("three-truths"), 28);
    EXPECT_EQ(r.houseSquare("re-atoum"), 29);
    EXPECT_EQ(r.houseSquare("horus"), 30);
}

TEST(Kendall, Rule13_AMoveIntoTheWaterIsWrittenWithItsLandingSquare) {
    const auto m = parseMove(pos("kendall:2........................1....:1:4:4"), 1, "26-27");
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m->to, 27);
    EXPECT_EQ(m->dest, 15);
    EXPECT_TRUE(m->has(kWater));
}

TEST(Kendall, Rule14_OnlyValidPositionsAndNoMoveInAFinishedGame) {
    EXPECT_FALSE(parsePosition("kendall:1212121212....................:1:0:1").ok());  // six of player 2
    EXPECT_FALSE(parsePosition("kendall:121212121.....................:1:0:0").ok());  // four of player 1
    EXPECT_TRUE(parsePosition("kendall:2222..........................:1:5:1").ok());
    EXPECT_EQ(outcomeOf("kendall:2222..........................:1:5:1"), "win 1");
}

}  // namespace
}  // namespace senet::test
