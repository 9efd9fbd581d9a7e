// engine/tables: values derived by hand for each ruleset with tables, what lies outside a
// table (other rulesets, too many pieces, Jéquier's opening), the default specs and a ruleset id
// the byte format refuses. RULES.md "Standard", "Jéquier", "Kendall", "Throws".
#include <gtest/gtest.h>

#include <cmath>
#include <span>

#include "table_fixture.hpp"

namespace senet::test {
namespace {

using tables::EndgameTable;
using tables::TableSpec;
using tables::colourSwapped;

double valueOf(RulesetId id, const std::string& text) { return smallTable(id).value(at(text)).value(); }

// Standard. Player 1 alone on 30, player 2 alone on 29, both with four off.
// From 30 only a 2 bears off (rule 8); a 1, 4 or 5 has no move, a pass, and an extra throw
// (rule 9); a 3 has no move and the turn passes. From 29 only a 3 bears off; a 1 would land on
// 30, a safe square (rule 6), a 2 would pass 30 without being a 3. So with x the value of the
// piece on 30 to throw and y the value of the piece on 29 to throw:
//   x = 6/16 + 6/16 x + 4/16 (1 - y),   y = 4/16 + 6/16 y + 6/16 (1 - x)
// that is x = 1 - 0.4 y and y = 1 - 0.6 x: x = 15/19, y = 10/19.
TEST(EndgameTableValues, StandardHandDerived) {
    const RulesetId s = RulesetId::Standard;
    EXPECT_NEAR(valueOf(s, "standard:............................21:1:4:4"), 15.0 / 19.0, 1e-9);
    EXPECT_NEAR(valueOf(s, "standard:............................21:2:4:4"), 10.0 / 19.0, 1e-9);
    // The same two pieces with the colours swapped.
    EXPECT_NEAR(valueOf(s, "standard:............................12:2:4:4"), 15.0 / 19.0, 1e-9);
    // A finished game: player 2 has borne off all five; worth 1 to them, 0 to player 1.
    const EndgameTable& table = smallTable(s);
    const Position won = at("standard:.............................1:2:4:5");
    EXPECT_TRUE(table.contains(won));
    EXPECT_EQ(table.value(won), 1.0);
    EXPECT_EQ(table.value(colourSwapped(colourSwapped(won))), 1.0);
    Position lost = won;
    lost.turn = Player::One;
    EXPECT_EQ(table.value(lost), 0.0);
    // Player 1 on 27 with the only piece: a 4 or a 5 bears off and wins (2/16 at once, rule 8).
    // Whatever else happens, the value lies between that and 1.
    const double v27 = valueOf(s, "standard:..........................1..2:1:4:4");
    EXPECT_GT(v27, 2.0 / 16.0);
    EXPECT_LT(v27, 1.0);
}

// Kendall. One piece each in the final houses (rule 8): each bears off only with its own exact
// throw (28: a 3, 29: a 2, 30: a 1) and never moves otherwise, nor backward (rule 9: only pieces
// on 1-26). A throw without a move ends the turn, a 1, 4 or 5 too (rules 2 and 10), so the
// turn passes until someone throws their number. With p the chance of the player to throw and
// q the other's: x = p + (1 - p)(1 - y), y = q + (1 - q)(1 - x), so x = p / (1 - (1-p)(1-q)).
//   Player 1 on 30 (p = 4/16), player 2 on 29 (q = 6/16): x = (1/4) / (17/32) = 8/17, y = 12/17.
//   Player 1 on 28 (p = 4/16), player 2 on 30 (q = 4/16): x = y = (1/4) / (7/16) = 4/7.
TEST(EndgameTableValues, KendallHandDerived) {
    const RulesetId k = RulesetId::Kendall;
    EXPECT_NEAR(valueOf(k, "kendall:............................21:1:4:4"), 8.0 / 17.0, 1e-9);
    EXPECT_NEAR(valueOf(k, "kendall:............................21:2:4:4"), 12.0 / 17.0, 1e-9);
    EXPECT_NEAR(valueOf(k, "kendall:............................12:2:4:4"), 8.0 / 17.0, 1e-9);
    EXPECT_NEAR(valueOf(k, "kendall:...........................1.2:1:4:4"), 4.0 / 7.0, 1e-9);
    EXPECT_NEAR(valueOf(k, "kendall:...........................1.2:2:4:4"), 4.0 / 7.0, 1e-9);
    // Standard's rules would give the same board another value: the tables are not the same.
    EXPECT_GT(std::abs(valueOf(RulesetId::Standard, "standard:............................21:1:4:4") - 8.0 / 17.0), 0.1);
}

// Jéquier. A piece that reaches 30 or passes it is borne off with any throw once every piece
// of its side stands on 21-30 (rule 8).
//   Player 1 alone on 29: every throw bears it off: 1, whoever stands where (player 2 on 1, or
//   on 28 behind it; a bear-off from 29 passes over nothing).
//   Player 1 alone on 28, 29 empty: a 1 goes to 29 and throws again (rule 2), which bears off;
//   every other throw bears off at once: 1.
//   Player 2 alone on 28 to throw against player 1 on 29 (who wins on any throw): a 2, 3, 4 or
//   6 bears off (12/16). A 1 cannot land on 29 (safe, rule 4) and no other forward move
//   exists, so the piece goes back 1 to 27, the water (rules 5 and 6), and on to square 1, the
//   lowest empty square, with another throw. From 1 it wins only by a run of extra throws
//   (1, 4 or 6, 6/16 each) that brings it to 21-29 before a throw takes it past 30: at least
//   four of them (1 + 4 * 6 = 25), at most (6/16)^4; and at least the run 6, 6, 6, 6 then a 6
//   (1, 7, 13, 19, 25, off), (1/16)^5. So the value lies in (12/16 + 4/16 (1/16)^5,
//   12/16 + 4/16 (6/16)^4].
TEST(EndgameTableValues, JequierHandDerived) {
    const RulesetId j = RulesetId::Jequier;
    EXPECT_NEAR(valueOf(j, "jequier:2...........................1.:1:4:4"), 1.0, 1e-9);
    EXPECT_NEAR(valueOf(j, "jequier:...........................21.:1:4:4"), 1.0, 1e-9);
    EXPECT_NEAR(valueOf(j, "jequier:2..........................1..:1:4:4"), 1.0, 1e-9);
    EXPECT_NEAR(valueOf(j, "jequier:...........................12.:2:4:4"), 1.0, 1e-9);  // colours swapped
    const double v = valueOf(j, "jequier:...........................21.:2:4:4");
    EXPECT_GT(v, 0.75 + 0.25 * std::pow(1.0 / 16, 5) - 2.5e-10);
    EXPECT_LE(v, 0.75 + 0.25 * std::pow(6.0 / 16, 4));
    // Two pieces of player 1 on 28 and 29 against player 2's one on 1: a 1, 4 or 6 bears one
    // off with another throw, which bears off the other (6/16). A 2 or a 3 bears one off and
    // passes the turn, leaving the piece on 29 (which wins on any throw; the one on 28 could meet
    // a piece on 29); player 2 then wins only by its own run of extra throws from 1. So the
    // value lies in [6/16 + 10/16 (1 - (6/16)^4), 1).
    const double two = valueOf(j, "jequier:2..........................11.:1:3:4");
    EXPECT_GE(two, 6.0 / 16 + 10.0 / 16 * (1 - std::pow(6.0 / 16, 4)) - 2.5e-10);
    EXPECT_LT(two, 1.0);
}

// Outside a table: too many pieces, another ruleset, a square no piece stands on, Jéquier's
// opening board; solve refuses what it cannot do.
TEST(EndgameTableValues, OutsideTheTable) {
    const EndgameTable& table = smallTable(RulesetId::Standard);
    const Position start = startPosition(RulesetId::Standard);
    EXPECT_FALSE(table.contains(start));
    EXPECT_FALSE(table.value(start).has_value());
    const Position twoTwo = at("standard:" + std::string(18, '.') + "11.22" + std::string(7, '.') + ":1:3:3");
    EXPECT_TRUE(table.contains(twoTwo));
    const Position threeTwo = at("standard:" + std::string(18, '.') + "111.22" + std::string(6, '.') + ":1:2:3");
    EXPECT_FALSE(table.value(threeTwo).has_value());
    // The same board in another ruleset is another table's position.
    for (RulesetId other : {RulesetId::Kendall, RulesetId::Jequier, RulesetId::Bell}) {
        Position p = twoTwo;
        p.rulesetId = other;
        EXPECT_FALSE(table.value(p).has_value()) << ruleset(other).key;
        if (other != RulesetId::Bell) {
            EXPECT_TRUE(smallTable(other).contains(p)) << ruleset(other).key;
            EXPECT_FALSE(smallTable(other).contains(twoTwo)) << ruleset(other).key;
        }
    }
    // Squares no piece stands on (built by hand: parsePosition refuses them).
    Position onThirty = at("jequier:1.2" + std::string(27, '.') + ":1:4:4");
    EXPECT_TRUE(smallTable(RulesetId::Jequier).contains(onThirty));
    onThirty.board = {bit(30), bit(20)};
    EXPECT_FALSE(smallTable(RulesetId::Jequier).contains(onThirty));
    Position onWater = at("kendall:1.2" + std::string(27, '.') + ":1:4:4");
    EXPECT_TRUE(smallTable(RulesetId::Kendall).contains(onWater));
    onWater.board = {bit(27), bit(20)};
    EXPECT_FALSE(smallTable(RulesetId::Kendall).contains(onWater));
    // Jéquier's opening board (RULES.md Jéquier 1, Game's Phase::Opening) is never in a table;
    // the position after it is a position like any other (too many pieces for these tables).
    const Position opening = at("jequier:1212121212....................:2:0:0");
    EXPECT_TRUE(tables::isOpeningBoard(opening));
    EXPECT_FALSE(smallTable(RulesetId::Jequier).contains(opening));
    EXPECT_FALSE(tables::isOpeningBoard(startPosition(RulesetId::Jequier)));
    EXPECT_FALSE(tables::isOpeningBoard(at("kendall:1212121212....................:1:0:0")));
    TableSpec bad;
    bad.ruleset = RulesetId::Bell;
    EXPECT_FALSE(EndgameTable::solve(bad).ok());
    bad.ruleset = RulesetId::Piccione;
    EXPECT_FALSE(EndgameTable::solve(bad).ok());
    bad.ruleset = RulesetId::Kendall;
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

// The default spec of each ruleset (what `senet table build RULESET FILE` solves) and the
// rulesets tables exist for.
TEST(EndgameTableValues, DefaultSpecsAndRulesets) {
    for (RulesetId id : kTableRulesets) {
        EXPECT_TRUE(tables::supportsRuleset(id));
        const TableSpec spec = tables::defaultSpec(id);
        EXPECT_EQ(spec.ruleset, id);
        EXPECT_EQ(spec.maxPerSide, 4);
        EXPECT_EQ(spec.maxTotal, 5);
    }
    EXPECT_FALSE(tables::supportsRuleset(RulesetId::Bell));
    EXPECT_FALSE(tables::supportsRuleset(RulesetId::Piccione));
    EXPECT_EQ(tables::standingSquares(RulesetId::Bell), 0u);
    EXPECT_EQ(tables::tableSquares(RulesetId::Piccione), 0);
}

// FNV-1a 64 over `bytes` (written here apart from the library's), to rewrite a checksum.
void fixChecksum(std::vector<std::uint8_t>& bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i + 8 < bytes.size(); ++i) {
        h ^= bytes[i];
        h *= 0x100000001b3ull;
    }
    for (int i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<std::uint8_t>(h >> (8 * i));
}

// The ruleset byte is checked behind the checksum: a Jéquier table relabelled (checksum
// rewritten) as Bell or Piccione is refused, as standard its layer sizes do not match (28
// squares against 29); the unchanged bytes are accepted.
TEST(EndgameTableValues, RulesetByteIsChecked) {
    auto bytes = smallTable(RulesetId::Jequier).toBytes();
    auto same = bytes;
    fixChecksum(same);
    EXPECT_EQ(same, bytes);
    EXPECT_TRUE(EndgameTable::fromBytes(bytes).ok());
    for (std::uint8_t id : {std::uint8_t{0}, std::uint8_t{2}, std::uint8_t{4}, std::uint8_t{5}, std::uint8_t{255}}) {
        auto relabelled = bytes;
        relabelled[8] = id;
        fixChecksum(relabelled);
        const auto r = EndgameTable::fromBytes(relabelled);
        EXPECT_FALSE(r.ok()) << int{id};
    }
}

}  // namespace
}  // namespace senet::test
