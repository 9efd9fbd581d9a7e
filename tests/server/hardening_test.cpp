// Bad input changes nothing and gets a clear answer: each case of the issue has a test here.
#include <poll.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <thread>

#include <sqlite3.h>

#include "fixture.hpp"
#include "raw_client.hpp"

namespace senet::testing {
namespace {

class BadInput : public ServerTest {
protected:
    /// A friend game with both seats connected: a holds seat 0, b seat 1.
    void SetUp() override {
        ServerTest::SetUp();
        game_ = createGame(port(), "standard", "friend", "first");
        secret1_ = joinGame(port(), game_.id, game_.inviteToken).second;
        a_ = std::make_unique<WsClient>(port(), game_.id);
        b_ = std::make_unique<WsClient>(port(), game_.id);
        a_->hello(game_.secret, "aaaa");
        b_->hello(secret1_, "bbbb");
        a_->waitForEvent("presence", {{"seat", 1}, {"online", true}});  // b's
    }
    /// Sends raw text on `c`, expects an error with `code`, and checks that nothing changed.
    void expectError(WsClient& c, const std::string& text, const std::string& code) {
        const json before = a_->state();
        c.sendText(text);
        const json e = c.waitForError(code);
        ASSERT_TRUE(e.is_object()) << text;
        EXPECT_EQ(e.value("code", ""), code) << text;
        EXPECT_FALSE(e.value("message", "").empty()) << text;
        c.send("ping");
        ASSERT_TRUE(c.receiveType("pong"));
        auto summary = httpRequest(port(), "GET", "/api/games/" + game_.id).bodyJson();
        EXPECT_EQ(summary["ply"], before["ply"]) << text;
    }
    NewGame game_;
    std::string secret1_;
    std::unique_ptr<WsClient> a_, b_;
};

TEST_F(BadInput, MalformedJson) { expectError(*a_, "{\"t\":\"throw\",", "bad-json"); }
TEST_F(BadInput, NotAnObject) { expectError(*a_, "[1,2,3]", "bad-json"); }
TEST_F(BadInput, UnknownMessageType) { expectError(*a_, R"({"t":"teleport","d":{}})", "unknown-type"); }
TEST_F(BadInput, MissingType) { expectError(*a_, R"({"d":{}})", "unknown-type"); }
TEST_F(BadInput, MissingPly) { expectError(*a_, R"({"t":"throw","d":{}})", "bad-field"); }
TEST_F(BadInput, PlyOfWrongType) { expectError(*a_, R"({"t":"throw","d":{"ply":"0"}})", "bad-field"); }
TEST_F(BadInput, MoveNotAString) { expectError(*a_, R"({"t":"move","d":{"ply":0,"move":911}})", "bad-field"); }
TEST_F(BadInput, BadClientSeed) { expectError(*a_, R"({"t":"hello","d":{"clientSeed":"has|bar"}})", "bad-seed"); }

TEST_F(BadInput, WrongPlyIsAnsweredWithTheStateAndNeverAppliedTwice) {
    a_->send("throw", {{"ply", 0}});
    ASSERT_TRUE(a_->receiveUntilPly(1));
    const json after = a_->state();
    // The same message again (a retry) and a late one.
    for (int ply : {0, 5}) {
        a_->send("throw", {{"ply", ply}});
        const json e = a_->waitForError("wrong-ply");
        ASSERT_TRUE(e.is_object());
        EXPECT_EQ(e["ply"], 1);
        auto snap = a_->receiveType("snapshot");
        ASSERT_TRUE(snap);
        EXPECT_EQ((*snap)["d"]["ply"], 1);
    }
    EXPECT_EQ(a_->state()["throwIndex"], after["throwIndex"]);
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + game_.id).bodyJson()["ply"], 1);
}

TEST_F(BadInput, ActionOutOfTurn) { expectError(*b_, R"({"t":"throw","d":{"ply":0}})", "not-your-turn"); }

TEST_F(BadInput, MoveWhenAThrowIsDue) { expectError(*a_, R"({"t":"move","d":{"ply":0,"move":"9-11"}})", "wrong-phase"); }

