// engine/tables: the exact endgame table of the standard ruleset against a second, simple solver
// (reference_solver.hpp), its own Bellman equation, values derived by hand, the byte format and
// the colour symmetry. RULES.md "Standard", "Throws", "Position notation".
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "reference_solver.hpp"
#include "senet/endgame_table.hpp"
#include "senet/senet.hpp"

namespace senet::test {
namespace {

using tables::EndgameTable;
using tables::TableSpec;
using tables::colourSwapped;

// The position written `text`, which must be valid (a test fails, and the start is used, if not).
Position at(const std::string& text) {
    const auto p = parsePosition(text);
    EXPECT_TRUE(p.ok()) << text << ": " << p.error().message;
    return p.ok() ? p.value() : startPosition(RulesetId::Standard);
}

// Small layers: every layer with both sides at most 2, and 3 v 1 / 1 v 3 (maxTotal 4).
class EndgameTableTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        TableSpec spec;
        spec.maxPerSide = 3;
        spec.maxTotal = 4;
        auto solved = EndgameTable::solve(spec);
        ASSERT_TRUE(solved.ok()) << solved.error().message;
        table_ = std::make_unique<EndgameTable>(std::move(solved).value());
        reference_ = std::make_unique<ReferenceSolver>(2);
    }
    static void TearDownTestSuite() {
        table_.reset();
        reference_.reset();
    }
    static std::unique_ptr<EndgameTable> table_;
    static std::unique_ptr<ReferenceSolver> reference_;
};
std::unique_ptr<EndgameTable> EndgameTableTest::table_;
std::unique_ptr<ReferenceSolver> EndgameTableTest::reference_;

// The Bellman update of the table's own values at `p`: over the throws with their exact
// probabilities, the best move (a pass when none) by the table's value of what follows.
double bellman(const EndgameTable& t, const Position& p) {
    double v = 0;
    for (const ChanceOutcome& c : p.rules().chanceOutcomes()) {
        const int throwValue = c.throw_.value;
        MoveList moves;
        generateMoves(p, throwValue, moves);
        std::vector<Move> options(moves.begin(), moves.end());
        if (options.empty()) options.push_back(Move{});
        double best = 0;
        for (const Move& m : options) {
            const Position q = applyMove(p, throwValue, m);
            const double after = t.value(q).value();
            best = std::max(best, q.turn == p.turn ? after : 1 - after);
        }
        v += best * c.weight / p.rules().outcomeWeightTotal;
    }
    return v;
}

TEST_F(EndgameTableTest, LayersResidualsAndSizes) {
    const auto& layers = table_->layers();
    ASSERT_EQ(layers.size(), 6u);  // 1v1, 2v1, 1v2, 3v1, 1v3, 2v2
    std::size_t entries = 0;
    for (const auto& l : layers) {
        EXPECT_LT(l.residual, 1e-9) << l.mover << " v " << l.other;
        EXPECT_GE(l.sweeps, 1u);
        EXPECT_LT(l.sweeps, 100000u);
        entries += l.entries;
    }
    EXPECT_EQ(entries, table_->entryCount());
    EXPECT_EQ(layers[0].entries, 29u * 28u);        // 1 v 1: 29 standing squares (never 28)
    EXPECT_EQ(layers.back().entries, 406u * 351u);  // 2 v 2: C(29,2) * C(27,2)
    EXPECT_EQ(table_->valueBytes(), 4 * entries);
}

// (1) Every position with both sides at most 2 on the board, either player to throw, against
// the reference solver (which keeps player 2 to throw as positions of their own).
TEST_F(EndgameTableTest, MatchesTheReferenceSolver) {
    ASSERT_FALSE(reference_->missing_);
    const auto keys = reference_->keys();
    ASSERT_EQ(keys.size(), 2u * (812u + 2u * 10962u + 142506u));
    double worst = 0;
    for (const std::string& key : keys) {
        const auto v = table_->value(at(key));
        ASSERT_TRUE(v.has_value()) << key;
        worst = std::max(worst, std::abs(*v - reference_->value(key)));
        ASSERT_NEAR(*v, reference_->value(key), 1e-6) << key;
    }
    EXPECT_LT(worst, 1e-9);
}

