// The site's languages: the list in web/po/languages.txt with each language's writing direction,
// Accept-Language negotiation with region fallbacks and q-values, right-to-left pages, and the
// language switcher and hreflang alternates with every language.
#include <gtest/gtest.h>

#include <algorithm>

#include "senet/site.hpp"
#include "senet/site_catalog.hpp"
#include "senet/site_message.hpp"
#include "the_site.hpp"

using namespace senet;
using namespace senet::site;

namespace {

using senet::sitetest::theSite;

const std::vector<std::string> kPages{"", "rules", "variants/jequier", "variants/bell", "fairness", "learn/standard", "learn/jequier", "learn/bell"};

std::size_t count(const std::string& haystack, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
    return n;
}

}  // namespace

TEST(Languages, TheNineLanguagesEnglishFirst) {
    const std::vector<std::string> expected{"en", "ar", "de", "es", "fi", "fr", "it", "nl", "pl"};
    EXPECT_EQ(theSite().languages(), expected);
}

TEST(Languages, DirectionIsAPropertyOfTheLanguage) {
    const Site& site = theSite();
    EXPECT_EQ(site.direction("ar"), "rtl");
    for (const std::string& lang : site.languages())
        if (lang != "ar") EXPECT_EQ(site.direction(lang), "ltr") << lang;
    EXPECT_EQ(site.direction("xx"), "ltr");
}

TEST(Languages, NegotiationFallsBackFromRegionsToTheLanguage) {
    const Site& site = theSite();
    EXPECT_EQ(site.negotiate("de-AT"), "de");
    EXPECT_EQ(site.negotiate("de-CH,de;q=0.9,en;q=0.8"), "de");
    EXPECT_EQ(site.negotiate("ar-EG,ar;q=0.9"), "ar");
    EXPECT_EQ(site.negotiate("ar-eg"), "ar");
    EXPECT_EQ(site.negotiate("fr-CA"), "fr");
    EXPECT_EQ(site.negotiate("es-419,es;q=0.9"), "es");
    EXPECT_EQ(site.negotiate("es-MX"), "es");
    EXPECT_EQ(site.negotiate("pt"), "en");
    EXPECT_EQ(site.negotiate("pt-BR,pt;q=0.9"), "en");
    EXPECT_EQ(site.negotiate("*"), "en");
}

TEST(Languages, NegotiationHonoursQValues) {
    const Site& site = theSite();
    EXPECT_EQ(site.negotiate("pt-BR, fr;q=0.4, de-AT;q=0.7"), "de");
    EXPECT_EQ(site.negotiate("en;q=0.5, ar-SA;q=0.6"), "ar");
    EXPECT_EQ(site.negotiate("es;q=0.8, fr-BE;q=0.8"), "es");  // a tie: the earlier range wins
    EXPECT_EQ(site.negotiate("fr;q=0, es;q=0.1"), "es");        // q=0: not acceptable
    EXPECT_EQ(site.negotiate("fr;q=0"), "en");
    EXPECT_EQ(site.negotiate("fr;Q=0.3, de;q=0.2"), "fr");
    EXPECT_EQ(site.negotiate("fr;q=bad, it;q=0.2"), "it");
    EXPECT_EQ(site.negotiate(",,;q=,de-;;q=1"), "de");
}

TEST(Languages, RightToLeftPagesSayItOnTheHtmlElement) {
    const Site& site = theSite();
    for (const std::string& lang : site.languages()) {
        const std::string dir = lang == "ar" ? "rtl" : "ltr";
        const std::string html = "<html lang=\"" + lang + "\" dir=\"" + dir + "\">";
        for (const std::string& page : kPages)
            EXPECT_NE(site.content("/" + lang + "/" + page)->body.find(html), std::string::npos) << lang << "/" << page;
        EXPECT_NE(site.play(lang, "abc123", RulesetId::Standard).body.find(html), std::string::npos) << lang;
        EXPECT_NE(site.error(lang, ErrorKind::NotFound).body.find(html), std::string::npos) << lang;
        // The board keeps its historical left-to-right layout in every language.
        EXPECT_NE(site.play(lang, "abc123", RulesetId::Standard).body.find("id=\"board\" dir=\"ltr\""), std::string::npos) << lang;
    }
}

TEST(Languages, TheRulesPageSaysTheBoardKeepsItsOrientationWhenRightToLeft) {
    const Site& site = theSite();
    for (const std::string& lang : site.languages()) {
        const std::string note = escapeHtml(site.catalog(lang).get("rules.rtl-board"));
        ASSERT_FALSE(note.empty());
        const bool shown = site.content("/" + lang + "/rules")->body.find(note) != std::string::npos;
        EXPECT_EQ(shown, site.direction(lang) == "rtl") << lang;
    }
    EXPECT_EQ(site.catalog("en").get("rules.rtl-board"),
              "The board keeps its historical orientation: the path starts in the top left corner and runs from left to right "
              "along the first row, also on pages that read from right to left.");
}

TEST(Languages, SwitcherNamesEachLanguageInItsOwnWords) {
    const Site& site = theSite();
    for (const std::string& lang : site.languages()) {
        for (const std::string& page : kPages) {
            const std::string body = site.content("/" + lang + "/" + page)->body;
            for (const std::string& other : site.languages()) {
                const std::string name = escapeHtml(site.catalog(other).get("lang.name"));
                const std::string link = "<a href=\"/" + other + "/" + page + "\" hreflang=\"" + other + "\" lang=\"" + other + "\"" +
                                         (other == lang ? " aria-current=\"true\"" : "") + ">" + name + "</a>";
                EXPECT_EQ(count(body, link), 1u) << lang << "/" << page << " " << link;
                EXPECT_EQ(count(body, "<link rel=\"alternate\" hreflang=\"" + other + "\" href=\"/" + other + "/" + page + "\">"), 1u);
            }
            EXPECT_EQ(count(body, "<link rel=\"alternate\" hreflang=\"x-default\" href=\"/en/" + page + "\">"), 1u) << lang << "/" << page;
            // A disclosure: the current language's name in its summary.
            EXPECT_NE(body.find("<summary"), std::string::npos);
        }
    }
}

// Numbers in messages use Latin digits in every language, like the board's square numbers (ICU's
// default for Arabic would be Arabic-Indic digits, the browser's Latin ones).
TEST(Languages, MessagesWriteNumbersInLatinDigits) {
    EXPECT_EQ(formatMessage("{n, plural, one {# a} few {# b} other {# c}}", "ar", {{"n", "3"}}), "3 b");
    EXPECT_EQ(formatMessage("{n, plural, other {# c}}", "ar", {{"n", "11"}}), "11 c");
    EXPECT_EQ(formatMessage("{n, plural, other {# c}}", "fr", {{"n", "30"}}), "30 c");
    // The same through a catalog's cached formats (what the pages use), and on the Arabic rules page.
    MessageCache cache("ar");
    EXPECT_EQ(cache.format("t.count", "{n, plural, other {# c}}", {{"n", "12"}}), "12 c");
    const std::string rules = theSite().content("/ar/rules")->body;
    for (const char* arabicIndic : {"\u0660", "\u0661", "\u0662", "\u0663", "\u0664", "\u0665", "\u0666", "\u0667", "\u0668", "\u0669"})
        EXPECT_EQ(rules.find(arabicIndic), std::string::npos) << "an Arabic-Indic digit on /ar/rules";
}
