// The pages: which values each template gets.
#include <algorithm>
#include <cstdio>

#include "diagram.hpp"
#include "pages.hpp"
#include "senet/site_message.hpp"
#include "senet/site_rules.hpp"

namespace senet::site {

namespace {

const char* errorKey(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::NotFound: return "not-found";
        case ErrorKind::GameUnknown: return "game-unknown";
        case ErrorKind::GameExpired: return "game-expired";
        case ErrorKind::GameFull: return "game-full";
        case ErrorKind::BadRequest: return "bad-request";
    }
    return "not-found";
}

/// A JSON string literal (for data- attributes; the template escapes it for HTML).
std::string jsonString(std::string_view s) {
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\') { out += '\\'; out += ch; }
        else if (static_cast<unsigned char>(ch) < 0x20) { char buf[8]; std::snprintf(buf, sizeof buf, "\\u%04x", ch); out += buf; }
        else out += ch;
    }
    return out + "\"";
}

/// The board facts the play page's script draws: named squares, safe squares, water.
std::string boardJson(const Ruleset& r) {
    std::string j = "{\"ruleset\":";
    j += jsonString(r.key);
    j += ",\"pieces\":";
    j += std::to_string(r.piecesPerSide);
    j += ",\"water\":";
    j += std::to_string(r.waterSquare);
    j += ",\"die\":";
    j += r.implement == Implement::FourSidedDie ? "true" : "false";
    // A throw with no legal move: "passed" (the extra throw stays) or "turn-lost" (the server's events).
    j += ",\"passLoses\":";
    j += r.extraThrowAfterPass ? "false" : "true";
    j += ",\"safe\":[";
    bool first = true;
    for (int s = 1; s <= kSquareCount; ++s)
        if (r.isSafe(s)) {
            if (!first) j += ',';
            j += std::to_string(s);
            first = false;
        }
    j += "],\"houses\":[";
    first = true;
    for (const House& h : r.houses)
        if (h.square) {
            if (!first) j += ',';
            j += '[';
            j += std::to_string(h.square);
            j += ',';
            j += jsonString(h.key);
            j += ']';
            first = false;
        }
    j += "]}";
    return j;
}

}  // namespace

std::string scriptSafeJson(std::string_view json) {
    std::string out;
    out.reserve(json.size());
    for (char ch : json) {
        if (ch == '<') out += "\\u003c";
        else if (ch == '>') out += "\\u003e";
        else if (ch == '&') out += "\\u0026";
        else out += ch;
    }
    return out;
}

bool Impl::hasLearnPage(const std::string& key) {
    const std::vector<std::string>& all = contentPages();
    return std::find(all.begin(), all.end(), "learn/" + key) != all.end();
}

const std::vector<std::string>& Impl::contentPages() {
    // Every ruleset but the standard game has a variant page; the tutorials exist for the rulesets with lessons.
    static const std::vector<std::string> pages = [] {
        std::vector<std::string> out{"", "rules", "fairness", "learn/standard", "learn/jequier", "learn/bell", "learn/kendall", "learn/piccione"};
        for (const Ruleset* r : allRulesets())
            if (r->id != RulesetId::Standard) out.push_back("variants/" + std::string(r->key));
        return out;
    }();
    return pages;
}

