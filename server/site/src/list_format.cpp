// ICU ListFormatter behind senet/site_list.hpp.
#include "senet/site_list.hpp"

#include <unicode/listformatter.h>
#include <unicode/unistr.h>

#include <memory>

namespace senet::site {

std::string listLocale(std::string_view lang) { return lang == "en" ? "en-GB" : std::string(lang); }

std::string formatList(std::string_view lang, const std::vector<std::string>& items, bool orList) {
    if (items.empty()) return "";
    if (items.size() == 1) return items[0];
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::ListFormatter> lf(icu::ListFormatter::createInstance(
        icu::Locale(listLocale(lang).c_str()), orList ? ULISTFMT_TYPE_OR : ULISTFMT_TYPE_AND, ULISTFMT_WIDTH_WIDE, status));
    std::vector<icu::UnicodeString> parts;
    parts.reserve(items.size());
    for (const std::string& s : items) parts.push_back(icu::UnicodeString::fromUTF8(s));
    icu::UnicodeString out;
    if (U_SUCCESS(status) && lf) lf->format(parts.data(), static_cast<int32_t>(parts.size()), out, status);
    if (U_FAILURE(status) || !lf) {
        // Without ICU data: a plain comma list, which every reader can still follow.
        std::string plain = items[0];
        for (std::size_t i = 1; i < items.size(); ++i) plain += ", " + items[i];
        return plain;
    }
    std::string text;
    out.toUTF8String(text);
    return text;
}

}  // namespace senet::site
