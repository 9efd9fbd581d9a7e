// RULES.md "Jéquier": one named test per numbered rule (the rest is as in standard).
#include "senet_test_support.hpp"

namespace senet::test {
namespace {

Throw sticksThrow(int value, int sticks) { return Throw{static_cast<std::uint8_t>(value), static_cast<std::uint8_t>(sticks)}; }

TEST(Jequier, Rule01_OpeningThrowsUntilAOneThatSeatBecomesPlayerTwoAndMoves10To11) {
    // While the opening is thrown the pieces stand as in standard.
    //   1 2 1 2 1 2 1 2 1 2    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 0:0)
    Game game(RulesetId::Jequier);
    EXPECT_EQ(game.phase(), Phase::Opening);
    EXPECT_EQ(game.position().board, startPosition(RulesetId::Standard).board);
    EXPECT_EQ(game.seatToAct(), 0);
    ASSERT_TRUE(game.applyThrow(sticksThrow(2, 0b0011)).ok());  // seat 0
    EXPECT_EQ(game.seatToAct(), 1);
    ASSERT_TRUE(game.applyThrow(sticksThrow(6, 0b0000)).ok());  // seat 1: a 6 is not a 1
    EXPECT_EQ(game.phase(), Phase::Opening);
    EXPECT_EQ(game.seatToAct(), 0);
    const auto decided = game.applyThrow(sticksThrow(1, 0b0100));  // seat 0 throws the first 1
    ASSERT_TRUE(decided.ok());
    EXPECT_TRUE(decided->openingDecided);
    EXPECT_TRUE(decided->keepsTurn);
    EXPECT_EQ(decided->seat, 0);
    // Seat 0 now plays player 2: its piece on 10 went to 11 and it throws again.
    //   1 2 1 2 1 2 1 2 1 .    squares  1..10
    //   . . . . . . . . . 2    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 2 to throw, borne off 0:0)
    EXPECT_EQ(formatPosition(game.position()), "jequier:121212121.2...................:2:0:0");
    EXPECT_EQ(game.phase(), Phase::Throw);
    EXPECT_EQ(game.playerOf(0), Player::Two);
    EXPECT_EQ(game.playerOf(1), Player::One);
    EXPECT_EQ(game.seatToAct(), 0);
    // Every opening throw is recorded, in order.
    ASSERT_EQ(game.record().opening.size(), 3u);
    EXPECT_EQ(game.record().opening[0], sticksThrow(2, 0b0011));
    EXPECT_EQ(game.record().opening[1], sticksThrow(6, 0b0000));
    EXPECT_EQ(game.record().opening[2], sticksThrow(1, 0b0100));
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Jequier)), "jequier:121212121.2...................:2:0:0");
}

TEST(Jequier, Rule02_NoneUpCountsSixExtraThrowAfter1_4_6) {
    const Ruleset& r = ruleset(RulesetId::Jequier);
    EXPECT_EQ(sticksValue(0b0000, r.sticksNoneUpValue), 6);
    EXPECT_TRUE(parseThrow(r, "6").ok());
    EXPECT_FALSE(parseThrow(r, "5").ok());
    //   1 2 1 2 1 2 1 2 1 .    squares  1..10
    //   . . . . . . . . . 2    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 2 to throw, borne off 0:0)
    const char* start = "jequier:121212121.2...................:2:0:0";
    EXPECT_EQ(after(start, 1, "11-12"), "jequier:121212121..2..................:2:0:0");
    EXPECT_EQ(after(start, 4, "11-15"), "jequier:121212121.....2...............:2:0:0");
    EXPECT_EQ(after(start, 6, "11-17"), "jequier:121212121.......2.............:2:0:0");
    EXPECT_EQ(after(start, 2, "11-13"), "jequier:121212121...2.................:1:0:0");
    EXPECT_EQ(after(start, 3, "11-14"), "jequier:121212121....2................:1:0:0");
}