Context Impl::layout(const std::string& lang, const std::string& page, const std::string& titleKey) const {
    const Catalog& c = catalogs.at(lang);
    Context ctx;
    ctx.set("lang", lang).set("title", c.get(titleKey)).set("version", version).set("commit", commit.substr(0, 7));
    ctx.set("css", asset("site.css")).set("home", "/" + lang + "/");
    ctx.set("script", asset("site.js"));  // the header's language menu (site.ts); home and play pages set their own script
    ctx.set("description", c.get("site.description"));
    const std::string& dir = directions.at(lang);
    ctx.set("langSwitchLabel", c.format("label.value", {{"label", c.get("lang.switch")}, {"value", c.get("lang.name")}}));
    ctx.set("dir", dir).set("langName", c.get("lang.name")).set("defaultHref", "/" + languages.front() + "/" + page);
    if (dir == "rtl") ctx.set("rtl", "1");
    // The headings' display face of the page's script (web/scripts/fonts.mjs), fetched with the
    // stylesheet: site.css shows it only if it comes in time (font-display: optional), never late.
    ctx.set("font", asset(dir == "rtl" ? "display-arabic.woff2" : "display-latin.woff2"));
    for (const std::string& l : languages) {
        Context item;
        item.set("code", l).set("href", "/" + l + "/" + page).set("name", catalogs.at(l).get("lang.name"));
        if (l == lang) item.set("current", "1");
        ctx.list("languages").push_back(item);
    }
    static const std::vector<std::pair<std::string, std::string>> nav{
        {"", "nav.play"}, {"learn/standard", "nav.learn"}, {"rules", "nav.rules"}, {"rules#variants-title", "nav.variants"},
        {"fairness", "nav.fairness"}};
    for (const auto& [path, key] : nav) {
        Context item;
        item.set("href", "/" + lang + "/" + path).set("label", c.get(key));
        // The tutorials' link stands for every tutorial, the variants' link (the rules page's list
        // of them) for every variant page.
        const bool current = path == page || (path.starts_with("learn/") && page.starts_with("learn/")) ||
                             (key == "nav.variants" && page.starts_with("variants/"));
        if (current) item.set("current", "1");
        ctx.list("nav").push_back(item);
    }
    return ctx;
}

std::string Impl::wrap(Context ctx, const std::string& bodyTemplate, const Catalog& c) const {
    ctx.set("content", templates.render(bodyTemplate, ctx, c));
    // The chunks the page's script imports (the build's "NAME.js imports"), named in the head so
    // that the browser fetches them beside the script, not one round trip after it.
    for (const auto& [logical, url] : manifest) {
        if (url != ctx.values["script"] || !logical.ends_with(".js")) continue;
        const auto imports = manifest.find(logical + " imports");
        if (imports == manifest.end()) break;
        std::string_view rest = imports->second;
        while (!rest.empty()) {
            const auto space = rest.find(' ');
            const std::string_view one = rest.substr(0, space);
            if (!one.empty()) ctx.list("preloads").push_back(Context().set("href", std::string(one)));
            rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
        }
        break;
    }
    return templates.render("layout", ctx, c);
}