TEST_F(BadInput, IllegalMove) {
    // Throw until a move is due, then try a move that is not legal.
    while (a_->state()["phase"] != "move") {
        const json s = a_->state();
        WsClient* actor = s["seatToAct"] == 0 ? a_.get() : b_.get();
        actor->send("throw", {{"ply", s["ply"]}});
        ASSERT_TRUE(a_->receiveUntilPly(s["ply"].get<int>() + 1));
        b_->receiveUntilPly(s["ply"].get<int>() + 1);
    }
    const json s = a_->state();
    WsClient& actor = s["seatToAct"] == 0 ? *a_ : *b_;
    const std::string ply = std::to_string(s["ply"].get<int>());
    expectError(actor, R"({"t":"move","d":{"ply":)" + ply + R"(,"move":"1-30"}})", "illegal-move");
    expectError(actor, R"({"t":"move","d":{"ply":)" + ply + R"(,"move":"nonsense"}})", "illegal-move");
    expectError(actor, R"({"t":"move","d":{"ply":)" + ply + R"(,"move":"pass"}})", "illegal-move");
}

TEST_F(BadInput, SpectatorCannotAct) {
    WsClient w(port(), game_.id);
    w.hello();
    expectError(w, R"({"t":"throw","d":{"ply":0}})", "not-seated");
    expectError(w, R"({"t":"resign","d":{}})", "not-seated");
}

TEST_F(BadInput, ForgedSecretOnlyWatches) {
    WsClient w(port(), game_.id);
    w.send("hello", {{"secret", "forged-secret-forged-secret-forged-secret-xx"}});
    ASSERT_TRUE(w.waitForError("bad-secret").is_object());
    auto snap = w.receiveType("snapshot");
    ASSERT_TRUE(snap);
    EXPECT_EQ((*snap)["d"]["you"], json::array());
    expectError(w, R"({"t":"throw","d":{"ply":0}})", "not-seated");
}

TEST_F(BadInput, ActionBeforeHello) {
    WsClient w(port(), game_.id);
    w.send("throw", {{"ply", 0}});
    w.waitForError("hello-first");
}

TEST_F(BadInput, FrameOverTheSizeLimitClosesTheConnection) {
    WsClient w(port(), game_.id);
    w.hello();
    w.sendText(R"({"t":"ping","d":{"pad":")" + std::string(10000, 'x') + "\"}}");
    while (w.receive(std::chrono::seconds(20))) {  // until the close (a read ends at once then)
    }
    EXPECT_TRUE(w.closed());
    EXPECT_EQ(w.closeCode(), 1009);
    auto summary = httpRequest(port(), "GET", "/api/games/" + game_.id);
    EXPECT_EQ(summary.status, 200);  // the server is fine
}

class Flood : public ServerTest {
    std::vector<std::string> flags() const override { return {"--rate", "5", "--burst", "5", "--max-dropped", "20"}; }
};

TEST_F(Flood, RateLimitDropsThenCloses) {
    const NewGame g = createGame(port(), "standard", "local");
    WsClient c(port(), g.id);
    c.hello(g.secret);
    for (int i = 0; i < 60; ++i) c.send("throw", {{"ply", 0}});
    while (c.receive(std::chrono::seconds(20))) {  // until the close (a read ends at once then)
    }
    int limited = 0;
    for (const auto& e : c.errors()) limited += e["code"] == "rate-limited";
    EXPECT_GE(limited, 1);  // errors still queued when the close frame goes out are dropped
    EXPECT_TRUE(c.closed());
    EXPECT_EQ(c.closeCode(), 1008);
    // Only the first throw was applied; the repeats were wrong-ply or dropped.
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + g.id).bodyJson()["ply"], 1);
}

class Timeouts : public ServerTest {
    std::vector<std::string> flags() const override { return {"--idle-seconds", "1", "--http-timeout-seconds", "1"}; }
};