TEST(Jequier, Rule03_BlockadeForwardThreeInARowBlocksTwoDoNot) {
    // Three of player 2's pieces on 2, 3, 4: the piece on 1 cannot pass, and cannot land on
    // them either (each has a neighbour of its colour). Nothing can go backward from 1.
    //   1 2 2 2 . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 4:2)
    const char* three = "jequier:1222..........................:1:4:2";
    EXPECT_EQ(movesOf(three, 4), (Moves{"pass"}));  // 1-5 passes 2, 3, 4
    EXPECT_EQ(movesOf(three, 6), (Moves{"pass"}));  // 1-7 passes 2..6
    // Two in a row do not block; the empty landing square 4 is not counted as passed.
    //   1 2 2 . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 4:3)
    const char* two = "jequier:122...........................:1:4:3";
    EXPECT_EQ(movesOf(two, 3), (Moves{"1-4"}));
    EXPECT_EQ(movesOf(two, 4), (Moves{"1-5"}));
    EXPECT_EQ(after(two, 4, "1-5"), "jequier:.22.1.........................:1:4:3");
    // Three that are not consecutive (2, 3 and 5) do not block either.
    //   1 2 2 . 2 . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 4:2)
    EXPECT_EQ(movesOf("jequier:122.2.........................:1:4:2", 6), (Moves{"1-7"}));
    // Own pieces never block.
    //   1 1 1 1 . . . . . .    squares  1..10
    //   2 . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 1:4)
    EXPECT_EQ(movesOf("jequier:1111...............2..........:1:1:4", 4), (Moves{"1-5", "2-6", "3-7", "4-8"}));
    // 24, 25, 26 block both pieces going forward with a 6 (so they go backward instead).
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   1 . 1 2 2 2 . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:2)
    EXPECT_EQ(movesOf("jequier:....................1.1222....:1:3:2", 6), (Moves{"21-15", "23-17"}));
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   1 . 1 2 2 . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:3)
    EXPECT_EQ(movesOf("jequier:....................1.122.....:1:3:3", 6), (Moves{"21-27", "23-29"}));
}

TEST(Jequier, Rule03_BlockadeBackward) {
    // Forward 8-12 lands on a protected piece (12 has 13), so the piece must go backward,
    // and 8-4 would pass 7, 6, 5: three in a row.
    //   . . . . 2 2 2 1 . .    squares  1..10
    //   . . . . . . . 2 2 .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 4:0)
    EXPECT_EQ(movesOf("jequier:....2221...22.................:1:4:0", 4), (Moves{"pass"}));
    // With only 6 and 7 in the way the backward move is legal.
    //   . . . . . 2 2 1 . .    squares  1..10
    //   . . . . . . . 2 2 .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 4:1)
    const char* two = "jequier:.....221...22.................:1:4:1";
    EXPECT_EQ(movesOf(two, 4), (Moves{"8-4"}));
    EXPECT_TRUE(moveOf(two, 4, "8-4").has(kBackward));
    EXPECT_EQ(after(two, 4, "8-4"), "jequier:...1.22....22.................:1:4:1");
}

TEST(Jequier, Rule03_BlockadeAtBearOff) {
    // Reaching exactly 30 passes 27, 28, 29: two opponent pieces (28, 29) do not block.
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . 1 . . . 1 . 2 2 .    squares 21..30   (jequier, player 1 to throw, borne off 3:3)
    const char* exact = "jequier:.....................1...1.22.:1:3:3";
    EXPECT_EQ(movesOf(exact, 4), (Moves{"26-off"}));
    EXPECT_EQ(after(exact, 4, "26-off"), "jequier:.....................1.....22.:1:4:3");
    // Passing 30 from 25 passes 26..30: 26 alone and 28, 29 are not three in a row.
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . 1 . . 1 2 . 2 2 .    squares 21..30   (jequier, player 1 to throw, borne off 3:2)
    EXPECT_EQ(movesOf("jequier:.....................1..12.22.:1:3:2", 6), (Moves{"25-off"}));  // 22-28: 28 is safe
}