std::string Impl::renderContent(const std::string& lang, const std::string& page) const {
    const Catalog& c = catalogs.at(lang);
    if (page.empty()) {
        Context ctx = layout(lang, page, "home.title");
        for (const Ruleset* r : offeredRulesets()) {
            Context item;
            item.set("key", std::string(r->key)).set("name", c.get("ruleset." + std::string(r->key)));
            item.set("summary", c.get("ruleset." + std::string(r->key) + ".short"));
            if (r->id == RulesetId::Standard) item.set("checked", "1");
            ctx.list("rulesets").push_back(item);
        }
        for (const std::string& p : c.keysWithPrefix("home.about.")) ctx.list("about").push_back(Context{}.set("text", c.get(p)));
        ctx.set("diagram", boardDiagram(ruleset(RulesetId::Standard), c, "home-board"));  // the first screen's picture of the board
        ctx.set("script", asset("home.js"));
        // "Your games" (web/src/home/your-games.ts, shown only where this browser has a game): its
        // strings inline, else the catalog's URL (not preloaded: most first visits never need it).
        ctx.set("stringsUrl", asset("i18n/" + lang + ".json"));
        if (auto s = pageStrings.find("home/" + lang); s != pageStrings.end()) ctx.set("inlineStrings", s->second);
        return wrap(ctx, "home", c);
    }
    if (page == "rules") {
        Context ctx = layout(lang, page, "rules.title");
        for (const std::string& p : c.keysWithPrefix("rules.intro.")) ctx.list("intro").push_back(Context{}.set("text", c.get(p)));
        for (const std::string& p : c.keysWithPrefix("rules.rule.")) ctx.list("rules").push_back(Context{}.set("text", c.get(p)));
        const Ruleset& standard = ruleset(RulesetId::Standard);
        for (const std::string& a : ruleAspects())
            ctx.list("glance").push_back(Context{}.set("label", c.get("rc.label." + a)).set("text", describeAspect(a, standard, c)));
        ctx.set("diagram", boardDiagram(standard, c, "diagram"));
        ctx.set("learnHref", "/" + lang + "/learn/standard");
        for (const Ruleset* r : allRulesets())  // every variant page, also of rulesets not yet offered for play
            if (r->id != RulesetId::Standard)
                ctx.list("variants").push_back(Context{}.set("href", "/" + lang + "/variants/" + std::string(r->key))
                                                   .set("name", c.get("ruleset." + std::string(r->key)))
                                                   .set("summary", c.get("ruleset." + std::string(r->key) + ".short")));
        return wrap(ctx, "rules", c);
    }
    if (page.starts_with("variants/")) {
        const std::string key = page.substr(9);
        const Ruleset& variant = ruleset(*rulesetByKey(key));
        Context ctx = layout(lang, page, key + ".title");
        ctx.set("key", key).set("heading", c.get(key + ".title")).set("summary", c.get(key + ".summary"));
        ctx.set("whatIs", c.get(key + ".what-is")).set("standardName", c.get("ruleset.standard"));
        ctx.set("variantName", c.get(key + ".title"));
        ctx.set("diagram", boardDiagram(variant, c, "diagram"));
        if (hasLearnPage(key)) ctx.set("learnHref", "/" + lang + "/learn/" + key);
        if (isOffered(variant.id)) ctx.set("offered", "1");  // "Play this variant" only where the home page offers it
        ctx.set("tableCaption", c.format("variant.table-caption", {{"variant", c.get(key + ".title")}}));
        for (const std::string& p : c.keysWithPrefix(key + ".rules.")) ctx.list("rules").push_back(Context{}.set("text", c.get(p)));
        for (const std::string& p : c.keysWithPrefix(key + ".history.")) ctx.list("history").push_back(Context{}.set("text", c.get(p)));
        for (const RuleChange& row : ruleChanges(ruleset(RulesetId::Standard), variant, c))
            ctx.list("changes").push_back(Context{}.set("aspect", row.aspect).set("label", row.label)
                                              .set("standard", row.standard).set("variant", row.variant));
        return wrap(ctx, "variant", c);
    }
    if (page.starts_with("learn/")) return renderLearn(lang, page);
    if (page == "fairness") {
        Context ctx = layout(lang, page, "fairness.title");
        for (const std::string& p : c.keysWithPrefix("fairness.intro.")) ctx.list("intro").push_back(Context{}.set("text", c.get(p)));
        for (const std::string& p : c.keysWithPrefix("fairness.check.")) ctx.list("check").push_back(Context{}.set("text", c.get(p)));
        for (const Ruleset* r : offeredRulesets()) {
            Context table;
            const std::string implement = r->implement == Implement::FourSidedDie ? c.get("fairness.die") : c.get("fairness.sticks");
            table.set("caption", c.format("label.value", {{"label", c.get("ruleset." + std::string(r->key))}, {"value", implement}}));
            for (int v = 0; v < 16; ++v) {
                if (!r->canThrow(v)) continue;
                const int w = r->weightOfValue(v);
                Context row;
                row.set("value", std::to_string(v)).set("percent", formatPercent(lang, w, r->outcomeWeightTotal));
                row.set("odds", c.format("fairness.odds", {{"ways", std::to_string(w)}, {"total", std::to_string(r->outcomeWeightTotal)}}));
                row.set("extra", r->givesExtraThrow(v) ? c.get("fairness.extra-yes") : c.get("fairness.extra-no"));
                table.list("rows").push_back(row);
            }
            ctx.list("odds").push_back(table);
        }
        return wrap(ctx, "fairness", c);
    }
    return "";
}

std::string Impl::renderLearn(const std::string& lang, const std::string& page) const {
    const Catalog& c = catalogs.at(lang);
    const Ruleset& r = ruleset(*rulesetByKey(page.substr(6)));
    const std::string key(r.key);
    Context ctx = layout(lang, page, "learn.title");
    ctx.set("title", c.format("learn.page-title", {{"ruleset", c.get("ruleset." + key)}}));
    ctx.set("heading", c.format("learn.heading", {{"ruleset", c.get("ruleset." + key)}}));
    ctx.set("ruleset", key).set("board", boardJson(r)).set("strings", asset("i18n/" + lang + ".json")).set("script", asset("learn.js"));
    ctx.set("rulesHref", r.id == RulesetId::Standard ? "/" + lang + "/rules" : "/" + lang + "/variants/" + key);
    if (isOffered(r.id)) ctx.set("offered", "1");  // the last step's game against the beginner, once the ruleset is offered
    for (const Ruleset* other : allRulesets()) {  // every tutorial
        if (!hasLearnPage(std::string(other->key))) continue;
        Context item;
        item.set("href", "/" + lang + "/learn/" + std::string(other->key)).set("name", c.get("ruleset." + std::string(other->key)));
        if (other->id == r.id) item.set("current", "1");
        ctx.list("rulesets").push_back(item);
    }
    return wrap(ctx, "learn", c);
}

