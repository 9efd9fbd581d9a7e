// RULES.md "Piccione": one named test per numbered rule, the worked examples, and the position
// notation's validity rules (a)-(f). A step that spends a remainder passes kNoThrow (THROW `-`).
// The outside cases are in tests/oracle.
#include "senet_test_support.hpp"

namespace senet::test {
namespace {

constexpr int kRemainder = kNoThrow;

TEST(Piccione, WorkedExample1_TheOpeningAndAThrowThatCannotBeUsed) {
    const char* start = "piccione:..............................:1:0:0:0:-:0:0";
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Piccione)), start);
    EXPECT_EQ(movesOf(start, 1), (Moves{"in-1"}));
    EXPECT_EQ(after(start, 1, "in-1"), "piccione:1.............................:1:0:0:0:f:0:1");
    EXPECT_EQ(movesOf(start, 3), Moves{"pass"});
    EXPECT_EQ(after(start, 3, "pass"), "piccione:..............................:2:0:0:0:-:0:0");
    EXPECT_EQ(after(start, 5, "pass"), "piccione:..............................:2:0:0:0:-:0:0");  // the 5's throw is lost
}

TEST(Piccione, WorkedExample2_AnEntryThrowSplitWithTheSecondPartOn15) {
    const char* p = "piccione:12..........1......2..........:1:0:0:0:f:0:1";
    EXPECT_EQ(movesOf(p, 4), (Moves{"1-3", "1-4", "1-5"}));
    EXPECT_EQ(after(p, 4, "1-3"), "piccione:.21.........1......2..........:1:0:0:2:f:0:0");
    const char* rest = "piccione:.21.........1......2..........:1:0:0:2:f:0:0";
    EXPECT_EQ(movesOf(rest, kRemainder), (Moves{"3-4", "3-5", "13-14", "13-15"}));
    EXPECT_EQ(after(rest, kRemainder, "13-15"), "piccione:.21...........1....2..........:1:0:0:0:f:1:0");
}

TEST(Piccione, WorkedExample3_ABackwardTurnWithAPieceStuckOnSquare1) {
    const char* p = "piccione:..1222.............2..........:1:2:1:0:-:0:0";
    EXPECT_EQ(movesOf(p, 3), (Moves{"3-1", "3-2"}));
    EXPECT_EQ(after(p, 3, "3-1"), "piccione:1..222.............2..........:1:2:1:1:b:0:0");
    const char* stuck = "piccione:1..222.............2..........:1:2:1:1:b:0:0";
    EXPECT_EQ(movesOf(stuck, kRemainder), Moves{"pass"});  // 1-2 would go forward
    EXPECT_EQ(after(stuck, kRemainder, "pass"), "piccione:...222.............2..........:2:2:1:0:-:0:0");
}

TEST(Piccione, FurtherCheck_BearingOffAndSquare27WithAFive) {
    const char* p = "piccione:.......................121..1.:1:2:0:0:-:0:0";
    EXPECT_EQ(movesOf(p, 5), (Moves{"24-27", "24-28", "26-27", "26-28", "26-30", "26-off", "29-30", "29-off"}));
    EXPECT_EQ(after(p, 5, "26-off"), "piccione:.......................12...1.:1:3:0:0:f:1:0");
    EXPECT_EQ(after(p, 5, "24-27"), "piccione:........................21..1.:1:2:0:2:f:1:0");
}

TEST(Piccione, Rule01_AllPiecesInHandPlayerOneThrowsFirst) {
    const Position p = startPosition(RulesetId::Piccione);
    EXPECT_EQ(p.occupied(), 0u);
    EXPECT_EQ(p.inHand(Player::One), 5);
    EXPECT_EQ(p.inHand(Player::Two), 5);
    EXPECT_EQ(p.turn, Player::One);
    EXPECT_TRUE(p.throwDue());
}

TEST(Piccione, Rule02_OnlyAFiveEarnsAnExtraThrow) {
    const char* p = "piccione:....1..............2..........:1:4:4:0:-:0:0";
    EXPECT_EQ(after(p, 4, "5-9"), "piccione:........1..........2..........:2:4:4:0:-:0:0");
    EXPECT_EQ(after(p, 1, "5-6"), "piccione:.....1.............2..........:2:4:4:0:-:0:0");
    EXPECT_EQ(after(p, 5, "5-10"), "piccione:.........1.........2..........:1:4:4:0:f:1:0");
}

TEST(Piccione, Rule03_StepsEndOnEmptySquaresAndPassOverAnything) {
    const char* p = "piccione:122...........................:1:4:3:0:-:0:0";
    EXPECT_EQ(movesOf(p, 3), (Moves{"1-4"}));
    EXPECT_EQ(after(p, 2, "1-3"), "illegal: illegal move: 1-3 ends on an occupied square");
}

