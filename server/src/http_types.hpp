// Plain HTTP request/response values for the router, the API and the static files, so that
// only the session code depends on Beast.
#pragma once

#include <string>
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
