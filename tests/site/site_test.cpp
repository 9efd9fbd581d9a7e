// The site renderer: every catalog complete, every page rendered in every language with no
// missing string, and rule-change tables that follow the ruleset data.
#include <gtest/gtest.h>

#include "senet/site.hpp"
#include "senet/site_catalog.hpp"
#include "senet/site_message.hpp"
#include "senet/site_rules.hpp"
#include "the_site.hpp"

using namespace senet;
using namespace senet::site;

namespace {

using senet::sitetest::theSite;

const std::vector<std::string> kPages{"", "rules", "variants/jequier", "variants/bell", "variants/kendall", "variants/piccione", "fairness", "learn/kendall"};

}  // namespace

TEST(Catalog, ParsesEscapesAndMultiLineStrings) {
    const Catalog c = Catalog::parse(
        "# comment\nmsgid \"\"\nmsgstr \"Language: en\\n\"\n\n"
        "msgid \"a\"\nmsgstr \"\"\n\"one \\\"two\\\"\\n\"\n\"three\\\\\"\n\n"
        "msgid \"b\"\nmsgstr \"{x} and {y}\"\n",
        "en");
    EXPECT_EQ(c.get("a"), "one \"two\"\nthree\\");
    EXPECT_EQ(c.format("b", {{"x", "1"}, {"y", "2"}}), "1 and 2");
    EXPECT_FALSE(c.has(""));
    EXPECT_THROW(Catalog::parse("msgid \"a\"\nmsgstr \"bad \\q\"\n", "en"), std::runtime_error);
    EXPECT_THROW(Catalog::parse("msgid \"a\"\n", "en"), std::runtime_error);
}

// Found by fuzz/catalog_fuzz.cpp (corpus: fuzz/corpus/catalog/crash-long-number-key): a key with
// a number too long for a long made keysWithPrefix throw std::out_of_range while sorting.
TEST(Catalog, KeysSortNumbersOfAnyLength) {
    const Catalog c = Catalog::parse(
        "msgid \"a.10\"\nmsgstr \"x\"\n\nmsgid \"a.2\"\nmsgstr \"x\"\n\n"
        "msgid \"a.99999999999999999999\"\nmsgstr \"x\"\n\nmsgid \"a.000123456789012345678901\"\nmsgstr \"x\"\n\n"
        "msgid \"a.3b\"\nmsgstr \"x\"\n",
        "en");
    std::vector<std::string> keys;
    EXPECT_NO_THROW(keys = c.keysWithPrefix("a."));
    const std::vector<std::string> expected{"a.2", "a.3b", "a.10", "a.99999999999999999999", "a.000123456789012345678901"};
    EXPECT_EQ(keys, expected);
}

TEST(Catalog, EveryLanguageTranslatesEveryKey) {
    const Catalog& en = theSite().catalog("en");
    ASSERT_GT(en.entries().size(), 200u);
    for (const std::string& lang : theSite().languages()) {
        const Catalog own = Catalog::load(std::string(SENET_WEB_ROOT) + "/po/" + lang + ".po", lang);
        for (const auto& [key, text] : en.entries()) EXPECT_TRUE(own.has(key)) << lang << " lacks " << key;
        for (const auto& [key, text] : own.entries()) EXPECT_TRUE(en.has(key)) << lang << " has unknown key " << key;
        // Every argument of the English message is used by the translation too (by ICU's parse:
        // a one-word select branch such as "other {Computer}" is text, not an argument).
        for (const auto& [key, text] : en.entries()) {
            if (!own.has(key)) continue;
            const auto ownArgs = messageArguments(own.get(key));
            for (const auto& [name, arg] : messageArguments(text))
                EXPECT_TRUE(ownArgs.contains(name)) << lang << " " << key << " lacks {" << name << "}";
        }
    }
}

