// UTF-8 helpers for every text the server cuts or writes: cuts land on character boundaries,
// and invalid input is replaced with U+FFFD instead of making a JSON writer throw.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace senet::server::utf8 {

/// The length (1-4) of the well-formed UTF-8 sequence starting at `s[i]`, or 0 when the bytes
/// there are not one (stray continuation byte, overlong form, surrogate, above U+10FFFF, cut short).
inline std::size_t sequenceLength(std::string_view s, std::size_t i) {
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = at(i);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xbf;  // allowed range of the second byte (Unicode Table 3-7)
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0) lo = 0xa0;
        if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0) lo = 0x90;
        if (c == 0xf4) hi = 0x8f;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    if (at(i + 1) < lo || at(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if ((at(i + k) & 0xc0) != 0x80) return 0;
    return n;
}

/// Where `sequenceLength(s, i)` is 0: how many bytes one U+FFFD replaces (the maximal
/// subpart of a sequence, as Unicode recommends and nlohmann::json's replace handler does).
inline std::size_t invalidLength(std::string_view s, std::size_t i) {
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = at(i);
    if (c < 0xc2 || c > 0xf4) return 1;
    const std::size_t n = c <= 0xdf ? 2 : c <= 0xef ? 3 : 4;
    const unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
    const unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    std::size_t k = 1;
    if (i + k < s.size() && at(i + k) >= lo && at(i + k) <= hi) ++k;
    else return 1;
    while (k < n && i + k < s.size() && (at(i + k) & 0xc0) == 0x80) ++k;
    return k;
}

/// The longest prefix of `s` of at most `maxBytes` bytes that does not end inside a
/// character: the one place where the server cuts text. (Invalid bytes count as one character.)
inline std::string_view cut(std::string_view s, std::size_t maxBytes) {
    if (s.size() <= maxBytes) return s;
    std::size_t end = 0;
    while (end < maxBytes) {
        const std::size_t n = std::max<std::size_t>(1, sequenceLength(s, end));
        if (end + n > maxBytes) break;
        end += n;
    }
    return s.substr(0, end);
}

/// Whether `s` is well-formed UTF-8.
inline bool valid(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = sequenceLength(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

/// `s` with every ill-formed byte replaced by U+FFFD (the bytes EF BF BD).
inline std::string sanitize(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = sequenceLength(s, i);
        if (n == 0) {
            out += "\xef\xbf\xbd";
            i += invalidLength(s, i);
        } else {
            out.append(s.data() + i, n);
            i += n;
        }
    }
    return out;
}

}  // namespace senet::server::utf8