TEST_F(Timeouts, IdleWebSocketIsClosed) {
    // A raw client reads everything the server sends but never answers its pings (a Beast
    // client would): the server pings at half the idle time, then closes. The test waits for
    // the close itself (end of stream), not for a guessed time.
    const NewGame g = createGame(port(), "standard", "local");
    const int fd = rawConnect(port());
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(writeAll(fd, upgradeRequest(port(), "/ws/games/" + g.id)));
    ASSERT_EQ(readReply(fd).status, 101);
    ASSERT_TRUE(writeAll(fd, clientFrame(R"({"t":"hello","d":{"secret":")" + g.secret + R"("}})")));
    const auto sent = std::chrono::steady_clock::now();
    std::string bytes;
    bool ended = false;
    while (!ended && std::chrono::steady_clock::now() - sent < std::chrono::seconds(30)) {
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, 1000) <= 0) continue;
        char buf[4096];
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) ended = true;
        else bytes.append(buf, static_cast<std::size_t>(n));
    }
    const auto waited = std::chrono::steady_clock::now() - sent;
    close(fd);
    ASSERT_TRUE(ended) << "an idle connection was still open after 30 s";
    // The server's frames (unmasked): their opcodes in order.
    std::vector<int> opcodes;
    std::string texts;
    for (std::size_t at = 0; at + 2 <= bytes.size();) {
        const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
        std::size_t len = byte(at + 1) & 0x7f, head = 2;
        if (len == 126 && at + 4 <= bytes.size()) len = (std::size_t{byte(at + 2)} << 8) | byte(at + 3), head = 4;
        else if (len == 127 && at + 10 <= bytes.size()) {
            len = 0;
            for (int i = 0; i < 8; ++i) len = (len << 8) | byte(at + 2 + i);
            head = 10;
        }
        if (at + head + len > bytes.size()) break;
        opcodes.push_back(byte(at) & 0x0f);
        if ((byte(at) & 0x0f) == 1) texts += bytes.substr(at + head, len);
        at += head + len;
    }
    EXPECT_NE(texts.find("\"snapshot\""), std::string::npos) << "the hello was not answered";
    EXPECT_NE(std::find(opcodes.begin(), opcodes.end(), 9), opcodes.end()) << "no keep-alive ping before the close";
    // Never before the ping at half the idle time (1 s).
    EXPECT_GE(waited, std::chrono::milliseconds(500));
}

TEST_F(Timeouts, SlowHttpRequestIsCutOff) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port());
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    const std::string partial = "GET /healthz HTTP/1.1\r\nHost: x\r\n";  // never finished
    ASSERT_EQ(write(fd, partial.data(), partial.size()), static_cast<ssize_t>(partial.size()));
    timeval tv{20, 0};  // far beyond the server's 1 s: a read that ends by this timeout fails below
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    const auto start = std::chrono::steady_clock::now();
    char buf[64];
    const ssize_t n = read(fd, buf, sizeof buf);
    const auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(n, 0);  // closed by the server
    EXPECT_LT(waited, std::chrono::seconds(15));
    close(fd);
}



// Issue 10, finding 1: a message type cut inside a UTF-8 character made the error reply throw
// and killed the process. Each frame must get an answer, and the server must go on.
class Utf8Input : public BadInput {
protected:
    /// Sends `text`; expects an error (any code) in valid JSON, then a pong, and /healthz 200.
    /// `answer` receives the error's data.
    void expectAnswered(const std::string& text, json* answer = nullptr) {
        a_->sendText(text);
        const auto m = a_->receiveType("error");
        ASSERT_TRUE(m) << "no error answer (server gone?) for " << text;
        const json e = (*m)["d"];
        EXPECT_FALSE(e.value("message", "").empty()) << e.dump();
        if (answer) *answer = e;
        a_->send("ping");
        ASSERT_TRUE(a_->receiveType("pong")) << text;
        EXPECT_EQ(httpRequest(port(), "GET", "/healthz").status, 200);
    }
};

TEST_F(Utf8Input, TypeCutInsideATwoByteCharacter) {
    json e;
    ASSERT_NO_FATAL_FAILURE(expectAnswered(R"({"t":"aaaaaaaaaaaaaaaaaaa)" "\xc3\xa9" R"(","d":{}})", &e));
    EXPECT_EQ(e["code"], "unknown-type");
    // The cut keeps whole characters only: "aaa…a" without a broken é.
    EXPECT_NE(e.value("message", "").find("\"aaaaaaaaaaaaaaaaaaa\""), std::string::npos) << e.dump();
}

