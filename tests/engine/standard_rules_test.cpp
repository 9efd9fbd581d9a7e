// RULES.md "Standard (the site's default game)": one named test per numbered rule.
#include "senet_test_support.hpp"

namespace senet::test {
namespace {

TEST(Standard, Rule01_FivePiecesEachAlternatingPlayerOneFirst) {
    //   1 2 1 2 1 2 1 2 1 2    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (standard, player 1 to throw, borne off 0:0)
    const Position start = startPosition(RulesetId::Standard);
    EXPECT_EQ(formatPosition(start), "standard:1212121212....................:1:0:0");
    EXPECT_EQ(start, pos("standard:1212121212....................:1:0:0"));
    EXPECT_EQ(start.turn, Player::One);
    for (int square = 1; square <= 10; ++square) EXPECT_EQ(start.ownerAt(square), square % 2 == 1 ? 1 : 2) << square;
    for (int square = 11; square <= 30; ++square) EXPECT_EQ(start.ownerAt(square), 0) << square;
    EXPECT_EQ(start.onBoard(Player::One), 5);
    EXPECT_EQ(start.onBoard(Player::Two), 5);
    EXPECT_EQ(ruleset(RulesetId::Standard).piecesPerSide, 5);

    const Game game(RulesetId::Standard);
    EXPECT_EQ(game.phase(), Phase::Throw);
    EXPECT_EQ(game.position(), start);
}

TEST(Standard, Rule02_MoveOnePieceForwardExactlyTheThrow) {
    //   1 . . . 1 . . . . .    squares  1..10
    //   2 . . . . . . . . .    squares 20..11
    //   . 2 . . . . . . . .    squares 21..30   (standard, player 1 to throw, borne off 3:3)
    const char* p = "standard:1...1..............2.2........:1:3:3";
    // Either piece may move exactly 3 forward; the player chooses.
    EXPECT_EQ(movesOf(p, 3), (Moves{"1-4", "5-8"}));
    EXPECT_EQ(after(p, 3, "5-8"), "standard:1......1...........2.2........:2:3:3");
    EXPECT_EQ(after(p, 3, "1-4"), "standard:...11..............2.2........:2:3:3");
    // A legal move exists, so passing is not allowed, nor moving another distance.
    EXPECT_TRUE(rejected(p, 3, "pass"));
    EXPECT_TRUE(rejected(p, 3, "5-7"));
    EXPECT_TRUE(rejected(p, 3, "5-2"));
    // Only the player to move moves: player 2's pieces are not candidates.
    EXPECT_TRUE(rejected(p, 3, "20-23"));
}

TEST(Standard, Rule03_NoLandingOnOwnPiece) {
    //   1 . 1 . . . . . . .    squares  1..10
    //   2 . . . . . . . . .    squares 20..11
    //   . 2 . . . . . . . .    squares 21..30   (standard, player 1 to throw, borne off 3:3)
    const char* p = "standard:1.1................2.2........:1:3:3";
    EXPECT_EQ(movesOf(p, 2), (Moves{"3-5"}));
    EXPECT_TRUE(rejected(p, 2, "1-3"));
    // RULES.md's own example: with a 2 from the start every piece but the one on 9 hits its own.
    EXPECT_EQ(movesOf("standard:1212121212....................:1:0:0", 2), (Moves{"9-11"}));
}

TEST(Standard, Rule04_SwapUnlessProtected) {
    // A lone opponent piece is swapped: it goes to the square the mover came from.
    //   1 . . 2 . . . . . .    squares  1..10
    //   2 . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (standard, player 1 to throw, borne off 4:3)
    const char* lone = "standard:1..2...............2..........:1:4:3";
    EXPECT_EQ(movesOf(lone, 3), (Moves{"1-4"}));
    EXPECT_TRUE(moveOf(lone, 3, "1-4").has(kSwap));
    EXPECT_EQ(after(lone, 3, "1-4"), "standard:2..1...............2..........:2:4:3");

    // Protected by a neighbour above (5) ...
    //   1 . . 2 2 . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (standard, player 1 to throw, borne off 4:3)
    EXPECT_EQ(movesOf("standard:1..22.........................:1:4:3", 3), (Moves{"pass"}));
    // ... or below (3).
    //   1 . 2 2 . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (standard, player 1 to throw, borne off 4:3)
    EXPECT_EQ(movesOf("standard:1.22..........................:1:4:3", 3), (Moves{"pass"}));

    // 10 and 11 are neighbours on the path, although they sit in different rows.
    //   . . . . . . . 1 1 2    squares  1..10
    //   . . . . . . . . . 2    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (standard, player 1 to throw, borne off 3:3)
    const char* rowTurn = "standard:.......1122...................:1:3:3";
    EXPECT_EQ(movesOf(rowTurn, 2), (Moves{"pass"}));   // 8-10 (10 has 11), 9-11 (11 has 10)
    EXPECT_EQ(movesOf(rowTurn, 3), (Moves{"9-12"}));   // 8-11 lands on a protected piece
    //   . . . . . . . . 1 .    squares  1..10
    //   . . . . . . . . 2 2    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (standard, player 1 to throw, borne off 4:3)
    EXPECT_EQ(movesOf("standard:........1.22..................:1:4:3", 2), (Moves{"pass"}));

    // A neighbour of the other colour does not protect: 2 stands between two of player 1's pieces.
    EXPECT_EQ(movesOf("standard:1212121212....................:1:0:0", 1), (Moves{"1-2", "3-4", "5-6", "7-8", "9-10"}));
}

TEST(Standard, Rule05_NoBlockadesJumpOverAnyPieces) {
    // Four opponent pieces in a row do not stop a piece of player 1.
    //   1 2 2 2 2 . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (standard, player 1 to throw, borne off 4:1)
    const char* p = "standard:12222.........................:1:4:1";
    EXPECT_EQ(movesOf(p, 5), (Moves{"1-6"}));
    EXPECT_EQ(after(p, 5, "1-6"), "standard:.22221........................:1:4:1");
    // Nor do own pieces in a row: the piece on 1 jumps 2, 3, 4 to 5.
    //   1 1 1 1 . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . 2 . . . . . . .    squares 21..30   (standard, player 1 to throw, borne off 1:4)
    EXPECT_EQ(movesOf("standard:1111..................2.......:1:1:4", 4), (Moves{"1-5", "2-6", "3-7", "4-8"}));
}

TEST(Standard, Rule06_SafeSquares27To30) {
    // A lone opponent piece on 27, 29 or 30 cannot be landed on.
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . 1 . . 2 . . .    squares 21..30   (standard, player 1 to throw, borne off 4:3)
    EXPECT_EQ(movesOf("standard:.2.....................1..2...:1:4:3", 3), (Moves{"pass"}));
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . 1 . . 2 .    squares 21..30   (standard, player 1 to throw, borne off 4:3)
    EXPECT_EQ(movesOf("standard:.2.......................1..2.:1:4:3", 3), (Moves{"pass"}));
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . 1 . . . 2    squares 21..30   (standard, player 1 to throw, borne off 4:3)
    EXPECT_EQ(movesOf("standard:.2.......................1...2:1:4:3", 4), (Moves{"pass"}));
    // 26 is not a safe square in standard: the lone piece there is swapped.
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . 1 . 2 . . . .    squares 21..30   (standard, player 1 to throw, borne off 4:3)
    const char* p26 = "standard:.2.....................1.2....:1:4:3";
    EXPECT_EQ(movesOf(p26, 2), (Moves{"24-26"}));
    EXPECT_EQ(after(p26, 2, "24-26"), "standard:.2.....................2.1....:2:4:3");
    EXPECT_EQ(ruleset(RulesetId::Standard).safeSquares, squareRange(27, 30));
}

TEST(Standard, Rule07_HouseOfWaterReturnsTo15) {
    // The move is written with the landing square 28; the piece ends on 15.
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . 1 . . . . .    squares 21..30   (standard, player 1 to throw, borne off 4:4)
    const char* p = "standard:.2......................1.....:1:4:4";
    EXPECT_EQ(movesOf(p, 3), (Moves{"25-28"}));
    const Move water = moveOf(p, 3, "25-28");
    EXPECT_TRUE(water.has(kWater));
    EXPECT_EQ(water.to, 28);
    EXPECT_EQ(water.dest, 15);
    EXPECT_EQ(after(p, 3, "25-28"), "standard:.2............1...............:2:4:4");
    // When 15 is taken (here by the opponent) the piece goes to 14 ...
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . 2 . . . .    squares 20..11
    //   . . . . 1 . . . . .    squares 21..30   (standard, player 1 to throw, borne off 4:3)
    EXPECT_EQ(after("standard:.2............2.........1.....:1:4:3", 3, "25-28"), "standard:.2...........12...............:2:4:3");
    // ... and when 15 and 14 are taken (by either colour) to 13.
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . 2 1 . . .    squares 20..11
    //   . . . . 1 . . . . .    squares 21..30   (standard, player 1 to throw, borne off 3:3)
    EXPECT_EQ(after("standard:.2...........12.........1.....:1:3:3", 3, "25-28"), "standard:.2..........112...............:2:3:3");
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . 1 2 . . .    squares 20..11
    //   . . . . 1 . . . . .    squares 21..30   (standard, player 1 to throw, borne off 3:3)
    EXPECT_EQ(after("standard:.2...........21.........1.....:1:3:3", 3, "25-28"), "standard:.2..........121...............:2:3:3");
}

TEST(Standard, Rule08_BearOffFrom27OrBeyondWith29OnlyBy3And30OnlyBy2) {
    struct Case {
        int square;
        int throwValue;
        Moves expected;
    };
    // One piece of player 1 on `square`, four borne off; player 2's pieces far away.
    const Case cases[] = {
        // From 26 never off: 26+5 would pass 30, and that is illegal.
        {26, 1, {"26-27"}}, {26, 2, {"26-28"}}, {26, 3, {"26-29"}}, {26, 4, {"26-30"}}, {26, 5, {"pass"}},
        // From 27 every throw that passes 30 bears off; shorter throws are ordinary moves.
        {27, 1, {"27-28"}}, {27, 2, {"27-29"}}, {27, 3, {"27-30"}}, {27, 4, {"27-off"}}, {27, 5, {"27-off"}},
        // From 29 only a 3 bears off; 29->30 is an ordinary move.
        {29, 1, {"29-30"}}, {29, 2, {"pass"}}, {29, 3, {"29-off"}}, {29, 4, {"pass"}}, {29, 5, {"pass"}},
        // From 30 only a 2.
        {30, 1, {"pass"}}, {30, 2, {"30-off"}}, {30, 3, {"pass"}}, {30, 4, {"pass"}}, {30, 5, {"pass"}},
    };
    for (const Case& c : cases) {
        std::string board(30, '.');
        board[1] = '2';
        board[c.square - 1] = '1';
        // e.g. square 29:
        //   . 2 . . . . . . . .    squares  1..10
        //   . . . . . . . . . .    squares 20..11
        //   . . . . . . . . 1 .    squares 21..30   (standard, player 1 to throw, borne off 4:4)
        const std::string p = "standard:" + board + ":1:4:4";
        EXPECT_EQ(movesOf(p, c.throwValue), c.expected) << "piece on " << c.square << ", throw " << c.throwValue;
    }
    // Moves inside the houses end on the board; a bear-off leaves it.
    EXPECT_EQ(after("standard:.2........................1...:1:4:4", 2, "27-29"), "standard:.2..........................1.:2:4:4");
    EXPECT_EQ(after("standard:.2..........................1.:1:4:4", 1, "29-30"), "standard:.2...........................1:1:4:4");
    EXPECT_EQ(after("standard:.2........................1...:1:4:4", 1, "27-28"), "standard:.2............1...............:1:4:4");
    EXPECT_EQ(after("standard:.2...........................1:1:4:4", 2, "30-off"), "standard:.2............................:2:5:4");
    EXPECT_TRUE(moveOf("standard:.2..........................1.:1:4:4", 3, "29-off").has(kBearOff));
    EXPECT_TRUE(rejected("standard:.2.......................1....:1:4:4", 5, "26-off"));
    EXPECT_TRUE(rejected("standard:.2..........................1.:1:4:4", 2, "29-off"));
}

TEST(Standard, Rule09_ExtraThrowAfter1_4_5AlsoAfterAPass) {
    const char* start = "standard:1212121212....................:1:0:0";
    EXPECT_EQ(after(start, 1, "9-10"), "standard:1212121221....................:1:0:0");
    EXPECT_EQ(after(start, 4, "9-13"), "standard:12121212.2..1.................:1:0:0");
    EXPECT_EQ(after(start, 5, "9-14"), "standard:12121212.2...1................:1:0:0");
    EXPECT_EQ(after(start, 2, "9-11"), "standard:12121212.21...................:2:0:0");
    EXPECT_EQ(after(start, 3, "9-12"), "standard:12121212.2.1..................:2:0:0");
    // No legal move with a 1, 4 or 5: player 1 passes and throws again.
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . 1    squares 21..30   (standard, player 1 to throw, borne off 4:4)
    const char* stuck = "standard:.2...........................1:1:4:4";
    for (int v : {1, 4, 5}) EXPECT_EQ(after(stuck, v, "pass"), "standard:.2...........................1:1:4:4") << v;
    EXPECT_EQ(after(stuck, 3, "pass"), "standard:.2...........................1:2:4:4");
    for (int v = 1; v <= 5; ++v) EXPECT_EQ(keepsTurn(ruleset(RulesetId::Standard), v, Move::pass()), v == 1 || v == 4 || v == 5) << v;
}

TEST(Standard, Rule10_NoLegalMovePasses) {
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . 1    squares 21..30   (standard, player 1 to throw, borne off 4:4)
    const char* p = "standard:.2...........................1:1:4:4";
    EXPECT_EQ(movesOf(p, 3), (Moves{"pass"}));
    EXPECT_TRUE(parseMove(pos(p), 3, "pass").ok());
    EXPECT_TRUE(parseMove(pos(p), 3, "pass")->isPass());
    EXPECT_EQ(after(p, 3, "pass"), "standard:.2...........................1:2:4:4");
    EXPECT_TRUE(rejected(p, 3, "30-off"));
}

TEST(Standard, Rule11_FirstToBearOffAllFiveWins) {
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . 1 . . .    squares 21..30   (standard, player 1 to throw, borne off 4:4)
    const char* last = "standard:.2........................1...:1:4:4";
    EXPECT_EQ(outcomeOf(last), "ongoing");
    EXPECT_EQ(after(last, 4, "27-off"), "standard:.2............................:1:5:4");  // 4 keeps the turn
    EXPECT_EQ(outcomeAfter(last, 4, "27-off"), "win 1");
    // Player 2 bears off its last piece from 30 with a 2; the turn passes as usual.
    //   1 . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . 2    squares 21..30   (standard, player 2 to throw, borne off 4:4)
    const char* two = "standard:1............................2:2:4:4";
    EXPECT_EQ(after(two, 2, "30-off"), "standard:1.............................:1:4:5");
    EXPECT_EQ(outcomeAfter(two, 2, "30-off"), "win 2");
    EXPECT_EQ(outcomeOf("standard:.2.2.2.2.2....................:1:5:0"), "win 1");
}

TEST(Standard, Rule12_HousesForDisplay) {
    const Ruleset& r = ruleset(RulesetId::Standard);
    auto keyOf = [&](int square) -> std::string_view {
        for (const House& h : r.houses)
            if (h.square == square) return h.key;
        return "";
    };
    EXPECT_EQ(keyOf(15), "return");
    EXPECT_EQ(keyOf(27), "beauty");
    EXPECT_EQ(keyOf(28), "water");
    EXPECT_EQ(keyOf(29), "three-truths");
    EXPECT_EQ(keyOf(30), "re-atoum");
    EXPECT_EQ(keyOf(26), "");
    EXPECT_EQ(r.waterSquare, 28);
    EXPECT_EQ(r.waterReturnSquare, 15);
}

}  // namespace
}  // namespace senet::test
