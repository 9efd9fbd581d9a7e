// RULES.md "Bell": one named test per numbered rule.
#include "senet_test_support.hpp"

namespace senet::test {
namespace {

TEST(Bell, Rule01_TenPiecesEachOn1To20PlayerOneFirst) {
    //   1 2 1 2 1 2 1 2 1 2    squares  1..10
    //   2 1 2 1 2 1 2 1 2 1    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    const Position start = startPosition(RulesetId::Bell);
    EXPECT_EQ(formatPosition(start), "bell:12121212121212121212..........:1:0:0");
    EXPECT_EQ(start.onBoard(Player::One), 10);
    EXPECT_EQ(start.onBoard(Player::Two), 10);
    for (int square = 1; square <= 20; ++square) EXPECT_EQ(start.ownerAt(square), square % 2 == 1 ? 1 : 2) << square;
    EXPECT_EQ(start.turn, Player::One);
    const Game game(RulesetId::Bell);
    EXPECT_EQ(game.phase(), Phase::Throw);
    EXPECT_EQ(game.playerOf(0), Player::One);
}

TEST(Bell, Rule02_OneStickDieNoExtraThrows) {
    const Ruleset& r = ruleset(RulesetId::Bell);
    EXPECT_EQ(r.implement, Implement::FourSidedDie);
    for (int v = 1; v <= 4; ++v) EXPECT_TRUE(r.canThrow(v)) << v;
    EXPECT_FALSE(r.canThrow(5));
    EXPECT_FALSE(r.canThrow(6));
    EXPECT_FALSE(r.canThrow(0));
    const char* start = "bell:12121212121212121212..........:1:0:0";
    EXPECT_EQ(after(start, 1, "1-2"), "bell:.1121212121212121212..........:2:0:0");
    EXPECT_EQ(after(start, 4, "17-21"), "bell:1212121212121212.2121.........:2:0:0");
    // A pass hands the turn over too.
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . 1    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    EXPECT_EQ(after("bell:.2...........................1:1:0:0", 4, "pass"), "bell:.2...........................1:2:0:0");
    for (int v = 1; v <= 4; ++v) EXPECT_FALSE(keepsTurn(r, v, Move::pass())) << v;
}

TEST(Bell, Rule03_CaptureRemovesThePieceNeighboursDoNotProtect) {
    // The piece on 3 has a neighbour of its own colour on 4, yet it is captured.
    //   1 . 2 2 . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (bell, player 1 to throw, borne off 9:8)
    const char* p = "bell:1.22..........................:1:9:8";
    EXPECT_EQ(movesOf(p, 2), (Moves{"1-3"}));
    EXPECT_TRUE(moveOf(p, 2, "1-3").has(kCapture));
    EXPECT_FALSE(moveOf(p, 2, "1-3").has(kSwap));
    // Nothing goes back to 1; player 2's borne-off count is unchanged: the piece left the game.
    EXPECT_EQ(after(p, 2, "1-3"), "bell:..12..........................:2:9:8");
    // You may not land on your own piece.
    //   1 . 1 . . . . . . .    squares  1..10
    //   2 . . . . . . . . .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    EXPECT_EQ(movesOf("bell:1.1................2..........:1:0:0", 2), (Moves{"3-5"}));
    // From the start a 1 captures with every piece.
    EXPECT_EQ(movesOf("bell:12121212121212121212..........:1:0:0", 1),
              (Moves{"1-2", "3-4", "5-6", "7-8", "9-10", "11-12", "13-14", "15-16", "17-18", "19-20"}));
}

TEST(Bell, Rule04_SafeSquares26To30) {
    // A lone opponent piece on 25 is captured; on 26..30 it cannot be landed on.
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . 1 . 2 . . . . .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    EXPECT_EQ(movesOf("bell:......................1.2.....:1:0:0", 2), (Moves{"23-25"}));
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . 1 . 2 . . . .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    EXPECT_EQ(movesOf("bell:.......................1.2....:1:0:0", 2), (Moves{"pass"}));
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . 1 . 2 . . .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    EXPECT_EQ(movesOf("bell:........................1.2...:1:0:0", 2), (Moves{"pass"}));
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . 1 . 2 . .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    EXPECT_EQ(movesOf("bell:.........................1.2..:1:0:0", 2), (Moves{"pass"}));
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . 1 . 2 .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    EXPECT_EQ(movesOf("bell:..........................1.2.:1:0:0", 2), (Moves{"pass"}));
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . 1 . 2    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    EXPECT_EQ(movesOf("bell:...........................1.2:1:0:0", 2), (Moves{"pass"}));
}

TEST(Bell, Rule05_ExactBearOffFromXIIIIIIAndNoFurther) {
    struct Case {
        int square;
        int throwValue;
        Moves expected;
    };
    // One piece of player 1 on `square`; one of player 2 on 2.
    const Case cases[] = {
        // 26 never bears off (4 takes it to 30, an ordinary move).
        {26, 1, {"26-27"}}, {26, 2, {"26-28"}}, {26, 3, {"26-29"}}, {26, 4, {"26-30"}},
        // X (27): only 4.
        {27, 1, {"27-28"}}, {27, 2, {"27-29"}}, {27, 3, {"27-30"}}, {27, 4, {"27-off"}},
        // III (28): only 3; 4 would go further.
        {28, 1, {"28-29"}}, {28, 2, {"28-30"}}, {28, 3, {"28-off"}}, {28, 4, {"pass"}},
        // II (29): only 2.
        {29, 1, {"29-30"}}, {29, 2, {"29-off"}}, {29, 3, {"pass"}}, {29, 4, {"pass"}},
        // I (30): only 1.
        {30, 1, {"30-off"}}, {30, 2, {"pass"}}, {30, 3, {"pass"}}, {30, 4, {"pass"}},
    };
    for (const Case& c : cases) {
        std::string board(30, '.');
        board[1] = '2';
        board[c.square - 1] = '1';
        // e.g. square 28:
        //   . 2 . . . . . . . .    squares  1..10
        //   . . . . . . . . . .    squares 20..11
        //   . . . . . . . 1 . .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
        const std::string p = "bell:" + board + ":1:0:0";
        EXPECT_EQ(movesOf(p, c.throwValue), c.expected) << "piece on " << c.square << ", throw " << c.throwValue;
    }
    EXPECT_EQ(after("bell:.2.........................1..:1:0:0", 3, "28-off"), "bell:.2............................:2:1:0");
    EXPECT_EQ(after("bell:.2.........................1..:1:0:0", 2, "28-30"), "bell:.2...........................1:2:0:0");
    const Ruleset& r = ruleset(RulesetId::Bell);
    auto keyOf = [&](int square) -> std::string_view {
        for (const House& h : r.houses)
            if (h.square == square) return h.key;
        return "";
    };
    EXPECT_EQ(keyOf(27), "x");
    EXPECT_EQ(keyOf(28), "iii");
    EXPECT_EQ(keyOf(29), "ii");
    EXPECT_EQ(keyOf(30), "i");
}

TEST(Bell, Rule06_CompulsionOn26To30) {
    // The piece on 26 (House of Beauty) can move, so 10-12 is not allowed.
    //   . 2 . . . . . . . 1    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . 1 . . . .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    const char* beauty = "bell:.2.......1...............1....:1:0:0";
    EXPECT_EQ(movesOf(beauty, 2), (Moves{"26-28"}));
    EXPECT_TRUE(rejected(beauty, 2, "10-12"));
    // The piece on 26 cannot move (28 is a safe square with an opponent): others may.
    //   . 2 . . . . . . . 1    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . 1 . 2 . .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    EXPECT_EQ(movesOf("bell:.2.......1...............1.2..:1:0:0", 2), (Moves{"10-12"}));
    // Two pieces in 26-30: only those with a legal move count; 5-7 must wait.
    //   . 2 . . 1 . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . 1 . 1 .    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    const char* two = "bell:.2..1.....................1.1.:1:0:0";
    EXPECT_EQ(movesOf(two, 2), (Moves{"29-off"}));  // 27-29 lands on its own piece
    EXPECT_EQ(movesOf(two, 1), (Moves{"27-28", "29-30"}));
    EXPECT_EQ(movesOf(two, 3), (Moves{"27-30"}));  // 29 cannot go further than off with 2
    EXPECT_EQ(movesOf(two, 4), (Moves{"27-off"}));
}

TEST(Bell, Rule07_NoLegalMovePasses) {
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . 1    squares 21..30   (bell, player 1 to throw, borne off 0:0)
    const char* p = "bell:.2...........................1:1:0:0";
    EXPECT_EQ(movesOf(p, 2), (Moves{"pass"}));
    EXPECT_EQ(after(p, 2, "pass"), "bell:.2...........................1:2:0:0");
}

TEST(Bell, Rule08_EarlyEndAndDraw) {
    // Ends when one side's borne-off count exceeds the other's borne off plus on the board.
    EXPECT_EQ(outcomeOf("bell:.....2........................:1:3:1"), "win 1");  // 3 > 1 + 1
    EXPECT_EQ(outcomeOf("bell:.....22.......................:1:3:1"), "ongoing");  // 3 = 1 + 2
    EXPECT_EQ(outcomeOf("bell:.....1........................:2:1:3"), "win 2");
    EXPECT_EQ(outcomeOf("bell:1....2........................:1:3:3"), "ongoing");
    // Both boards empty, equal scores: a draw.
    EXPECT_EQ(outcomeOf("bell:..............................:1:3:3"), "draw");
    EXPECT_EQ(outcomeOf("bell:..............................:1:0:0"), "draw");

    // A bear-off decides it: 5 > 3 + 1.
    //   . . . . 2 . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . 1    squares 21..30   (bell, player 1 to throw, borne off 4:3)
    const char* bearOff = "bell:....2........................1:1:4:3";
    EXPECT_EQ(outcomeOf(bearOff), "ongoing");
    EXPECT_EQ(after(bearOff, 1, "30-off"), "bell:....2.........................:2:5:3");
    EXPECT_EQ(outcomeAfter(bearOff, 1, "30-off"), "win 1");
    // So does a capture: player 2 is left with 2 + 0 < 3.
    //   . . . . . . . . . 1    squares  1..10
    //   . . . . . . . . 2 .    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (bell, player 1 to throw, borne off 3:2)
    const char* capture = "bell:.........1.2..................:1:3:2";
    EXPECT_EQ(outcomeOf(capture), "ongoing");
    EXPECT_EQ(outcomeAfter(capture, 2, "10-12"), "win 1");
    // The last piece on the board bears off to equal scores: a draw.
    //   . . . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . . . . . . 1    squares 21..30   (bell, player 1 to throw, borne off 2:3)
    const char* last = "bell:.............................1:1:2:3";
    EXPECT_EQ(outcomeOf(last), "ongoing");
    EXPECT_EQ(after(last, 1, "30-off"), "bell:..............................:2:3:3");
    EXPECT_EQ(outcomeAfter(last, 1, "30-off"), "draw");
}

}  // namespace
}  // namespace senet::test