TEST(Jequier, Rule04_SafeSquares26_28_29_30AndNeighbourProtection) {
    // Player 1's piece on 1 always has an ordinary forward move, so no backward move appears.
    //   1 . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . 1 . 2 . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:4)
    EXPECT_EQ(movesOf("jequier:1......................1.2....:1:3:4", 2), (Moves{"1-3"}));  // 26 is safe
    //   1 . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . 1 . . 2 . .    squares 21..30   (jequier, player 1 to throw, borne off 3:4)
    EXPECT_EQ(movesOf("jequier:1.......................1..2..:1:3:4", 3), (Moves{"1-4"}));  // 28 is safe
    //   1 . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . 1 . . . 2 .    squares 21..30   (jequier, player 1 to throw, borne off 3:4)
    EXPECT_EQ(movesOf("jequier:1.......................1...2.:1:3:4", 4), (Moves{"1-5"}));  // 29 is safe
    // 25 is not safe: a lone piece there is swapped.
    //   1 . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . 1 . 2 . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:4)
    const char* p25 = "jequier:1.....................1.2.....:1:3:4";
    EXPECT_EQ(movesOf(p25, 2), (Moves{"1-3", "23-25"}));
    EXPECT_EQ(after(p25, 2, "23-25"), "jequier:1.....................2.1.....:2:3:4");
    // A neighbour of its own colour protects as in standard (14 has 15).
    //   1 . . . . . . . . .    squares  1..10
    //   . . . . . 2 2 . 1 .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:3)
    EXPECT_EQ(movesOf("jequier:1..........1.22...............:1:3:3", 2), (Moves{"1-3"}));
    EXPECT_EQ(ruleset(RulesetId::Jequier).safeSquares, bit(26) | bit(28) | bit(29) | bit(30));
}

TEST(Jequier, Rule05_HouseOfWater27GoesToTheLowestEmptySquare) {
    // Forward: 24-27 lands in the water; 1 is taken by player 1, 2 and 3 by player 2: it goes to 4.
    //   1 2 2 . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . 1 . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:3)
    const char* forward = "jequier:122....................1......:1:3:3";
    EXPECT_EQ(movesOf(forward, 3), (Moves{"1-4", "24-27"}));
    const Move water = moveOf(forward, 3, "24-27");
    EXPECT_TRUE(water.has(kWater));
    EXPECT_EQ(water.dest, 4);
    EXPECT_EQ(after(forward, 3, "24-27"), "jequier:1221..........................:2:3:3");
    // Backward: no forward move (29 cannot bear off while 5 is outside 21-30; 5-7 hits a
    // protected piece; 5-3 would be a swap), so 29-27 goes backward into the water, then to 2.
    //   2 . 2 . 1 . 2 2 . .    squares  1..10
    //   . . . . . . . . 2 .    squares 20..11
    //   . . . . . . . . 1 .    squares 21..30   (jequier, player 1 to throw, borne off 3:0)
    const char* backward = "jequier:2.2.1.22...2................1.:1:3:0";
    EXPECT_EQ(movesOf(backward, 2), (Moves{"29-27"}));
    EXPECT_EQ(moveOf(backward, 2, "29-27").dest, 2);
    EXPECT_EQ(after(backward, 2, "29-27"), "jequier:212.1.22...2..................:2:3:0");
}

TEST(Jequier, Rule06_BackwardOnlyWhenNoForwardMoveNeverASwapNeverBelow1) {
    // 26 cannot bear off (2 is outside 21-30) but 2-6 is a forward move: no backward moves.
    //   . 1 . . . . . . . .    squares  1..10
    //   2 . . . . . . . . .    squares 20..11
    //   . . . . . 1 . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:4)
    EXPECT_EQ(movesOf("jequier:.1.................2.....1....:1:3:4", 4), (Moves{"2-6"}));
    // 2-6 now hits a protected piece: no forward move. Backward 2 would go below 1; 26-22 is legal.
    //   . 1 . . . 2 2 . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . 1 . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:3)
    const char* back = "jequier:.1...22..................1....:1:3:3";
    EXPECT_EQ(movesOf(back, 4), (Moves{"26-22"}));
    EXPECT_EQ(after(back, 4, "26-22"), "jequier:.1...22..............1........:1:3:3");  // 4 keeps the turn
    // A lone opponent piece on 22 is never swapped by a backward move: the turn is lost.
    //   . 1 . . . 2 2 . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . 2 . . . 1 . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:2)
    EXPECT_EQ(movesOf("jequier:.1...22..............2...1....:1:3:2", 4), (Moves{"pass"}));
    // Backward moves also appear when the only forward moves would bear off too early.
    //   2 2 . . . . . . . .    squares  1..10
    //   1 . . . . . . . . .    squares 20..11
    //   . . . . . 1 . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:3)
    EXPECT_EQ(movesOf("jequier:22.................1.....1....:1:3:3", 6), (Moves{"20-14"}));
}

