// HTTP: routes, pages, API validation, static files, security headers, health and metrics.
#include "fixture.hpp"
#include "senet/fairness.hpp"

namespace senet::testing {
namespace {

class Http : public ServerTest {};

TEST_F(Http, HealthAndMetrics) {
    auto h = httpRequest(port(), "GET", "/healthz");
    EXPECT_EQ(h.status, 200);
    EXPECT_EQ(h.body, "ok\n");
    createGame(port(), "standard", "friend");
    auto m = httpRequest(port(), "GET", "/metrics");
    EXPECT_EQ(m.status, 200);
    EXPECT_EQ(m.header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    for (const char* name : {"senet_games_running 1", "senet_open_sockets 0", "senet_actions_total",
                             "senet_action_latency_seconds_bucket{le=\"+Inf\"}", "# TYPE senet_action_latency_seconds histogram"})
        EXPECT_NE(m.body.find(name), std::string::npos) << name;
}

TEST_F(Http, SecurityHeadersOnEveryResponse) {
    for (const char* path : {"/healthz", "/en/", "/nowhere", "/api/games/xyz"}) {
        auto r = httpRequest(port(), "GET", path);
        EXPECT_EQ(r.header("content-security-policy"),
                  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                  "base-uri 'none'; frame-ancestors 'none'")
            << path;
        EXPECT_EQ(r.header("referrer-policy"), "no-referrer") << path;
        EXPECT_EQ(r.header("x-content-type-options"), "nosniff") << path;
    }
}

// The play page runs its first script inline (web/src/boot/boot.ts): its response's policy allows
// exactly that script, by the SHA-256 of the bytes between its tags; other pages allow none.
TEST_F(Http, ThePlayPagesPolicyAllowsItsInlineFirstScriptByItsHash) {
    const NewGame g = createGame(port(), "standard", "friend");
    auto page = httpRequest(port(), "GET", "/en/play/" + g.id);
    ASSERT_EQ(page.status, 200);
    const std::string open = "<script data-game=\"" + g.id + "\"";
    const auto tag = page.body.find(open);
    ASSERT_NE(tag, std::string::npos);
    const auto start = page.body.find('>', tag) + 1;
    const std::string script = page.body.substr(start, page.body.find("</script>", start) - start);
    ASSERT_EQ(script, "(()=>{window.senetTestBoot=1;})();\n") << "the first script is inline, byte for byte";
    const auto digest = fairness::sha256(script);
    std::string base64 = fairness::toBase64Url(digest.data(), digest.size());
    for (char& c : base64) c = c == '-' ? '+' : c == '_' ? '/' : c;
    while (base64.size() % 4) base64 += '=';
    EXPECT_EQ(page.header("content-security-policy"),
              "default-src 'self'; script-src 'self' 'sha256-" + base64 + "' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
              "connect-src 'self'; base-uri 'none'; frame-ancestors 'none'");
    // The home page runs no inline script: the plain policy.
    EXPECT_EQ(httpRequest(port(), "GET", "/en/").header("content-security-policy").find("sha256"), std::string::npos);
}

TEST_F(Http, RedirectsAndPages) {
    auto root = httpRequest(port(), "GET", "/", "", {{"Accept-Language", "nl-NL,nl;q=0.9,en;q=0.5"}});
    EXPECT_EQ(root.status, 302);
    EXPECT_EQ(root.header("location"), "/nl/");
    auto home = httpRequest(port(), "GET", "/en/");
    EXPECT_EQ(home.status, 200);
    EXPECT_EQ(home.header("content-type"), "text/html; charset=utf-8");
    const NewGame g = createGame(port(), "bell", "friend");
    auto play = httpRequest(port(), "GET", "/play/" + g.id, "", {{"Accept-Language", "fi"}});
    EXPECT_EQ(play.status, 302);
    EXPECT_EQ(play.header("location"), "/fi/play/" + g.id);
    auto page = httpRequest(port(), "GET", "/fi/play/" + g.id);
    EXPECT_EQ(page.status, 200);
    EXPECT_NE(page.body.find(g.id), std::string::npos);
    auto unknown = httpRequest(port(), "GET", "/en/play/AAAAAAAAAAAAAAAAAAAAAA");
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.header("content-type"), "text/html; charset=utf-8");
    EXPECT_NE(unknown.body.find("<html"), std::string::npos);
    auto missing = httpRequest(port(), "GET", "/en/no-such-page");
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(missing.header("content-type"), "text/html; charset=utf-8");
}

TEST_F(Http, ReplayPages) {
    // /{lang}/replay opens a record file; /{lang}/replay/{id} is the page of a game of this
    // server (its script says when the game is still played); unknown games are the friendly 404.
    auto file = httpRequest(port(), "GET", "/de/replay");
    EXPECT_EQ(file.status, 200);
    EXPECT_NE(file.body.find("id=\"record-file\""), std::string::npos);
    EXPECT_NE(file.body.find("data-game=\"\""), std::string::npos);
    const NewGame g = createGame(port(), "jequier", "friend");
    auto page = httpRequest(port(), "GET", "/nl/replay/" + g.id);
    EXPECT_EQ(page.status, 200);
    EXPECT_NE(page.body.find("data-game=\"" + g.id + "\""), std::string::npos);
    EXPECT_EQ(page.body.find("id=\"record-file\""), std::string::npos);
    EXPECT_NE(page.body.find("hreflang=\"fi\" href=\"/fi/replay/" + g.id + "\""), std::string::npos);
    EXPECT_EQ(httpRequest(port(), "GET", "/en/replay/AAAAAAAAAAAAAAAAAAAAAA").status, 404);
    EXPECT_EQ(httpRequest(port(), "GET", "/en/replay/not-an-id").status, 404);
    EXPECT_EQ(httpRequest(port(), "GET", "/en/replayx").status, 404);
    EXPECT_EQ(httpRequest(port(), "GET", "/xx/replay").status, 404);
}

TEST_F(Http, CreateGameAnswersUrlsAndSecrets) {
    const NewGame g = createGame(port(), "jequier", "friend", "second");
    EXPECT_EQ(g.id.size(), 22u);  // 128 bits, base64url
    EXPECT_GE(g.secret.size(), 43u);
    EXPECT_EQ(g.seats, std::vector<int>{1});
    EXPECT_EQ(g.raw["watchUrl"], "/en/play/" + g.id);
    EXPECT_EQ(g.raw["resumeUrl"], "/en/play/" + g.id + "#seat=" + g.secret);
    EXPECT_EQ(g.inviteUrl, "/en/play/" + g.id + "#invite=" + g.inviteToken);
    const NewGame local = createGame(port(), "standard", "local");
    EXPECT_EQ(local.seats, (std::vector<int>{0, 1}));
    EXPECT_TRUE(local.raw["inviteUrl"].is_null());
    const NewGame computer = createGame(port(), "bell", "computer", "random", "expert");
    EXPECT_EQ(computer.raw["level"], "expert");
    auto s = httpRequest(port(), "GET", "/api/games/" + computer.id).bodyJson();
    EXPECT_EQ(s["opponent"], "computer");
    EXPECT_EQ(s["level"], "expert");
    EXPECT_EQ(s["ruleset"], "bell");
    auto lang = httpRequest(port(), "POST", "/api/games", R"({"ruleset":"standard","opponent":"friend","lang":"pl"})");
    EXPECT_EQ(lang.status, 201);
    EXPECT_EQ(lang.bodyJson()["watchUrl"].get<std::string>().substr(0, 4), "/pl/");
}

TEST_F(Http, StartFormWithoutScriptLeadsToTheNewGame) {
    // What the home page's form sends when its script has not run: every field, level included.
    const std::map<std::string, std::string> form{{"Content-Type", "application/x-www-form-urlencoded"}};
    auto r = httpRequest(port(), "POST", "/api/games", "ruleset=jequier&opponent=friend&level=intermediate&side=first&lang=nl", form);
    EXPECT_EQ(r.status, 303);
    const std::string location = r.header("location");
    ASSERT_EQ(location.rfind("/nl/play/", 0), 0u) << location;
    const std::string id = location.substr(9, 22);
    const std::size_t seat = location.find("#seat="), share = location.find("&share=");
    ASSERT_NE(seat, std::string::npos) << location;
    ASSERT_NE(share, std::string::npos) << location;
    auto summary = httpRequest(port(), "GET", "/api/games/" + id).bodyJson();
    EXPECT_EQ(summary["ruleset"], "jequier");
    EXPECT_EQ(summary["opponent"], "friend");
    // The shared token is the game's invite: it gives the second seat.
    EXPECT_EQ(joinGame(port(), id, location.substr(share + 7)).first, 200);

    auto computer = httpRequest(port(), "POST", "/api/games", "ruleset=bell&opponent=computer&level=expert&side=second&lang=en", form);
    EXPECT_EQ(computer.status, 303);
    EXPECT_EQ(computer.header("location").find("&share="), std::string::npos);
    auto bad = httpRequest(port(), "POST", "/api/games", "ruleset=chess&opponent=friend", form);
    EXPECT_EQ(bad.status, 400);
    EXPECT_EQ(bad.bodyJson().value("error", ""), "ruleset");
    EXPECT_EQ(httpRequest(port(), "POST", "/api/games", "ruleset=%G1", form).bodyJson().value("error", ""), "bad-body");
    // A field given twice could be read as either value: refused, and no game is made.
    auto twice = httpRequest(port(), "POST", "/api/games", "ruleset=bell&opponent=friend&ruleset=standard", form);
    EXPECT_EQ(twice.status, 400);
    EXPECT_EQ(twice.bodyJson().value("error", ""), "bad-body");
}

TEST_F(Http, BadCreateBodiesName400TheField) {
    const std::pair<const char*, const char*> cases[] = {
        {"not json", "bad-body"},
        {"[1,2]", "bad-body"},
        {R"({"opponent":"friend"})", "ruleset"},
        {R"({"ruleset":"chess","opponent":"friend"})", "ruleset"},
        {R"({"ruleset":7,"opponent":"friend"})", "ruleset"},
        {R"({"ruleset":"standard"})", "opponent"},
        {R"({"ruleset":"standard","opponent":"robot"})", "opponent"},
        {R"({"ruleset":"standard","opponent":"friend","side":"left"})", "side"},
        {R"({"ruleset":"standard","opponent":"computer","level":"god"})", "level"},
        {R"({"ruleset":"standard","opponent":"friend","level":"expert"})", "level"},
        {R"({"ruleset":"standard","opponent":"friend","lang":"xx"})", "lang"},
        // A member twice could be read as either value (RFC 8259 leaves it open).
        {R"({"ruleset":"standard","opponent":"friend","ruleset":"bell"})", "bad-body"},
        {R"({"ruleset":"standard","opponent":"friend","\u0072uleset":"standard"})", "bad-body"},
    };
    for (const auto& [body, field] : cases) {
        auto r = httpRequest(port(), "POST", "/api/games", body);
        EXPECT_EQ(r.status, 400) << body;
        EXPECT_EQ(r.header("content-type"), "application/json");
        EXPECT_EQ(r.bodyJson().value("error", ""), field) << body;
    }
    auto wrongMethod = httpRequest(port(), "GET", "/api/games");
    EXPECT_EQ(wrongMethod.status, 405);
    std::string huge = R"({"ruleset":"standard","opponent":"friend","pad":")" + std::string(40000, 'x') + "\"}";
    EXPECT_EQ(httpRequest(port(), "POST", "/api/games", huge).status, 413);
}

TEST_F(Http, JoinGivesTheSecondSeatOnce) {
    const NewGame g = createGame(port(), "standard", "friend");
    EXPECT_EQ(joinGame(port(), g.id, "forged-invite-token").first, 403);
    const std::string twice = R"({"invite":")" + g.inviteToken + R"(","invite":"x"})";
    auto refusedTwice = httpRequest(port(), "POST", "/api/games/" + g.id + "/join", twice);
    EXPECT_EQ(refusedTwice.status, 400);
    EXPECT_EQ(refusedTwice.bodyJson().value("error", ""), "bad-body");
    auto [status, secret] = joinGame(port(), g.id, g.inviteToken);
    EXPECT_EQ(status, 200);
    EXPECT_GE(secret.size(), 43u);
    EXPECT_NE(secret, g.secret);
    EXPECT_EQ(joinGame(port(), g.id, g.inviteToken).first, 409);
    EXPECT_EQ(joinGame(port(), "AAAAAAAAAAAAAAAAAAAAAA", g.inviteToken).first, 404);
    const NewGame c = createGame(port(), "standard", "computer");
    EXPECT_EQ(joinGame(port(), c.id, "anything").first, 409);
    auto summary = httpRequest(port(), "GET", "/api/games/" + g.id).bodyJson();
    EXPECT_TRUE(summary["seats"][0]["taken"].get<bool>());
    EXPECT_TRUE(summary["seats"][1]["taken"].get<bool>());
    EXPECT_EQ(summary["phase"], "throw");
    EXPECT_FALSE(summary.contains("secret"));
    auto record = httpRequest(port(), "GET", "/api/games/" + g.id + "/record");
    EXPECT_EQ(record.status, 409);  // the server seed stays secret until the end
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/AAAAAAAAAAAAAAAAAAAAAA").status, 404);
}

TEST_F(Http, StaticFiles) {
    auto js = httpRequest(port(), "GET", "/static/app.0123abcd.js");
    EXPECT_EQ(js.status, 200);
    EXPECT_EQ(js.header("content-type"), "text/javascript; charset=utf-8");
    EXPECT_EQ(js.header("cache-control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(js.header("content-encoding"), "");
    auto gz = httpRequest(port(), "GET", "/static/app.0123abcd.js", "", {{"Accept-Encoding", "gzip"}});
    EXPECT_EQ(gz.header("content-encoding"), "gzip");
    EXPECT_LT(gz.body.size(), js.body.size());
    EXPECT_EQ(static_cast<unsigned char>(gz.body[0]), 0x1f);
    // Both offered: brotli (static_http_test.cpp tests the negotiation in full).
    EXPECT_EQ(httpRequest(port(), "GET", "/static/app.0123abcd.js", "", {{"Accept-Encoding", "gzip, br"}}).header("content-encoding"), "br");
    // pre.9f8e7d6c.css.gz is not gzip of the file: it is never sent (and the file is too small to gain).
    auto pre = httpRequest(port(), "GET", "/static/pre.9f8e7d6c.css", "", {{"Accept-Encoding", "gzip"}});
    EXPECT_EQ(pre.body, "this is the uncompressed file\n");
    EXPECT_EQ(pre.header("content-encoding"), "");
    EXPECT_EQ(pre.header("content-type"), "text/css; charset=utf-8");
    auto css = httpRequest(port(), "GET", "/static/plain.css");
    EXPECT_EQ(css.header("cache-control"), "no-cache");
    auto svg = httpRequest(port(), "GET", "/static/sub/logo.svg");
    EXPECT_EQ(svg.status, 200);
    EXPECT_EQ(svg.header("content-type"), "image/svg+xml");
    EXPECT_EQ(httpRequest(port(), "GET", "/static/none.js").status, 404);
    auto head = httpRequest(port(), "HEAD", "/static/plain.css");
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(head.header("content-length"), std::to_string(css.body.size()));
    // The engine's WebAssembly module is sent compressed to a browser that accepts gzip.
    auto wasm = httpRequest(port(), "GET", "/static/engine-0a1b2c3d4e.wasm", "", {{"Accept-Encoding", "gzip"}});
    EXPECT_EQ(wasm.status, 200);
    EXPECT_EQ(wasm.header("content-type"), "application/wasm");
    EXPECT_EQ(wasm.header("content-encoding"), "gzip");
    EXPECT_LT(wasm.body.size(), 4008u);
}

TEST_F(Http, StaticPathTraversalIsRejected) {
    for (const char* path : {"/static/../secret.txt", "/static/%2e%2e/secret.txt", "/static/sub/%2e%2e/%2e%2e/secret.txt",
                             "/static/..%2fsecret.txt", "/static/%2fetc/passwd", "/static/sub/..\\..\\secret.txt",
                             "/static/.hidden", "/static/app.0123abcd.js%00.css", "/static//etc/passwd", "/static/%zz"}) {
        auto r = httpRequest(port(), "GET", path);
        EXPECT_TRUE(r.status == 400 || r.status == 404) << path << " → " << r.status;
        EXPECT_EQ(r.body.find("do not serve"), std::string::npos) << path;
    }
}

TEST_F(Http, LanguageWithoutSlashRedirectsToItsHome) {
    auto r = httpRequest(port(), "GET", "/pl");
    EXPECT_EQ(r.status, 302);
    EXPECT_EQ(r.header("location"), "/pl/");
    EXPECT_EQ(httpRequest(port(), "GET", "/xx").status, 404);
}

TEST_F(Http, LanguageAliasesAndTrailingSlashesRedirectToThePage) {
    const NewGame g = createGame(port(), "standard", "friend");
    const std::vector<std::pair<std::string, std::string>> cases{
        {"/DE/", "/de/"},
        {"/de-AT", "/de/"},
        {"/de-AT/rules", "/de/rules"},
        {"/Ar_EG/variants/bell", "/ar/variants/bell"},
        {"/FR-CA/play/" + g.id, "/fr/play/" + g.id},
        {"/ar/rules/", "/ar/rules"},
        {"/fi/variants/jequier/", "/fi/variants/jequier"},
    };
    for (const auto& [from, to] : cases) {
        auto r = httpRequest(port(), "GET", from);
        EXPECT_EQ(r.status, 302) << from;
        EXPECT_EQ(r.header("location"), to) << from;
    }
    // Not a language, or a page that does not exist with or without the slash: no redirect.
    // A target that is not a path (found by the router fuzzer): an answer, never a 500.
    for (const std::string target : {"?api/x", "?", "x/de-AT/"}) {
        const int status = httpRequest(port(), "GET", target).status;
        EXPECT_TRUE(status == 400 || status == 404) << target << " → " << status;
    }
    for (const std::string path : {"/pt-BR/", "/x1-de/", "/de-AT.x/", "/en/no-such-page/", "/d/"})
        EXPECT_EQ(httpRequest(port(), "GET", path).status, 404) << path;
}

TEST_F(Http, PagesAnswer405WithAllow) {
    auto r = httpRequest(port(), "POST", "/en/", "x");
    EXPECT_EQ(r.status, 405);
    EXPECT_EQ(r.header("allow"), "GET, HEAD");
    EXPECT_EQ(r.header("content-type"), "text/html; charset=utf-8");
}

TEST_F(Http, WebSocketAddressWithoutUpgradeIs426) {
    auto r = httpRequest(port(), "GET", "/ws/games/AAAAAAAAAAAAAAAAAAAAAA");
    EXPECT_EQ(r.status, 426);
    EXPECT_EQ(r.header("upgrade"), "websocket");
    EXPECT_NE(r.body.find("\"upgrade-required\""), std::string::npos) << r.body;
}

TEST_F(Http, WebSocketToUnknownGameIs404) {
    auto r = httpRequest(port(), "GET", "/ws/games/AAAAAAAAAAAAAAAAAAAAAA", "",
                         {{"Upgrade", "websocket"}, {"Connection", "Upgrade"}, {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="},
                          {"Sec-WebSocket-Version", "13"}});
    EXPECT_EQ(r.status, 404);
    EXPECT_THROW(WsClient(port(), "AAAAAAAAAAAAAAAAAAAAAA"), std::exception);
}

}  // namespace
}  // namespace senet::testing
