// Rule-change tables compared with words written here, not with the function that makes them:
// every row of Jéquier's and Bell's table against standard in English (checked by hand against
// the rules specification), and a sample of cells in each other language (the catalogs' wording
// with the ruleset's numbers filled in), both from ruleChanges() and from the rendered variant
// pages (which column holds which text).
#include <gtest/gtest.h>

#include <map>
#include <regex>

#include "senet/site.hpp"
#include "senet/site_catalog.hpp"
#include "senet/site_rules.hpp"
#include "the_site.hpp"

using namespace senet;
using namespace senet::site;

namespace {

using senet::sitetest::theSite;

/// One row of a table: the aspect, its label, the standard cell and the variant cell.
struct Row {
    std::string aspect, label, standard, variant;
};

/// One cell in another language: the language, the variant page, the row, which column.
struct Sample {
    std::string lang, variant, aspect;
    bool variantColumn;
    std::string text;
};

const std::vector<Row> kJequierEn{
    {"opening", "Who starts",
     "The first player starts, with the pieces on squares 1, 3, 5, 7 and 9.",
     "The players take turns throwing until someone throws a 1. That player takes the pieces on squares 2, 4, 6, 8 and 10, moves the piece on 10 to 11 and throws again."},
    {"throws", "Throws",
     "Four throwing sticks: count the sticks that land marked side up, 1 to 4; none up counts 5.",
     "Four throwing sticks: count the sticks that land marked side up, 1 to 4; none up counts 6."},
    {"extra", "Extra throws",
     "A throw of 1, 4 or 5 gives another throw after the move.",
     "A throw of 1, 4 or 6 gives another throw after the move."},
    {"blockade", "Blockades",
     "None: a piece may jump over any number of pieces.",
     "A piece may not jump over 3 or more opponent pieces standing in a row, either forward or backward."},
    {"safe", "Safe squares",
     "Squares 27 to 30. Also any piece with a piece of its own colour next to it.",
     "Squares 26, 28, 29 and 30. Also any piece with a piece of its own colour next to it."},
    {"water", "House of Water",
     "Square 28. A piece that lands there goes back to square 15, or to the nearest empty square before it.",
     "Square 27. A piece that lands there goes back to the first empty square of the board."},
    {"houses", "Marked squares",
     "15: return square, 27: House of Beauty, 28: House of Water, 29: House of the Three Truths and 30: House of Re-Atoum.",
     "26: House of Beauty and 27: House of Water."},
    {"backward", "Moving backward",
     "Never: pieces only move forward.",
     "When no piece can move forward, you must move one backward by the throw, onto an empty square."},
    {"no-move", "No legal move",
     "You pass, and a throw of 1, 4 or 5 still gives another throw.",
     "The turn is lost, even after a throw of 1, 4 or 6."},
    {"bear-off", "Bearing off",
     "From square 27 or beyond, with a throw that carries the piece past square 30; from square 29 only with 3 and from square 30 only with 2.",
     "By reaching square 30 or passing it, with any throw. Only when all your pieces still on the board stand on squares 21 to 30."},
};
const std::vector<Row> kBellEn{
    {"setup", "Pieces and setup",
     "5 pieces each, alternating on squares 1 to 10: the first player's on the odd squares, the second player's on the even squares.",
     "10 pieces each, alternating on squares 1 to 20: the first player's on the odd squares, the second player's on the even squares."},
    {"throws", "Throws",
     "Four throwing sticks: count the sticks that land marked side up, 1 to 4; none up counts 5.",
     "One four-sided stick die, showing 1, 2, 3 or 4."},
    {"extra", "Extra throws",
     "A throw of 1, 4 or 5 gives another throw after the move.",
     "None: the turn passes after every move."},
    {"landing", "Landing on an opponent",
     "The two pieces swap places, unless the opponent's piece has a piece of its own colour next to it.",
     "The opponent's piece is captured and leaves the game for good. Neighbours give no protection."},
    {"safe", "Safe squares",
     "Squares 27 to 30. Also any piece with a piece of its own colour next to it.",
     "Squares 26 to 30."},
    {"houses", "Marked squares",
     "15: return square, 27: House of Beauty, 28: House of Water, 29: House of the Three Truths and 30: House of Re-Atoum.",
     "26: House of Beauty, 27: marked X, 28: marked III, 29: marked II and 30: marked I. There is no House of Water."},
    {"compulsion", "Forced moves",
     "You may move any piece that can move.",
     "If a piece on squares 26 to 30 can move, you must move one of those pieces."},
    {"bear-off", "Bearing off",
     "From square 27 or beyond, with a throw that carries the piece past square 30; from square 29 only with 3 and from square 30 only with 2.",
     "Only with the exact throw that carries the piece off the board: 4 from square 27 (marked X), 3 from square 28 (marked III), 2 from square 29 (marked II) and 1 from square 30 (marked I)."},
    {"win", "Winning",
     "The first to bear off all 5 pieces wins.",
     "Each piece borne off scores a point. The game ends as soon as the result is certain; equal scores are a draw."},
};

const std::vector<Sample> kSamples{
    {"nl", "jequier", "extra", true, "Een worp van 1, 4 of 6 geeft na de zet nog een worp."},
    {"nl", "jequier", "water", true, "Vak 27. Een stuk dat daar landt, gaat terug naar het eerste lege vak van het bord."},
    {"nl", "jequier", "no-move", false, "Je past, en een worp van 1, 4 of 5 geeft toch nog een worp."},
    {"nl", "bell", "landing", true, "Het stuk van de tegenstander wordt geslagen en is definitief uit het spel. Buren beschermen niet."},
    {"nl", "bell", "safe", false, "De vakken 27 tot en met 30. Ook een stuk met een stuk van dezelfde kleur ernaast is veilig."},
    {"nl", "bell", "win", true, "Elk uitgespeeld stuk is een punt. Het spel stopt zodra de uitslag vaststaat; gelijke scores betekenen gelijkspel."},
    {"fi", "jequier", "extra", true, "Heitto 1, 4 tai 6 antaa siirron jälkeen uuden heiton."},
    {"fi", "jequier", "water", true, "Ruutu 27. Siihen pysähtyvä nappula palaa laudan ensimmäiseen tyhjään ruutuun."},
    {"fi", "jequier", "no-move", false, "Ohitat vuoron, ja heitto 1, 4 tai 5 antaa silti uuden heiton."},
    {"fi", "bell", "landing", true, "Vastustajan nappula lyödään ja se poistuu pelistä lopullisesti. Naapurit eivät suojaa."},
    {"fi", "bell", "safe", false, "Ruudut 27–30. Lisäksi jokainen nappula, jonka vieressä on samanvärinen nappula."},
    {"fi", "bell", "win", true, "Jokainen pois viety nappula on piste. Peli päättyy heti, kun tulos on varma; tasapisteet ovat tasapeli."},
    {"it", "jequier", "extra", true, "Un lancio di 1, 4 o 6 dà un altro lancio dopo la mossa."},
    {"it", "jequier", "water", true, "Casella 27. Una pedina che ci finisce torna alla prima casella libera della tavola."},
    {"it", "jequier", "no-move", false, "Passi, e un lancio di 1, 4 o 5 dà comunque un altro lancio."},
    {"it", "bell", "landing", true, "La pedina avversaria viene catturata ed esce dal gioco per sempre. I vicini non proteggono."},
    {"it", "bell", "safe", false, "Le caselle da 27 a 30. Inoltre è protetta ogni pedina che ha accanto una pedina del suo colore."},
    {"it", "bell", "win", true, "Ogni pedina uscita vale un punto. La partita finisce appena il risultato è certo; a parità di punteggio è pareggio."},
    {"pl", "jequier", "extra", true, "Rzut 1, 4 lub 6 daje po ruchu kolejny rzut."},
    {"pl", "jequier", "water", true, "Pole 27. Pionek, który na nim stanie, wraca na pierwsze wolne pole planszy."},
    {"pl", "jequier", "no-move", false, "Pasujesz, a rzut 1, 4 lub 5 i tak daje kolejny rzut."},
    {"pl", "bell", "landing", true, "Pionek przeciwnika zostaje zbity i na dobre opuszcza grę. Sąsiedzi nie chronią."},
    {"pl", "bell", "safe", false, "Pola 27–30. Także każdy pionek, obok którego stoi pionek jego koloru."},
    {"pl", "bell", "win", true, "Każdy wyprowadzony pionek to punkt. Gra kończy się, gdy tylko wynik jest przesądzony; równe wyniki oznaczają remis."},
};

/// The rows of a rendered variant page's table, by aspect: {label, standard cell, variant cell},
/// as HTML text.
std::map<std::string, std::vector<std::string>> pageRows(const std::string& lang, const std::string& variant) {
    const auto page = theSite().content("/" + lang + "/variants/" + variant);
    EXPECT_TRUE(page) << lang << " " << variant;
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
        EXPECT_EQ(rows[i].label, expected[i].label) << expected[i].aspect;
        EXPECT_EQ(rows[i].standard, expected[i].standard) << expected[i].aspect;
        EXPECT_EQ(rows[i].variant, expected[i].variant) << expected[i].aspect;
    }
    // The page shows the same words in the same columns.
    auto page = pageRows("en", std::string(ruleset(id).key));
    EXPECT_EQ(page.size(), expected.size());
    for (const Row& r : expected) {
        ASSERT_TRUE(page.count(r.aspect)) << r.aspect;
        EXPECT_EQ(page[r.aspect][0], escapeHtml(r.label)) << r.aspect;
        EXPECT_EQ(page[r.aspect][1], escapeHtml(r.standard)) << r.aspect;
        EXPECT_EQ(page[r.aspect][2], escapeHtml(r.variant)) << r.aspect;
    }
}