TEST(Jequier, Rule07_NoMoveLosesTheTurnEvenAfter1_4_6) {
    //   1 2 2 2 . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 1 to throw, borne off 4:2)
    const char* stuck = "jequier:1222..........................:1:4:2";
    for (int v : {1, 2, 3, 4, 6}) {
        EXPECT_EQ(movesOf(stuck, v), (Moves{"pass"})) << v;
        EXPECT_EQ(after(stuck, v, "pass"), "jequier:1222..........................:2:4:2") << v;
    }
    const Ruleset& r = ruleset(RulesetId::Jequier);
    EXPECT_FALSE(keepsTurn(r, 1, Move::pass()));
    EXPECT_FALSE(keepsTurn(r, 4, Move::pass()));
    EXPECT_FALSE(keepsTurn(r, 6, Move::pass()));
}

TEST(Jequier, Rule08_BearOffOnlyWhenAllPiecesStandOn21To30) {
    // All of player 1's pieces stand on 21-30: reaching 30 (26+4) or passing it (26+6) bears off.
    //   2 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . 1 . . . 1 . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:3)
    const char* home = "jequier:22...................1...1....:1:3:3";
    EXPECT_EQ(movesOf(home, 4), (Moves{"26-off"}));  // 22-26 lands on its own piece
    EXPECT_EQ(movesOf(home, 6), (Moves{"22-28", "26-off"}));
    EXPECT_TRUE(rejected(home, 4, "26-30"));
    // The piece on 20 is not home yet: 26 may not reach 30.
    //   2 2 . . . . . . . .    squares  1..10
    //   1 . . . . . . . . .    squares 20..11
    //   . . . . . 1 . . . .    squares 21..30   (jequier, player 1 to throw, borne off 3:3)
    const char* notHome = "jequier:22.................1.....1....:1:3:3";
    EXPECT_EQ(movesOf(notHome, 4), (Moves{"20-24"}));
    EXPECT_TRUE(rejected(notHome, 4, "26-off"));
    // From 29 a 1 bears off, from 28 a 2 does; any larger throw too.
    //   2 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . 1 1 .    squares 21..30   (jequier, player 1 to throw, borne off 3:3)
    const char* high = "jequier:22.........................11.:1:3:3";
    EXPECT_EQ(movesOf(high, 1), (Moves{"29-off"}));  // 28-29 lands on its own piece
    EXPECT_EQ(movesOf(high, 2), (Moves{"28-off", "29-off"}));
    EXPECT_EQ(movesOf(high, 6), (Moves{"28-off", "29-off"}));
    // No piece ever rests on 30.
    EXPECT_FALSE(parsePosition("jequier:22...........................1:1:4:3").ok());
}

TEST(Jequier, Rule09_FirstToBearOffAllFiveWins) {
    //   2 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . 1 .    squares 21..30   (jequier, player 1 to throw, borne off 4:3)
    const char* last = "jequier:22..........................1.:1:4:3";
    EXPECT_EQ(outcomeOf(last), "ongoing");
    EXPECT_EQ(after(last, 1, "29-off"), "jequier:22............................:1:5:3");  // 1 keeps the turn
    EXPECT_EQ(after(last, 2, "29-off"), "jequier:22............................:2:5:3");
    EXPECT_EQ(outcomeAfter(last, 2, "29-off"), "win 1");
    EXPECT_EQ(outcomeOf("jequier:.1.1.1.1.1....................:2:0:5"), "win 2");
}

TEST(Jequier, Rule10_HousesForDisplay) {
    const Ruleset& r = ruleset(RulesetId::Jequier);
    auto keyOf = [&](int square) -> std::string_view {
        for (const House& h : r.houses)
            if (h.square == square) return h.key;
        return "";
    };
    EXPECT_EQ(keyOf(26), "beauty");
    EXPECT_EQ(keyOf(27), "water");
    EXPECT_EQ(r.waterSquare, 27);
}

}  // namespace
}  // namespace senet::test