TEST_F(Utf8Input, TypeCutInsideThreeAndFourByteCharacters) {
    for (int pad : {17, 18, 19}) {
        json e;
        ASSERT_NO_FATAL_FAILURE(expectAnswered(R"({"t":")" + std::string(pad, 'a') + "\xe2\x82\xac" R"(","d":{}})", &e));       // €
        EXPECT_EQ(e["code"], "unknown-type") << pad;
        ASSERT_NO_FATAL_FAILURE(expectAnswered(R"({"t":")" + std::string(pad, 'a') + "\xf0\x9f\x98\x80" R"(","d":{}})", &e));   // 😀
        EXPECT_EQ(e["code"], "unknown-type") << pad;
        ASSERT_NO_FATAL_FAILURE(expectAnswered(R"({"t":")" + std::string(pad, 'b') + "\xf0\x9f\x98\x80" R"(","d":7})", &e));    // bad "d": same cut
        EXPECT_EQ(e["code"], "bad-field") << pad;
    }
}

TEST_F(Utf8Input, MultibyteMoveAndSecret) {
    ASSERT_NO_FATAL_FAILURE(expectAnswered(R"({"t":"move","d":{"ply":0,"move":")" "\xc3\xa9-\xe2\x82\xac" R"("}})"));
    ASSERT_NO_FATAL_FAILURE(expectAnswered(R"({"t":"move","d":{"ply":0,"move":")" "\xf0\x9f\x98\x80\xf0\x9f\x98\x80" R"("}})"));
    ASSERT_NO_FATAL_FAILURE(expectAnswered(R"({"t":"hello","d":{"secret":")" + std::string(126, 's') + "\xc3\xa9" R"("}})"));
}

TEST_F(Utf8Input, InvalidUtf8FramesCloseOnlyThatConnection) {
    // A text frame that is not UTF-8 is a protocol error (close 1007) for that connection only.
    WsClient bad(port(), game_.id);
    bad.hello();
    bad.sendText(std::string(R"({"t":"hello","d":{"secret":")") + "\xff\xfe\xc3" + "\"}}");
    while (bad.receive(std::chrono::seconds(20))) {  // until the close (a read ends at once then)
    }
    EXPECT_TRUE(bad.closed());
    a_->send("ping");
    ASSERT_TRUE(a_->receiveType("pong"));
    EXPECT_EQ(httpRequest(port(), "GET", "/healthz").status, 200);
}

// Finding 9: the security headers on every answer, errors and upgrade answers included.
void expectSecurityHeaders(const RawReply& r, const std::string& what) {
    EXPECT_EQ(r.header("server"), "senet-server") << what;
    EXPECT_EQ(r.header("content-security-policy"),
              "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
              "base-uri 'none'; frame-ancestors 'none'")
        << what;
    EXPECT_EQ(r.header("referrer-policy"), "no-referrer") << what;
    EXPECT_EQ(r.header("x-content-type-options"), "nosniff") << what;
    EXPECT_EQ(r.header("x-frame-options"), "DENY") << what;
}

class Headers : public ServerTest {};

