// ICU MessageFormat for the catalogs' strings: named arguments, plural and select, the same
// syntax the browser formats with intl-messageformat (web/src/shared/i18n.ts); and percentages in
// each language's own pattern.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace senet::site {

/// Named values for a message: "count" → "3". A value made only of digits (with an optional
/// leading '-') is passed to ICU as a number, so plural selects on it; any other as text.
using MessageParams = std::vector<std::pair<std::string, std::string>>;

/// How a pattern uses one of its arguments.
enum class ArgKind {
    Simple,  ///< {name} or {name, number}
    Plural,  ///< {name, plural, ...} or selectordinal
    Select,  ///< {name, select, ...}
};

/// One argument of a pattern: its kind, and for a select (or plural) the selectors it lists.
struct MessageArg {
    ArgKind kind = ArgKind::Simple;
    std::vector<std::string> selectors;  ///< "one", "other", "=0", "you"… in the order written
};

/// The named arguments of an ICU MessageFormat pattern, by name (nested ones included).
/// Throws std::invalid_argument with ICU's error and the offset on bad syntax, or when the
/// pattern uses numbered arguments ({0}).
std::map<std::string, MessageArg> messageArguments(std::string_view pattern);

/// Formats `pattern` once, in the locale `lang`. Throws std::invalid_argument on bad syntax or
/// when ICU fails to format. Arguments the pattern does not use are ignored; one it uses but
/// `params` lacks stays as "{name}" in the text.
std::string formatMessage(std::string_view pattern, std::string_view lang, const MessageParams& params);

/// `weight / total` as a percentage the way the language `lang` writes one (CLDR's percent
/// pattern through ICU, at most two decimals, Latin digits): "37.5%" in English and Polish,
/// "37,5 %" with a no-break space in Finnish, German and French. Throws std::invalid_argument when `total`
/// is not positive, `weight` is negative or ICU fails.
std::string formatPercent(std::string_view lang, int weight, int total);

/// Parsed formats of one language, kept by key so each pattern is parsed once. Thread-safe.
class MessageCache {
public:
    explicit MessageCache(std::string lang);
    ~MessageCache();
    MessageCache(const MessageCache&) = delete;
    MessageCache& operator=(const MessageCache&) = delete;

    /// Formats `pattern`, cached under `key` (a key must always come with the same pattern).
    /// Throws std::invalid_argument like formatMessage; a failed parse is remembered too.
    std::string format(std::string_view key, std::string_view pattern, const MessageParams& params);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace senet::site
