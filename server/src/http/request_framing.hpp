// Strict request framing (RFC 9112 §6.1, §6.3, §5.2): the header fields that decide where a
// request's body ends must have one reading only, or a proxy in front and this server could
// split the same bytes into different requests (request smuggling). Checked on the raw header
// bytes before Beast's parser sees them: the parser alone accepts some of these forms.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace senet::server {

/// The first framing fault of `header` (a request's head: the request line and its fields, up to
/// and including or excluding the blank line that ends it; CRLF line ends), or nullopt when its
/// framing has one reading. A fault is any of: a field line that starts with a space or tab
/// (obs-fold), white space in or right after a field name, two Host fields, two Content-Length
/// fields, a Content-Length that is not digits only, both Transfer-Encoding and Content-Length,
/// a Transfer-Encoding other than one line that is exactly `chunked`
/// (case aside), a Transfer-Encoding in a request older than HTTP/1.1. The text is a short
/// English reason for the 400 answer ("two Host headers"). Never throws; O(size of header).
std::optional<std::string> framingFault(std::string_view header);

}  // namespace senet::server