// (2) Every stored value satisfies its own Bellman equation (every entry, from both colours).
TEST_F(EndgameTableTest, EveryValueSatisfiesItsBellmanEquation) {
    double worst = 0;
    int checked = 0;
    // 3 v 1 and 1 v 3 are not in the reference set: list them here from their squares (each
    // position with either colour to throw, so every entry is checked twice, as the others).
    std::vector<std::string> keys = reference_->keys();
    for (int x = 1; x <= 30; ++x)
        for (int y = x + 1; y <= 30; ++y)
            for (int z = y + 1; z <= 30; ++z)
                for (int w = 1; w <= 30; ++w) {
                    if (w == x || w == y || w == z || x == 28 || y == 28 || z == 28 || w == 28) continue;
                    std::string board(30, '.');
                    board[x - 1] = board[y - 1] = board[z - 1] = '1';
                    board[w - 1] = '2';
                    std::string swapped = board;
                    for (char& c : swapped) c = c == '1' ? '2' : c == '2' ? '1' : c;
                    for (const char* turn : {":1", ":2"}) {
                        keys.push_back("standard:" + board + turn + ":2:4");
                        keys.push_back("standard:" + swapped + turn + ":4:2");
                    }
                }
    for (const std::string& key : keys) {
        const Position p = at(key);
        const double v = table_->value(p).value();
        const double b = bellman(*table_, p);
        worst = std::max(worst, std::abs(v - b));
        ASSERT_NEAR(v, b, 1e-9) << key;
        ++checked;
    }
    EXPECT_EQ(checked, static_cast<int>(2 * table_->entryCount()));
    EXPECT_LT(worst, 1e-9);
}

// (3) Values derived by hand. Player 1 alone on 30, player 2 alone on 29, both with four off.
// From 30 only a 2 bears off (rule 8); a 1, 4 or 5 has no move, a pass, and an extra throw
// (rule 9); a 3 has no move and the turn passes. From 29 only a 3 bears off; a 1 would land on
// 30, a safe square (rule 6), a 2 would pass 30 without being a 3. So with x the value of the
// piece on 30 to throw and y the value of the piece on 29 to throw:
//   x = 6/16 + 6/16 x + 4/16 (1 - y),   y = 4/16 + 6/16 y + 6/16 (1 - x)
// that is x = 1 - 0.4 y and y = 1 - 0.6 x: x = 15/19, y = 10/19.
TEST_F(EndgameTableTest, HandDerivedValues) {
    EXPECT_NEAR(table_->value(at("standard:............................21:1:4:4")).value(), 15.0 / 19.0, 1e-9);
    EXPECT_NEAR(table_->value(at("standard:............................21:2:4:4")).value(), 10.0 / 19.0, 1e-9);
    // The same two pieces with the colours swapped.
    EXPECT_NEAR(table_->value(at("standard:............................12:2:4:4")).value(), 15.0 / 19.0, 1e-9);
    // A finished game: player 2 has borne off all five; worth 1 to them, 0 to player 1.
    const Position won = at("standard:.............................1:2:4:5");
    EXPECT_TRUE(table_->contains(won));
    EXPECT_EQ(table_->value(won), 1.0);
    EXPECT_EQ(table_->value(colourSwapped(colourSwapped(won))), 1.0);
    Position lost = won;
    lost.turn = Player::One;
    EXPECT_EQ(table_->value(lost), 0.0);
    // Player 1 on 27 with the only piece: a 4 or a 5 bears off and wins (2/16 at once, rule 8).
    // Whatever else happens, the value lies between that and 1.
    const double v27 = table_->value(at("standard:..........................1..2:1:4:4")).value();
    EXPECT_GT(v27, 2.0 / 16.0);
    EXPECT_LT(v27, 1.0);
}

// The fixed point is unique: value iteration from all 0 and from all 1 (which bracket every
// fixed point, the update being monotone) ends at the same table, to the storage rounding.
TEST(EndgameTableFixedPoint, SolvingFromZeroAndFromOneAgrees) {
    TableSpec spec;
    spec.maxPerSide = 2;
    spec.maxTotal = 3;
    spec.startValue = 0;
    const auto low = EndgameTable::solve(spec);
    spec.startValue = 1;
    const auto high = EndgameTable::solve(spec);
    ASSERT_TRUE(low.ok() && high.ok());
    for (int a = 1; a <= 30; ++a)
        for (int b = 1; b <= 30; ++b)
            for (int c = b + 1; c <= 30; ++c) {
                if (a == 28 || b == 28 || c == 28 || a == b || a == c) continue;
                std::string board(30, '.');
                board[a - 1] = '1';
                board[b - 1] = board[c - 1] = '2';
                for (const char* turn : {":1", ":2"}) {
                    const Position p = at("standard:" + board + turn + ":4:3");
                    ASSERT_NEAR(low->value(p).value(), high->value(p).value(), 5e-10) << formatPosition(p);
                }
            }
}