TEST(Piccione, Rule04_AThrowMaySplitOverStepsAlsoOnOnePiece) {
    const char* p = "piccione:....1..............2..........:1:4:4:0:-:0:0";
    EXPECT_EQ(movesOf(p, 4), (Moves{"5-6", "5-7", "5-8", "5-9"}));
    EXPECT_EQ(after(p, 4, "5-6"), "piccione:.....1.............2..........:1:4:4:3:f:0:0");
    EXPECT_EQ(movesOf("piccione:.....1.............2..........:1:4:4:3:f:0:0", kRemainder), (Moves{"6-7", "6-8", "6-9"}));
    EXPECT_EQ(after(p, 4, "5-10"), "illegal: illegal move: 5-10 moves 5 squares, but only 4 can be spent");
    // Never backward from 28-30: the remainder 2 in a backward turn has no step there.
    EXPECT_EQ(movesOf("piccione:2..........................1..:1:4:4:2:b:1:0", kRemainder), Moves{"pass"});
}

TEST(Piccione, Rule05_OnlyAWholeOneEntersOntoAnEmptySquare1FromTheHand) {
    EXPECT_EQ(movesOf("piccione:....1..............2..........:1:3:4:1:f:0:0", kRemainder), (Moves{"5-6"}));  // a remainder of 1
    EXPECT_EQ(movesOf("piccione:1..................2..........:1:3:4:0:-:0:0", 1), (Moves{"1-2"}));  // square 1 taken
    EXPECT_EQ(movesOf("piccione:..1................2..........:1:4:4:0:-:0:0", 1), (Moves{"3-4"}));  // nothing in hand
    EXPECT_EQ(movesOf("piccione:1..................2..........:1:0:4:0:f:0:1", 1), (Moves{"1-2"}));  // an entry throw
    EXPECT_EQ(after("piccione:..1................2..........:1:4:4:0:-:0:0", 1, "in-1"),
              "illegal: illegal move: player 1 has no piece in hand");
}

TEST(Piccione, Rule06_TheEntryThrowFirstMovesTheEnteredPieceForward) {
    // Only the piece on 1 may take the entry throw's first step; blocked, the turn passes and it
    // goes back to the hand.
    EXPECT_EQ(movesOf("piccione:122.........1......2..........:1:0:0:0:f:0:1", 2), Moves{"pass"});
    EXPECT_EQ(after("piccione:122.........1......2..........:1:0:0:0:f:0:1", 2, "pass"),
              "piccione:.22.........1......2..........:2:0:0:0:-:0:0");
    EXPECT_EQ(after("piccione:12..........1......2..........:1:0:0:0:f:0:1", 4, "13-17"),
              "illegal: illegal move: the entry throw's first step must move the piece that entered on square 1");
}

TEST(Piccione, Rule07_TheFirstStepFixesTheTurnsDirection) {
    // Forward first when possible; a forward turn never goes backward, even with nothing forward.
    EXPECT_EQ(movesOf("piccione:.........122..................:1:4:3:0:-:0:0", 2), (Moves{"10-8", "10-9"}));
    EXPECT_EQ(movesOf("piccione:.........122..................:1:4:3:2:f:0:0", kRemainder), Moves{"pass"});
    // A backward turn stays backward on its extra throws: 17-15 owes a throw, and the next 1
    // may not enter or go forward.
    EXPECT_EQ(movesOf("piccione:................122...........:1:4:3:0:-:0:0", 2), (Moves{"17-15", "17-16"}));
    EXPECT_EQ(after("piccione:................122...........:1:4:3:0:-:0:0", 2, "17-15"),
              "piccione:..............1..22...........:1:4:3:0:b:1:0");
    EXPECT_EQ(movesOf("piccione:..............1..22...........:1:4:3:0:b:1:0", 1), (Moves{"15-14"}));
}

TEST(Piccione, Rule08_WhileAStepExistsTheRemainderMustBeSpent) {
    const auto m = parseMove(pos("piccione:.....1.............2..........:1:4:4:3:f:0:0"), kRemainder, "pass");
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.error().message, "pass is not allowed: 3 legal steps exist");
}

TEST(Piccione, Rule09_PassSendsThePieceOnSquare1HomeAndLosesEverythingOwed) {
    const char* p = "piccione:221...........................:1:4:3:2:b:1:0";
    EXPECT_EQ(movesOf(p, kRemainder), Moves{"pass"});
    EXPECT_EQ(after(p, kRemainder, "pass"), "piccione:221...........................:2:4:3:0:-:0:0");
}

