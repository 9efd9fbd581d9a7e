// Lists of words in a language ("1, 4 or 5", "1 و3 و5") with ICU's ListFormatter (CLDR data),
// the same data the browser's Intl.ListFormat uses (web/src/shared/i18n.ts, formatList).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace senet::site {

/// The locale whose list patterns a site language uses: the language itself, except English,
/// which the site writes in British style ("1, 4 and 5", no serial comma) → "en-GB".
std::string listLocale(std::string_view lang);

/// Joins `items` (UTF-8) into one phrase of the language `lang` ("en", "ar", …): "and" lists
/// when `orList` is false, "or" lists when true. Empty for no items, the item for one. Never
/// throws: a language ICU has no data for falls back to ICU's root patterns.
std::string formatList(std::string_view lang, const std::vector<std::string>& items, bool orList);

}  // namespace senet::site
