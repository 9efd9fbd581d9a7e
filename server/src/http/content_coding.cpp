#include "content_coding.hpp"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <zlib.h>

#include <array>
#include <cstdio>

namespace senet::server {

namespace {

constexpr std::string_view kSpace = " \t";

std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(kSpace);
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}

/// RFC 9110 tchar.
bool isTokenChar(char c) {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
    return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

/// An RFC 9110 qvalue in thousandths ("0.5" → 500); nullopt when it does not follow the grammar.
std::optional<int> parseQ(std::string_view v) {
    if (v.empty() || (v[0] != '0' && v[0] != '1')) return std::nullopt;
    int q = (v[0] - '0') * 1000;
    if (v.size() == 1) return q;
    if (v[1] != '.' || v.size() > 5) return std::nullopt;
    int scale = 100;
    for (std::size_t i = 2; i < v.size(); ++i, scale /= 10) {
        if (v[i] < '0' || v[i] > '9') return std::nullopt;
        q += (v[i] - '0') * scale;
    }
    return q > 1000 ? std::nullopt : std::optional<int>(q);
}

/// One element of Accept-Encoding: the coding token and its q in thousandths; nullopt when
/// the element does not parse.
std::optional<std::pair<std::string_view, int>> parseElement(std::string_view element) {
    const std::size_t semi = element.find(';');
    const std::string_view token = trim(element.substr(0, semi));
    if (token.empty()) return std::nullopt;
    for (char c : token)
        if (!isTokenChar(c)) return std::nullopt;
    int q = 1000;
    bool sawQ = false;
    std::size_t at = semi;
    while (at != std::string_view::npos) {
        const std::size_t next = element.find(';', at + 1);
        const std::string_view param = trim(element.substr(at + 1, next == std::string_view::npos ? std::string_view::npos : next - at - 1));
        const std::size_t eq = param.find('=');
        if (eq == std::string_view::npos || sawQ || !equalsIgnoreCase(trim(param.substr(0, eq)), "q")) return std::nullopt;
        const auto value = parseQ(trim(param.substr(eq + 1)));
        if (!value) return std::nullopt;
        q = *value;
        sawQ = true;
        at = next;
    }
    return std::make_pair(token, q);
}

}  // namespace

std::string_view codingName(Coding coding) {
    switch (coding) {
        case Coding::Gzip: return "gzip";
        case Coding::Brotli: return "br";
        case Coding::Identity: break;
    }
    return "";
}

Coding chooseCoding(std::string_view header, bool haveGzip, bool haveBrotli) {
    // q in thousandths per coding; -1 = not listed (the first listing of a coding counts).
    int br = -1, gzip = -1, identity = -1, star = -1;
    std::size_t start = 0;
    while (start <= header.size()) {
        const std::size_t comma = std::min(header.find(',', start), header.size());
        const std::string_view element = trim(header.substr(start, comma - start));
        start = comma + 1;
        if (element.empty()) continue;  // "a, , b": empty list elements are allowed
        const auto parsed = parseElement(element);
        if (!parsed) continue;
        const auto& [token, q] = *parsed;
        int* slot = equalsIgnoreCase(token, "br")                                         ? &br
                    : equalsIgnoreCase(token, "gzip") || equalsIgnoreCase(token, "x-gzip") ? &gzip
                    : equalsIgnoreCase(token, "identity")                                  ? &identity
                    : token == "*"                                                         ? &star
                                                                                           : nullptr;
        if (slot && *slot < 0) *slot = q;
    }
    // Doubled so that an unlisted identity (1) sits below every listed positive q (≥ 2).
    auto effective = [&](int listed, int unlisted) { return listed >= 0 ? 2 * listed : star >= 0 ? 2 * star : unlisted; };
    const int qBr = haveBrotli ? effective(br, 0) : 0;
    const int qGzip = haveGzip ? effective(gzip, 0) : 0;
    const int qIdentity = effective(identity, 1);
    if (qBr > 0 && qBr >= qGzip && qBr >= qIdentity) return Coding::Brotli;
    if (qGzip > 0 && qGzip >= qIdentity) return Coding::Gzip;
    return Coding::Identity;
}

std::optional<std::string> gzipCompress(std::string_view data, int level) {
    z_stream z{};
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return std::nullopt;
    std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    const auto written = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) return std::nullopt;
    out.resize(written);
    return out;
}