std::string Impl::renderPlay(const std::string& lang, std::string_view gameId, RulesetId id, std::string_view commitment) const {
    const Catalog& c = catalogs.at(lang);
    const Ruleset& r = ruleset(id);
    Context ctx = layout(lang, "play/" + std::string(gameId), "play.title");
    ctx.set("game", std::string(gameId)).set("ruleset", std::string(r.key)).set("rulesetName", c.get("ruleset." + std::string(r.key)));
    ctx.set("heading", c.format("label.value", {{"label", c.get("play.title")}, {"value", c.get("ruleset." + std::string(r.key))}}));
    ctx.set("board", boardJson(r)).set("script", asset("play.js"));
    // Its first script opens the game's socket before play.js has arrived (web/src/boot/boot.ts):
    // inline when the build allows it (run as the head is parsed), else its file, async so that
    // it never holds up the parser (it starts nothing when the page's script ran first).
    if (!bootSource.empty()) ctx.set("bootSource", bootSource);
    else ctx.set("boot", asset("boot.js"));
    // The first load (web/README.md "First load"): the page carries its strings and the game's
    // commitment, so its script opens the socket and says hello without another request first.
    // ("strings": the catalog's URL preloaded in the head, only for a page without them).
    ctx.set("stringsUrl", asset("i18n/" + lang + ".json"));
    if (auto s = pageStrings.find("play/" + lang); s != pageStrings.end()) ctx.set("inlineStrings", s->second);
    else ctx.set("strings", ctx.values["stringsUrl"]);
    const bool hex = commitment.size() == 64 && commitment.find_first_not_of("0123456789abcdef") == std::string_view::npos;
    if (hex) ctx.set("commitment", std::string(commitment));
    ctx.set("font", "");  // the play page's first load has a budget: its face comes after the board (site.css .display-face)
    ctx.set("rulesHref", id == RulesetId::Standard ? "/" + lang + "/rules" : "/" + lang + "/variants/" + std::string(r.key));
    ctx.set("playPage", "1");
    return wrap(ctx, "play", c);
}

std::string Impl::renderReplay(const std::string& lang, std::string_view gameId) const {
    const Catalog& c = catalogs.at(lang);
    Context ctx = layout(lang, gameId.empty() ? std::string("replay") : "replay/" + std::string(gameId), "replay.title");
    // The record names its ruleset: the script picks the board facts of the one it holds, and
    // shows its name in the page's language.
    std::string boards = "{";
    for (const Ruleset* r : allRulesets()) {
        if (boards.size() > 1) boards += ',';
        std::string board = boardJson(*r);
        board.pop_back();  // the object's closing brace: the name goes in before it
        boards += jsonString(r->key) + ":" + board + ",\"name\":" + jsonString(c.get("ruleset." + std::string(r->key))) + "}";
    }
    boards += "}";
    ctx.set("game", std::string(gameId)).set("boards", boards);
    ctx.set("strings", asset("i18n/" + lang + ".json")).set("script", asset("replay.js"));
    if (gameId.empty()) ctx.set("fileMode", "1");
    ctx.set("heading", gameId.empty() ? c.get("replay.file-title") : c.get("replay.title"));
    return wrap(ctx, "replay", c);
}

std::string Impl::renderError(const std::string& lang, ErrorKind kind) const {
    const Catalog& c = catalogs.at(lang);
    const std::string key = errorKey(kind);
    Context ctx = layout(lang, "", "error." + key + ".title");
    ctx.set("heading", c.get("error." + key + ".title")).set("text", c.get("error." + key + ".text"));
    return wrap(ctx, "error", c);
}

}  // namespace senet::site
