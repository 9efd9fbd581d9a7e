// Every message of every catalog parses as an ICU MessageFormat pattern, uses exactly the
// arguments of the English message and formats with ICU for sample values derived from the
// English message's arguments (every select key it lists, plural counts that reach every
// plural form of the five languages). Also: a bad string never breaks a page.
#include <gtest/gtest.h>

#include <set>

#include "senet/site.hpp"
#include "senet/site_catalog.hpp"
#include "senet/site_message.hpp"

using namespace senet::site;

namespace {

const std::vector<std::string> kCounts{"0", "1", "2", "3", "5", "11", "22", "101"};

/// The problems of one catalog's messages against English ("key: why"), none when all is well.
std::vector<std::string> checkCatalog(const Catalog& own, const Catalog& en) {
    std::vector<std::string> problems;
    for (const auto& [key, text] : own.entries()) {
        std::map<std::string, MessageArg> args, enArgs;
        try {
            args = messageArguments(text);
        } catch (const std::invalid_argument& e) {
            problems.push_back(key + ": " + e.what());
            continue;
        }
        auto it = en.entries().find(key);
        try {
            enArgs = it == en.entries().end() ? args : messageArguments(it->second);
        } catch (const std::invalid_argument&) {
            enArgs = args;  // reported with English itself
        }
        for (const auto& [name, a] : args)
            if (!enArgs.contains(name)) problems.push_back(key + ": unknown argument {" + name + "}");
        for (const auto& [name, a] : enArgs)
            if (!args.contains(name)) problems.push_back(key + ": missing argument {" + name + "}");
        // Sample values: a base set, then one argument varied at a time.
        MessageParams base;
        for (const auto& [name, a] : enArgs) {
            std::string v = "2";
            if (a.kind == ArgKind::Select) {
                v = "other";
                for (const std::string& s : a.selectors)
                    if (s != "other") { v = s; break; }
            }
            base.emplace_back(name, v);
        }
        std::vector<MessageParams> samples{base};
        std::size_t i = 0;
        for (const auto& [name, a] : enArgs) {
            std::vector<std::string> values = a.kind == ArgKind::Select ? a.selectors : kCounts;
            if (a.kind == ArgKind::Select) values.push_back("another");
            for (const std::string& v : values) {
                MessageParams p = base;
                p[i].second = v;
                samples.push_back(p);
            }
            ++i;
        }
        for (const MessageParams& p : samples) {
            try {
                const std::string out = formatMessage(text, own.lang(), p);
                if (out.find('{') != std::string::npos) {
                    problems.push_back(key + ": braces left in \"" + out + "\"");
                    break;
                }
            } catch (const std::invalid_argument& e) {
                problems.push_back(key + ": " + e.what());
                break;
            }
        }
    }
    return problems;
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v) out += s + "\n";
    return out;
}

}  // namespace

TEST(Messages, CheckerFindsBrokenMessages) {
    const Catalog en = Catalog::parse(
        "msgid \"a\"\nmsgstr \"{count, plural, one {# piece} other {# pieces}}\"\n\n"
        "msgid \"b\"\nmsgstr \"{person, select, you {You} other {{name}}}\"\n", "en");
    EXPECT_TRUE(checkCatalog(en, en).empty()) << joined(checkCatalog(en, en));
    const Catalog badSyntax = Catalog::parse("msgid \"a\"\nmsgstr \"{count, plural, one {# pionek} other {# pionków}\"\n", "pl");
    ASSERT_EQ(checkCatalog(badSyntax, en).size(), 1u);
    EXPECT_NE(checkCatalog(badSyntax, en)[0].find("a: bad message format"), std::string::npos);
    const Catalog badArg = Catalog::parse("msgid \"a\"\nmsgstr \"{ile, plural, other {#}}\"\n", "pl");
    const std::vector<std::string> expected{"a: unknown argument {ile}", "a: missing argument {count}", "a: braces left in \"{ile}\""};
    EXPECT_EQ(checkCatalog(badArg, en), expected);
    const Catalog noOther = Catalog::parse("msgid \"b\"\nmsgstr \"{person, select, you {Jij}}\"\n", "nl");
    EXPECT_FALSE(checkCatalog(noOther, en).empty());
}

TEST(Messages, EveryMessageOfEveryCatalogFormatsWithIcu) {
    const Catalog en = Catalog::load(std::string(SENET_WEB_ROOT) + "/po/en.po", "en");
    for (const std::string lang : {"en", "nl", "fi", "it", "pl"}) {
        const Catalog own = Catalog::load(std::string(SENET_WEB_ROOT) + "/po/" + lang + ".po", lang);
        ASSERT_GT(own.entries().size(), 200u);
        const std::vector<std::string> problems = checkCatalog(own, en);
        EXPECT_TRUE(problems.empty()) << lang << ":\n" << joined(problems);
    }
}