TEST_F(Headers, OnBeastLevelErrors) {
    const RawReply bad = rawExchange(port(), "GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n");
    EXPECT_EQ(bad.status, 400);
    expectSecurityHeaders(bad, "400");
    const RawReply big = rawExchange(port(), "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                             "Content-Length: 20000\r\n\r\n" + std::string(20000, ' '));
    EXPECT_EQ(big.status, 413);
    expectSecurityHeaders(big, "413");
    const RawReply head = rawExchange(port(), "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + std::string(9000, 'p') + "\r\n\r\n");
    EXPECT_EQ(head.status, 431);
    expectSecurityHeaders(head, "431");
}

TEST_F(Headers, OnWebSocketRefusalsAndTheUpgrade) {
    const NewGame g = createGame(port(), "standard", "local");
    const RawReply nowhere = rawExchange(port(), upgradeRequest(port(), "/ws/elsewhere"));
    EXPECT_EQ(nowhere.status, 404);
    expectSecurityHeaders(nowhere, "404 path");
    const RawReply unknown = rawExchange(port(), upgradeRequest(port(), "/ws/games/AAAAAAAAAAAAAAAAAAAAAA"));
    EXPECT_EQ(unknown.status, 404);
    expectSecurityHeaders(unknown, "404 game");
    std::string oldVersion = upgradeRequest(port(), "/ws/games/" + g.id);
    oldVersion.replace(oldVersion.find("Version: 13"), 11, "Version: 12");
    const RawReply upgradeRequired = rawExchange(port(), oldVersion);
    EXPECT_EQ(upgradeRequired.status, 426);
    expectSecurityHeaders(upgradeRequired, "426");
    const RawReply upgraded = rawExchange(port(), upgradeRequest(port(), "/ws/games/" + g.id));
    EXPECT_EQ(upgraded.status, 101);
    expectSecurityHeaders(upgraded, "101");
}

TEST_F(Headers, OnTheExpiredGameRefusal) {
    const NewGame g = createGame(port(), "standard", "local");
    EXPECT_EQ(server_->stop(SIGTERM), 0);
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open((dir_.path() / "data" / "senet.sqlite3").c_str(), &h), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(h, "UPDATE games SET status = 'expired'", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(h);
    restart();
    const RawReply gone = rawExchange(port(), upgradeRequest(port(), "/ws/games/" + g.id));
    EXPECT_EQ(gone.status, 410);
    expectSecurityHeaders(gone, "410");
}

TEST_F(Headers, Http11WithoutHostIs400) {
    const RawReply noHost = rawExchange(port(), "GET /healthz HTTP/1.1\r\n\r\n");
    EXPECT_EQ(noHost.status, 400);
    expectSecurityHeaders(noHost, "no Host");
    const RawReply http10 = rawExchange(port(), "GET /healthz HTTP/1.0\r\n\r\n");  // Host is optional in 1.0
    EXPECT_EQ(http10.status, 200);
    EXPECT_EQ(http10.body, "ok\n");
}

class Origins : public ServerTest {};

TEST_F(Origins, ForeignOriginIsRefused) {
    const NewGame g = createGame(port(), "standard", "local");
    const std::string path = "/ws/games/" + g.id;
    const std::string self = "http://127.0.0.1:" + std::to_string(port());
    for (const std::string& origin : std::vector<std::string>{"http://evil.example", "null",
                                                             "http://127.0.0.1.evil.example:" + std::to_string(port()),
                                                             "https://play.example.org.evil.example"}) {
        const RawReply r = rawExchange(port(), upgradeRequest(port(), path, "Origin: " + origin));
        EXPECT_EQ(r.status, 403) << origin;
        EXPECT_FALSE(r.body.empty()) << origin;
        expectSecurityHeaders(r, "403 " + origin);
    }
    for (const std::string& origin : std::vector<std::string>{self, "HTTP://127.0.0.1:" + std::to_string(port())})
        EXPECT_EQ(rawExchange(port(), upgradeRequest(port(), path, "Origin: " + origin)).status, 101) << origin;
    EXPECT_EQ(rawExchange(port(), upgradeRequest(port(), path)).status, 101) << "no Origin (not a browser)";
}

class AllowedOrigins : public ServerTest {
    std::vector<std::string> flags() const override {
        return {"--allow-origin", "https://play.example.org,https://senet.example.net:8443"};
    }
};

TEST_F(AllowedOrigins, TheAllowListIsAccepted) {
    const NewGame g = createGame(port(), "standard", "local");
    const std::string path = "/ws/games/" + g.id;
    for (const std::string origin : {"https://play.example.org", "https://senet.example.net:8443"})
        EXPECT_EQ(rawExchange(port(), upgradeRequest(port(), path, "Origin: " + origin)).status, 101) << origin;
    for (const std::string origin : {"http://play.example.org", "https://senet.example.net", "https://evil.example"})
        EXPECT_EQ(rawExchange(port(), upgradeRequest(port(), path, "Origin: " + origin)).status, 403) << origin;
}

}  // namespace
}  // namespace senet::testing
