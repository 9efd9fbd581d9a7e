#include "guest_name.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include "senet/fairness.hpp"

namespace senet::server::lobby {

namespace {

CheckedName refused(std::string reason, std::string message) { return CheckedName{"", NameError{std::move(reason), std::move(message)}}; }

bool asciiLetter(UChar32 c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool letterOrDigit(UChar32 c) { return (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_ND_MASK)) != 0; }

/// A dot between a letter or digit and two or more ASCII letters that end the word: "a.co", "senet.example".
bool domainLike(const std::u32string& s) {
    for (std::size_t i = 1; i + 2 < s.size() + 1; ++i) {
        if (s[i] != '.' || !letterOrDigit(static_cast<UChar32>(s[i - 1]))) continue;
        std::size_t n = 0;
        while (i + 1 + n < s.size() && asciiLetter(static_cast<UChar32>(s[i + 1 + n]))) ++n;
        const std::size_t end = i + 1 + n;
        if (n >= 2 && (end == s.size() || !letterOrDigit(static_cast<UChar32>(s[end])))) return true;
    }
    return false;
}

}  // namespace

CheckedName checkGuestName(std::string_view typed) {
    // Decode strictly: ill-formed UTF-8 is refused, not repaired.
    std::u32string points;
    for (std::int32_t i = 0, n = static_cast<std::int32_t>(typed.size()); i < n;) {
        UChar32 c;
        U8_NEXT(reinterpret_cast<const uint8_t*>(typed.data()), i, n, c);
        if (c < 0) return refused("character", "the name is not valid UTF-8");
        points.push_back(static_cast<char32_t>(c));
    }
    std::size_t begin = 0, end = points.size();
    while (begin < end && u_isUWhiteSpace(static_cast<UChar32>(points[begin]))) ++begin;
    while (end > begin && u_isUWhiteSpace(static_cast<UChar32>(points[end - 1]))) --end;
    if (begin == end) return CheckedName{};
    icu::UnicodeString text;
    for (std::size_t i = begin; i < end; ++i) text.append(static_cast<UChar32>(points[i]));
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
    if (U_FAILURE(status)) return refused("character", "the name could not be normalised");
    const icu::UnicodeString normal = nfc->normalize(text, status);
    if (U_FAILURE(status)) return refused("character", "the name could not be normalised");
    std::u32string cps;
    for (std::int32_t i = 0; i < normal.length();) {
        const UChar32 c = normal.char32At(i);
        cps.push_back(static_cast<char32_t>(c));
        i += U16_LENGTH(c);
    }
    if (static_cast<int>(cps.size()) > kMaxNameLength)
        return refused("too-long", "the name is too long: at most " + std::to_string(kMaxNameLength) + " characters");
    std::u32string lower;
    for (const char32_t c : cps) lower.push_back(static_cast<char32_t>(u_tolower(static_cast<UChar32>(c))));
    if (lower.find(U"://") != std::u32string::npos || lower.find(U"www.") != std::u32string::npos || domainLike(cps))
        return refused("link", "the name may not be or hold a link");
    bool afterBase = false;
    for (std::size_t i = 0; i < cps.size(); ++i) {
        const UChar32 c = static_cast<UChar32>(cps[i]);
        const auto mask = U_GET_GC_MASK(c);
        if (mask & (U_GC_L_MASK | U_GC_ND_MASK)) {
            afterBase = true;
        } else if (mask & U_GC_M_MASK) {
            if (!afterBase) return refused("character", "a combining mark must follow a letter or a digit");
        } else if (c == ' ') {
            if (i > 0 && cps[i - 1] == ' ') return refused("spaces", "the name may not have two spaces in a row");
            afterBase = false;
        } else if (c == '.' || c == '_' || c == '-') {
            afterBase = false;
        } else {
            return refused("character", "the name may hold only letters, digits, spaces and . _ -");
        }
    }
    std::string out;
    normal.toUTF8String(out);
    return CheckedName{std::move(out), {}};
}

std::string randomGuestName() {
    const auto bytes = fairness::randomBytes(2);
    const int n = 1000 + (bytes[0] << 8 | bytes[1]) % 9000;
    return "Guest " + std::to_string(n);
}

}  // namespace senet::server::lobby
