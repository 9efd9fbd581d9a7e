// Strict request framing (request_framing.hpp): each fault that would let two readers split a
// request differently is named; ordinary heads pass.
#include "request_framing.hpp"

#include <gtest/gtest.h>

#include <string>

namespace senet::server {
namespace {

/// A POST head with `fields` (each "Name: value\r\n") after its Host line.
std::string head(const std::string& fields) { return "POST /api/games HTTP/1.1\r\nHost: example\r\n" + fields + "\r\n"; }

TEST(Framing, OrdinaryHeadsPass) {
    EXPECT_EQ(framingFault("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), std::nullopt);
    EXPECT_EQ(framingFault("GET / HTTP/1.0\r\n\r\n"), std::nullopt);
    EXPECT_EQ(framingFault(head("Content-Length: 12\r\n")), std::nullopt);
    EXPECT_EQ(framingFault(head("Content-Length:   0 \r\n")), std::nullopt);
    EXPECT_EQ(framingFault(head("Transfer-Encoding: chunked\r\n")), std::nullopt);
    EXPECT_EQ(framingFault(head("transfer-encoding: CHUNKED\r\n")), std::nullopt);
    EXPECT_EQ(framingFault(head("Transfer-Encoding: \tchunked \r\n")), std::nullopt);
    // List fields other than the framing ones may repeat; values may hold white space and colons.
    EXPECT_EQ(framingFault(head("Accept-Encoding: gzip\r\nAccept-Encoding: br\r\nX-Time: 12:00 noon\r\n")), std::nullopt);
    // An empty line before the request line is allowed; the head may come without its blank line.
    EXPECT_EQ(framingFault("\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"), std::nullopt);
    EXPECT_EQ(framingFault("GET / HTTP/1.1\r\nHost: x\r\n"), std::nullopt);
    // What follows the blank line is the body or the next request, not fields.
    EXPECT_EQ(framingFault("GET / HTTP/1.1\r\nHost: x\r\n\r\nHost: y\r\n\r\n"), std::nullopt);
}

TEST(Framing, EveryTransferEncodingButALoneChunkedIsRefused) {
    for (const char* value : {"chunked, identity", "identity", "gzip, chunked", "chunked, chunked", "chunked;q=1", "",
                              "chunkedx", "x-chunked", ", chunked", "chunked,"}) {
        SCOPED_TRACE(value);
        EXPECT_EQ(framingFault(head(std::string("Transfer-Encoding: ") + value + "\r\n")),
                  std::optional<std::string>("a Transfer-Encoding other than chunked"));
    }
    // Over several lines, as one list.
    EXPECT_EQ(framingFault(head("Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n")),
              std::optional<std::string>("a Transfer-Encoding other than chunked"));
    EXPECT_EQ(framingFault(head("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n")),
              std::optional<std::string>("a Transfer-Encoding other than chunked"));
}

TEST(Framing, ATransferEncodingBeforeHttp11IsRefused) {
    EXPECT_EQ(framingFault("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"),
              std::optional<std::string>("a Transfer-Encoding in a request older than HTTP/1.1"));
    EXPECT_EQ(framingFault("POST / HTTP/1.0\r\nContent-Length: 2\r\n\r\n"), std::nullopt);
}

TEST(Framing, BothTransferEncodingAndContentLengthAreRefused) {
    const auto both = std::optional<std::string>("both Transfer-Encoding and Content-Length");
    EXPECT_EQ(framingFault(head("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n")), both);
    EXPECT_EQ(framingFault(head("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n")), both);
}

TEST(Framing, RepeatedHostOrContentLengthAndBadLengthsAreRefused) {
    EXPECT_EQ(framingFault(head("Host: other\r\n")), std::optional<std::string>("two Host headers"));
    EXPECT_EQ(framingFault(head("host: example\r\n")), std::optional<std::string>("two Host headers"));
    EXPECT_EQ(framingFault(head("Content-Length: 3\r\nContent-Length: 3\r\n")),
              std::optional<std::string>("two Content-Length headers"));
    for (const char* value : {"3, 3", "-1", "+3", "0x10", "3 3", ""}) {
        SCOPED_TRACE(value);
        EXPECT_EQ(framingFault(head(std::string("Content-Length: ") + value + "\r\n")),
                  std::optional<std::string>("a Content-Length that is not a number"));
    }
}

TEST(Framing, FoldedLinesAndMalformedNamesAreRefused) {
    EXPECT_EQ(framingFault(head("X-Note: one\r\n two\r\n")), std::optional<std::string>("a header line folded onto the one before"));
    EXPECT_EQ(framingFault(head("X-Note: one\r\n\ttwo\r\n")), std::optional<std::string>("a header line folded onto the one before"));
    // A fold that would hide a second Host from a reader that unfolds it.
    EXPECT_EQ(framingFault("GET / HTTP/1.1\r\n Host: x\r\n\r\n"), std::optional<std::string>("a header line folded onto the one before"));
    EXPECT_EQ(framingFault(head("Content-Length : 3\r\n")), std::optional<std::string>("white space in a header name"));
    EXPECT_EQ(framingFault(head("Transfer Encoding: chunked\r\n")), std::optional<std::string>("white space in a header name"));
    EXPECT_EQ(framingFault(head("no colon here\r\n")), std::optional<std::string>("a header line without a colon"));
    EXPECT_EQ(framingFault(head(": value\r\n")), std::optional<std::string>("a header line without a name"));
}

}  // namespace
}  // namespace senet::server