TEST(RuleChangeWords, JequierAgainstStandardInEnglish) { expectTable(RulesetId::Jequier, kJequierEn); }

TEST(RuleChangeWords, BellAgainstStandardInEnglish) { expectTable(RulesetId::Bell, kBellEn); }

TEST(RuleChangeWords, ASampleOfCellsInEveryOtherLanguage) {
    std::map<std::string, int> perLanguage;
    for (const Sample& s : kSamples) {
        const RulesetId id = s.variant == "bell" ? RulesetId::Bell : RulesetId::Jequier;
        const Catalog& c = theSite().catalog(s.lang);
        bool found = false;
        for (const RuleChange& row : ruleChanges(ruleset(RulesetId::Standard), ruleset(id), c))
            if (row.aspect == s.aspect) {
                found = true;
                EXPECT_EQ(s.variantColumn ? row.variant : row.standard, s.text) << s.lang << " " << s.variant << " " << s.aspect;
            }
        EXPECT_TRUE(found) << s.lang << " " << s.variant << " " << s.aspect;
        auto page = pageRows(s.lang, s.variant);
        ASSERT_TRUE(page.count(s.aspect)) << s.lang << " " << s.variant << " " << s.aspect;
        EXPECT_EQ(page[s.aspect][s.variantColumn ? 2 : 1], escapeHtml(s.text)) << s.lang << " " << s.variant << " " << s.aspect;
        ++perLanguage[s.lang];
    }
    EXPECT_EQ(perLanguage, (std::map<std::string, int>{{"fi", 6}, {"it", 6}, {"nl", 6}, {"pl", 6}}));
    // A label in each language.
    const std::map<std::string, std::string> waterLabel{
        {"nl", "Huis van het Water"}, {"fi", "Veden talo"}, {"it", "Casa dell'Acqua"}, {"pl", "Dom Wody"}};
    for (const auto& [lang, label] : waterLabel) EXPECT_EQ(pageRows(lang, "jequier")["water"][0], escapeHtml(label)) << lang;
}

}  // namespace
