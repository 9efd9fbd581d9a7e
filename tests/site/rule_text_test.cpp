// The rules told in words (server/site/src/rules_text.cpp), compared with words written here:
// every aspect of every ruleset in English, the lists of squares, which aspects count as
// changed when one ruleset field changes, and the wording of rulesets edited field by field
// (what a new variant's table would say).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "senet/site.hpp"
#include "senet/site_catalog.hpp"
#include "senet/site_rules.hpp"
#include "the_site.hpp"

using namespace senet;
using namespace senet::site;

namespace {

const Catalog& english() { return sitetest::theSite().catalog("en"); }

struct Cell {
    std::string ruleset, aspect, text;
};

const std::vector<Cell> kCells{
    {"standard", "setup", "5 pieces each, alternating on squares 1 to 10: the first player's on the odd squares, the second player's on the even squares."},
    {"standard", "opening", "The first player starts, with the pieces on squares 1, 3, 5, 7 and 9."},
    {"standard", "throws", "Four throwing sticks: count the sticks that land marked side up, 1 to 4; none up counts 5."},
    {"standard", "extra", "A throw of 1, 4 or 5 gives another throw after the move."},
    {"standard", "landing", "The two pieces swap places, unless the opponent's piece has a piece of its own colour next to it."},
    {"standard", "blockade", "None: a piece may jump over any number of pieces."},
    {"standard", "safe", "Squares 27 to 30. Also any piece with a piece of its own colour next to it."},
    {"standard", "water", "Square 28. A piece that lands there goes back to square 15, or to the nearest empty square before it."},
    {"standard", "houses", "15: return square, 27: House of Beauty, 28: House of Water, 29: House of the Three Truths and 30: House of Re-Atoum."},
    {"standard", "backward", "Never: pieces only move forward."},
    {"standard", "compulsion", "You may move any piece that can move."},
    {"standard", "no-move", "You pass, and a throw of 1, 4 or 5 still gives another throw."},
    {"standard", "bear-off", "From square 27 or beyond, with a throw that carries the piece past square 30; from square 29 only with 3 and from square 30 only with 2."},
    {"standard", "win", "The first to bear off all 5 pieces wins."},
    {"jequier", "setup", "5 pieces each, alternating on squares 1 to 10: the first player's on the odd squares, the second player's on the even squares."},
    {"jequier", "opening", "The players take turns throwing until someone throws a 1. That player takes the pieces on squares 2, 4, 6, 8 and 10, moves the piece on 10 to 11 and throws again."},
    {"jequier", "throws", "Four throwing sticks: count the sticks that land marked side up, 1 to 4; none up counts 6."},
    {"jequier", "extra", "A throw of 1, 4 or 6 gives another throw after the move."},
    {"jequier", "landing", "The two pieces swap places, unless the opponent's piece has a piece of its own colour next to it."},
    {"jequier", "blockade", "A piece may not jump over 3 or more opponent pieces standing in a row, either forward or backward."},
    {"jequier", "safe", "Squares 26, 28, 29 and 30. Also any piece with a piece of its own colour next to it."},
    {"jequier", "water", "Square 27. A piece that lands there goes back to the first empty square of the board."},
    {"jequier", "houses", "26: House of Beauty and 27: House of Water."},
    {"jequier", "backward", "When no piece can move forward, you must move one backward by the throw, onto an empty square."},
    {"jequier", "compulsion", "You may move any piece that can move."},
    {"jequier", "no-move", "The turn is lost, even after a throw of 1, 4 or 6."},
    {"jequier", "bear-off", "By reaching square 30 or passing it, with any throw. Only when all your pieces still on the board stand on squares 21 to 30."},
    {"jequier", "win", "The first to bear off all 5 pieces wins."},
    {"bell", "setup", "10 pieces each, alternating on squares 1 to 20: the first player's on the odd squares, the second player's on the even squares."},
    {"bell", "opening", "The first player starts, with the pieces on squares 1, 3, 5, 7, 9, 11, 13, 15, 17 and 19."},
    {"bell", "throws", "One four-sided stick die, showing 1, 2, 3 or 4."},
    {"bell", "extra", "None: the turn passes after every move."},
    {"bell", "landing", "The opponent's piece is captured and leaves the game for good. Neighbours give no protection."},
    {"bell", "blockade", "None: a piece may jump over any number of pieces."},
    {"bell", "safe", "Squares 26 to 30."},
    {"bell", "water", "There is no House of Water."},
    {"bell", "houses", "26: House of Beauty, 27: marked X, 28: marked III, 29: marked II and 30: marked I. There is no House of Water."},
    {"bell", "backward", "Never: pieces only move forward."},
    {"bell", "compulsion", "If a piece on squares 26 to 30 can move, you must move one of those pieces."},
    {"bell", "no-move", "You pass."},
    {"bell", "bear-off", "Only with the exact throw that carries the piece off the board: 4 from square 27 (marked X), 3 from square 28 (marked III), 2 from square 29 (marked II) and 1 from square 30 (marked I)."},
    {"bell", "win", "Each piece borne off scores a point. The game ends as soon as the result is certain; equal scores are a draw."},
};

TEST(RuleText, EveryAspectOfEveryRulesetInEnglish) {
    ASSERT_EQ(ruleAspects().size(), 19u);  // Kendall and Piccione added hand, split, direction, stop and final
    int checked = 0;
    for (const Cell& c : kCells) {
        const auto id = rulesetByKey(c.ruleset);
        ASSERT_TRUE(id);
        EXPECT_EQ(describeAspect(c.aspect, ruleset(*id), english()), c.text) << c.ruleset << " " << c.aspect;
        ++checked;
    }
    EXPECT_EQ(checked, 42);
    EXPECT_EQ(describeAspect("nonsense", ruleset(RulesetId::Standard), english()), "");
}

TEST(RuleText, SquaresAreRangesFromThreeOnAndListsOtherwise) {
    const Catalog& en = english();
    EXPECT_EQ(squaresText(bit(3) | bit(4) | bit(5), en), "3 to 5");
    EXPECT_EQ(squaresText(bit(26) | bit(27) | bit(28) | bit(29) | bit(30), en), "26 to 30");
    EXPECT_EQ(squaresText(bit(3) | bit(4), en), "3 and 4");
    EXPECT_EQ(squaresText(bit(3) | bit(5) | bit(6), en), "3, 5 and 6");
    EXPECT_EQ(squaresText(bit(30), en), "30");
    EXPECT_EQ(squaresText(bit(1), en), "1");
    EXPECT_EQ(squaresText(bit(1) | bit(2) | bit(3) | bit(30), en), "1, 2, 3 and 30");
}

/// The aspects that differ between standard and `r`.
std::set<std::string> differing(const Ruleset& r) {
    std::set<std::string> out;
    for (const std::string& a : ruleAspects())
        if (aspectDiffers(a, ruleset(RulesetId::Standard), r)) out.insert(a);
    return out;
}

using Aspects = std::set<std::string>;

TEST(RuleText, EachFieldChangesItsOwnAspects) {
    const Ruleset& s = ruleset(RulesetId::Standard);
    EXPECT_EQ(differing(s), Aspects{});
    EXPECT_FALSE(aspectDiffers("nonsense", s, ruleset(RulesetId::Bell)));
    auto edit = [&](auto change) {
        Ruleset r = s;
        change(r);
        return differing(r);
    };
    EXPECT_EQ(edit([](Ruleset& r) { r.piecesPerSide = 6; }), (Aspects{"setup", "win"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.openingSetup[0] = bit(1) | bit(3); }), (Aspects{"setup"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.opening = OpeningRule::ThrowForOne; }), (Aspects{"opening"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.firstToMove = Player::Two; }), (Aspects{"opening"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.implement = Implement::FourSidedDie; }), (Aspects{"throws"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.sticksNoneUpValue = 6; }), (Aspects{"throws"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.throwValues = 0b1111110; }), (Aspects{"throws"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.extraThrowAfter = (1 << 1) | (1 << 4); }), (Aspects{"extra", "no-move"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.extraThrowAfter = 0; }), (Aspects{"extra"}));  // "extra" says it all
    EXPECT_EQ(edit([](Ruleset& r) { r.extraThrowAfterPass = false; }), (Aspects{"no-move"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.capture = CaptureMode::Remove; }), (Aspects{"landing"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.neighbourProtection = false; }), (Aspects{"landing", "safe"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.blockadeLength = 3; }), (Aspects{"blockade"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.safeSquares = bit(26) | bit(30); }), (Aspects{"safe"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.waterSquare = 27; }), (Aspects{"water"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.waterReturn = WaterReturn::LowestEmpty; }), (Aspects{"water"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.waterReturnSquare = 14; }), (Aspects{"water"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.waterSquare = 0; }), (Aspects{}));  // the "houses" row tells it
    EXPECT_EQ(edit([](Ruleset& r) { r.houses[0].square = 16; }), (Aspects{"houses"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.houses[1].key = "water"; }), (Aspects{"houses"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.backwardWhenNoForward = true; }), (Aspects{"backward"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.compulsionSquares = bit(26); }), (Aspects{"compulsion"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.bearOffAt = 30; }), (Aspects{"bear-off"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.bearOffThrows[27] = 0; }), (Aspects{"bear-off"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.bearOffZone = bit(30); }), (Aspects{"bear-off"}));
    EXPECT_EQ(edit([](Ruleset& r) { r.win = WinRule::Majority; }), (Aspects{"win"}));
    // Symmetric: the variant may be either argument.
    for (const std::string& a : ruleAspects())
        EXPECT_EQ(aspectDiffers(a, s, ruleset(RulesetId::Bell)), aspectDiffers(a, ruleset(RulesetId::Bell), s)) << a;
}

TEST(RuleText, EditedRulesetsAreToldFromTheirFields) {
    const Catalog& en = english();
    const Ruleset& s = ruleset(RulesetId::Standard);
    auto said = [&](const std::string& aspect, auto change, const Ruleset& base) {
        Ruleset r = base;
        change(r);
        return describeAspect(aspect, r, en);
    };
    EXPECT_EQ(said("setup", [](Ruleset& r) {
        r.openingSetup[0] = bit(1) | bit(2) | bit(3) | bit(4) | bit(5);
        r.openingSetup[1] = bit(6) | bit(8) | bit(10) | bit(12) | bit(14);
    }, s), "5 pieces each: the first player's on squares 1 to 5, the second player's on squares 6, 8, 10, 12 and 14.");
    // An opening rule whose setup moves no piece names no squares.
    EXPECT_EQ(said("opening", [](Ruleset& r) { r.opening = OpeningRule::ThrowForOne; }, s),
              "The players take turns throwing until someone throws a 1. That player takes the pieces on squares 2, 4, 6, 8 and 10, "
              "moves the piece on ? to ? and throws again.");
    EXPECT_EQ(said("opening", [](Ruleset& r) { r.firstToMove = Player::Two; }, s),
              "The first player starts, with the pieces on squares 2, 4, 6, 8 and 10.");
    EXPECT_EQ(said("blockade", [](Ruleset& r) { r.backwardWhenNoForward = false; }, ruleset(RulesetId::Jequier)),
              "A piece may not jump over 3 or more opponent pieces standing in a row.");
    EXPECT_EQ(said("landing", [](Ruleset& r) { r.capture = CaptureMode::Remove; }, s),
              "The opponent's piece is captured and leaves the game, unless it has a piece of its own colour next to it.");
    EXPECT_EQ(said("landing", [](Ruleset& r) { r.neighbourProtection = false; }, s),
              "The two pieces swap places; neighbours give no protection.");
    EXPECT_EQ(said("safe", [](Ruleset& r) { r.neighbourProtection = false; }, s), "Squares 27 to 30.");
    EXPECT_EQ(said("extra", [](Ruleset& r) { r.extraThrowAfter = (1 << 1) | (1 << 4); }, s),
              "A throw of 1 or 4 gives another throw after the move.");
    EXPECT_EQ(said("no-move", [](Ruleset& r) { r.extraThrowAfter = (1 << 1) | (1 << 4); }, s),
              "You pass, and a throw of 1 or 4 still gives another throw.");
    EXPECT_EQ(said("water", [](Ruleset& r) { r.waterReturnSquare = 14; }, s),
              "Square 28. A piece that lands there goes back to square 14, or to the nearest empty square before it.");
    EXPECT_EQ(said("compulsion", [](Ruleset& r) { r.compulsionSquares = bit(27) | bit(29); }, s),
              "If a piece on squares 27 and 29 can move, you must move one of those pieces.");
    EXPECT_EQ(said("win", [](Ruleset& r) { r.piecesPerSide = 7; }, s), "The first to bear off all 7 pieces wins.");
    EXPECT_EQ(said("throws", [](Ruleset& r) { r.sticksNoneUpValue = 7; }, s),
              "Four throwing sticks: count the sticks that land marked side up, 1 to 4; none up counts 7.");
    EXPECT_EQ(said("throws", [](Ruleset& r) { r.throwValues = (1 << 1) | (1 << 2) | (1 << 3) | (1 << 6); }, ruleset(RulesetId::Bell)),
              "One four-sided stick die, showing 1, 2, 3 or 6.");
    // Bearing off: on reaching 30 (the throws that take a piece from 27 and 28 exactly to 30
    // are exceptions), from a later first square, within a zone, by unnamed exact squares, never.
    EXPECT_EQ(said("bear-off", [](Ruleset& r) { r.bearOffAt = 30; }, s),
              "By reaching square 30 or passing it, with any throw; from square 27 only with 4 or 5, from square 28 only with "
              "3, 4 or 5, from square 29 only with 3 and from square 30 only with 2.");
    EXPECT_EQ(said("bear-off", [](Ruleset& r) { r.bearOffThrows[27] = 0; }, s),
              "From square 28 or beyond, with a throw that carries the piece past square 30; from square 29 only with 3 and "
              "from square 30 only with 2.");
    EXPECT_EQ(said("bear-off", [](Ruleset& r) {
        r.bearOffZone = 0;
        for (int sq = 21; sq <= 30; ++sq) r.bearOffZone |= bit(sq);
    }, s),
              "From square 27 or beyond, with a throw that carries the piece past square 30; from square 29 only with 3 and "
              "from square 30 only with 2. Only when all your pieces still on the board stand on squares 21 to 30.");
    EXPECT_EQ(said("bear-off", [](Ruleset& r) {
        for (auto& h : r.houses)
            if (h.square >= 27) h.key = "";
    }, ruleset(RulesetId::Bell)),
              "Only with the exact throw that carries the piece off the board: 4 from square 27, 3 from square 28, 2 from "
              "square 29 and 1 from square 30.");
    EXPECT_EQ(said("bear-off", [](Ruleset& r) { r.bearOffThrows.fill(0); }, s), "");
    // The marked squares are listed by square, in whatever order the ruleset holds them.
    EXPECT_EQ(said("houses", [](Ruleset& r) { std::reverse(r.houses.begin(), r.houses.end()); }, s),
              "15: return square, 27: House of Beauty, 28: House of Water, 29: House of the Three Truths and 30: House of Re-Atoum.");
}

}  // namespace
