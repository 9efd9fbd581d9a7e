// A minimal JSON writer for the messages sent on every action: it appends straight to a string
// with no intermediate tree. Its output is byte for byte what nlohmann::json::dump() writes for
// the same value, as long as the caller writes each object's keys in sorted order (as
// nlohmann's std::map does); debug builds assert that order.
#pragma once

#include <cassert>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "utf8.hpp"

namespace senet::server::jsonout {

/// Appends `s` as a JSON string literal, escaped like nlohmann::json::dump() (UTF-8 kept).
/// Ill-formed UTF-8 is replaced with U+FFFD, as dump(-1, ' ', false, error_handler_t::replace)
/// does: the output is always valid UTF-8 and never throws.
inline void appendString(std::string& out, std::string_view s) {
    out += '"';
    std::size_t plain = 0;  // the common case: ASCII with nothing to escape, one append
    while (plain < s.size() && s[plain] != '"' && s[plain] != '\\' && static_cast<unsigned char>(s[plain]) >= 0x20 &&
           static_cast<unsigned char>(s[plain]) < 0x80)
        ++plain;
    out.append(s.data(), plain);
    for (std::size_t i = plain; i < s.size(); ++i) {
        const char c = s[i];
        if (static_cast<unsigned char>(c) >= 0x80) {
            const std::size_t n = utf8::sequenceLength(s, i);
            if (n == 0) {
                out += "\xef\xbf\xbd";
                i += utf8::invalidLength(s, i) - 1;
            } else {
                out.append(s.data() + i, n);
                i += n - 1;
            }
            continue;
        }
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    static constexpr char kHex[] = "0123456789abcdef";
                    out += "\\u00";
                    out += kHex[(c >> 4) & 0xf];
                    out += kHex[c & 0xf];
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

/// Appends an integer.
inline void appendInt(std::string& out, std::int64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

/// Writes one object: `{` on construction, members in the order called, `}` on destruction.
/// Nested values: call key() and then write the value (another Object, an array) directly.
class Object {
public:
    /// Opens an object at the end of `out`.
    explicit Object(std::string& out) : out_(out) { out_ += '{'; }
    /// Opens an object that also records, for each member in turn, the offset in `out` where it
    /// starts (its separator or its key's quote) into marks[0..], at most `capacity` of them.
    Object(std::string& out, std::uint32_t* marks, std::size_t capacity)
        : out_(out), marks_(marks), marksLeft_(capacity) {
        out_ += '{';
    }
    ~Object() { out_ += '}'; }
    Object(const Object&) = delete;
    Object& operator=(const Object&) = delete;

    /// Writes the separator and `"k":`; the caller writes the value next.
    Object& key(std::string_view k) {
        assert(first_ || last_ < k);  // sorted keys, like nlohmann's std::map
        mark();
        if (k.size() > 32) return longKey(k);  // keys are short names; no escaping needed
        char buf[36];
        std::size_t n = 0;
        if (!first_) buf[n++] = ',';
        buf[n++] = '"';
        std::memcpy(buf + n, k.data(), k.size());
        n += k.size();
        buf[n++] = '"';
        buf[n++] = ':';
        out_.append(buf, n);  // one append instead of four
        first_ = false;
#ifndef NDEBUG
        last_ = k;
#endif
        return *this;
    }
    /// An integer member.
    Object& num(std::string_view k, std::int64_t v) {
        key(k);
        appendInt(out_, v);
        return *this;
    }
    /// An integer member, or null.
    Object& optNum(std::string_view k, std::optional<std::int64_t> v) {
        key(k);
        if (v) appendInt(out_, *v);
        else out_ += "null";
        return *this;
    }
    /// A string member.
    Object& str(std::string_view k, std::string_view v) {
        key(k);
        appendString(out_, v);
        return *this;
    }
    /// A string member, or null when `v` is empty.
    Object& strOrNull(std::string_view k, std::string_view v) {
        if (v.empty()) return null(k);
        return str(k, v);
    }
    /// A boolean member.
    Object& boolean(std::string_view k, bool v) {
        key(k);
        out_ += v ? "true" : "false";
        return *this;
    }
    /// A null member.
    Object& null(std::string_view k) {
        key(k);
        out_ += "null";
        return *this;
    }
    /// A member whose value is already serialised JSON.
    Object& raw(std::string_view k, std::string_view json) {
        key(k);
        out_ += json;
        return *this;
    }

private:
    void mark() {
        if (!marksLeft_) return;
        *marks_++ = static_cast<std::uint32_t>(out_.size());
        --marksLeft_;
    }
    Object& longKey(std::string_view k) {
        if (!first_) out_ += ',';
        first_ = false;
        out_ += '"';
        out_ += k;
        out_ += "\":";
        return *this;
    }

    std::string& out_;
    std::uint32_t* marks_ = nullptr;
    std::size_t marksLeft_ = 0;
    std::string_view last_;
    bool first_ = true;
};

}  // namespace senet::server::jsonout