TEST(Site, EveryPageRendersInEveryLanguage) {
    const Site& site = theSite();
    for (const std::string& lang : site.languages()) {
        for (const std::string& page : kPages) {
            const auto p = site.content("/" + lang + "/" + page);
            ASSERT_TRUE(p) << lang << "/" << page;
            EXPECT_EQ(p->status, 200);
            EXPECT_NE(p->body.find("<html lang=\"" + lang + "\""), std::string::npos);
            EXPECT_EQ(p->body.find("\u27E6"), std::string::npos) << "missing string in /" << lang << "/" << page;
            EXPECT_EQ(p->body.find("style="), std::string::npos) << "inline style in /" << lang << "/" << page;
            EXPECT_EQ(p->body.find("<script>"), std::string::npos) << "inline script in /" << lang << "/" << page;
            for (const std::string& other : site.languages())
                EXPECT_NE(p->body.find("hreflang=\"" + other + "\" href=\"/" + other + "/" + page + "\""), std::string::npos);
            EXPECT_NE(p->body.find("v0.1.0 · 0123456"), std::string::npos);
        }
        const Page play = site.play(lang, "abc123", RulesetId::Bell);
        EXPECT_NE(play.body.find("data-game=\"abc123\""), std::string::npos);
        EXPECT_NE(play.body.find("data-ruleset=\"bell\""), std::string::npos);
        EXPECT_EQ(play.body.find("\u27E6"), std::string::npos);
        EXPECT_EQ(play.body.find("style="), std::string::npos);
        // The replay pages: the board facts of every ruleset (the record names its own), all strings there.
        for (const std::string id : {"abc123", ""}) {
            const Page replay = site.replay(lang, id);
            EXPECT_EQ(replay.status, 200);
            EXPECT_NE(replay.body.find("data-game=\"" + id + "\""), std::string::npos);
            for (const char* key : {"standard", "jequier", "bell"})
                EXPECT_NE(replay.body.find(std::string("&quot;") + key + "&quot;:{&quot;ruleset&quot;"), std::string::npos) << lang << " " << key;
            EXPECT_EQ(replay.body.find("\u27E6"), std::string::npos) << lang;
            EXPECT_EQ(replay.body.find("style="), std::string::npos);
            EXPECT_EQ(replay.body.find("id=\"record-file\"") != std::string::npos, id.empty()) << lang;
        }
        for (ErrorKind k : {ErrorKind::NotFound, ErrorKind::GameUnknown, ErrorKind::GameExpired, ErrorKind::GameFull, ErrorKind::BadRequest}) {
            const Page e = site.error(lang, k);
            EXPECT_GE(e.status, 400);
            EXPECT_EQ(e.body.find("\u27E6"), std::string::npos);
        }
    }
    EXPECT_TRUE(site.missingStrings().empty()) << site.missingStrings().front();
    EXPECT_FALSE(site.content("/pt/"));
    EXPECT_FALSE(site.content("/en/nothing"));
}

TEST(Site, FairnessOddsArePercentagesAsEachLanguageWritesThem) {
    // A throw of 2 with the sticks: 6 of 16 patterns, 37.5 percent, written by CLDR's percent
    // pattern of each language: no space in English, Dutch, Italian and Polish, a no-break space
    // in Finnish.
    const Site& site = theSite();
    const std::vector<std::pair<std::string, std::string>> expected{
        {"en", "37.5%"}, {"nl", "37,5%"}, {"fi", "37,5\u00A0%"}, {"it", "37,5%"}, {"pl", "37,5%"}};
    for (const auto& [lang, text] : expected) {
        const std::string body = site.content("/" + lang + "/fairness")->body;
        EXPECT_NE(body.find(">" + text + "<"), std::string::npos) << lang << ": " << text;
        if (lang != "fi") EXPECT_EQ(body.find("\u00A0%"), std::string::npos) << lang;
        if (lang != "en") EXPECT_EQ(body.find("37.5"), std::string::npos) << lang;
    }
}

