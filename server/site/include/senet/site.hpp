// The site's HTML pages, rendered on the server from templates in web/templates/ with the
// strings of the gettext catalogs in web/po/. The HTTP layer (server/) routes to these; this
// library knows nothing of sockets.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "senet/ruleset.hpp"

namespace senet::site {

struct Impl;
class Catalog;

/// The rulesets the site offers, in the home page's order: those whose play page, variant page,
/// lessons and texts exist. The home page, the learn and fairness pages list these, and
/// POST /api/games refuses any other ruleset (the engine and `senet` know every one).
std::vector<const Ruleset*> offeredRulesets();
/// Whether the site offers ruleset `id` (one of offeredRulesets()).
bool isOffered(RulesetId id);

/// A rendered page: always `text/html; charset=utf-8`.
struct Page {
    int status = 200;
    std::string body;
    /// The CSP source of an inline script the page runs ('sha256-BASE64'), empty for none: the
    /// server adds it to the page's script-src.
    std::string inlineScriptHash;
    /// A Link header for the response, empty for none: the play page's stylesheet, script and
    /// the chunks it imports as preloads, which the browser fetches as the response arrives,
    /// before it has parsed the page's head (web/README.md "First load").
    std::string preloadLinks;
};

/// What went wrong, for the friendly error page.
enum class ErrorKind { NotFound, GameUnknown, GameExpired, GameFull, BadRequest };

/// The pages of the site in every language. Built once at start-up; render calls are
/// const and safe from several threads.
class Site {
public:
    /// `webRoot` is the web/ directory (templates/, po/, dist/); `version` and `commit` go in
    /// the footer. Throws std::runtime_error when templates or catalogs are missing or broken.
    Site(std::filesystem::path webRoot, std::string version, std::string commit);
    ~Site();
    Site(const Site&) = delete;
    Site& operator=(const Site&) = delete;

    /// The supported language codes (web/po/languages.txt), the default ("en") first.
    const std::vector<std::string>& languages() const;
    /// The best supported language for an Accept-Language header value: q-values honoured, a
    /// region variant falls back to its language ("de-AT" → "de"); "en" when none fits.
    std::string negotiate(std::string_view acceptLanguage) const;
    /// The writing direction of `lang`: "rtl" or "ltr" ("ltr" for an unknown language).
    std::string_view direction(std::string_view lang) const;

    /// A content page for a URL path with its language prefix ("/nl/", "/nl/rules",
    /// "/nl/variants/jequier", "/nl/variants/bell", "/nl/fairness"); nullopt when the path is
    /// not a content page.
    std::optional<Page> content(std::string_view path) const;
    /// The URL path of every content page, in every language ("/en/", "/nl/rules", …): the
    /// paths content() answers. Their pages are the same for every request.
    std::vector<std::string> contentPaths() const;
    /// The play page of an existing game, in language `lang` (one of languages()). It carries the
    /// play page's strings and, when given, the game's `commitment` (64 hex digits; anything else
    /// is left out), so that its script can say hello at once (web/README.md "First load").
    Page play(std::string_view lang, std::string_view gameId, RulesetId ruleset, std::string_view commitment = {}) const;
    /// The replay page in language `lang`: of the finished game `gameId` (its script loads the
    /// record and, when the game is still played, says so), or with an empty `gameId` the page
    /// that opens a record file.
    Page replay(std::string_view lang, std::string_view gameId) const;
    /// A friendly error page with a way back home.
    Page error(std::string_view lang, ErrorKind kind) const;

    /// "LANG: key" for every string a page asked for that its catalog lacks, and "LANG: key: why"
    /// for every string whose ICU message format does not parse (empty when complete).
    std::vector<std::string> missingStrings() const;
    /// The catalog of `lang` (English for an unknown language).
    const Catalog& catalog(std::string_view lang) const;

private:
    Impl* impl_;
};

}  // namespace senet::site