std::optional<std::string> brotliCompress(std::string_view data, int quality) {
    std::size_t size = BrotliEncoderMaxCompressedSize(data.size());
    if (size == 0) size = data.size() + 1024;
    std::string out(size, '\0');
    if (!BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, data.size(),
                               reinterpret_cast<const std::uint8_t*>(data.data()), &size, reinterpret_cast<std::uint8_t*>(out.data())))
        return std::nullopt;
    out.resize(size);
    return out;
}

std::optional<std::string> gunzip(std::string_view data, std::size_t limit) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK) return std::nullopt;
    std::string out;
    std::array<char, 16384> chunk;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    bool ok = !data.empty();
    while (ok) {
        z.next_out = reinterpret_cast<Bytef*>(chunk.data());
        z.avail_out = static_cast<uInt>(chunk.size());
        const int rc = inflate(&z, Z_NO_FLUSH);
        out.append(chunk.data(), chunk.size() - z.avail_out);
        if (out.size() > limit) ok = false;
        else if (rc == Z_STREAM_END) {
            if (z.avail_in == 0) break;
            ok = inflateReset(&z) == Z_OK;  // another member follows
        } else if (rc != Z_OK || (z.avail_in == 0 && z.avail_out != 0)) {
            ok = false;  // an error, or the input ended inside a member
        }
    }
    inflateEnd(&z);
    if (!ok) return std::nullopt;
    return out;
}

std::optional<std::string> brotliDecompress(std::string_view data, std::size_t limit) {
    BrotliDecoderState* state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
    if (!state) return std::nullopt;
    std::string out;
    std::array<std::uint8_t, 16384> chunk;
    const auto* in = reinterpret_cast<const std::uint8_t*>(data.data());
    std::size_t availIn = data.size();
    bool ok = true;
    while (true) {
        auto* next = chunk.data();
        std::size_t availOut = chunk.size();
        const auto rc = BrotliDecoderDecompressStream(state, &availIn, &in, &availOut, &next, nullptr);
        out.append(reinterpret_cast<const char*>(chunk.data()), chunk.size() - availOut);
        if (out.size() > limit) { ok = false; break; }
        if (rc == BROTLI_DECODER_RESULT_SUCCESS) { ok = availIn == 0; break; }
        if (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) continue;
        ok = false;  // an error, or the input ended early
        break;
    }
    BrotliDecoderDestroyInstance(state);
    if (!ok) return std::nullopt;
    return out;
}

std::string entityTag(std::string_view content, Coding coding) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : content) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "\"%016llx-%zx%s%s\"", static_cast<unsigned long long>(h), content.size(),
                  coding == Coding::Identity ? "" : "-", coding == Coding::Gzip ? "gz" : coding == Coding::Brotli ? "br" : "");
    return buf;
}

bool noneMatchHits(std::string_view header, std::string_view etag) {
    const std::string_view value = trim(header);
    if (value == "*") return true;
    const std::string_view wanted = etag.starts_with("W/") ? etag.substr(2) : etag;
    std::size_t i = 0;
    bool hit = false;
    while (i < value.size()) {
        while (i < value.size() && (value[i] == ' ' || value[i] == '\t' || value[i] == ',')) ++i;
        if (i >= value.size()) break;
        if (value.substr(i, 2) == "W/") i += 2;
        if (i >= value.size() || value[i] != '"') return false;
        const std::size_t close = value.find('"', i + 1);
        if (close == std::string_view::npos) return false;
        const std::string_view tag = value.substr(i, close - i + 1);
        for (char c : tag.substr(1, tag.size() - 2))
            if (static_cast<unsigned char>(c) < 0x21 || c == 0x7f) return false;
        hit = hit || tag == wanted;
        i = close + 1;
        while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
        if (i < value.size() && value[i] != ',') return false;
    }
    return hit;
}

}  // namespace senet::server
