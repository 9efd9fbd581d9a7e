#include "request_framing.hpp"

#include <cctype>

namespace senet::server {

namespace {

bool equalsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

/// `text` without the optional white space (SP, HTAB) at either end.
std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

/// The fields that frame a request, as counted over its head.
struct Framing {
    int host = 0, contentLength = 0, transferEncoding = 0;
    std::string transferCodings;  ///< every Transfer-Encoding line's value, joined by commas
    bool http11 = false;          ///< the request line ends in HTTP/1.1
};

/// Reads one field line into `framing`; the fault of the line itself, if any.
std::optional<std::string> readField(std::string_view line, Framing& framing) {
    if (line.front() == ' ' || line.front() == '\t') return "a header line folded onto the one before";
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) return "a header line without a colon";
    const std::string_view name = line.substr(0, colon);
    if (name.empty()) return "a header line without a name";
    for (char c : name)
        if (c == ' ' || c == '\t') return "white space in a header name";
    const std::string_view value = trimmed(line.substr(colon + 1));
    if (equalsNoCase(name, "host")) {
        if (++framing.host > 1) return "two Host headers";
    } else if (equalsNoCase(name, "content-length")) {
        if (++framing.contentLength > 1) return "two Content-Length headers";
        if (value.empty()) return "a Content-Length that is not a number";
        for (char c : value)
            if (c < '0' || c > '9') return "a Content-Length that is not a number";
    } else if (equalsNoCase(name, "transfer-encoding")) {
        ++framing.transferEncoding;
        if (!framing.transferCodings.empty()) framing.transferCodings += ',';
        framing.transferCodings.append(value.data(), value.size());
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> framingFault(std::string_view header) {
    Framing framing;
    bool requestLine = true;
    while (!header.empty()) {
        const auto end = header.find("\r\n");
        const std::string_view line = header.substr(0, end);
        header.remove_prefix(end == std::string_view::npos ? header.size() : end + 2);
        if (requestLine) {
            // Empty lines before the request line are skipped here (RFC 9112 §2.2 allows them; Beast
            // refuses them, which is no second reading); the line itself is Beast's to judge.
            if (!line.empty()) {
                requestLine = false;
                framing.http11 = line.ends_with(" HTTP/1.1");
            }
            continue;
        }
        if (line.empty()) break;  // the end of the head
        if (auto fault = readField(line, framing)) return fault;
    }
    if (framing.transferEncoding > 0) {
        if (framing.contentLength > 0) return "both Transfer-Encoding and Content-Length";
        // One line, exactly `chunked`: no list, no empty elements, nothing another reader could weigh differently.
        if (framing.transferEncoding > 1 || !equalsNoCase(trimmed(framing.transferCodings), "chunked"))
            return "a Transfer-Encoding other than chunked";
        // RFC 9112 §6.1: in an HTTP/1.0 message the framing is faulty.
        if (!framing.http11) return "a Transfer-Encoding in a request older than HTTP/1.1";
    }
    return std::nullopt;
}

}  // namespace senet::server
