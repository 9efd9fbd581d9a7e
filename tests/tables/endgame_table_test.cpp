// engine/tables: the exact endgame table of each ruleset with tables (standard, Jéquier,
// Kendall) against a second, simple solver (reference_solver.hpp), its own Bellman equation,
// the colour symmetry, the uniqueness of the fixed point, the standing squares and the byte
// format. Each test runs once per ruleset. RULES.md "Standard", "Jéquier", "Kendall", "Throws",
// "Position notation".
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "table_fixture.hpp"

namespace senet::test {
namespace {

using tables::EndgameTable;
using tables::TableSpec;
using tables::colourSwapped;

class EndgameTableTest : public ::testing::TestWithParam<RulesetId> {
protected:
    RulesetId id() const { return GetParam(); }
    std::string key() const { return std::string(ruleset(id()).key); }
};

// The squares one piece can stand on, by parsePosition alone (one piece of player 1 on the
// square, one of player 2 on another square, four each borne off).
int parsedStandingSquares(RulesetId id, Bitboard& squares) {
    squares = 0;
    for (int s = 1; s <= 30; ++s) {
        std::string board(30, '.');
        board[s - 1] = '1';
        board[s == 1 ? 1 : 0] = '2';
        if (parsePosition(std::string(ruleset(id).key) + ":" + board + ":1:4:4")) squares |= bit(s);
    }
    return std::popcount(squares);
}

// The table's standing squares are exactly the squares parsePosition accepts a piece on:
// standard never 28; Jéquier never 27 (water) nor 30 (rule 8); Kendall never 27 (rule 14).
TEST_P(EndgameTableTest, StandingSquaresAreTheParsedOnes) {
    Bitboard parsed = 0;
    const int n = parsedStandingSquares(id(), parsed);
    EXPECT_EQ(tables::standingSquares(id()), parsed);
    EXPECT_EQ(tables::tableSquares(id()), n);
    const Bitboard all = squareRange(1, 30);
    switch (id()) {
        case RulesetId::Standard: EXPECT_EQ(parsed, all & ~bit(28)); break;
        case RulesetId::Jequier: EXPECT_EQ(parsed, all & ~bit(27) & ~bit(30)); break;
        case RulesetId::Kendall: EXPECT_EQ(parsed, all & ~bit(27)); break;
        default: FAIL();
    }
}

TEST_P(EndgameTableTest, LayersResidualsAndSizes) {
    const EndgameTable& table = smallTable(id());
    const auto& layers = table.layers();
    ASSERT_EQ(layers.size(), 6u);  // 1v1, 2v1, 1v2, 3v1, 1v3, 2v2
    std::size_t entries = 0;
    for (const auto& l : layers) {
        EXPECT_LT(l.residual, 1e-9) << l.mover << " v " << l.other;
        EXPECT_GE(l.sweeps, 1u);
        EXPECT_LT(l.sweeps, 100000u);
        entries += l.entries;
    }
    EXPECT_EQ(entries, table.entryCount());
    const std::uint32_t n = static_cast<std::uint32_t>(tables::tableSquares(id()));
    EXPECT_EQ(layers[0].entries, n * (n - 1));                                    // 1 v 1
    EXPECT_EQ(layers.back().entries, n * (n - 1) / 2 * (n - 2) * (n - 3) / 2);  // 2 v 2: C(n,2) * C(n-2,2)
    EXPECT_EQ(table.valueBytes(), 4 * entries);
    // Every position parsePosition accepts in these layers is in the table: two per entry.
    EXPECT_EQ(smallTablePositions(id()).size(), 2 * entries);
}

// (1) Every position with both sides at most 2 on the board, either player to throw, against
// the reference solver (which keeps player 2 to throw as positions of their own).
TEST_P(EndgameTableTest, MatchesTheReferenceSolver) {
    const EndgameTable& table = smallTable(id());
    const ReferenceSolver& ref = reference(id());
    ASSERT_FALSE(ref.missing_);
    const auto keys = ref.keys();
    const std::size_t n = static_cast<std::size_t>(tables::tableSquares(id()));
    const std::size_t oneOne = n * (n - 1), twoOne = n * (n - 1) / 2 * (n - 2), twoTwo = twoOne * (n - 3) / 2;
    ASSERT_EQ(keys.size(), 2u * (oneOne + 2u * twoOne + twoTwo));
    double worst = 0;
    for (const std::string& k : keys) {
        const auto v = table.value(at(k));
        ASSERT_TRUE(v.has_value()) << k;
        worst = std::max(worst, std::abs(*v - ref.value(k)));
        ASSERT_NEAR(*v, ref.value(k), 1e-6) << k;
    }
    EXPECT_LT(worst, 1e-9);
    // The values are not all alike: some positions are near-certain wins, some near-certain losses.
    double low = 1, high = 0;
    for (const std::string& k : keys) low = std::min(low, ref.value(k)), high = std::max(high, ref.value(k));
    EXPECT_LT(low, 0.05);
    EXPECT_GT(high, 0.95);
}

// (2) Every stored value satisfies its own Bellman equation (every entry, from both colours).
TEST_P(EndgameTableTest, EveryValueSatisfiesItsBellmanEquation) {
    const EndgameTable& table = smallTable(id());
    double worst = 0;
    std::size_t checked = 0;
    for (const std::string& k : smallTablePositions(id())) {
        const Position p = at(k);
        const double v = table.value(p).value();
        const double b = bellman(table, p);
        worst = std::max(worst, std::abs(v - b));
        ASSERT_NEAR(v, b, 1e-9) << k;
        ++checked;
    }
    EXPECT_EQ(checked, 2 * table.entryCount());
    EXPECT_LT(worst, 1e-9);
}

// (5) The colour symmetry: a position and its colour-swapped twin have the same value for
// their player to throw; checked on the table and on the reference solver, which solved both
// players' positions without assuming it.
TEST_P(EndgameTableTest, ColourSwappedTwinsHaveTheSameValue) {
    const EndgameTable& table = smallTable(id());
    const ReferenceSolver& ref = reference(id());
    std::size_t checked = 0;
    for (const std::string& k : ref.keys()) {
        const Position p = at(k);
        const Position twin = colourSwapped(p);
        ASSERT_NE(formatPosition(p), formatPosition(twin));
        EXPECT_NEAR(ref.value(k), ref.value(formatPosition(twin)), 1e-9) << k;
        EXPECT_EQ(table.value(p), table.value(twin)) << k;
        ++checked;
    }
    EXPECT_GT(checked, 250000u);
}

// The fixed point is unique: value iteration from all 0 and from all 1 (which bracket every
// fixed point, the update being monotone) ends at the same table, to the storage rounding.
TEST_P(EndgameTableTest, SolvingFromZeroAndFromOneAgrees) {
    TableSpec spec;
    spec.ruleset = id();
    spec.maxPerSide = 2;
    spec.maxTotal = 3;
    spec.startValue = 0;
    const auto low = EndgameTable::solve(spec);
    spec.startValue = 1;
    const auto high = EndgameTable::solve(spec);
    ASSERT_TRUE(low.ok() && high.ok());
    std::size_t checked = 0;
    for (auto [a, b] : {std::pair{1, 1}, {2, 1}, {1, 2}})
        for (const std::string& k : positionsWith(id(), a, b)) {
            const Position p = at(k);
            ASSERT_NEAR(low->value(p).value(), high->value(p).value(), 5e-10) << k;
            ++checked;
        }
    EXPECT_EQ(checked, 2 * low->entryCount());
}

// (4) The byte format round-trips and names the ruleset; a damaged, truncated or wrong-version
// buffer is refused.
TEST_P(EndgameTableTest, BytesRoundTripAndDamageIsRefused) {
    const EndgameTable& table = smallTable(id());
    const auto bytes = table.toBytes();
    EXPECT_EQ(bytes.size(), 32 + 32 * table.layers().size() + table.valueBytes() + 8);
    EXPECT_EQ(bytes[8], static_cast<std::uint8_t>(id()));
    const auto back = EndgameTable::fromBytes(bytes);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->spec().ruleset, id());
    EXPECT_EQ(back->toBytes(), bytes);
    const auto keys = smallTablePositions(id());
    for (std::size_t i = 0; i < keys.size(); i += 97) EXPECT_EQ(back->value(at(keys[i])), table.value(at(keys[i]))) << keys[i];
    EXPECT_EQ(back->layers().size(), table.layers().size());
    EXPECT_EQ(back->layers()[3].residual, table.layers()[3].residual);

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
    for (std::size_t i : {std::size_t{0}, std::size_t{4}, std::size_t{8}, std::size_t{9}, std::size_t{12}, std::size_t{40},
                          bytes.size() / 2, bytes.size() - 1}) {
        auto damaged = bytes;
        damaged[i] ^= 0x5a;
        refused(damaged, ("byte " + std::to_string(i)).c_str());
    }
    std::vector<std::uint8_t> zeros(bytes.size(), 0);
    refused(zeros, "zeros");
}

INSTANTIATE_TEST_SUITE_P(Rulesets, EndgameTableTest, ::testing::ValuesIn(kTableRulesets), rulesetName);

}  // namespace
}  // namespace senet::test
