// Bad input changes nothing and gets a clear answer: each case of the issue has a test here.
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <thread>

#include "fixture.hpp"

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
        a_->receiveType("events");  // b's presence
    }
    /// Sends raw text on `c`, expects an error with `code`, and checks that nothing changed.
    void expectError(WsClient& c, const std::string& text, const std::string& code) {
        const json before = a_->state();
        c.clearErrors();
        c.sendText(text);
        ASSERT_TRUE(c.receiveType("error")) << text;
        EXPECT_EQ(c.errors().back()["code"], code) << text;
        EXPECT_FALSE(c.errors().back()["message"].get<std::string>().empty());
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
        a_->clearErrors();
        a_->send("throw", {{"ply", ply}});
        ASSERT_TRUE(a_->receiveType("error"));
        EXPECT_EQ(a_->errors().back()["code"], "wrong-ply");
        EXPECT_EQ(a_->errors().back()["ply"], 1);
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
    ASSERT_TRUE(w.receiveType("error"));
    EXPECT_EQ(w.errors().back()["code"], "bad-secret");
    auto snap = w.receiveType("snapshot");
    ASSERT_TRUE(snap);
    EXPECT_EQ((*snap)["d"]["you"], json::array());
    expectError(w, R"({"t":"throw","d":{"ply":0}})", "not-seated");
}

TEST_F(BadInput, ActionBeforeHello) {
    WsClient w(port(), game_.id);
    w.send("throw", {{"ply", 0}});
    ASSERT_TRUE(w.receiveType("error"));
    EXPECT_EQ(w.errors().back()["code"], "hello-first");
}

TEST_F(BadInput, FrameOverTheSizeLimitClosesTheConnection) {
    WsClient w(port(), game_.id);
    w.hello();
    w.sendText(R"({"t":"ping","d":{"pad":")" + std::string(10000, 'x') + "\"}}");
    while (w.receive(std::chrono::milliseconds(3000))) {
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
    while (c.receive(std::chrono::milliseconds(2000))) {
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
    const NewGame g = createGame(port(), "standard", "local");
    WsClient c(port(), g.id);
    c.hello(g.secret);
    // Do not read (so no pong is sent) for longer than the idle timeout.
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    while (c.receive(std::chrono::milliseconds(2000))) {
    }
    EXPECT_TRUE(c.closed());
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
    timeval tv{4, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    const auto start = std::chrono::steady_clock::now();
    char buf[64];
    const ssize_t n = read(fd, buf, sizeof buf);
    const auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(n, 0);  // closed by the server
    EXPECT_LT(waited, std::chrono::milliseconds(3500));
    close(fd);
}


}  // namespace
}  // namespace senet::testing