// Outside the table: too many pieces, another ruleset; solve refuses what it cannot do.
TEST_F(EndgameTableTest, OutsideTheTable) {
    const Position start = startPosition(RulesetId::Standard);
    EXPECT_FALSE(table_->contains(start));
    EXPECT_FALSE(table_->value(start).has_value());
    const Position twoTwo = at("standard:" + std::string(18, '.') + "11.22" + std::string(7, '.') + ":1:3:3");
    EXPECT_TRUE(table_->contains(twoTwo));
    const Position threeTwo = at("standard:" + std::string(18, '.') + "111.22" + std::string(6, '.') + ":1:2:3");
    EXPECT_FALSE(table_->value(threeTwo).has_value());
    Position kendall = twoTwo;
    kendall.rulesetId = RulesetId::Kendall;
    EXPECT_FALSE(table_->value(kendall).has_value());
    TableSpec bad;
    bad.ruleset = RulesetId::Bell;
    EXPECT_FALSE(EndgameTable::solve(bad).ok());
    bad.ruleset = RulesetId::Standard;
    bad.maxPerSide = 6;
    EXPECT_FALSE(EndgameTable::solve(bad).ok());
    bad.maxPerSide = 2;
    bad.tolerance = 0;
    EXPECT_FALSE(EndgameTable::solve(bad).ok());
    bad.tolerance = 1e-12;
    bad.startValue = 2;
    EXPECT_FALSE(EndgameTable::solve(bad).ok());
    EXPECT_FALSE(EndgameTable{}.value(twoTwo).has_value());
}

// (4) The byte format round-trips; a damaged, truncated or wrong-version buffer is refused.
TEST_F(EndgameTableTest, BytesRoundTripAndDamageIsRefused) {
    const auto bytes = table_->toBytes();
    EXPECT_EQ(bytes.size(), 32 + 32 * table_->layers().size() + table_->valueBytes() + 8);
    const auto back = EndgameTable::fromBytes(bytes);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->toBytes(), bytes);
    for (const std::string& key : reference_->keys())
        if (std::hash<std::string>{}(key) % 97 == 0) {
            EXPECT_EQ(back->value(at(key)), table_->value(at(key))) << key;
        }
    EXPECT_EQ(back->layers().size(), table_->layers().size());
    EXPECT_EQ(back->layers()[3].residual, table_->layers()[3].residual);

    auto refused = [](std::vector<std::uint8_t> b, const char* what) {
        const auto r = EndgameTable::fromBytes(b);
        EXPECT_FALSE(r.ok()) << what;
        if (!r.ok()) {
            EXPECT_FALSE(r.error().message.empty()) << what;
        }
    };
    refused({}, "empty");
    refused(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 20), "shorter than the header");
    refused(std::vector<std::uint8_t>(bytes.begin(), bytes.end() - 1), "one byte short");
    refused(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 2), "half");
    auto longer = bytes;
    longer.push_back(0);
    refused(longer, "one byte more");
    for (std::size_t at : {std::size_t{0}, std::size_t{4}, std::size_t{8}, std::size_t{9}, std::size_t{12}, std::size_t{40},
                           bytes.size() / 2, bytes.size() - 1}) {
        auto damaged = bytes;
        damaged[at] ^= 0x5a;
        refused(damaged, ("byte " + std::to_string(at)).c_str());
    }
    std::vector<std::uint8_t> zeros(bytes.size(), 0);
    refused(zeros, "zeros");
}

// (5) The colour symmetry: a position and its colour-swapped twin have the same value for
// their player to throw; checked on the table and on the reference solver, which solved both
// players' positions without assuming it.
TEST_F(EndgameTableTest, ColourSwappedTwinsHaveTheSameValue) {
    int checked = 0;
    for (const std::string& key : reference_->keys()) {
        const Position p = at(key);
        const Position twin = colourSwapped(p);
        ASSERT_NE(formatPosition(p), formatPosition(twin));
        EXPECT_NEAR(reference_->value(key), reference_->value(formatPosition(twin)), 1e-9) << key;
        EXPECT_EQ(table_->value(p), table_->value(twin)) << key;
        ++checked;
    }
    EXPECT_GT(checked, 300000);
}

}  // namespace
}  // namespace senet::test
