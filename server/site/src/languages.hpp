// The site's languages (web/po/languages.txt) and Accept-Language negotiation.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace senet::site {

/// One language of the site: its code (the catalog is po/CODE.po) and writing direction.
struct Language {
    std::string code;
    std::string dir;  ///< "ltr" or "rtl"
};

/// Reads the language list: one "CODE DIR" a line, '#' starts a comment. The first language is
/// the default. Throws std::runtime_error (with the line number) when the file is missing,
/// a line is malformed, a code repeats or the list is empty.
std::vector<Language> readLanguages(const std::filesystem::path& file);

/// The best of `codes` for an Accept-Language value: ranges with q-values (RFC 9110), a
/// region or script range falls back to its primary language ("de-AT" → "de"), the highest q
/// wins and the earlier range wins a tie; q=0 excludes. `codes.front()` when none fits.
std::string negotiateLanguage(std::string_view header, const std::vector<std::string>& codes);

}  // namespace senet::site
