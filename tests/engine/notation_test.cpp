// RULES.md "Throws", "Position notation" and the two examples of "Command-line contract".
#include <map>

#include "senet_test_support.hpp"

namespace senet::test {
namespace {

/// The exact weight of each throw value, as a fraction of the ruleset's weight total.
void expectWeights(RulesetId id, const std::map<int, int>& weights, int total) {
    const Ruleset& r = ruleset(id);
    EXPECT_EQ(r.outcomeWeightTotal, total) << r.key;
    int sum = 0;
    for (const ChanceOutcome& o : r.chanceOutcomes()) sum += o.weight;
    EXPECT_EQ(sum, total) << r.key << ": the probabilities must sum to 1";
    for (int v = 0; v < 16; ++v) {
        const auto it = weights.find(v);
        const int expected = it == weights.end() ? 0 : it->second;
        EXPECT_EQ(r.weightOfValue(v), expected) << r.key << " value " << v;
        EXPECT_EQ(r.canThrow(v), expected > 0) << r.key << " value " << v;
        // The same weight counted from the chance outcomes themselves.
        int counted = 0;
        for (const ChanceOutcome& o : r.chanceOutcomes())
            if (o.throw_.value == v) counted += o.weight;
        EXPECT_EQ(counted, expected) << r.key << " value " << v;
    }
}

TEST(Throws, StandardSticksWeights) {
    expectWeights(RulesetId::Standard, {{1, 4}, {2, 6}, {3, 4}, {4, 1}, {5, 1}}, 16);
}

TEST(Throws, JequierSticksWeightsNoneUpIsSix) {
    expectWeights(RulesetId::Jequier, {{1, 4}, {2, 6}, {3, 4}, {4, 1}, {6, 1}}, 16);
}

TEST(Throws, BellDieWeights) { expectWeights(RulesetId::Bell, {{1, 1}, {2, 1}, {3, 1}, {4, 1}}, 4); }

TEST(Throws, SticksCountTheMarkedSidesUp) {
    // Each of the 16 patterns once; the value is the number of sticks up, none up 5 or 6.
    for (RulesetId id : {RulesetId::Standard, RulesetId::Jequier}) {
        const Ruleset& r = ruleset(id);
        ASSERT_EQ(r.outcomeCount, 16);
        int seen = 0;
        for (const ChanceOutcome& o : r.chanceOutcomes()) {
            seen |= 1 << o.throw_.sticks;
            const int up = std::popcount(static_cast<unsigned>(o.throw_.sticks));
            EXPECT_EQ(o.throw_.value, up == 0 ? (id == RulesetId::Standard ? 5 : 6) : up);
            EXPECT_TRUE(isValidThrow(r, o.throw_));
        }
        EXPECT_EQ(seen, 0xFFFF);
        // A pattern that does not count its value is not a throw.
        EXPECT_FALSE(isValidThrow(r, Throw{2, 0b0001}));
        EXPECT_FALSE(isValidThrow(r, Throw{1, 0b0000}));
    }
    EXPECT_EQ(sticksValue(0b1011, 5), 3);
    EXPECT_EQ(sticksValue(0b0000, 5), 5);
    EXPECT_EQ(sticksValue(0b1111, 6), 4);
    EXPECT_EQ(ruleset(RulesetId::Bell).outcomeCount, 4);
}

TEST(Notation, StartingPositions) {
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Standard)), "standard:1212121212....................:1:0:0");
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Jequier)), "jequier:121212121.2...................:2:0:0");
    EXPECT_EQ(formatPosition(startPosition(RulesetId::Bell)), "bell:12121212121212121212..........:1:0:0");
}

