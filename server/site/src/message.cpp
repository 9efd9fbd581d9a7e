// ICU MessageFormat and percent formatting behind senet/site_message.hpp.
#include "senet/site_message.hpp"

#include <unicode/measunit.h>
#include <unicode/messagepattern.h>
#include <unicode/msgfmt.h>
#include <unicode/numberformatter.h>
#include <unicode/parseerr.h>
#include <unicode/unistr.h>

#include <cctype>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <unordered_map>

namespace senet::site {

namespace {

icu::UnicodeString unicode(std::string_view s) {
    return icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
}

std::string utf8(const icu::UnicodeString& s) {
    std::string out;
    s.toUTF8String(out);
    return out;
}

std::string parseErrorText(UErrorCode status, const UParseError& pe) {
    std::string text = u_errorName(status);
    if (pe.offset >= 0) text += " at offset " + std::to_string(pe.offset);
    return text;
}

/// True for "-?[0-9]{1,15}": a value ICU gets as a number.
std::optional<std::int64_t> asNumber(std::string_view v) {
    std::size_t i = (!v.empty() && v[0] == '-') ? 1 : 0;
    if (v.size() == i || v.size() - i > 15) return std::nullopt;
    for (std::size_t j = i; j < v.size(); ++j)
        if (!std::isdigit(static_cast<unsigned char>(v[j]))) return std::nullopt;
    return std::stoll(std::string(v));
}

std::unique_ptr<icu::MessageFormat> compile(std::string_view pattern, const icu::Locale& locale) {
    UErrorCode status = U_ZERO_ERROR;
    UParseError pe{};
    auto fmt = std::make_unique<icu::MessageFormat>(unicode(pattern), locale, pe, status);
    if (U_FAILURE(status)) throw std::invalid_argument("bad message format: " + parseErrorText(status, pe));
    UErrorCode st = U_ZERO_ERROR;
    if (icu::MessagePattern(unicode(pattern), nullptr, st).hasNumberedArguments())
        throw std::invalid_argument("bad message format: numbered arguments are not used here");
    return fmt;
}

std::string run(const icu::MessageFormat& fmt, const MessageParams& params) {
    std::vector<icu::UnicodeString> names;
    std::vector<icu::Formattable> values;
    names.reserve(params.size());
    values.reserve(params.size());
    for (const auto& [name, value] : params) {
        names.push_back(unicode(name));
        if (auto n = asNumber(value)) values.emplace_back(static_cast<int64_t>(*n));
        else values.emplace_back(unicode(value));
    }
    icu::UnicodeString out;
    UErrorCode status = U_ZERO_ERROR;
    fmt.format(names.data(), values.data(), static_cast<int32_t>(names.size()), out, status);
    if (U_FAILURE(status)) throw std::invalid_argument(std::string("message format failed: ") + u_errorName(status));
    return utf8(out);
}

}  // namespace

std::map<std::string, MessageArg> messageArguments(std::string_view pattern) {
    UErrorCode status = U_ZERO_ERROR;
    UParseError pe{};
    icu::MessagePattern mp(unicode(pattern), &pe, status);
    if (U_FAILURE(status)) throw std::invalid_argument("bad message format: " + parseErrorText(status, pe));
    if (mp.hasNumberedArguments()) throw std::invalid_argument("bad message format: numbered arguments are not used here");
    std::map<std::string, MessageArg> out;
    const int32_t count = mp.countParts();
    for (int32_t i = 0; i < count; ++i) {
        const icu::MessagePattern::Part& part = mp.getPart(i);
        if (part.getType() != UMSGPAT_PART_TYPE_ARG_START) continue;
        const UMessagePatternArgType type = part.getArgType();
        const std::string name = utf8(mp.getSubstring(mp.getPart(i + 1)));
        MessageArg& arg = out[name];
        if (type == UMSGPAT_ARG_TYPE_SELECT) arg.kind = ArgKind::Select;
        else if (type == UMSGPAT_ARG_TYPE_PLURAL || type == UMSGPAT_ARG_TYPE_SELECTORDINAL) arg.kind = ArgKind::Plural;
        else continue;
        // ARG_START, ARG_NAME, then (ARG_SELECTOR [numbers] MSG_START … MSG_LIMIT)* up to ARG_LIMIT.
        const int32_t limit = mp.getLimitPartIndex(i);
        for (int32_t j = i + 2; j < limit; ++j) {
            const icu::MessagePattern::Part& p = mp.getPart(j);
            if (p.getType() == UMSGPAT_PART_TYPE_ARG_SELECTOR) arg.selectors.push_back(utf8(mp.getSubstring(p)));
            else if (p.getType() == UMSGPAT_PART_TYPE_MSG_START) j = mp.getLimitPartIndex(j);
        }
    }
    return out;
}

/// The ICU locale a language's messages are formatted in: numbers always in Latin digits, as the
/// board's square numbers and the records' notation are (ICU's Arabic would write ٣ for 3).
static icu::Locale formatLocale(std::string_view lang) {
    icu::Locale locale(std::string(lang).c_str());
    UErrorCode status = U_ZERO_ERROR;
    locale.setKeywordValue("numbers", "latn", status);
    return locale;
}

std::string formatMessage(std::string_view pattern, std::string_view lang, const MessageParams& params) {
    const auto fmt = compile(pattern, formatLocale(lang));
    return run(*fmt, params);
}

std::string formatPercent(std::string_view lang, int weight, int total) {
    if (total <= 0 || weight < 0) throw std::invalid_argument("percent: needs 0 <= weight and 0 < total");
    // The site writes Latin digits in every language (the board, the throws, the odds beside
    // the percentage), so the locale's percent pattern and separators come with Latin digits.
    const icu::Locale locale((std::string(lang) + "@numbers=latn").c_str());
    UErrorCode status = U_ZERO_ERROR;
    const icu::UnicodeString out = icu::number::NumberFormatter::withLocale(locale)
                                       .unit(icu::MeasureUnit::getPercent())
                                       .precision(icu::number::Precision::maxFraction(2))
                                       .formatDouble(100.0 * weight / total, status)
                                       .toString(status);
    if (U_FAILURE(status)) throw std::invalid_argument(std::string("percent format failed: ") + u_errorName(status));
    return utf8(out);
}

struct MessageCache::Impl {
    icu::Locale locale;
    std::mutex mutex;  // ICU's MessageFormat is not documented as safe to share between threads
    /// Parsed formats by key; nullptr with the error text for a pattern that failed to parse.
    std::unordered_map<std::string, std::pair<std::unique_ptr<icu::MessageFormat>, std::string>> formats;
};

MessageCache::MessageCache(std::string lang) : impl_(std::make_unique<Impl>()) {
    impl_->locale = formatLocale(lang);
}

MessageCache::~MessageCache() = default;

std::string MessageCache::format(std::string_view key, std::string_view pattern, const MessageParams& params) {
    std::lock_guard lock(impl_->mutex);
    auto it = impl_->formats.find(std::string(key));
    if (it == impl_->formats.end()) {
        std::pair<std::unique_ptr<icu::MessageFormat>, std::string> entry;
        try {
            entry.first = compile(pattern, impl_->locale);
        } catch (const std::invalid_argument& e) {
            entry.second = e.what();
        }
        it = impl_->formats.emplace(std::string(key), std::move(entry)).first;
    }
    if (!it->second.first) throw std::invalid_argument(it->second.second);
    return run(*it->second.first, params);
}

}  // namespace senet::site
