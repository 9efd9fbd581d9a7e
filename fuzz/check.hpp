// Invariant checks shared by the fuzz targets: a failed check prints what was wrong and aborts,
// which libFuzzer reports as a crash and saves the input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace senet::fuzz {

/// Prints `what` and the offending text (cut to 2,000 bytes) to stderr, then aborts.
[[noreturn]] inline void fail(std::string_view what, std::string_view text = {}) {
    std::fprintf(stderr, "INVARIANT FAILED: %.*s\n", static_cast<int>(what.size()), what.data());
    if (!text.empty()) {
        const std::string_view cut = text.substr(0, 2000);
        std::fprintf(stderr, "  text (%zu bytes): %.*s\n", text.size(), static_cast<int>(cut.size()), cut.data());
    }
    std::abort();
}

/// Aborts with `what` unless `ok`.
inline void check(bool ok, std::string_view what, std::string_view text = {}) {
    if (!ok) fail(what, text);
}

/// Whether `s` is valid UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
inline bool validUtf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        int n = 0;
        unsigned cp = 0;
        if (c < 0x80) { ++i; continue; }
        if (c >= 0xC2 && c <= 0xDF) { n = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { n = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { n = 3; cp = c & 0x07; }
        else return false;
        for (int k = 1; k <= n; ++k) {
            if (i + k >= s.size()) return false;
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += n + 1;
    }
    return true;
}

/// Parses `text` as strict JSON (which also rejects invalid UTF-8 in strings); aborts with
/// `what` when it is not. Returns the value.
inline nlohmann::json parseJson(std::string_view text, std::string_view what) {
    check(validUtf8(text), std::string(what) + ": not valid UTF-8", text);
    nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    check(!j.is_discarded(), std::string(what) + ": not valid JSON", text);
    return j;
}

/// Checks that `frame` is a server message: `{"t":TYPE,"d":DATA}` as valid UTF-8 JSON, written
/// exactly as nlohmann::json would write it (PROTOCOL.md: the clients may compare bytes).
/// Returns the parsed message.
inline nlohmann::json checkServerFrame(std::string_view frame) {
    nlohmann::json m = parseJson(frame, "server frame");
    check(m.is_object() && m.size() == 2 && m.contains("t") && m["t"].is_string() && m.contains("d") && m["d"].is_object(),
          "server frame: not {\"t\":string,\"d\":object}", frame);
    check("{\"t\":" + m["t"].dump() + ",\"d\":" + m["d"].dump() + "}" == frame, "server frame: not canonical JSON", frame);
    return m;
}

}  // namespace senet::fuzz