TEST(Messages, PluralAndSelectFollowTheLanguage) {
    const Catalog pl = Catalog::load(std::string(SENET_WEB_ROOT) + "/po/pl.po", "pl");
    EXPECT_EQ(pl.format("play.off", {{"count", "1"}}), "1 wyprowadzony");
    EXPECT_EQ(pl.format("play.off", {{"count", "4"}}), "4 wyprowadzone");
    EXPECT_EQ(pl.format("play.off", {{"count", "5"}}), "5 wyprowadzonych");
    const Catalog en = Catalog::load(std::string(SENET_WEB_ROOT) + "/po/en.po", "en");
    EXPECT_EQ(en.format("ev.extra-throw", {{"person", "you"}, {"name", "Cones"}}), "You throw again.");
    EXPECT_EQ(en.format("ev.extra-throw", {{"person", "other"}, {"name", "Cones"}}), "Another throw for Cones.");
    EXPECT_EQ(en.joinList({"1", "4", "5"}, false), "1, 4 and 5");
    EXPECT_EQ(en.joinList({"1", "4", "5"}, true), "1, 4 or 5");
    const Catalog ar = Catalog::load(std::string(SENET_WEB_ROOT) + "/po/ar.po", "ar");
    // Arabic repeats the conjunction before every item after the first.
    EXPECT_EQ(ar.joinList({"1", "3", "5"}, false), "1 و3 و5");
    EXPECT_EQ(ar.joinList({"1", "4", "5"}, true), "1 أو 4 أو 5");
    EXPECT_EQ(pl.joinList({"1", "4", "5"}, true), "1, 4 lub 5");
    // The rules pages too: the setup sentence agrees with the number of pieces.
    EXPECT_EQ(pl.format("rc.setup.squares", {{"count", "2"}, {"one", "1"}, {"two", "2"}}).rfind("Po 2 pionki na gracza", 0), 0u);
    EXPECT_EQ(pl.format("rc.setup.squares", {{"count", "5"}, {"one", "1"}, {"two", "2"}}).rfind("Po 5 pionków na gracza", 0), 0u);
}

TEST(Messages, BadStringFallsBackToEnglishAndIsReported) {
    Catalog en = Catalog::parse("msgid \"k\"\nmsgstr \"{n, plural, one {# throw} other {# throws}}\"\n", "en");
    Catalog fi = Catalog::parse("msgid \"k\"\nmsgstr \"{n, plural, one {# heitto} other {# heittoa}\"\n", "fi");
    fi.setFallback(&en);
    std::string out;
    EXPECT_NO_THROW(out = fi.format("k", {{"n", "3"}}));
    EXPECT_EQ(out, "3 throws");
    ASSERT_EQ(fi.badStrings().size(), 1u);
    EXPECT_EQ(fi.badStrings()[0].rfind("k: bad message format", 0), 0u) << fi.badStrings()[0];
    // Without a usable fallback the raw text comes back with its simple {name}s replaced.
    Catalog lone = Catalog::parse("msgid \"k\"\nmsgstr \"{n} of {broken\"\n", "en");
    EXPECT_EQ(lone.format("k", {{"n", "3"}}), "3 of {broken");
    lone.validate();
    EXPECT_EQ(lone.badStrings().size(), 1u);
}

TEST(Messages, SiteReportsNoBadString) {
    const Site site(SENET_WEB_ROOT, "0.1.0", "0123456789abcdef");
    const std::vector<std::string> missing = site.missingStrings();
    EXPECT_TRUE(missing.empty()) << joined(missing);
}

TEST(Messages, PercentagesFollowEachLanguagesPattern) {
    // CLDR's percent pattern for each language, with the Latin digits the rest of the site
    // uses: "%" right after the number in English, Dutch, Italian and Polish; after a no-break
    // space (U+00A0) in Finnish, German, Spanish and French (CLDR's French percent pattern has
    // U+00A0; the narrow U+202F is French's group separator); Arabic keeps "%" beside the
    // number with left-to-right marks around it.
    const std::vector<std::tuple<std::string, std::string, std::string, std::string>> expected{
        // lang, 6 of 16, 4 of 16, 1 of 3
        {"en", "37.5%", "25%", "33.33%"},
        {"nl", "37,5%", "25%", "33,33%"},
        {"fi", "37,5\u00A0%", "25\u00A0%", "33,33\u00A0%"},
        {"it", "37,5%", "25%", "33,33%"},
        {"pl", "37,5%", "25%", "33,33%"},
        {"de", "37,5\u00A0%", "25\u00A0%", "33,33\u00A0%"},
        {"fr", "37,5\u00A0%", "25\u00A0%", "33,33\u00A0%"},
        {"es", "37,5\u00A0%", "25\u00A0%", "33,33\u00A0%"},
        {"ar", "37.5\u200E%\u200E", "25\u200E%\u200E", "33.33\u200E%\u200E"},
    };
    for (const auto& [lang, sixteenths6, sixteenths4, third] : expected) {
        EXPECT_EQ(formatPercent(lang, 6, 16), sixteenths6) << lang;
        EXPECT_EQ(formatPercent(lang, 4, 16), sixteenths4) << lang;
        EXPECT_EQ(formatPercent(lang, 1, 3), third) << lang;
    }
    EXPECT_THROW(formatPercent("en", 1, 0), std::invalid_argument);
    EXPECT_THROW(formatPercent("en", -1, 4), std::invalid_argument);
}
