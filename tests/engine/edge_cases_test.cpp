// Edge cases named in the issue, beyond the rule-by-rule tests: the House of Water with its
// return squares taken, player 2's side of the houses, Jéquier's backward moves and bear-off
// zone, Bell's compulsion when the safe squares are full.
#include "senet_test_support.hpp"

namespace senet::test {
namespace {

TEST(StandardEdge, HouseOfWaterWith15To11TakenGoesTo10) {
    // 15, 14, 13, 12 and 11 are taken by both colours: the nearest empty square before 15 is 10.
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . 1 2 1 2 1    squares 20..11
    //   . . . . 1 . . . . .    squares 21..30   (standard, player 1 to throw, borne off 1:3)
    const char* p = "standard:..........12121.........1.....:1:1:3";
    EXPECT_EQ(movesOf(p, 3), (Moves{"11-14", "13-16", "15-18", "25-28"}));
    EXPECT_EQ(moveOf(p, 3, "25-28").dest, 10);
    EXPECT_EQ(after(p, 3, "25-28"), "standard:.........112121...............:2:1:3");
}

TEST(StandardEdge, HouseOfWaterForPlayerTwoWith15Taken) {
    // Player 2 lands in the water from 24 with a 4; its own piece on 15 sends it to 14; a 4 keeps the turn.
    //   1 . . . . . . . . .    squares  1..10
    //   . . . . . 2 . . . .    squares 20..11
    //   . . . 2 . . . . . .    squares 21..30   (standard, player 2 to throw, borne off 4:3)
    const char* p = "standard:1.............2........2......:2:4:3";
    EXPECT_EQ(movesOf(p, 4), (Moves{"15-19", "24-28"}));
    EXPECT_EQ(after(p, 4, "24-28"), "standard:1............22...............:2:4:3");
}

TEST(StandardEdge, PlayerTwoBearsOffFrom29OnlyWith3And27WithMoreThan3) {
    //   1 . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . 2 . 2 .    squares 21..30   (standard, player 2 to throw, borne off 4:3)
    const char* p = "standard:1.........................2.2.:2:4:3";
    EXPECT_EQ(movesOf(p, 1), (Moves{"27-28", "29-30"}));
    EXPECT_EQ(movesOf(p, 2), (Moves{"pass"}));  // 27-29 own piece, 29 needs a 3
    EXPECT_EQ(movesOf(p, 3), (Moves{"27-30", "29-off"}));
    EXPECT_EQ(movesOf(p, 4), (Moves{"27-off"}));
    EXPECT_EQ(movesOf(p, 5), (Moves{"27-off"}));
    EXPECT_EQ(after(p, 3, "29-off"), "standard:1.........................2...:1:4:4");
}

TEST(JequierEdge, HouseOfWaterSendsToSquare1WhenItIsEmpty) {
    //   . 2 2 . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . 1 . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 4:3)
    const char* p = "jequier:.22....................1......:1:4:3";
    EXPECT_EQ(movesOf(p, 3), (Moves{"24-27"}));
    EXPECT_EQ(after(p, 3, "24-27"), "jequier:122...........................:2:4:3");
}

TEST(JequierEdge, BackwardIntoTheHouseOfWaterFrom28) {
    // Throw 1: 28-29 lands on its own piece; 29 may not reach 30 while 3 is outside 21-30; 3-4
    // hits a protected piece. Backward: 29-28 is its own piece, 3-2 would be a swap; 28-27 falls
    // into the water and goes to 6, the lowest empty square.
    //   2 2 1 2 2 . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . 1 1 .    squares 21..30   (jequier, player 1 to throw, borne off 2:1)
    const char* p = "jequier:22122......................11.:1:2:1";
    EXPECT_EQ(movesOf(p, 1), (Moves{"28-27"}));
    const Move m = moveOf(p, 1, "28-27");
    EXPECT_TRUE(m.has(kBackward));
    EXPECT_TRUE(m.has(kWater));
    EXPECT_EQ(m.dest, 6);
    EXPECT_EQ(after(p, 1, "28-27"), "jequier:221221......................1.:1:2:1");  // 1 keeps the turn
}

TEST(JequierEdge, BackwardNeverBelowSquare1) {
    // Forward is blocked for the piece on 2 (3, 4 protect each other); backward a 1 reaches 1,
    // anything more would leave the board at the bottom.
    //   . 1 2 2 2 . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 4:2)
    const char* p = "jequier:.1222.........................:1:4:2";
    EXPECT_EQ(movesOf(p, 1), (Moves{"2-1"}));
    for (int v : {2, 3, 4, 6}) EXPECT_EQ(movesOf(p, v), (Moves{"pass"})) << v;
}

TEST(JequierEdge, BackwardBlockadeAndNoSwap) {
    // Forward 5-8 and 5-9 hit protected pieces. Backward 5-2 lands on an opponent (never a swap),
    // 5-1 passes 4, 3, 2 (a blockade).
    //   . 2 2 2 1 . . 2 2 .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 4:0)
    const char* p = "jequier:.2221..22.....................:1:4:0";
    EXPECT_EQ(movesOf(p, 3), (Moves{"pass"}));
    EXPECT_EQ(movesOf(p, 4), (Moves{"pass"}));
    EXPECT_EQ(after(p, 4, "pass"), "jequier:.2221..22.....................:2:4:0");
}

TEST(JequierEdge, BearOffZoneStartsAt21) {
    // Pieces on 21 and 26: all home, so 26 bears off (reaching 30 with a 4, passing it with a 6).
    //   2 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   1 . . . . 1 . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:3)
    const char* home = "jequier:22..................1....1....:1:3:3";
    EXPECT_EQ(movesOf(home, 4), (Moves{"21-25", "26-off"}));
    EXPECT_EQ(movesOf(home, 6), (Moves{"21-27", "26-off"}));
    // Player 2 with pieces on 21 and 29 bears off; with 20 instead of 21 it may not.
    //   1 1 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   2 . . . . . . . 2 .    squares 21..30   (jequier, player 2 to throw, borne off 3:3)
    EXPECT_EQ(movesOf("jequier:11..................2.......2.:2:3:3", 1), (Moves{"21-22", "29-off"}));
    //   1 1 . . . . . . . .    squares  1..10
    //   2 . . . . . . . . .    squares 20..11
    //   . . . . . . . . 2 .    squares 21..30   (jequier, player 2 to throw, borne off 3:3)
    const char* notHome = "jequier:11.................2........2.:2:3:3";
    EXPECT_EQ(movesOf(notHome, 1), (Moves{"20-21"}));
    EXPECT_EQ(movesOf(notHome, 6), (Moves{"20-26"}));
}

TEST(BellEdge, CompulsionDoesNotApplyWhenThePieceOnTheSafeSquaresIsStuck) {
    // Player 1's piece on 26 faces 27, 28, 29, 30 all held by player 2 (safe squares): no move.
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . 1 2 2 2 2    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    for (int v = 1; v <= 4; ++v) EXPECT_EQ(movesOf("bell:.........................12222:1:0:0", v), (Moves{"pass"})) << v;
    // Player 2's piece on 26 must move on; its piece on 5 waits.
    //   1 . . . 2 . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . 2 . . . .    squares 21..30   (bell, player 2 to throw, borne off 0:0)
    const char* two = "bell:1...2....................2....:2:0:0";
    EXPECT_EQ(movesOf(two, 1), (Moves{"26-27"}));
    EXPECT_EQ(movesOf(two, 4), (Moves{"26-30"}));
    EXPECT_EQ(after(two, 4, "26-30"), "bell:1...2........................2:1:0:0");
}

}  // namespace
}  // namespace senet::test
