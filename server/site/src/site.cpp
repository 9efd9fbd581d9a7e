// The site's pages: catalogs and templates loaded once, content pages rendered at start-up.
#include "senet/site.hpp"

#include <algorithm>
#include <cstdlib>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "languages.hpp"
#include "pages.hpp"

namespace senet::site {

std::vector<const Ruleset*> offeredRulesets() {
    // Every ruleset is played on the site: its play page, variant page and texts exist (a
    // ruleset added to the engine joins here once they do).
    std::vector<const Ruleset*> out;
    for (const Ruleset* r : allRulesets()) out.push_back(r);
    return out;
}

bool isOffered(RulesetId id) {
    for (const Ruleset* r : offeredRulesets())
        if (r->id == id) return true;
    return false;
}

namespace {

/// The CSP source of an inline script of `bytes`: 'sha256-' and the base64 of their SHA-256 (51 characters).
std::string cspHashOf(std::string_view bytes) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
    unsigned char base64[4 * ((SHA256_DIGEST_LENGTH + 2) / 3) + 1];
    const int n = EVP_EncodeBlock(base64, digest, SHA256_DIGEST_LENGTH);
    return "sha256-" + std::string(reinterpret_cast<const char*>(base64), static_cast<std::size_t>(n));
}

/// Reads web/dist/manifest.json: a flat JSON object of logical name → URL (for "PAGE.js imports",
/// the URLs of the chunks the page's script imports, space separated).
std::map<std::string, std::string, std::less<>> readManifest(const std::filesystem::path& file) {
    std::map<std::string, std::string, std::less<>> out;
    std::ifstream in(file, std::ios::binary);
    if (!in) return out;
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    auto readString = [&](std::size_t& i) {
        std::string s;
        for (++i; i < text.size() && text[i] != '"'; ++i) {
            if (text[i] == '\\' && i + 1 < text.size()) ++i;
            s += text[i];
        }
        ++i;
        return s;
    };
    std::size_t i = text.find('{');
    if (i == std::string::npos) return out;
    while (true) {
        i = text.find_first_of("\"}", i + 1);
        if (i == std::string::npos || text[i] == '}') break;
        std::string key = readString(i);
        i = text.find('"', i);
        if (i == std::string::npos) break;
        out[key] = readString(i);
        --i;
    }
    return out;
}

/// The commit when the caller has none: $SENET_COMMIT, else the checkout's .git/HEAD next to web/.
std::string findCommit(const std::filesystem::path& webRoot) {
    if (const char* env = std::getenv("SENET_COMMIT"); env && *env) return env;
    const std::filesystem::path git = webRoot / ".." / ".git";
    auto firstLine = [](const std::filesystem::path& file) {
        std::ifstream in(file);
        std::string line;
        std::getline(in, line);
        return line;
    };
    std::string head = firstLine(git / "HEAD");
    if (!head.starts_with("ref: ")) return head;
    const std::string ref = head.substr(5);
    if (std::string hash = firstLine(git / ref); !hash.empty()) return hash;
    std::ifstream packed(git / "packed-refs");
    for (std::string line; std::getline(packed, line);)
        if (line.size() > 41 && line.substr(41) == ref) return line.substr(0, 40);
    return "";
}

}  // namespace

Site::Site(std::filesystem::path webRoot, std::string version, std::string commit)
    : impl_(new Impl(std::move(webRoot), std::move(version), std::move(commit))) {}

Site::~Site() { delete impl_; }

