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

namespace {

/// A web root whose build has a first script `source` with the CSP hash `hash` in its manifest.
struct WebRootWithBoot : WebRoot {
    WebRootWithBoot(const std::string& source, const std::string& hash) {
        std::ofstream(dir / "dist" / "manifest.json") << R"({"play.js": "/static/play-X.js", "boot.js": "/static/boot-B.js", "boot.js sha256": ")"
                                                      << hash << R"("})";
        std::ofstream(dir / "dist" / "boot-B.js", std::ios::binary) << source;
    }
};

/// The CSP hash of the first script below, "(()=>{let a=1<2;})();\n" (its SHA-256, computed apart).
const std::string kBootHash = "sha256-NGhQIvKMXt1UyuYh7/V6HTQgqcg+DEFYg065T7MIIxw=";

}  // namespace

TEST(FirstLoad, ThePlayPageRunsItsFirstScriptInlineAndNamesItsHashForThePolicy) {
    const WebRootWithBoot root("(()=>{let a=1<2;})();\n", kBootHash);
    const Site site(root.dir, "0.1.0", "0123456789abcdef");
    const Page page = site.play("en", "abc123", RulesetId::Standard, kCommitment);
    // The script's exact bytes between the tags (the hash is of them), before the stylesheet.
    const std::string tag = "<script data-game=\"abc123\" data-commitment=\"" + kCommitment + "\">(()=>{let a=1<2;})();\n</script>";
    const auto at = page.body.find(tag);
    ASSERT_NE(at, std::string::npos) << page.body.substr(0, 1500);
    EXPECT_LT(at, page.body.find("rel=\"stylesheet\""));
    EXPECT_EQ(page.body.find("/static/boot-B.js"), std::string::npos);
    EXPECT_EQ(page.inlineScriptHash, kBootHash);
    // Other pages run no inline script.
    EXPECT_EQ(site.replay("en", "abc123").inlineScriptHash, "");
    EXPECT_EQ(site.error("en", ErrorKind::NotFound).inlineScriptHash, "");
}

TEST(FirstLoad, AFirstScriptThatCouldEndItsElementOrWhoseHashDisagreesIsNamedByItsFileInstead) {
    // The build's hash must be the bytes' (a stale or malformed one would have the page block its own script).
    for (const auto& [source, hash] : std::vector<std::pair<std::string, std::string>>{
             {"let s='</SCRIPT><script>alert(1)';", kBootHash}, {"let s='<!--';", kBootHash}, {"(()=>{let a=1<2;})();\r\n", kBootHash},
             {"(()=>{let a=1<3;})();\n", kBootHash}, {"(()=>{let a=1<2;})();\n", ""}, {"(()=>{let a=1<2;})();\n", "sha256-abc"},
             {"(()=>{let a=1<2;})();\n", "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}, {"", kBootHash}}) {
        const WebRootWithBoot root(source, hash);
        const Site site(root.dir, "0.1.0", "0123456789abcdef");
        const Page page = site.play("en", "abc123", RulesetId::Standard, kCommitment);
        EXPECT_NE(page.body.find("<script async src=\"/static/boot-B.js\" data-game=\"abc123\""), std::string::npos) << source;
        EXPECT_EQ(page.body.find("alert(1)"), std::string::npos) << source;
        EXPECT_EQ(page.inlineScriptHash, "") << source;
    }
}

TEST(FirstLoad, ThePlayPageNamesItsStylesheetScriptAndChunksForPreloadAndRendersOnceItsScriptHasRun) {
    const WebRoot root;
    std::ofstream(root.dir / "dist" / "manifest.json")
        << R"({"play.js": "/static/play-X.js", "play.js imports": "/static/chunk-A.js /static/chunk-B.js", "site.css": "/static/site-C.css", "site.js": "/static/site-D.js"})";
    const Site site(root.dir, "0.1.0", "0123456789abcdef");
    const Page page = site.play("en", "abc123", RulesetId::Standard, kCommitment);
    // The Link header the server sends with it: fetched as the response's headers come.
    EXPECT_EQ(page.preloadLinks,
              "</static/site-C.css>; rel=preload; as=style, </static/play-X.js>; rel=modulepreload, "
              "</static/chunk-A.js>; rel=modulepreload, </static/chunk-B.js>; rel=modulepreload");
    EXPECT_NE(page.body.find("<script type=\"module\" src=\"/static/play-X.js\" blocking=\"render\"></script>"), std::string::npos);
    // No other page has either.
    EXPECT_EQ(site.replay("en", "abc123").preloadLinks, "");
    EXPECT_EQ(site.error("en", ErrorKind::NotFound).preloadLinks, "");
    const auto home = site.content("/en/");
    ASSERT_TRUE(home.has_value());
    EXPECT_EQ(home->preloadLinks, "");
    EXPECT_EQ(home->body.find("blocking="), std::string::npos);
}
