// Kendall's and Piccione's pages, compared with words written here: every row of their
// rule-change tables against standard in English (checked by hand against RULES.md "Kendall"
// and "Piccione"), the aspects their new Ruleset fields change, their board diagrams (houses,
// exit throws, an empty board) and their pages in every language.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <tuple>

#include "senet/site.hpp"
#include "senet/site_catalog.hpp"
#include "senet/site_rules.hpp"
#include "the_site.hpp"

using namespace senet;
using namespace senet::site;

namespace {

using senet::sitetest::theSite;

struct Row {
    std::string aspect, standard, variant;
};

const std::string kStandardBearOff =
    "From square 27 or beyond, with a throw that carries the piece past square 30; from square 29 only with 3 and from square 30 only with 2.";
const std::string kStandardWater = "Square 28. A piece that lands there goes back to square 15, or to the nearest empty square before it.";
const std::string kStandardHouses =
    "15: return square, 27: House of Beauty, 28: House of Water, 29: House of the Three Truths and 30: House of Re-Atoum.";
const std::string kStandardSafe = "Squares 27 to 30. Also any piece with a piece of its own colour next to it.";
const std::string kStandardNoMove = "You pass, and a throw of 1, 4 or 5 still gives another throw.";

const std::vector<Row> kKendallEn{
    {"blockade", "None: a piece may jump over any number of pieces.",
     "A piece may not jump over 3 or more opponent pieces standing in a row, either forward or backward."},
    {"safe", kStandardSafe, "No safe squares. Any piece with a piece of its own colour next to it is protected, on every square."},
    {"water", kStandardWater, "Square 27. A piece that lands there goes back to square 15, or to the nearest empty square before it."},
    {"houses", kStandardHouses,
     "15: House of Rebirth, 26: House of Beauty, 27: House of Water, 28: House of the Three Truths, 29: House of Re-Atoum and 30: House of Horus."},
    {"stop", "None: a piece may move past any square.",
     "A piece on squares 1 to 25 may not move past square 26 (House of Beauty). A throw that would carry it further gives that piece no "
     "move, so every piece reaches 26 by an exact throw."},
    {"backward", "Never: pieces only move forward.",
     "When no piece can move forward, you must move one backward by the throw, onto an empty square or a lone opponent piece, which swaps "
     "with it. Pieces on squares 28 to 30 never move backward."},
    {"no-move", kStandardNoMove, "The turn is lost, even after a throw of 1, 4 or 5."},
    {"final", "None: inside the houses a piece may move on to another square.",
     "A piece on squares 28 to 30 moves only off the board, never to another square: from 28 with exactly 3, from 29 with exactly 2 and "
     "from 30 with exactly 1."},
    {"bear-off", kStandardBearOff,
     "Only with the exact throw that carries the piece off the board: 5 from square 26 (House of Beauty), 3 from square 28 (House of the "
     "Three Truths), 2 from square 29 (House of Re-Atoum) and 1 from square 30 (House of Horus)."},
};

const std::vector<Row> kPiccioneEn{
    {"setup", "5 pieces each, alternating on squares 1 to 10: the first player's on the odd squares, the second player's on the even squares.",
     "5 pieces each, all in the hand: the board is empty at the start."},
    {"hand", "None: every piece starts on the board.",
     "A piece in the hand enters on square 1 with a fresh throw of 1, which it spends whole; the next throw must first move that piece forward."},
    {"split", "Each throw moves one piece by the whole number thrown.",
     "A throw may be split into several steps of at least one square, on one piece or several; while a step is possible you must go on."},
    {"direction", "Each move is decided on its own.",
     "The first step of a turn fixes its direction: forward whenever any forward step exists, else backward. Every later step of that "
     "turn, extra throws included, goes the same way."},
    {"extra", "A throw of 1, 4 or 5 gives another throw after the move.",
     "A throw of 5 gives another throw after the move. A step that ends on square 15 or 26, forward or backward, owes one more throw; owed "
     "throws add up and come once the current throw is spent."},
    {"landing", "The two pieces swap places, unless the opponent's piece has a piece of its own colour next to it.",
     "Never: a step may end only on an empty square. There are no captures and no swaps."},
    {"safe", kStandardSafe, "None are needed: no piece can ever be landed on."},
    {"water", kStandardWater, "Square 27. A piece that lands there goes back to the hand and has to enter again."},
    {"houses", kStandardHouses, "15: ankh, 26: nefer, 27: House of Water, 28: three birds, 29: two men and 30: House of Horus."},
    {"backward", "Never: pieces only move forward.",
     "When a turn's first step cannot go forward, the whole turn goes backward, onto empty squares. Pieces on squares 28 to 30 never move backward."},
    {"no-move", kStandardNoMove,
     "The turn is lost, even after a throw of 5. The rest of the throw and every owed throw are lost, and your piece on square 1, if any, "
     "goes back to the hand."},
    {"bear-off", kStandardBearOff,
     "Only with the exact throw that carries the piece off the board: 5 from square 26 (nefer), 3 from square 28 (three birds), 2 from "
     "square 29 (two men) and 1 from square 30 (House of Horus)."},
};

/// The rendered table rows of a variant page, by aspect: {label, standard cell, variant cell}.
std::map<std::string, std::vector<std::string>> pageRows(const std::string& lang, const std::string& variant) {
    const auto page = theSite().content("/" + lang + "/variants/" + variant);
    std::map<std::string, std::vector<std::string>> rows;
    if (!page) return rows;
    static const std::regex row(
        R"re(<tr data-aspect="([^"]+)"><th scope="row">([^<]*)</th><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td></tr>)re");
    for (auto it = std::sregex_iterator(page->body.begin(), page->body.end(), row); it != std::sregex_iterator(); ++it)
        rows[(*it)[1]] = {(*it)[2], (*it)[3], (*it)[4]};
    return rows;
}

void expectTable(RulesetId id, const std::vector<Row>& expected) {
    const Catalog& en = theSite().catalog("en");
    const std::vector<RuleChange> rows = ruleChanges(ruleset(RulesetId::Standard), ruleset(id), en);
    ASSERT_EQ(rows.size(), expected.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i].aspect, expected[i].aspect) << i;
        EXPECT_EQ(rows[i].label, en.get("rc.label." + expected[i].aspect));
        EXPECT_EQ(rows[i].standard, expected[i].standard) << expected[i].aspect;
        EXPECT_EQ(rows[i].variant, expected[i].variant) << expected[i].aspect;
    }
    auto page = pageRows("en", std::string(ruleset(id).key));
    EXPECT_EQ(page.size(), expected.size());
    for (const Row& r : expected) {
        ASSERT_TRUE(page.count(r.aspect)) << r.aspect;
        EXPECT_EQ(page[r.aspect][1], escapeHtml(r.standard)) << r.aspect;
        EXPECT_EQ(page[r.aspect][2], escapeHtml(r.variant)) << r.aspect;
    }
}

TEST(NewRulesets, KendallAgainstStandardInEnglish) { expectTable(RulesetId::Kendall, kKendallEn); }

TEST(NewRulesets, PiccioneAgainstStandardInEnglish) { expectTable(RulesetId::Piccione, kPiccioneEn); }

TEST(NewRulesets, TheirFieldsChangeTheirOwnAspects) {
    using Aspects = std::set<std::string>;
    auto differing = [](const Ruleset& base, auto change) {
        Ruleset r = base;
        change(r);
        Aspects out;
        for (const std::string& a : ruleAspects())
            if (aspectDiffers(a, base, r)) out.insert(a);
        return out;
    };
    const Ruleset& s = ruleset(RulesetId::Standard);
    const Ruleset& j = ruleset(RulesetId::Jequier);
    EXPECT_EQ(ruleAspects().size(), 19u);
    EXPECT_EQ(differing(s, [](Ruleset& r) { r.stopSquare = 26; }), Aspects{"stop"});
    EXPECT_EQ(differing(s, [](Ruleset& r) { r.bearOffOnlySquares = bit(29) | bit(30); }), Aspects{"final"});
    EXPECT_EQ(differing(j, [](Ruleset& r) { r.bearOffOnlySquares = bit(29); }), (Aspects{"final", "backward"}));
    EXPECT_EQ(differing(j, [](Ruleset& r) { r.backwardSwaps = true; }), Aspects{"backward"});
    EXPECT_EQ(differing(j, [](Ruleset& r) { r.noBackwardSquares = bit(30); }), Aspects{"backward"});
    EXPECT_EQ(differing(s, [](Ruleset& r) { r.backwardSwaps = true; }), Aspects{});  // no backward moves at all
    EXPECT_EQ(differing(s, [](Ruleset& r) { r.entrySquare = 1; }), Aspects{"hand"});
    EXPECT_EQ(differing(s, [](Ruleset& r) { r.extraThrowSquares = bit(15); }), Aspects{"extra"});
    EXPECT_EQ(differing(s, [](Ruleset& r) { r.turnModel = TurnModel::SplitSteps; }),
              (Aspects{"split", "direction", "landing", "safe", "no-move"}));
    EXPECT_EQ(differing(s, [](Ruleset& r) { r.waterReturn = WaterReturn::ToHand; }), Aspects{"water"});

    // The words follow the fields: another stop square, other exit throws, other owed-throw squares.
    const Catalog& en = theSite().catalog("en");
    Ruleset k = ruleset(RulesetId::Kendall);
    k.stopSquare = 24;
    EXPECT_EQ(describeAspect("stop", k, en),
              "A piece on squares 1 to 23 may not move past square 24. A throw that would carry it further gives that piece no move, so every "
              "piece reaches 24 by an exact throw.");
    k.bearOffOnlySquares = bit(30);
    k.bearOffThrows[30] = (1 << 1) | (1 << 2);
    EXPECT_EQ(describeAspect("final", k, en), "A piece on squares 30 moves only off the board, never to another square: from 30 with exactly 1 or 2.");
    Ruleset p = ruleset(RulesetId::Piccione);
    p.extraThrowSquares = bit(10) | bit(15) | bit(26);
    EXPECT_EQ(describeAspect("extra", p, en),
              "A throw of 5 gives another throw after the move. A step that ends on square 10, 15 or 26, forward or backward, owes one more "
              "throw; owed throws add up and come once the current throw is spent.");
    EXPECT_EQ(describeAspect("opening", p, en), "The first player throws first.");
}

std::size_t occurrences(const std::string& haystack, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
    return n;
}

TEST(NewRulesets, DiagramsShowTheirHousesExitThrowsAndStartingBoard) {
    for (const std::string& lang : theSite().languages()) {
        const Catalog& c = theSite().catalog(lang);
        const std::string kendall = theSite().content("/" + lang + "/variants/kendall")->body;
        EXPECT_NE(kendall.find("<figure class=\"board-diagram\" data-ruleset=\"kendall\">"), std::string::npos) << lang;
        EXPECT_EQ(occurrences(kendall, "class=\"piece piece-1\""), 5u);
        EXPECT_EQ(occurrences(kendall, "class=\"piece piece-2\""), 5u);
        // Rule 8: 28 off with 3, 29 with 2, 30 with 1, in the cells and in the legend.
        EXPECT_EQ(occurrences(kendall, "class=\"diagram-exit\""), 3u) << lang;
        for (const auto& [square, value, house] : std::vector<std::tuple<int, int, std::string>>{{28, 3, "three-truths"}, {29, 2, "re-atoum"}, {30, 1, "horus"}}) {
            EXPECT_NE(kendall.find(">→" + std::to_string(value) + "</text>"), std::string::npos) << lang << " " << square;
            const std::string legend = "<li><strong>" + std::to_string(square) + "</strong> " +
                                       escapeHtml(c.get("house." + house) + " (" + c.format("learn.diagram.exit", {{"value", std::to_string(value)}}) + ")") + "</li>";
            EXPECT_NE(kendall.find(legend), std::string::npos) << lang << " " << legend;
        }
        EXPECT_NE(kendall.find("<li><strong>15</strong> " + escapeHtml(c.get("house.rebirth")) + "</li>"), std::string::npos) << lang;
        EXPECT_NE(kendall.find("<li><strong>26</strong> " + escapeHtml(c.get("house.beauty")) + "</li>"), std::string::npos) << lang;

        const std::string piccione = theSite().content("/" + lang + "/variants/piccione")->body;
        EXPECT_EQ(occurrences(piccione, "class=\"piece "), 0u) << lang;  // rule 1: every piece in hand
        EXPECT_NE(piccione.find(escapeHtml(c.format("learn.diagram.start-hand", {{"count", "5"}}))), std::string::npos) << lang;
        EXPECT_EQ(occurrences(piccione, "class=\"diagram-exit\""), 0u);
        const std::string extra = " (" + c.get("learn.diagram.extra") + ")";
        EXPECT_NE(piccione.find("<li><strong>15</strong> " + escapeHtml(c.get("house.ankh") + extra) + "</li>"), std::string::npos) << lang;
        EXPECT_NE(piccione.find("<li><strong>26</strong> " + escapeHtml(c.get("house.nefer") + extra) + "</li>"), std::string::npos) << lang;
        for (const auto& [square, house] : std::vector<std::pair<int, std::string>>{{27, "water"}, {28, "three-birds"}, {29, "two-men"}, {30, "horus"}})
            EXPECT_NE(piccione.find("<li><strong>" + std::to_string(square) + "</strong> " + escapeHtml(c.get("house." + house)) + "</li>"), std::string::npos)
                << lang << " " << square;
        // Each named square has its mark in the cell.
        EXPECT_EQ(occurrences(piccione, "class=\"diagram-house\""), 6u);
        EXPECT_EQ(occurrences(kendall, "class=\"diagram-house\""), 6u);
    }
}

TEST(NewRulesets, PagesInEveryLanguage) {
    for (const std::string& lang : theSite().languages()) {
        const Catalog& c = theSite().catalog(lang);
        for (const std::string key : {"kendall", "piccione"}) {
            const auto page = theSite().content("/" + lang + "/variants/" + key);
            ASSERT_TRUE(page) << lang << " " << key;
            const std::string& body = page->body;
            EXPECT_NE(body.find("<h1>" + escapeHtml(c.get(key + ".title")) + "</h1>"), std::string::npos) << lang << " " << key;
            EXPECT_NE(body.find("<p class=\"lede\">" + escapeHtml(c.get(key + ".summary")) + "</p>"), std::string::npos);
            EXPECT_EQ(c.keysWithPrefix(key + ".rules.").size(), 4u);
            EXPECT_EQ(c.keysWithPrefix(key + ".history.").size(), 3u);
            for (const std::string& k : c.keysWithPrefix(key + ".history."))
                EXPECT_NE(body.find("<p>" + escapeHtml(c.get(k)) + "</p>"), std::string::npos) << lang << " " << k;
            EXPECT_EQ(pageRows(lang, key).size(), key == std::string("kendall") ? kKendallEn.size() : kPiccioneEn.size()) << lang;
            // Not offered for play yet: no "Play this variant" button.
            EXPECT_EQ(body.find(escapeHtml(c.get("variant.play"))) != std::string::npos, isOffered(*rulesetByKey(key))) << lang;
            // The rules page lists every variant page.
            const std::string rules = theSite().content("/" + lang + "/rules")->body;
            EXPECT_NE(rules.find("<a href=\"/" + lang + "/variants/" + key + "\">" + escapeHtml(c.get("ruleset." + key)) + "</a>"), std::string::npos);
        }
        // Sources named in every language: Kendall's booklet, Piccione's article and the Cadaco game.
        EXPECT_NE(c.get("kendall.history.1").find("Passing Through the Netherworld"), std::string::npos) << lang;
        EXPECT_NE(c.get("kendall.history.2").find("181"), std::string::npos) << lang;  // the solved implementation's throws a game
        EXPECT_NE(c.get("piccione.history.1").find("In Search of the Meaning of Senet"), std::string::npos) << lang;
        EXPECT_NE(c.get("piccione.history.1").find("Cadaco"), std::string::npos) << lang;
        EXPECT_NE(c.get("piccione.history.2").find("Piccione (Scholarly)"), std::string::npos) << lang;
        // Kendall's tutorial page exists (its lessons are web/src/learn/lessons/kendall.ts); its variant page links it.
        EXPECT_TRUE(theSite().content("/" + lang + "/learn/kendall")) << lang;
        EXPECT_NE(theSite().content("/" + lang + "/variants/kendall")->body.find("href=\"/" + lang + "/learn/kendall\""), std::string::npos);
        // The header's variants link is the rules page's list of every variant, current on a variant page.
        const std::string variantsLink = "<li><a href=\"/" + lang + "/rules#variants-title\"";
        const std::string piccionePage = theSite().content("/" + lang + "/variants/piccione")->body;
        EXPECT_NE(piccionePage.find(variantsLink + " aria-current=\"page\">" + escapeHtml(c.get("nav.variants")) + "</a>"), std::string::npos) << lang;
        EXPECT_NE(theSite().content("/" + lang + "/rules")->body.find(variantsLink + ">"), std::string::npos) << lang;
        EXPECT_NE(theSite().content("/" + lang + "/rules")->body.find("id=\"variants-title\""), std::string::npos) << lang;
        // Piccione's tutorial too (web/src/learn/lessons/piccione.ts).
        EXPECT_TRUE(theSite().content("/" + lang + "/learn/piccione")) << lang;
        EXPECT_NE(theSite().content("/" + lang + "/variants/piccione")->body.find("href=\"/" + lang + "/learn/piccione\""), std::string::npos);
        // Every tutorial lists Kendall's; its last step offers a game only once Kendall is offered for play.
        const std::string learn = theSite().content("/" + lang + "/learn/standard")->body;
        EXPECT_NE(learn.find("<li><a href=\"/" + lang + "/learn/kendall\">" + escapeHtml(c.get("ruleset.kendall")) + "</a></li>"), std::string::npos) << lang;
        const std::string kendallLearn = theSite().content("/" + lang + "/learn/kendall")->body;
        EXPECT_EQ(kendallLearn.find("<p class=\"cta-block\" hidden><button type=\"button\" class=\"button primary\" id=\"learn-play\"") != std::string::npos,
                  !isOffered(RulesetId::Kendall)) << lang;
        EXPECT_NE(learn.find("<p class=\"cta-block\"><button type=\"button\" class=\"button primary\" id=\"learn-play\""), std::string::npos) << lang;
    }
}

TEST(NewRulesets, ASampleOfCellsInOtherLanguages) {
    const std::vector<std::tuple<std::string, std::string, std::string, std::string>> samples{
        {"nl", "kendall", "stop", "Een stuk op de vakken 1 tot en met 25 mag niet voorbij vak 26 (Huis van de Schoonheid). Een worp die het verder zou brengen, geeft dat stuk geen zet; elk stuk bereikt 26 dus met een precieze worp."},
        {"de", "piccione", "water", "Feld 27. Ein Stein, der dort landet, geht zurück in die Hand und muss neu ins Spiel kommen."},
        {"ar", "piccione", "extra", "رمية 5 تمنح رمية أخرى بعد النقلة. الخطوة التي تنتهي على الخانة 15 أو 26، إلى الأمام أو إلى الوراء، تمنح رمية أخرى؛ وتتراكم هذه الرميات وتأتي بعد أن تُستهلك الرمية الجارية."},
        {"fr", "kendall", "final", "Un pion des cases 28 à 30 ne peut que sortir du plateau, jamais aller sur une autre case\u00a0: depuis la case 28 avec exactement 3, depuis la case 29 avec exactement 2 et depuis la case 30 avec exactement 1."},
    };
    for (const auto& [lang, variant, aspect, text] : samples) {
        auto rows = pageRows(lang, variant);
        ASSERT_TRUE(rows.count(aspect)) << lang << " " << variant << " " << aspect;
        EXPECT_EQ(rows[aspect][2], escapeHtml(text)) << lang << " " << variant << " " << aspect;
    }
}

}  // namespace