TEST(Piccione, Rule10_FivesAnd15And26OweThrowsThatAddUp) {
    EXPECT_EQ(after("piccione:............1......2..........:1:4:4:0:-:0:0", 2, "13-15"),
              "piccione:..............1....2..........:1:4:4:0:f:1:0");
    // Making an owed throw spends one; a 5 owes another, and the landing on 15 one more.
    const char* owed = "piccione:2........1.............1......:1:3:4:0:f:2:0";
    EXPECT_EQ(after(owed, 5, "10-15"), "piccione:2.............1........1......:1:3:4:0:f:3:0");
    EXPECT_EQ(after(owed, 3, "24-27"), "piccione:2........1....................:1:3:4:0:f:1:0");
}

TEST(Piccione, Rule11_AStepOnto27SendsThePieceToTheHand) {
    const char* p = "piccione:...................2....1.....:1:4:4:0:-:0:0";
    EXPECT_EQ(movesOf(p, 2), (Moves{"25-26", "25-27"}));
    EXPECT_EQ(after(p, 2, "25-27"), "piccione:...................2..........:2:4:4:0:-:0:0");
    const auto m = parseMove(pos(p), 2, "25-27");
    ASSERT_TRUE(m.ok());
    EXPECT_TRUE(m->has(kToHand));
}

TEST(Piccione, Rule12_BearingOffNeedsExactly31MinusFromAndMayBePartOfASplit) {
    const char* p = "piccione:...................2.....1.1..:1:3:4:0:-:0:0";
    EXPECT_EQ(movesOf(p, 5), (Moves{"26-27", "26-29", "26-30", "26-off", "28-29", "28-30", "28-off"}));
    EXPECT_EQ(after(p, 5, "28-off"), "piccione:...................2.....1....:1:4:4:2:f:1:0");
    EXPECT_EQ(after(p, 2, "26-off"), "illegal: illegal move: 26-off moves 5 squares, but only 2 can be spent");
}

TEST(Piccione, Rule13_TheFifthBearOffWinsAtOnce) {
    EXPECT_EQ(after("piccione:...................2.........1:1:4:4:0:-:0:0", 5, "30-off"),
              "piccione:...................2..........:1:5:4:0:-:0:0");
    EXPECT_EQ(outcomeAfter("piccione:...................2.........1:1:4:4:0:-:0:0", 5, "30-off"), "win 1");
}

TEST(Piccione, Rule14_HousesForDisplay) {
    const Ruleset& r = ruleset(RulesetId::Piccione);
    EXPECT_EQ(r.houseSquare("ankh"), 15);
    EXPECT_EQ(r.houseSquare("nefer"), 26);
    EXPECT_EQ(r.houseSquare("water"), 27);
    EXPECT_EQ(r.houseSquare("three-birds"), 28);
    EXPECT_EQ(r.houseSquare("two-men"), 29);
    EXPECT_EQ(r.houseSquare("horus"), 30);
}

TEST(Piccione, Notation_ValidityRulesAToF) {
    EXPECT_TRUE(parsePosition("piccione:..............................:1:0:0:0:-:0:0").ok());
    const char* bad[] = {
        "piccione:111111........................:1:0:0:0:-:0:0",  // (a) six pieces
        "piccione:11111.........................:1:1:0:0:-:0:0",  // (a) five on the board and one off
        "piccione:..........................1...:1:0:0:0:-:0:0",  // (b) a piece on 27
        "piccione:....1.........................:1:0:0:1:-:0:0",  // (c) DIR - with a remainder
        "piccione:....1.........................:1:0:0:0:-:1:0",  // (c) DIR - with owed throws
        "piccione:....1.........................:1:0:0:0:f:0:1",  // (d) entry throw, nothing on 1
        "piccione:1.............................:1:0:0:2:f:0:1",  // (d) entry throw with a remainder
        "piccione:....1.........................:1:0:0:0:f:0:0",  // (e) nothing left, nothing owed
        "piccione:....2.........................:2:5:0:0:-:0:0",  // (f) player 1 won, TURN 2
        "piccione:....2.........................:1:5:0:1:f:0:0",  // (f) a finished game's turn fields
        "piccione:....1.........................:1:0:0:5:f:0:0",  // REM 0-4
        "piccione:....1.........................:1:0:0:1:x:0:0",  // DIR
        "piccione:....1.........................:1:0:0:1:f:01:0", // BONUS without leading zeros
        "piccione:....1.........................:1:0:0:1:f:0:2",  // ENTRY 0 or 1
        "piccione:....1.........................:1:0:0",          // five fields
        "standard:1212121212....................:1:0:0:0:-:0:0",  // nine fields elsewhere
    };
    for (const char* text : bad) EXPECT_FALSE(parsePosition(text).ok()) << text;
    EXPECT_TRUE(parsePosition("piccione:....1.........................:1:0:0:1:f:12:0").ok());
}

