// The renderer's state, shared by site.cpp and pages.cpp.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "senet/site.hpp"
#include "senet/site_catalog.hpp"
#include "template.hpp"

namespace senet::site {

/// JSON text made safe to stand inside an HTML `<script type="application/json">` element:
/// every `<`, `>` and `&` written as a \u escape (they can only occur inside JSON strings, where
/// the escape means the same character), so no `</script>`, `<!--` or `]]>` can end or bend the
/// element. The text is not otherwise checked.
std::string scriptSafeJson(std::string_view json);

/// Everything a Site holds: catalogs, templates, the asset manifest and the pre-rendered pages.
struct Impl {
    Impl(std::filesystem::path webRoot, std::string version, std::string commit);

    std::filesystem::path webRoot;
    std::vector<std::string> languages;  ///< from po/languages.txt, the default first
    std::map<std::string, std::string, std::less<>> directions;  ///< language → "ltr" or "rtl"
    std::string version, commit;
    Templates templates;
    std::map<std::string, Catalog, std::less<>> catalogs;
    std::map<std::string, std::string, std::less<>> manifest;
    std::map<std::string, std::string, std::less<>> pages;  ///< URL path → HTML
    /// "PAGE/LANG" ("play/nl", "home/nl") → that page's strings as JSON, safe inside a
    /// `<script type="application/json">` (scriptSafeJson); absent when the build wrote none.
    std::map<std::string, std::string, std::less<>> pageStrings;
    /// The play page's first script (web/src/boot/boot.ts), put into its head inline, and its
    /// CSP source ('sha256-BASE64', the manifest's "boot.js sha256"); both empty when the build
    /// has none or it could not be inlined (the page then names the file).
    std::string bootSource;
    std::string bootHash;
    /// The play page's Link header (Page::preloadLinks): its stylesheet, play.js and its chunks.
    std::string playLinks;

    /// `lang` when supported, else "en".
    std::string knownLanguage(std::string_view lang) const;
    /// The URL of a built asset ("play.js", "site.css") from web/dist/manifest.json.
    std::string asset(std::string_view logical) const;

    /// The content pages' names after "/{lang}/": "", "rules", "variants/jequier", …
    static const std::vector<std::string>& contentPages();
    /// Whether the ruleset with this key has a tutorial page (a "learn/KEY" content page).
    static bool hasLearnPage(const std::string& key);
    std::string renderContent(const std::string& lang, const std::string& page) const;
    /// The tutorial of one ruleset; `page` is "learn/{key}" with a known key.
    std::string renderLearn(const std::string& lang, const std::string& page) const;
    /// The play page of game `gameId`; `commitment` (hex, may be empty) goes into the page so
    /// that its script need not ask for it before its hello (web/src/play/fair.ts).
    std::string renderPlay(const std::string& lang, std::string_view gameId, RulesetId ruleset,
                           std::string_view commitment = {}) const;
    /// The replay page of game `gameId`, or the record-file page when it is empty.
    std::string renderReplay(const std::string& lang, std::string_view gameId) const;
    std::string renderError(const std::string& lang, ErrorKind kind) const;

private:
    /// Fills the values every page's layout needs; `page` is the path after "/{lang}/".
    Context layout(const std::string& lang, const std::string& page, const std::string& titleKey) const;
    std::string wrap(Context ctx, const std::string& bodyTemplate, const Catalog& c) const;
};

}  // namespace senet::site
