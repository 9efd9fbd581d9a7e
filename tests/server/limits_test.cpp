// Issue 10, findings 3, 4 and 5: limits with clear answers (429 with Retry-After, 503), memory
// bounded per connection, connection caps, and an accept loop that backs off when the process
// is out of descriptors. Each test drives the real server process over real sockets.
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <thread>

#include "fixture.hpp"
#include "raw_client.hpp"

namespace senet::testing {
namespace {

using namespace std::chrono_literals;

void expectSecurity(const RawReply& r, const std::string& what) {
    EXPECT_EQ(r.header("server"), "senet-server") << what;
    EXPECT_FALSE(r.header("content-security-policy").empty()) << what;
    EXPECT_EQ(r.header("x-content-type-options"), "nosniff") << what;
    EXPECT_EQ(r.header("x-frame-options"), "DENY") << what;
}

/// POST /api/games (a local game, or `opponent`) from source address `from`, with an optional X-Forwarded-For.
RawReply create(unsigned short port, const std::string& from = "127.0.0.1", const std::string& xff = "",
                const std::string& opponent = "local") {
    const std::string body = R"({"ruleset":"standard","side":"first","opponent":")" + opponent + R"("})";
    std::string req = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n";
    // A '\n' in `xff` starts another X-Forwarded-For line (as a proxy that appends its own line).
    for (std::size_t at = 0; !xff.empty() && at <= xff.size();) {
        const std::size_t nl = std::min(xff.find('\n', at), xff.size());
        req += "X-Forwarded-For: " + xff.substr(at, nl - at) + "\r\n";
        at = nl + 1;
    }
    req += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    return rawExchange(port, req, from);
}

/// The value of one gauge in /metrics, or -1.
long long gauge(unsigned short port, const std::string& name) {
    const std::string body = httpRequest(port, "GET", "/metrics").body;
    const auto at = body.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stoll(body.substr(at + name.size() + 2));
}

class Limits : public ServerTest {};

TEST_F(Limits, CreationsFromOneAddressAreLimited) {
    // Burst 20 (the default), then 429 with Retry-After and a JSON body like the API's others.
    for (int i = 0; i < 20; ++i) ASSERT_EQ(create(port()).status, 201) << i;
    const RawReply over = create(port());
    ASSERT_EQ(over.status, 429);
    expectSecurity(over, "429");
    const int retry = std::stoi(over.header("retry-after").empty() ? "0" : over.header("retry-after"));
    EXPECT_GE(retry, 1);
    EXPECT_LE(retry, 2);
    const json body = json::parse(over.body, nullptr, false);
    EXPECT_EQ(body.value("error", ""), "rate-limited") << over.body;
    EXPECT_FALSE(body.value("message", "").empty());
    // Another address has its own bucket; X-Forwarded-For is ignored without --trusted-proxy.
    EXPECT_EQ(create(port(), "127.0.0.2").status, 201);
    EXPECT_EQ(create(port(), "127.0.0.1", "198.51.100.7").status, 429);
    // The bucket refills at 1 per second: after Retry-After one more creation is allowed. The
    // test waits as a client that honours Retry-After must (at least that long); waiting longer
    // only refills more, so no outcome depends on the machine's speed here.
    std::this_thread::sleep_for(std::chrono::seconds(retry) + 50ms);
    EXPECT_EQ(create(port()).status, 201);
    // Measured: creations that one address gets in 3 s from a fresh bucket.
    int ok = 0, refused = 0;
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < 3s) {
        const int s = create(port(), "127.0.0.3").status;
        ok += s == 201;
        refused += s == 429;
    }
    std::printf("[ figures  ] one address: %d creations accepted and %d refused with 429 in 3 s\n", ok, refused);
    EXPECT_GE(ok, 20);
    EXPECT_LE(ok, 24);
    EXPECT_GT(refused, 0);
}

TEST_F(Limits, JoinsFromOneAddressAreLimited) {
    const NewGame g = createGame(port(), "standard", "friend");
    const std::string body = R"({"invite":"not-the-token"})";
    const std::string req = "POST /api/games/" + g.id + "/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    for (int i = 0; i < 20; ++i) ASSERT_EQ(rawExchange(port(), req).status, 403) << i;
    const RawReply over = rawExchange(port(), req);
    EXPECT_EQ(over.status, 429);
    EXPECT_FALSE(over.header("retry-after").empty());
    EXPECT_EQ(json::parse(over.body, nullptr, false).value("error", ""), "rate-limited");
    EXPECT_EQ(rawExchange(port(), req, "127.0.0.2").status, 403);  // another address is not affected
}

class BehindProxy : public ServerTest {
    std::vector<std::string> flags() const override { return {"--trusted-proxy", "127.0.0.1", "--create-burst", "3"}; }
};

TEST_F(BehindProxy, ForwardedForNamesTheClientOnlyFromATrustedPeer) {
    for (int i = 0; i < 3; ++i) ASSERT_EQ(create(port(), "127.0.0.1", "198.51.100.1").status, 201);
    EXPECT_EQ(create(port(), "127.0.0.1", "198.51.100.1").status, 429);
    // The right-most untrusted address counts: a client cannot escape by prepending its own.
    EXPECT_EQ(create(port(), "127.0.0.1", "203.0.113.5, 198.51.100.1").status, 429);
    EXPECT_EQ(create(port(), "127.0.0.1", "198.51.100.1, 127.0.0.1").status, 429);
    // Nor by sending a line of its own before the one the proxy appends: the lines are one list.
    EXPECT_EQ(create(port(), "127.0.0.1", "203.0.113.6\n198.51.100.1").status, 429);
    EXPECT_EQ(create(port(), "127.0.0.1", "203.0.113.7\n198.51.100.1, 127.0.0.1").status, 429);
    EXPECT_EQ(create(port(), "127.0.0.1", "198.51.100.2").status, 201);
    // A peer that is not the trusted proxy is counted by its own address, whatever it forwards.
    for (int i = 0; i < 3; ++i) ASSERT_EQ(create(port(), "127.0.0.9", "198.51.100.3").status, 201);
    EXPECT_EQ(create(port(), "127.0.0.9", "198.51.100.4").status, 429);
}

class WaitingCap : public ServerTest {
    std::vector<std::string> flags() const override { return {"--max-waiting-games", "3"}; }
};

TEST_F(WaitingCap, FriendGamesNobodyJoinedAreCappedPerAddress) {
    std::vector<std::string> invites, ids;
    for (int i = 0; i < 3; ++i) {
        const RawReply r = create(port(), "127.0.0.1", "", "friend");
        ASSERT_EQ(r.status, 201);
        const json j = json::parse(r.body);
        ids.push_back(j["game"]);
        const std::string url = j["inviteUrl"];
        invites.push_back(url.substr(url.find("#invite=") + 8));
    }
    const RawReply over = create(port(), "127.0.0.1", "", "friend");
    EXPECT_EQ(over.status, 429);
    EXPECT_EQ(json::parse(over.body, nullptr, false).value("error", ""), "too-many-waiting");
    EXPECT_FALSE(over.header("retry-after").empty());
    EXPECT_EQ(create(port(), "127.0.0.1", "", "computer").status, 201);  // not a waiting game
    EXPECT_EQ(create(port(), "127.0.0.2", "", "friend").status, 201);    // another address
    // Once one is joined, it no longer waits: a new one may be created.
    EXPECT_EQ(joinGame(port(), ids[0], invites[0]).first, 200);
    EXPECT_EQ(create(port(), "127.0.0.1", "", "friend").status, 201);
    EXPECT_EQ(create(port(), "127.0.0.1", "", "friend").status, 429);
}

class ConnectionCaps : public ServerTest {
    std::vector<std::string> flags() const override {
        return {"--max-connections-per-address", "4", "--max-connections", "6"};
    }
};

/// Waits until the server counts `n` open connections besides the one asking (from 127.0.0.99):
/// polled every 50 ms for up to 30 s (a busy machine closes late, never early).
bool waitForConnections(unsigned short port, long long n) {
    for (int i = 0; i < 600; ++i) {
        const RawReply r = rawExchange(port, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "127.0.0.99");
        const auto at = r.body.find("\nsenet_open_connections ");
        if (at != std::string::npos && std::stoll(r.body.substr(at + 24)) == n + 1) return true;
        std::this_thread::sleep_for(50ms);
    }
    return false;
}

TEST_F(ConnectionCaps, PerAddressAndTotal) {
    const NewGame g = createGame(port(), "standard", "local");
    ASSERT_TRUE(waitForConnections(port(), 0));
    std::vector<int> held;
    for (int i = 0; i < 4; ++i) held.push_back(rawConnect(port(), "127.0.0.1"));
    ASSERT_TRUE(waitForConnections(port(), 4));
    const RawReply plain = rawExchange(port(), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(plain.status, 503);
    EXPECT_FALSE(plain.body.empty());
    expectSecurity(plain, "503 per address");
    const RawReply ws = rawExchange(port(), upgradeRequest(port(), "/ws/games/" + g.id));
    EXPECT_EQ(ws.status, 503);
    expectSecurity(ws, "503 upgrade");
    // Another address may still connect, up to the total.
    held.push_back(rawConnect(port(), "127.0.0.2"));
    EXPECT_EQ(rawExchange(port(), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "127.0.0.2").status, 200);
    ASSERT_TRUE(waitForConnections(port(), 5));  // 4 + 1 held; the probe itself takes the 6th place
    // The total cap itself is checked in ConnectionCounterTest: here a connection held from a
    // third address raced the probe's place on another strand now and then.
    // Closing connections frees their places (counted with RAII: nothing leaks).
    for (int fd : held) close(fd);
    EXPECT_TRUE(waitForConnections(port(), 0));
    EXPECT_TRUE(healthy(port()));
    std::vector<int> again;
    for (int i = 0; i < 3; ++i) again.push_back(rawConnect(port(), "127.0.0.1"));
    EXPECT_TRUE(healthy(port(), 2000ms));
    for (int fd : again) close(fd);
}

class SlowReaders : public ServerTest {
    // Every hello is answered (no message rate limit), so each client is sent far more than the
    // cap and the kernel's socket buffers together.
    std::vector<std::string> flags() const override {
        return {"--max-queue-bytes", "262144", "--rate", "1000000", "--burst", "1000000", "--max-dropped", "1000000"};
    }
};

TEST_F(SlowReaders, AClientThatNeverReadsIsClosedPastTheByteCap) {
    // A game with some history, so that every snapshot is several kilobytes.
    const NewGame g = createGame(port(), "standard", "local");
    {
        WsClient c(port(), g.id);
        c.hello(g.secret, "seed");
        std::mt19937 rng(3);
        for (int i = 0; i < 80 && c.state().value("phase", "") != "over"; ++i) {
            const json s = c.state();
            if (s["phase"] == "move") c.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
            else c.send("throw", {{"ply", s["ply"]}});
            ASSERT_TRUE(c.receiveUntilPly(s["ply"].get<int>() + 1));
        }
    }
    WsClient probe(port(), g.id);
    const std::size_t snapshot = probe.hello().dump().size();
    probe.close();
    const long baseKb = procStatusKb(server_->pid(), "VmRSS");
    constexpr int kClients = 100, kHellos = 2000;
    std::vector<int> fds;
    for (int i = 0; i < kClients; ++i) {
        const int fd = rawConnect(port(), "127.0.0." + std::to_string(2 + i % 50), 4096);
        ASSERT_GE(fd, 0);
        ASSERT_TRUE(writeAll(fd, upgradeRequest(port(), "/ws/games/" + g.id)));
        ASSERT_EQ(readReply(fd).status, 101);
        fds.push_back(fd);
    }
    const std::string hello = clientFrame(R"({"t":"hello","d":{}})");
    long maxKb = 0;
    for (int round = 0; round < kHellos; ++round) {
        for (int fd : fds) writeAll(fd, hello);  // fails quietly once the server has closed it
        if (round % 20 == 0) maxKb = std::max(maxKb, procStatusKb(server_->pid(), "VmRSS"));
    }
    bool allClosed = false;
    for (int i = 0; i < 300 && !allClosed; ++i) {  // polled for up to 30 s
        maxKb = std::max(maxKb, procStatusKb(server_->pid(), "VmRSS"));
        allClosed = gauge(port(), "senet_open_sockets") == 0;
        if (!allClosed) std::this_thread::sleep_for(100ms);
    }
    const long hwmKb = procStatusKb(server_->pid(), "VmHWM");
    std::printf("[ figures  ] %d clients that never read, %d hellos each (snapshot %zu B): RSS before %ld kB, max sampled %ld kB, "
                "peak (VmHWM) %ld kB\n", kClients, kHellos, snapshot, baseKb, maxKb, hwmKb);
    EXPECT_TRUE(allClosed) << "still open: " << gauge(port(), "senet_open_sockets");
    // 100 queues of at most 256 KiB (+ one frame) each, plus what the game and the parser use.
    EXPECT_LT(hwmKb - baseKb, 100 * 1024);
    for (int fd : fds) close(fd);
    EXPECT_TRUE(healthy(port()));
}

/// Measurement, run by hand (--gtest_also_run_disabled_tests): the default 1 MiB queue cap,
/// a finished game (the largest snapshot: its whole record), 100 clients that never read.
TEST(Measure, DISABLED_RssWithClientsThatNeverRead) {
    TempDir dir;
    ServerProcess server(dir.path() / "data", makeWebRoot(dir.path()));
    const NewGame g = createGame(server.port(), "standard", "local");
    {
        WsClient c(server.port(), g.id);
        c.hello(g.secret, "seed");
        std::mt19937 rng(11);
        playToEnd({{0, &c}, {1, &c}}, {}, rng);
    }
    WsClient probe(server.port(), g.id);
    const std::size_t snapshot = probe.hello().dump().size();
    probe.close();
    const long baseKb = procStatusKb(server.pid(), "VmRSS");
    constexpr int kClients = 100, kHellos = 300;
    std::vector<int> fds;
    for (int i = 0; i < kClients; ++i) {
        const int fd = rawConnect(server.port(), "127.0.0." + std::to_string(2 + i % 50), 4096);
        ASSERT_TRUE(writeAll(fd, upgradeRequest(server.port(), "/ws/games/" + g.id)));
        ASSERT_EQ(readReply(fd).status, 101);
        fds.push_back(fd);
    }
    const std::string hello = clientFrame(R"({"t":"hello","d":{}})");
    long maxKb = 0;
    for (int round = 0; round < kHellos; ++round) {
        for (int fd : fds) writeAll(fd, hello);
        if (round % 10 == 0) maxKb = std::max(maxKb, procStatusKb(server.pid(), "VmRSS"));
    }
    bool allClosed = false;
    for (int i = 0; i < 200 && !allClosed; ++i) {
        maxKb = std::max(maxKb, procStatusKb(server.pid(), "VmRSS"));
        allClosed = gauge(server.port(), "senet_open_sockets") == 0;
        if (!allClosed) std::this_thread::sleep_for(100ms);
    }
    std::printf("[ figures  ] default cap, %d clients that never read, %d hellos each (snapshot %zu B): RSS before %ld kB, "
                "max sampled %ld kB, peak (VmHWM) %ld kB, all closed: %s\n",
                kClients, kHellos, snapshot, baseKb, maxKb, procStatusKb(server.pid(), "VmHWM"), allClosed ? "yes" : "no");
    EXPECT_TRUE(allClosed);
    for (int fd : fds) close(fd);
}

TEST(LogFlood, BadFramesAreLoggedAFewTimesWithACount) {
    TempDir dir;
    const auto log = dir.path() / "stderr.log";
    ServerProcess server(dir.path() / "data", makeWebRoot(dir.path()), {}, log);
    const NewGame g = createGame(server.port(), "standard", "local");
    // 60 connections each send a text frame that is not UTF-8 (each is closed with 1007).
    for (int i = 0; i < 60; ++i) {
        const int fd = rawConnect(server.port(), "127.0.0." + std::to_string(2 + i % 30));
        ASSERT_TRUE(writeAll(fd, upgradeRequest(server.port(), "/ws/games/" + g.id)));
        ASSERT_EQ(readReply(fd).status, 101);
        writeAll(fd, clientFrame("\xff\xfe not utf-8"));
        char buf[256];
        while (recv(fd, buf, sizeof buf, 0) > 0) {
        }
        close(fd);
    }
    ASSERT_TRUE(healthy(server.port()));
    std::ifstream in(log);
    int lines = 0;
    for (std::string line; std::getline(in, line);) lines += line.find("websocket read") != std::string::npos;
    std::printf("[ figures  ] 60 bad frames: %d log lines\n", lines);
    EXPECT_GE(lines, 1);
    EXPECT_LE(lines, 6);
}

TEST(AcceptBackoff, OutOfDescriptorsNeitherSpinsNorFloodsTheLog) {
    TempDir dir;
    const auto web = makeWebRoot(dir.path());
    const auto log = dir.path() / "stderr.log";
    ServerProcess server(dir.path() / "data", web, {}, log);
    ASSERT_TRUE(healthy(server.port()));
    // Leave the server a few descriptors, then use them all up with idle connections.
    const int open = openDescriptors(server.pid());
    ASSERT_GT(open, 0);
    const rlimit limit{static_cast<rlim_t>(open + 8), static_cast<rlim_t>(open + 8)};
    ASSERT_EQ(prlimit(server.pid(), RLIMIT_NOFILE, &limit, nullptr), 0);
    std::vector<int> held;
    for (int i = 0; i < 40; ++i) held.push_back(rawConnect(server.port()));
    // Wait until the server holds all it can.
    // Wait until the server holds all it can (descriptor numbers may have holes: a few below the limit).
    for (int i = 0, last = -1, same = 0; i < 50 && same < 3; ++i) {
        std::this_thread::sleep_for(100ms);
        const int now = openDescriptors(server.pid());
        same = now == last && now >= open + 4 ? same + 1 : 0;
        last = now;
    }
    EXPECT_GE(openDescriptors(server.pid()), open + 4);
    const double cpu0 = cpuSeconds(server.pid());
    const auto log0 = std::filesystem::file_size(log);
    std::this_thread::sleep_for(5s);
    const double cpu = cpuSeconds(server.pid()) - cpu0;
    const auto logBytes = std::filesystem::file_size(log) - log0;
    std::printf("[ figures  ] descriptors exhausted for 5 s: CPU %.3f s (%.1f %%), log %ju bytes\n", cpu, cpu / 5 * 100,
                static_cast<std::uintmax_t>(logBytes));
    EXPECT_LT(cpu, 0.25);
    EXPECT_LT(logBytes, 4096u);
    // Descriptors free again: the server answers.
    for (int fd : held) close(fd);
    EXPECT_TRUE(healthy(server.port(), 10s));
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("accept"), std::string::npos) << "the first accept error is logged";
}

}  // namespace
}  // namespace senet::testing
