// A gettext catalog (web/po/LANG.po) and the small text helpers the pages share.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace senet::site {

class MessageCache;

/// One language's strings: msgid (a key such as "home.title") to msgstr. Keys without a
/// translation fall back to the English catalog given as `fallback`; every fallback is recorded.
class Catalog {
public:
    Catalog() = default;
    /// Parses gettext .po text: msgid/msgstr pairs with C escapes and multi-line strings.
    /// Throws std::runtime_error with the line number on malformed input.
    static Catalog parse(std::string_view poText, std::string lang);
    /// Reads and parses a .po file. Throws std::runtime_error when it is missing or broken.
    static Catalog load(const std::filesystem::path& file, std::string lang);

    const std::string& lang() const { return lang_; }
    /// The string for `key`, or the fallback's, or "⟦key⟧" when neither has it (and records it).
    const std::string& get(std::string_view key) const;
    /// True when this catalog itself translates `key` (non-empty msgstr).
    bool has(std::string_view key) const;
    /// `get(key)` formatted as an ICU MessageFormat pattern (senet/site_message.hpp) with the
    /// named `params` (plural, select, {name}). A string that fails to parse or format never
    /// throws: English is used instead (or, for English, the text with its {name}s replaced)
    /// and the key is recorded in badStrings().
    std::string format(std::string_view key, const std::vector<std::pair<std::string, std::string>>& params) const;
    /// The keys starting with `prefix`, sorted with numeric parts in number order ("a.2" < "a.10").
    std::vector<std::string> keysWithPrefix(std::string_view prefix) const;
    /// Every key and string of this catalog.
    const std::map<std::string, std::string, std::less<>>& entries() const { return entries_; }
    /// Sets the catalog consulted for keys missing here.
    void setFallback(const Catalog* fallback) { fallback_ = fallback; }
    /// Keys that were asked for but missing here (filled as pages are rendered).
    std::vector<std::string> missing() const;
    /// Checks every string of this catalog as a message pattern; records the bad ones.
    void validate() const;
    /// "key: reason" for every string whose message format failed to parse or format.
    std::vector<std::string> badStrings() const;

    /// "1, 4 or 5" / "1, 4 and 5" in this language (ICU's list patterns: senet/site_list.hpp).
    std::string joinList(const std::vector<std::string>& items, bool orList) const;

private:
    std::string lang_;
    std::map<std::string, std::string, std::less<>> entries_;
    const Catalog* fallback_ = nullptr;
    mutable std::map<std::string, std::string, std::less<>> missing_;
    mutable std::map<std::string, std::string, std::less<>> bad_;  ///< key → why its format failed
    std::shared_ptr<MessageCache> formats_;                         ///< parsed formats of this language
};

/// Replaces every "{name}" in `text` with its value; unknown names stay as they are.
std::string substitute(std::string_view text, const std::vector<std::pair<std::string, std::string>>& params);
/// Escapes &, <, >, " and ' for HTML text and attribute values.
std::string escapeHtml(std::string_view text);

}  // namespace senet::site
