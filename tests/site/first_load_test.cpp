// The first load's data in the pages (web/README.md "First load"): the play and home pages carry
// their strings from the build's i18n/PAGE-LANG.json as a JSON data block that no string can end
// or bend, the play page the game's commitment; a language the build wrote no file for gets
// the catalog's URL, preloaded on the play page, as before.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "senet/site.hpp"

using namespace senet;
using namespace senet::site;

namespace {

/// A web root of the real templates and catalogs with a dist/ written by the test: English
/// page strings holding markup, none for the other languages.
struct WebRoot {
    std::filesystem::path dir;
    WebRoot() {
        dir = std::filesystem::temp_directory_path() / ("senet-first-load-" + std::to_string(std::random_device{}()));
        std::filesystem::create_directories(dir / "dist" / "i18n");
        const std::filesystem::path web(SENET_WEB_ROOT);
        std::filesystem::create_directory_symlink(web / "templates", dir / "templates");
        std::filesystem::create_directory_symlink(web / "po", dir / "po");
        std::ofstream(dir / "dist" / "manifest.json") << R"({"play.js": "/static/play-X.js", "i18n/play-en.json": "/static/i18n/play-en-1.json",)"
                                                      << R"( "i18n/home-en.json": "/static/i18n/home-en-1.json", "i18n/nl.json": "/static/i18n/nl-1.json"})";
        std::ofstream(dir / "dist" / "i18n" / "play-en-1.json") << R"({"play.title":"</script><script>alert(1)</script><!-- & ]]> \u2028"})";
        std::ofstream(dir / "dist" / "i18n" / "home-en-1.json") << R"({"replay.home.title":"</SCRIPT>"})";
    }
    ~WebRoot() { std::filesystem::remove_all(dir); }
};

const std::string kCommitment = "e0bd89684bcedac135686489514928a9f2eeb90cf9789900664597f1879ff34d";

/// The text of the page's strings block, or "" when it has none.
std::string stringsBlock(const std::string& html) {
    const std::string open = "<script type=\"application/json\" id=\"page-strings\">";
    const auto start = html.find(open);
    if (start == std::string::npos) return "";
    const auto end = html.find("</script>", start);
    return html.substr(start + open.size(), end - start - open.size());
}

}  // namespace

TEST(FirstLoad, ThePlayPageCarriesItsStringsWithNoMarkupAndItsCommitment) {
    const WebRoot root;
    const Site site(root.dir, "0.1.0", "0123456789abcdef");
    const std::string html = site.play("en", "abc123", RulesetId::Standard, kCommitment).body;
    // Every <, > and & of the JSON as a \u escape: the block ends only where the page ends it.
    EXPECT_EQ(stringsBlock(html),
              R"({"play.title":"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e\u003c!-- \u0026 ]]\u003e \u2028"})");
    EXPECT_EQ(html.find("alert(1)</script>"), std::string::npos);
    EXPECT_NE(html.find("data-commitment=\"" + kCommitment + "\""), std::string::npos);
    // No catalog preloaded: the page has its strings.
    EXPECT_EQ(html.find("rel=\"preload\""), std::string::npos);
    EXPECT_NE(html.find("data-strings=\"/static/i18n/en.json\""), std::string::npos);  // not in this manifest: the default URL
}

TEST(FirstLoad, ACommitmentThatIsNotSixtyFourHexDigitsIsLeftOut) {
    const WebRoot root;
    const Site site(root.dir, "0.1.0", "0123456789abcdef");
    for (const std::string bad : {std::string(), kCommitment.substr(1), kCommitment + "0", "\"><script>" + kCommitment.substr(10),
                                  std::string(64, 'G'), std::string(64, 'A')}) {
        const std::string html = site.play("en", "abc123", RulesetId::Standard, bad).body;
        EXPECT_EQ(html.find("data-commitment"), std::string::npos) << bad;
        EXPECT_EQ(html.find("\"><script>"), std::string::npos) << bad;
    }
}

TEST(FirstLoad, ALanguageWithoutBuiltStringsGetsTheCatalogsUrlPreloaded) {
    const WebRoot root;
    const Site site(root.dir, "0.1.0", "0123456789abcdef");
    const std::string html = site.play("nl", "abc123", RulesetId::Standard, kCommitment).body;
    EXPECT_EQ(stringsBlock(html), "");
    EXPECT_NE(html.find("<link rel=\"preload\" href=\"/static/i18n/nl-1.json\" as=\"fetch\" crossorigin>"), std::string::npos);
    EXPECT_NE(html.find("data-strings=\"/static/i18n/nl-1.json\""), std::string::npos);
}

TEST(FirstLoad, TheHomePageCarriesTheStringsOfYourGamesAndPreloadsNone) {
    const WebRoot root;
    const Site site(root.dir, "0.1.0", "0123456789abcdef");
    const std::string en = site.content("/en/")->body;
    EXPECT_EQ(stringsBlock(en), R"({"replay.home.title":"\u003c/SCRIPT\u003e"})");
    // No catalog preloaded (the display face's preload is the only one: web/README "The look").
    EXPECT_EQ(en.find("as=\"fetch\""), std::string::npos);
    const std::string nl = site.content("/nl/")->body;
    EXPECT_EQ(stringsBlock(nl), "");
    EXPECT_EQ(nl.find("as=\"fetch\""), std::string::npos);  // "Your games" fetches them only when it lists a game
    EXPECT_NE(nl.find("data-strings=\"/static/i18n/nl-1.json\""), std::string::npos);
}