TEST(Notation, PositionRoundTripAndFields) {
    //   . 2 . 1 . . . . . .    squares  1..10
    //   . . . . . . 1 . . .    squares 20..11
    //   . 1 . 2 . . 2 . . .    squares 21..30   (standard, player 2 to throw, borne off 2:2)
    const char* text = "standard:.2.1.........1.......1.2..2...:2:2:2";
    const Position p = pos(text);
    EXPECT_EQ(formatPosition(p), text);
    EXPECT_EQ(p.rulesetId, RulesetId::Standard);
    EXPECT_EQ(p.turn, Player::Two);
    EXPECT_EQ(p.borneOff(Player::One), 2);
    EXPECT_EQ(p.borneOff(Player::Two), 2);
    EXPECT_EQ(p.board[0], bit(4) | bit(14) | bit(22));
    EXPECT_EQ(p.board[1], bit(2) | bit(24) | bit(27));
    // Bell: captured pieces are neither on the board nor borne off.
    const char* bell = "bell:1.........2...................:1:3:0";
    EXPECT_EQ(formatPosition(pos(bell)), bell);
}

TEST(Notation, MalformedPositionsAreRejectedWithAReason) {
    const char* bad[] = {
        "",
        "standard:1212121212....................:1:0",            // 4 fields
        "standard:1212121212....................:1:0:0:0",        // 6 fields
        "senet:1212121212....................:1:0:0",             // unknown ruleset
        "Standard:1212121212....................:1:0:0",          // ruleset keys are lower case
        "standard:1212121212...................:1:0:0",           // 29 squares
        "standard:1212121212.....................:1:0:0",         // 31 squares
        "standard:1212121212x...................:1:0:0",          // unknown character
        "standard:12121212120...................:1:0:0",          // unknown character
        "standard:1212121212.1..................:1:0:0",          // six pieces of player 1
        "standard:1212121212....................:1:1:0",          // 5 on the board + 1 borne off
        "standard:121212121.....................:1:0:0",          // 4 + 0 is not 5
        "standard:1212121212....................:3:0:0",          // bad turn
        "standard:1212121212....................:0:0:0",
        "standard:1212121212....................::0:0",
        "standard:1212121212....................:1:x:0",          // borne-off count not a number
        "standard:1212121212....................:1:-1:0",
        "standard:12121212.2.................1..:1:0:0",          // a piece on the House of Water (28)
        "jequier:12121212..2...............1...:2:0:0",           // a piece on the House of Water (27)
        "jequier:12121212..2..................1:2:0:0",           // a piece on 30, which bears off
        "bell:121212121212121212121.........:1:0:0",              // eleven pieces of player 1
        "bell:12121212121212121212..........:1:1:0",              // 10 + 1 > 10
        "bell:......................1.......:1:10:0",             // 1 + 10 > 10
    };
    for (const char* text : bad) {
        const auto p = parsePosition(text);
        EXPECT_FALSE(p.ok()) << text;
        if (!p.ok()) {
            EXPECT_FALSE(p.error().message.empty()) << text;
            EXPECT_EQ(p.error().message.find('\n'), std::string::npos) << text;
        }
    }
    // An unknown ruleset key is named as such, with either ruleset's count of fields.
    for (const char* text : {"Standard:1212121212....................:1:0:0", "PICCIONE:..............................:1:0:0:0:-:0:0"}) {
        const auto p = parsePosition(text);
        ASSERT_FALSE(p.ok()) << text;
        EXPECT_EQ(p.error().message.find("unknown ruleset"), 0u) << text << ": " << p.error().message;
    }
    // Bell allows fewer than ten: the rest were captured.
    EXPECT_TRUE(parsePosition("bell:1.2...........................:1:0:0").ok());
    EXPECT_TRUE(parsePosition("bell:..............................:1:5:5").ok());
    // 28 is an ordinary square in Jéquier and Bell, 30 in standard and Bell, 27 in Bell.
    EXPECT_TRUE(parsePosition("jequier:12121212..2................1..:2:0:0").ok());
    EXPECT_TRUE(parsePosition("standard:12121212.2...................1:1:0:0").ok());
    EXPECT_TRUE(parsePosition("bell:12121212.2................1...:1:5:5").ok());
}