TEST(Site, NegotiatesTheLanguage) {
    const Site& site = theSite();
    EXPECT_EQ(site.negotiate(""), "en");
    EXPECT_EQ(site.negotiate("nl-NL,nl;q=0.9,en;q=0.8"), "nl");
    EXPECT_EQ(site.negotiate("pt-PT,fi;q=0.5,pl;q=0.7"), "pl");
    EXPECT_EQ(site.negotiate("it"), "it");
    EXPECT_EQ(site.negotiate("pt, sv"), "en");
    EXPECT_EQ(site.negotiate("en;q=0.1, FI"), "fi");
}

TEST(RuleChanges, VariantTablesListExactlyTheDifferingAspects) {
    const Catalog& en = theSite().catalog("en");
    const Ruleset& standard = ruleset(RulesetId::Standard);
    auto aspects = [&](const Ruleset& r) {
        std::vector<std::string> out;
        for (const RuleChange& row : ruleChanges(standard, r, en)) out.push_back(row.aspect);
        return out;
    };
    EXPECT_EQ(aspects(ruleset(RulesetId::Jequier)),
              (std::vector<std::string>{"opening", "throws", "extra", "blockade", "safe", "water", "houses", "backward", "no-move", "bear-off"}));
    EXPECT_EQ(aspects(ruleset(RulesetId::Bell)),
              (std::vector<std::string>{"setup", "throws", "extra", "landing", "safe", "houses", "compulsion", "bear-off", "win"}));
    EXPECT_TRUE(aspects(standard).empty());
}

TEST(RuleChanges, CellsFollowTheRulesetFields) {
    const Catalog& en = theSite().catalog("en");
    const Ruleset& standard = ruleset(RulesetId::Standard);
    EXPECT_EQ(describeAspect("extra", standard, en), "A throw of 1, 4 or 5 gives another throw after the move.");
    EXPECT_EQ(describeAspect("extra", ruleset(RulesetId::Jequier), en), "A throw of 1, 4 or 6 gives another throw after the move.");
    EXPECT_EQ(describeAspect("bear-off", standard, en),
              "From square 27 or beyond, with a throw that carries the piece past square 30; from square 29 only with 3 and "
              "from square 30 only with 2.");
    EXPECT_EQ(describeAspect("safe", ruleset(RulesetId::Jequier), en),
              "Squares 26, 28, 29 and 30. Also any piece with a piece of its own colour next to it.");
    EXPECT_EQ(describeAspect("bear-off", ruleset(RulesetId::Bell), en),
              "Only with the exact throw that carries the piece off the board: 4 from square 27 (marked X), 3 from square 28 "
              "(marked III), 2 from square 29 (marked II) and 1 from square 30 (marked I).");

    // Change the data and the table changes with it.
    Ruleset edited = ruleset(RulesetId::Jequier);
    edited.blockadeLength = 4;
    edited.waterSquare = 25;
    edited.extraThrowAfter = (1 << 1) | (1 << 6);
    std::map<std::string, RuleChange> rows;
    for (const RuleChange& row : ruleChanges(standard, edited, en)) rows[row.aspect] = row;
    EXPECT_EQ(rows["blockade"].variant, "A piece may not jump over 4 or more opponent pieces standing in a row, either forward or backward.");
    EXPECT_EQ(rows["water"].variant, "Square 25. A piece that lands there goes back to the first empty square of the board.");
    EXPECT_EQ(rows["extra"].variant, "A throw of 1 or 6 gives another throw after the move.");
    edited.blockadeLength = 0;
    for (const RuleChange& row : ruleChanges(standard, edited, en)) EXPECT_NE(row.aspect, "blockade");
}

TEST(RuleChanges, PagesShowTheGeneratedTable) {
    for (const std::string& lang : theSite().languages()) {
        const Catalog& c = theSite().catalog(lang);
        const std::string body = theSite().content("/" + lang + "/variants/jequier")->body;
        for (const RuleChange& row : ruleChanges(ruleset(RulesetId::Standard), ruleset(RulesetId::Jequier), c)) {
            EXPECT_NE(body.find("data-aspect=\"" + row.aspect + "\""), std::string::npos);
            EXPECT_NE(body.find(escapeHtml(row.variant)), std::string::npos) << lang << " " << row.aspect;
        }
    }
}