TEST(Piccione, Throw_IsADashExactlyWhenARemainderIsToBeSpent) {
    const Position rem = pos("piccione:.....1.............2..........:1:4:4:3:f:0:0");
    EXPECT_EQ(*parseThrowFor(rem, "-"), kNoThrow);
    EXPECT_FALSE(parseThrowFor(rem, "3").ok());
    const Position fresh = pos("piccione:....1..............2..........:1:4:4:0:-:0:0");
    EXPECT_FALSE(parseThrowFor(fresh, "-").ok());
    EXPECT_EQ(*parseThrowFor(fresh, "5"), 5);
    EXPECT_FALSE(parseThrowFor(fresh, "6").ok());
    EXPECT_FALSE(parseThrowFor(pos("standard:1212121212....................:1:0:0"), "-").ok());
}

TEST(Piccione, Game_OwedThrowsCountTheThrowWaitingForItsFirstStep) {
    Game g(RulesetId::Piccione);
    ASSERT_TRUE(g.applyThrow(Throw{1, 0b0001}).ok());
    ASSERT_TRUE(g.applyMove(Move::enter(1)).ok());
    EXPECT_EQ(g.owedThrows(), 0);
    ASSERT_TRUE(g.applyThrow(Throw{5, 0b0000}).ok());  // the entry throw, a 5: one more is owed
    EXPECT_EQ(g.position().owedThrows, 0);             // written in the position with the step
    EXPECT_EQ(g.owedThrows(), 1);
    ASSERT_TRUE(g.applyMove(Move{1, 6, 6, 0}).ok());
    EXPECT_EQ(g.position().owedThrows, 1);
    EXPECT_EQ(g.owedThrows(), 1);
    ASSERT_TRUE(g.applyThrow(Throw{2, 0b0011}).ok());  // the owed throw is made: nothing owed now
    EXPECT_EQ(g.owedThrows(), 0);
    EXPECT_EQ(Game(RulesetId::Standard).owedThrows(), 0);
}

TEST(Piccione, Game_SpendsARemainderWithoutAThrowAndPassesWhenNothingIsLeft) {
    Game g(RulesetId::Piccione);
    ASSERT_TRUE(g.applyThrow(Throw{1, 0b0001}).ok());
    ASSERT_EQ(g.phase(), Phase::Move);
    ASSERT_TRUE(g.applyMove(Move::enter(1)).ok());
    EXPECT_EQ(g.phase(), Phase::Throw);  // the entry throw
    ASSERT_TRUE(g.applyThrow(Throw{3, 0b0111}).ok());
    ASSERT_TRUE(g.applyMove(Move{1, 2, 2, 0}).ok());
    EXPECT_EQ(g.phase(), Phase::Move);  // 2 left, no throw
    EXPECT_EQ(g.moveThrowValue(), kNoThrow);
    EXPECT_EQ(formatPosition(g.position()), "piccione:.1............................:1:0:0:2:f:0:0");
    ASSERT_TRUE(g.applyMove(Move{2, 4, 4, 0}).ok());
    EXPECT_EQ(g.phase(), Phase::Throw);
    EXPECT_EQ(g.position().turn, Player::Two);
    ASSERT_EQ(g.record().plies.size(), 3u);
    EXPECT_TRUE(g.record().plies[2].spendsRemainder());
    EXPECT_FALSE(g.record().plies[1].spendsRemainder());
    const std::string json = recordToJson(g.record(), g.outcome());
    EXPECT_EQ(json, R"({"plies":[{"move":"in-1","player":1,"sticks":"1000","throw":1},{"move":"1-2","player":1,"sticks":"1110","throw":3},)"
                    R"({"move":"2-4","player":1}],"result":"ongoing","ruleset":"piccione"})");
    const auto back = replayJson(json);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->position(), g.position());
    // A remainder step written with a throw, or a new throw written without one, is refused.
    EXPECT_FALSE(replayJson(R"({"ruleset":"piccione","plies":[{"throw":1,"sticks":"1000","move":"in-1"},{"move":"1-2"}]})").ok());
    EXPECT_FALSE(replayJson(R"({"ruleset":"piccione","plies":[{"throw":1,"sticks":"1000","move":"in-1"},{"throw":3,"sticks":"1110","move":"1-2"},{"throw":2,"sticks":"1100","move":"2-4"}]})").ok());
}

}  // namespace
}  // namespace senet::test