// Found by fuzz/notation_fuzz.cpp (corpus: fuzz/corpus/notation/crash-negative-borne-off): Bell
// accepted a negative borne-off count, stored it as 250 and wrote a notation it then refused.
TEST(Notation, BorneOffCountsAreUnsignedNumbers) {
    for (const char* text : {"bell:.....2........................:1:3:-6", "bell:..............................:1:-1:0",
                             "standard:1212121212....................:1:-0:0", "bell:..............................:1:+1:0"}) {
        const auto p = parsePosition(text);
        EXPECT_FALSE(p.ok()) << text << " parsed as " << (p.ok() ? formatPosition(*p) : "");
        if (!p.ok()) {
            EXPECT_NE(p.error().message.find("borne-off count must be a number"), std::string::npos) << p.error().message;
        }
    }
    EXPECT_FALSE(parseThrow(ruleset(RulesetId::Standard), "-0").ok());
    EXPECT_TRUE(parsePosition("bell:..............................:1:1:0").ok());
}

TEST(Notation, ThrowsTheRulesetCannotProduceAreRejected) {
    const Ruleset& s = ruleset(RulesetId::Standard);
    const Ruleset& j = ruleset(RulesetId::Jequier);
    const Ruleset& b = ruleset(RulesetId::Bell);
    for (const char* v : {"1", "2", "3", "4", "5"}) EXPECT_TRUE(parseThrow(s, v).ok()) << v;
    for (const char* v : {"1", "2", "3", "4", "6"}) EXPECT_TRUE(parseThrow(j, v).ok()) << v;
    for (const char* v : {"1", "2", "3", "4"}) EXPECT_TRUE(parseThrow(b, v).ok()) << v;
    EXPECT_EQ(*parseThrow(s, "5"), 5);
    for (const char* v : {"6", "0", "-1", "abc", "", " 1", "1 ", "+1", "01x", "7"}) EXPECT_FALSE(parseThrow(s, v).ok()) << v;
    for (const char* v : {"5", "0", "-1", "abc", "7"}) EXPECT_FALSE(parseThrow(j, v).ok()) << v;
    for (const char* v : {"5", "6", "0", "-1", "abc"}) EXPECT_FALSE(parseThrow(b, v).ok()) << v;
}

TEST(Notation, MovesAreFromToFromOffOrPass) {
    //   . 2 . . . . . . . .    squares  1..10
    //   . . . . . . . . . .    squares 20..11
    //   . . . . 1 . 1 . . .    squares 21..30   (standard, player 1 to throw, borne off 3:4)
    const char* p = "standard:.2......................1.1...:1:3:4";
    EXPECT_EQ(movesOf(p, 3), (Moves{"25-28", "27-30"}));
    EXPECT_EQ(movesOf(p, 4), (Moves{"25-29", "27-off"}));
    EXPECT_EQ(formatMove(Move::pass()), "pass");
    const Move off = moveOf(p, 4, "27-off");
    EXPECT_EQ(off.from, 27);
    EXPECT_EQ(off.to, kOffBoard);
    EXPECT_EQ(formatMove(off), "27-off");
    // Malformed or illegal move texts are errors with a message.
    for (const char* text : {"", "25", "25-", "-28", "25_28", "25-28-", "a-b", "25 - 28", "27-31", "27-OFF", "pass ", "25-27",
                             "27-28"}) {
        const auto m = parseMove(pos(p), 3, text);
        EXPECT_FALSE(m.ok()) << text;
        if (!m.ok()) {
            EXPECT_FALSE(m.error().message.empty()) << text;
        }
    }
    EXPECT_TRUE(rejected(p, 3, "pass"));  // a move exists
}

TEST(Notation, CliExampleThrowOf2) {
    EXPECT_EQ(movesOf("standard:1212121212....................:1:0:0", 2), (Moves{"9-11"}));
}

TEST(Notation, CliExampleThrowOf1) {
    EXPECT_EQ(movesOf("standard:1212121212....................:1:0:0", 1), (Moves{"1-2", "3-4", "5-6", "7-8", "9-10"}));
    EXPECT_EQ(after("standard:1212121212....................:1:0:0", 1, "3-4"), "standard:1221121212....................:1:0:0");
}

}  // namespace
}  // namespace senet::test
