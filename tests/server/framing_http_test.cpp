// Strict request framing on the real server: a request whose body's end has two readings is
// answered 400 and the connection closed, so the bytes after it are never read as a second
// request (request smuggling); bytes sent after a WebSocket upgrade request are refused, not lost.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fixture.hpp"
#include "raw_client.hpp"

namespace senet::testing {
namespace {

/// Every byte the server sends on `fd` until it closes the connection or `quiet` passes with
/// nothing new (readReply keeps one answer and drops what follows it in the same read).
std::string readUntilQuiet(int fd, std::chrono::milliseconds quiet) {
    std::string text;
    char buf[4096];
    pollfd p{fd, POLLIN, 0};
    while (poll(&p, 1, static_cast<int>(quiet.count())) > 0) {
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
}

/// How many status lines ("HTTP/1.1 NNN") `text` holds.
int answers(const std::string& text) {
    int n = 0;
    for (auto at = text.find("HTTP/1.1 "); at != std::string::npos; at = text.find("HTTP/1.1 ", at + 1)) ++n;
    return n;
}

class Framing : public ServerTest {
protected:
    /// Sends `request` and then a GET /healthz on one connection; the first answer must be 400
    /// naming `reason`, with Connection: close, and no second answer may follow.
    void expectRefusedAlone(const std::string& request, const std::string& reason) {
        SCOPED_TRACE(request.substr(0, 120));
        const int fd = rawConnect(port());
        ASSERT_GE(fd, 0);
        ASSERT_TRUE(writeAll(fd, request + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
        const std::string text = readUntilQuiet(fd, std::chrono::milliseconds(1500));
        EXPECT_EQ(text.rfind("HTTP/1.1 400 ", 0), 0u) << text;
        EXPECT_NE(text.find("\r\n\r\nbad request: " + reason + "\n"), std::string::npos) << text;
        EXPECT_NE(text.find("Connection: close\r\n"), std::string::npos) << text;
        EXPECT_EQ(answers(text), 1) << "a second answer came: " << text;
        ::close(fd);
    }
};

const std::string kPost = "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";

TEST_F(Framing, TransferEncodingOtherThanALoneChunkedIsRefused) {
    expectRefusedAlone(kPost + "Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n", "a Transfer-Encoding other than chunked");
    expectRefusedAlone(kPost + "Transfer-Encoding: identity\r\n\r\n", "a Transfer-Encoding other than chunked");
    expectRefusedAlone(kPost + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", "a Transfer-Encoding other than chunked");
    expectRefusedAlone(kPost + "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n",
                       "a Transfer-Encoding other than chunked");
}

TEST_F(Framing, BothFramingFieldsAreRefused) {
    expectRefusedAlone(kPost + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
                       "both Transfer-Encoding and Content-Length");
}

TEST_F(Framing, RepeatedHostOrLengthAndFoldedLinesAreRefused) {
    expectRefusedAlone("GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", "two Host headers");
    expectRefusedAlone(kPost + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", "two Content-Length headers");
    expectRefusedAlone("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n b\r\n\r\n", "a header line folded onto the one before");
    expectRefusedAlone(kPost + "Content-Length : 2\r\n\r\n{}", "white space in a header name");
}

TEST_F(Framing, AGoodChunkedRequestAndKeepAliveStillWork) {
    const int fd = rawConnect(port());
    ASSERT_GE(fd, 0);
    const std::string body = R"({"ruleset":"standard","opponent":"local"})";
    char size[16];
    std::snprintf(size, sizeof size, "%zx", body.size());
    ASSERT_TRUE(writeAll(fd, kPost + "Transfer-Encoding: chunked\r\n\r\n" + size + "\r\n" + body + "\r\n0\r\n\r\n" +
                                 "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    // Both answers, in order, however they arrive (together or apart).
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (answers(text) < 2 && std::chrono::steady_clock::now() < deadline) text += readUntilQuiet(fd, std::chrono::milliseconds(500));
    ASSERT_EQ(answers(text), 2) << text;
    EXPECT_EQ(text.rfind("HTTP/1.1 201 ", 0), 0u) << text;
    EXPECT_NE(text.find("HTTP/1.1 200 ", text.find("HTTP/1.1 ", 1)), std::string::npos) << text;
    ::close(fd);
}

TEST_F(Framing, AHeadJustOverTheLimitIs431NotUnchecked) {
    // 8,193 to 8,250 bytes once reached Beast's parser (whose limit counts otherwise) unchecked.
    for (std::size_t size : {8193u, 8195u, 8230u, 8260u}) {
        SCOPED_TRACE(size);
        std::string request = "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nX-L: ";
        request += std::string(size - request.size() - 4, 'a') + "\r\n\r\n";
        ASSERT_EQ(request.size(), size);
        EXPECT_EQ(rawExchange(port(), request).status, 431);
    }
    // At the limit, the framing check answers.
    std::string request = "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nX-L: ";
    request += std::string(8192 - request.size() - 4, 'a') + "\r\n\r\n";
    EXPECT_EQ(rawExchange(port(), request).status, 400);
}

TEST_F(Framing, AHeadLongerThanTheBufferIs431) {
    const RawReply huge = rawExchange(port(), "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + std::string(40000, 'p') + "\r\n\r\n");
    EXPECT_EQ(huge.status, 431);
}

TEST_F(Framing, AFrameSentWithTheUpgradeRequestIsRefusedNotDropped) {
    const NewGame g = createGame(port(), "standard", "local");
    const RawReply r = rawExchange(port(), upgradeRequest(port(), "/ws/games/" + g.id) + clientFrame(R"({"t":"hello","d":{}})"));
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.body, "bad request: data after the WebSocket upgrade request, before the handshake's answer\n");
    // Without the frame the same upgrade is accepted.
    EXPECT_EQ(rawExchange(port(), upgradeRequest(port(), "/ws/games/" + g.id)).status, 101);
}

}  // namespace
}  // namespace senet::testing
