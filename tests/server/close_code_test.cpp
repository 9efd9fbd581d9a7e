// A client's close frame on the real server (RFC 6455 §5.5.1, §7.4): a code the protocol allows
// is echoed, a close without a code is answered with 1000, and every other code with 1002
// (protocol error): those Beast refuses itself (below 1000, 1004–1006, 1014–2999) and those it
// would echo (5000 to 65535), whole or split over many packets.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "fixture.hpp"
#include "raw_client.hpp"

namespace senet::testing {
namespace {

/// Every byte the server sends on `fd` until it closes the connection or 5 s pass with nothing new.
std::string readToEnd(int fd) {
    std::string text;
    char buf[4096];
    pollfd p{fd, POLLIN, 0};
    while (poll(&p, 1, 5000) > 0) {
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
}

/// The two bytes of a close code, big-endian (RFC 6455 §5.5.1).
std::string codeBytes(int code) { return {static_cast<char>(code >> 8), static_cast<char>(code & 0xff)}; }

class CloseCodes : public ServerTest {
protected:
    void SetUp() override {
        ServerTest::SetUp();
        game_ = createGame(port(), "standard", "local").id;
    }

    /// Opens a WebSocket on the game, sends a close frame with `payload` (in one write, or a
    /// byte a write when `split`), and returns the code of the server's close frame: -1 when
    /// none came, 0 when it had no code.
    int answerTo(const std::string& payload, bool split = false) {
        const int fd = rawConnect(port());
        EXPECT_GE(fd, 0);
        if (fd < 0) return -1;
        EXPECT_TRUE(writeAll(fd, upgradeRequest(port(), "/ws/games/" + game_)));
        const std::string frame = clientFrame(payload, 8);
        // The 101 answer comes before any frame is written: the upgrade must not carry one.
        std::string got;
        char buf[4096];
        pollfd p{fd, POLLIN, 0};
        while (got.find("\r\n\r\n") == std::string::npos && poll(&p, 1, 5000) > 0) {
            const ssize_t n = recv(fd, buf, sizeof buf, 0);
            if (n <= 0) break;
            got.append(buf, static_cast<std::size_t>(n));
        }
        EXPECT_EQ(got.rfind("HTTP/1.1 101", 0), 0u) << got;
        if (split) {
            for (char c : frame) {
                EXPECT_TRUE(writeAll(fd, std::string(1, c)));
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        } else {
            EXPECT_TRUE(writeAll(fd, frame));
        }
        const std::string rest = got.substr(got.find("\r\n\r\n") + 4) + readToEnd(fd);
        ::close(fd);
        // The server's frames are unmasked: 0x88, the length, then the code.
        const auto at = rest.find('\x88');
        if (at == std::string::npos || rest.size() < at + 2) return -1;
        const auto length = static_cast<unsigned char>(rest[at + 1]);
        if (length == 0) return 0;
        if (length < 2 || rest.size() < at + 4) return -1;
        return (static_cast<unsigned char>(rest[at + 2]) << 8) | static_cast<unsigned char>(rest[at + 3]);
    }

    std::string game_;
};

TEST_F(CloseCodes, AllowedCodesAreEchoed) {
    for (int code : {1000, 1001, 1003, 1007, 1011, 1013, 3000, 4000, 4999}) EXPECT_EQ(answerTo(codeBytes(code)), code) << code;
    EXPECT_EQ(answerTo(codeBytes(4999) + "bye", true), 4999);
}

TEST_F(CloseCodes, ACloseWithoutACodeIsAnsweredWith1000) { EXPECT_EQ(answerTo(""), 1000); }

TEST_F(CloseCodes, CodesBeyond4999AreAProtocolError) {
    for (int code : {5000, 5001, 9999, 32768, 65535}) EXPECT_EQ(answerTo(codeBytes(code)), 1002) << code;
    EXPECT_EQ(answerTo(codeBytes(5000) + "reason", true), 1002);
    EXPECT_EQ(answerTo(codeBytes(65535), true), 1002);
    // The server goes on: the next connection's allowed close is echoed.
    EXPECT_EQ(answerTo(codeBytes(1000)), 1000);
}

TEST_F(CloseCodes, ReservedCodesAreAProtocolError) {
    for (int code : {0, 999, 1004, 1005, 1006, 1014, 1015, 1016, 2999}) EXPECT_EQ(answerTo(codeBytes(code)), 1002) << code;
    EXPECT_EQ(answerTo(std::string(1, '\x03')), 1002);  // one byte: no code
}

}  // namespace
}  // namespace senet::testing