// The tutorial's pages (/{lang}/learn/{ruleset}) and the board diagram of the rules and variant pages.
namespace {
std::size_t occurrences(const std::string& haystack, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
    return n;
}
}  // namespace

TEST(Learn, EveryRulesetHasATutorialPageInEveryLanguage) {
    for (const std::string& lang : theSite().languages()) {
        const Catalog& c = theSite().catalog(lang);
        for (const std::string key : {"standard", "jequier", "bell"}) {
            const auto page = theSite().content("/" + lang + "/learn/" + key);
            ASSERT_TRUE(page) << lang << " " << key;
            EXPECT_NE(page->body.find("data-ruleset=\"" + key + "\""), std::string::npos);
            EXPECT_NE(page->body.find(escapeHtml(c.format("learn.heading", {{"ruleset", c.get("ruleset." + key)}}))), std::string::npos);
            EXPECT_NE(page->body.find("id=\"lesson-board\" dir=\"ltr\""), std::string::npos) << lang;
            EXPECT_NE(page->body.find("role=\"status\" aria-live=\"polite\""), std::string::npos);
        }
        EXPECT_FALSE(theSite().content("/" + lang + "/learn/chess"));
        EXPECT_FALSE(theSite().content("/" + lang + "/learn"));
    }
}

TEST(Learn, RulesAndVariantPagesShowTheBoardDiagramAndLinkTheTutorial) {
    for (const std::string& lang : theSite().languages()) {
        const Catalog& c = theSite().catalog(lang);
        for (const auto& [path, key] : std::vector<std::pair<std::string, std::string>>{
                 {"rules", "standard"}, {"variants/jequier", "jequier"}, {"variants/bell", "bell"}}) {
            const std::string body = theSite().content("/" + lang + "/" + path)->body;
            EXPECT_NE(body.find("<figure class=\"board-diagram\" data-ruleset=\"" + key + "\">"), std::string::npos) << lang << " " << path;
            EXPECT_NE(body.find("<svg dir=\"ltr\" direction=\"ltr\" role=\"img\""), std::string::npos);
            EXPECT_NE(body.find("<title id=\"diagram-title\">" + escapeHtml(c.format("learn.diagram.title", {{"ruleset", c.get("ruleset." + key)}})) + "</title>"),
                      std::string::npos) << lang << " " << path;
            EXPECT_NE(body.find("<desc id=\"diagram-desc\">" + escapeHtml(c.get("learn.diagram.path"))), std::string::npos);
            EXPECT_EQ(occurrences(body, "class=\"diagram-cell"), 30u);
            EXPECT_EQ(occurrences(body, "class=\"piece piece-1\""), key == "bell" ? 10u : 5u);
            EXPECT_EQ(occurrences(body, "class=\"piece piece-2\""), key == "bell" ? 10u : 5u);
            // The houses' signs are drawn (the board's paths), not letters or symbols of a font.
            EXPECT_NE(body.find("<g class=\"diagram-house\" data-sign=\""), std::string::npos) << lang << " " << path;
            EXPECT_EQ(body.find("<text class=\"diagram-house\""), std::string::npos) << lang << " " << path;
            for (const char* glyph : {"\u2625", "\u2248", "\u2609", "\u21BA", ">III<"}) EXPECT_EQ(body.find(glyph), std::string::npos) << glyph;
            EXPECT_NE(body.find("href=\"/" + lang + "/learn/" + key + "\""), std::string::npos);
        }
        // The houses the ruleset names: Jéquier's water is 27, the standard game's 28.
        EXPECT_NE(theSite().content("/" + lang + "/variants/jequier")->body.find("<li><strong>27</strong> " + escapeHtml(c.get("house.water")) + "</li>"),
                  std::string::npos) << lang;
        EXPECT_NE(theSite().content("/" + lang + "/rules")->body.find("<li><strong>28</strong> " + escapeHtml(c.get("house.water")) + "</li>"),
                  std::string::npos) << lang;
    }
}
