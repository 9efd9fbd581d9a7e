// Fuzz target: strict request framing (server/src/http/request_framing.hpp) against Beast's own
// parser. Input: a request head as raw bytes. Whatever it is, framingFault never crashes; and a
// head it lets through that Beast parses has one reading of where its body ends: at most one
// Host and one Content-Length field, no field line folded onto the one before, and a
// Transfer-Encoding only as the lone `chunked` Beast reads as chunked, never beside a length.
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.hpp"
#include "request_framing.hpp"

namespace http = boost::beast::http;
using senet::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view head(reinterpret_cast<const char*>(data), size);
    const auto fault = senet::server::framingFault(head);
    check(fault == senet::server::framingFault(head), "framingFault is not deterministic");
    if (fault) {
        check(!fault->empty() && fault->size() < 80, "a fault's reason is a short sentence");
        return 0;
    }
    // No folded line: after the request line (empty lines before it are allowed), no field line
    // starts with a space or a tab before the blank line.
    std::size_t start = 0;
    while (head.compare(start, 2, "\r\n") == 0) start += 2;
    for (std::size_t at = head.find("\r\n", start); at != std::string_view::npos && at + 2 < head.size();
         at = head.find("\r\n", at + 2)) {
        if (head.compare(at + 2, 2, "\r\n") == 0) break;
        check(head[at + 2] != ' ' && head[at + 2] != '\t', "a folded header line was let through", head);
    }
    http::request_parser<http::empty_body> parser;
    parser.eager(false);
    boost::beast::error_code ec;
    parser.put(boost::asio::buffer(head.data(), head.size()), ec);
    if (ec || !parser.is_header_done()) return 0;
    const auto& req = parser.get();
    check(req.count(http::field::host) <= 1, "two Host fields were let through");
    check(req.count(http::field::content_length) <= 1, "two Content-Length fields were let through");
    if (req.count(http::field::transfer_encoding) > 0) {
        check(req.count(http::field::content_length) == 0, "Transfer-Encoding beside Content-Length was let through");
        check(parser.chunked(), "a Transfer-Encoding Beast does not read as chunked was let through");
    }
    return 0;
}