Impl::Impl(std::filesystem::path root, std::string version_, std::string commit_)
    : webRoot(std::move(root)), version(std::move(version_)), commit(std::move(commit_)), templates(webRoot / "templates") {
    if (commit.empty()) commit = findCommit(webRoot);
    for (const Language& l : readLanguages(webRoot / "po" / "languages.txt")) {
        languages.push_back(l.code);
        directions[l.code] = l.dir;
    }
    if (languages.front() != "en") throw std::runtime_error("po/languages.txt: English (en) must come first");
    for (const std::string& lang : languages) catalogs.emplace(lang, Catalog::load(webRoot / "po" / (lang + ".po"), lang));
    for (auto& [lang, catalog] : catalogs) {
        catalog.setFallback(&catalogs.at("en"));
        catalog.validate();
    }
    manifest = readManifest(webRoot / "dist" / "manifest.json");
    // Each page's own strings (web/scripts/page-strings.mjs), put into the page by its renderer.
    for (const char* page : {"play", "home"})
        for (const std::string& lang : languages) {
            const auto url = manifest.find(std::string("i18n/") + page + "-" + lang + ".json");
            if (url == manifest.end() || !url->second.starts_with("/static/")) continue;
            std::ifstream in(webRoot / "dist" / url->second.substr(8), std::ios::binary);
            std::stringstream text;
            text << in.rdbuf();
            if (text.str().starts_with('{')) pageStrings[std::string(page) + "/" + lang] = scriptSafeJson(text.str());
        }
    // The play page's first script, inline: allowed by the hash of its bytes, computed here and
    // required to agree with the build's (web/scripts/build.mjs "boot.js sha256"), and only when
    // nothing in it could end the element or change the bytes the browser hashes (a CR, which
    // the HTML parser turns into LF; a NUL). Otherwise the page names the file.
    if (const auto url = manifest.find("boot.js"), hash = manifest.find("boot.js sha256");
        url != manifest.end() && hash != manifest.end() && url->second.starts_with("/static/")) {
        std::ifstream in(webRoot / "dist" / url->second.substr(8), std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        std::string lower = text.str();
        for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        const bool inlinable = in && !lower.empty() && lower.find("</script") == std::string::npos &&
                               lower.find("<!--") == std::string::npos && lower.find_first_of(std::string_view("\r\0", 2)) == std::string::npos;
        if (inlinable && cspHashOf(text.str()) == hash->second) {
            bootSource = text.str();
            bootHash = hash->second;
        }
    }
    // The play page's Link header: what its head names (the stylesheet, the script, the chunks of
    // "play.js imports"), fetched by the browser as soon as the response's headers come.
    if (const auto css = manifest.find("site.css"), js = manifest.find("play.js"); css != manifest.end() && js != manifest.end()) {
        playLinks = "<" + css->second + ">; rel=preload; as=style, <" + js->second + ">; rel=modulepreload";
        if (const auto imports = manifest.find("play.js imports"); imports != manifest.end()) {
            std::istringstream chunks(imports->second);
            for (std::string chunk; chunks >> chunk;) playLinks += ", <" + chunk + ">; rel=modulepreload";
        }
    }
    for (const std::string& lang : languages)
        for (const std::string& page : contentPages()) pages["/" + lang + "/" + page] = renderContent(lang, page);
    // Render one play and one error page per language now, so broken templates fail at start-up.
    for (const std::string& lang : languages) {
        renderPlay(lang, "check", RulesetId::Standard);
        renderError(lang, ErrorKind::NotFound);
        renderReplay(lang, "check");
    }
}

const std::vector<std::string>& Site::languages() const { return impl_->languages; }

std::string Site::negotiate(std::string_view header) const { return negotiateLanguage(header, impl_->languages); }

std::string_view Site::direction(std::string_view lang) const {
    auto it = impl_->directions.find(lang);
    return it != impl_->directions.end() ? std::string_view(it->second) : std::string_view("ltr");
}

std::optional<Page> Site::content(std::string_view path) const {
    auto it = impl_->pages.find(path);
    if (it == impl_->pages.end()) return std::nullopt;
    return Page{200, it->second, {}, {}};
}

std::vector<std::string> Site::contentPaths() const {
    std::vector<std::string> out;
    for (const auto& [path, html] : impl_->pages) out.push_back(path);
    return out;
}

Page Site::play(std::string_view lang, std::string_view gameId, RulesetId ruleset, std::string_view commitment) const {
    return Page{200, impl_->renderPlay(impl_->knownLanguage(lang), gameId, ruleset, commitment), impl_->bootHash, impl_->playLinks};
}

Page Site::replay(std::string_view lang, std::string_view gameId) const {
    return Page{200, impl_->renderReplay(impl_->knownLanguage(lang), gameId), {}, {}};
}

Page Site::error(std::string_view lang, ErrorKind kind) const {
    const int status = kind == ErrorKind::BadRequest ? 400 : kind == ErrorKind::GameExpired ? 410 : kind == ErrorKind::GameFull ? 409 : 404;
    return Page{status, impl_->renderError(impl_->knownLanguage(lang), kind), {}, {}};
}

std::vector<std::string> Site::missingStrings() const {
    std::vector<std::string> out;
    for (const auto& [lang, catalog] : impl_->catalogs)
        for (const std::string& key : catalog.missing()) out.push_back(lang + ": " + key);
    for (const auto& [lang, catalog] : impl_->catalogs)
        for (const std::string& bad : catalog.badStrings()) out.push_back(lang + ": " + bad);
    return out;
}

const Catalog& Site::catalog(std::string_view lang) const { return impl_->catalogs.at(impl_->knownLanguage(lang)); }

std::string Impl::knownLanguage(std::string_view lang) const {
    for (const std::string& l : languages)
        if (l == lang) return l;
    return "en";
}

std::string Impl::asset(std::string_view logical) const {
    auto it = manifest.find(logical);
    return it != manifest.end() ? it->second : "/static/" + std::string(logical);
}

}  // namespace senet::site
