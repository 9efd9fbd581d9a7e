// Plain HTTP request/response values for the router, the API and the static files, so that
// only the session code depends on Beast.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace senet::server {

/// The parts of a request the handlers read.
struct Request {
    std::string method;          ///< "GET", "POST", ...
    std::string target;          ///< path and query, as sent
    std::string body;
    std::string acceptLanguage;
    std::string acceptEncoding;
    std::string contentType;
    std::string ifNoneMatch;     ///< If-None-Match, for a 304 (static files and pages)
    /// The client's address (canonical text): the socket's peer, or the X-Forwarded-For client
    /// when the peer is a --trusted-proxy. The limits of admission.hpp are kept per address.
    std::string remoteAddress;
};

/// A response before serialisation. Security headers are added by the session.
struct Response {
    int status = 200;
    std::string contentType = "text/plain; charset=utf-8";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  ///< extra headers (Location, Cache-Control, ...)
    /// The CSP source ('sha256-BASE64') of an inline script the body runs, empty for none: the
    /// Content-Security-Policy's script-src allows it (net/security_headers.hpp).
    std::string inlineScriptHash;
    /// When set, the body to send instead of `body`: immutable bytes shared with a cache (the
    /// static files, the compressed pages), sent without a copy.
    std::shared_ptr<const std::string> sharedBody;

    /// The bytes to send: `*sharedBody` when set, else `body`.
    std::string_view content() const { return sharedBody ? std::string_view(*sharedBody) : std::string_view(body); }
};

/// A JSON response with `status`.
inline Response jsonResponse(int status, std::string body) {
    Response r;
    r.status = status;
    r.contentType = "application/json";
    r.body = std::move(body);
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

}  // namespace senet::server
