// server_bench: measures senet-server against a bare Beast WebSocket echo server (same machine,
// same client code, same connection count, same server thread count) in two modes:
//
//   closed loop: every connection keeps one action in flight (saturation throughput);
//   paced:       every game sends its next action at a mean interval with jitter (open loop at a
//                known offered load: games / interval), for latency.
//
//   server_bench [--games N] [--seconds S] [--mode closed|paced|both] [--interval-ms MS]
//                [--jitter J] [--against echo|server|both] [--server PATH] [--web-root DIR]
//                [--threads N] [--port P (use a running senet-server instead of starting one)]
#include <algorithm>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>  // before Asio (Boost 1.74 with C++20)
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "echo_server.hpp"
#include "load_client.hpp"

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;
using namespace bench;

namespace {

/// POST /api/games for a local game; returns id and secret.
std::pair<std::string, std::string> createGame(unsigned short port, const std::string& ruleset) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> req{http::verb::post, "/api/games", 11};
    req.set(http::field::host, "127.0.0.1");
    req.body() = json({{"ruleset", ruleset}, {"opponent", "local"}}).dump();
    req.prepare_payload();
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    const json j = json::parse(res.body());
    return {j["game"], j["secret"]};
}

/// Starts senet-server on a free port; returns its pid and port.
std::pair<pid_t, unsigned short> startServer(const std::string& binary, const std::string& dataDir, const std::string& webRoot,
                                              int threads) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe");
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        const std::string t = std::to_string(threads);
        execl(binary.c_str(), binary.c_str(), "--port", "0", "--data-dir", dataDir.c_str(), "--web-root", webRoot.c_str(), "--rate",
              "100000", "--burst", "100000", "--threads", t.c_str(),
              // One client address drives every game: lift the per-address limits.
              "--create-burst", "1000000000", "--join-burst", "1000000000", "--max-waiting-games", "1000000000",
              "--max-connections-per-address", "10000000", "--max-connections", "10000000", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    std::string text;
    char buf[256];
    while (text.find(" (restored") == std::string::npos) {
        const ssize_t n = read(fds[0], buf, sizeof buf);
        if (n <= 0) throw std::runtime_error("senet-server did not start");
        text.append(buf, static_cast<std::size_t>(n));
    }
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    const auto colon = text.rfind(':', text.find(" (restored"));
    return {pid, static_cast<unsigned short>(std::stoi(text.substr(colon + 1)))};
}


/// A senet-server for one run: started here (fresh data directory) or already running.
struct ServerUnderTest {
    pid_t pid = -1;
    unsigned short port = 0;
    std::filesystem::path dataDir;
    ServerUnderTest(const std::string& binary, const std::string& webRoot, int threads, unsigned short existingPort) {
        if (existingPort) {
            port = existingPort;
            return;
        }
        dataDir = std::filesystem::temp_directory_path() / ("senet-bench-" + std::to_string(getpid()));
        std::filesystem::remove_all(dataDir);
        std::filesystem::create_directories(dataDir);
        std::tie(pid, port) = startServer(binary, dataDir.string(), webRoot, threads);
    }
    ~ServerUnderTest() {
        if (pid <= 0) return;
        kill(pid, SIGTERM);
        waitpid(pid, nullptr, 0);
        std::filesystem::remove_all(dataDir);
    }
    /// Creates `count` local games of the three rulesets in turn.
    std::vector<GameRef> games(int count) const {
        std::vector<GameRef> out;
        const char* rulesets[] = {"standard", "jequier", "bell"};
        for (int i = 0; i < count; ++i) out.push_back(createGame(port, rulesets[i % 3]));
        return out;
    }
};

void printLine(const char* who, const char* unit, Stats& s) {
    const double p50 = s.percentile(0.5), p99 = s.percentile(0.99), max = s.maxMs();
    std::printf("  %-14s %9.0f %-9s p50 %8.3f ms  p99 %8.3f ms  max %8.3f ms  (%llu samples%s)\n", who, s.perSecond(), unit, p50, p99,
                max, static_cast<unsigned long long>(s.latencies.size()),
                s.errors ? (", " + std::to_string(s.errors) + " errors").c_str() : "");
}

}  // namespace

int main(int argc, char** argv) {
    int games = 1000, threads = 2, port = 0, rounds = 1;
    double seconds = 5, intervalMs = 1000, jitter = 0.5;
    std::string mode = "both", against = "both";
    std::string server = SENET_SERVER_BINARY, webRoot = SENET_WEB_ROOT;
    for (int i = 1; i < argc; i += 2) {
        const std::string flag = argv[i], value = i + 1 < argc ? argv[i + 1] : "";
        if (flag == "--games") games = std::stoi(value);
        else if (flag == "--seconds") seconds = std::stod(value);
        else if (flag == "--mode") mode = value;
        else if (flag == "--interval-ms") intervalMs = std::stod(value);
        else if (flag == "--jitter") jitter = std::stod(value);
        else if (flag == "--against") against = value;
        else if (flag == "--server") server = value;
        else if (flag == "--web-root") webRoot = value;
        else if (flag == "--threads") threads = std::stoi(value);
        else if (flag == "--port") port = std::stoi(value);
        else if (flag == "--rounds") rounds = std::max(1, std::stoi(value));
        else {
            std::cerr << "usage: server_bench [--games N] [--seconds S] [--mode closed|paced|both] [--interval-ms MS] [--jitter J]\n"
                         "                    [--against echo|server|both] [--server PATH] [--web-root DIR] [--threads N] [--port P]\n"
                         "                    [--rounds R]  (closed loop: R alternating echo/server slices, both servers up)\n";
            return 2;
        }
    }
    const bool closed = mode != "paced", paced = mode != "closed";
    const bool runEcho = against != "server", runServer = against != "echo";
    signal(SIGPIPE, SIG_IGN);
    std::printf("%d concurrent games (one WebSocket each), server threads %d (echo and senet-server alike), client 1 thread\n",
                games, threads);

    RunOptions base;
    base.connections = games;
    base.seconds = seconds;
    // Drives the echo baseline and then senet-server (each when asked for) with the same options;
    // senet-server gets `gamesPerConnection` × games ready, as finished games are replaced.
    const auto runBoth = [&](RunOptions o, int gamesPerConnection) {
        std::pair<std::optional<Stats>, std::optional<Stats>> out;
        if (runEcho) {
            EchoServer es(threads);
            o.port = es.port();
            o.echo = true;
            out.first = drive(o, {});
        }
        if (runServer) {
            ServerUnderTest s(server, webRoot, threads, static_cast<unsigned short>(port));
            o.port = s.port;
            o.echo = false;
            out.second = drive(o, s.games(games * gamesPerConnection));
        }
        return out;
    };
    if (closed && rounds > 1 && runEcho && runServer) {
        // The machine's speed drifts over seconds (a shared VM): alternate short slices of the
        // echo baseline and senet-server with both servers up, and compare slice by slice.
        EchoServer es(threads);
        ServerUnderTest s(server, webRoot, threads, static_cast<unsigned short>(port));
        std::vector<double> shares;
        double echoSum = 0, fullSum = 0;
        std::printf("closed loop, %d rounds of %.1f s echo then %.1f s senet-server (each after %.1f s warm-up):\n", rounds, seconds,
                    seconds, base.warmup);
        for (int r = 0; r < rounds; ++r) {
            RunOptions o = base;
            o.port = es.port();
            o.echo = true;
            Stats echo = drive(o, {});
            o.port = s.port;
            o.echo = false;
            Stats full = drive(o, s.games(games * 3));
            echoSum += echo.perSecond();
            fullSum += full.perSecond();
            shares.push_back(100.0 * full.perSecond() / std::max(1.0, echo.perSecond()));
            std::printf("  round %d: echo %7.0f msg/s, senet-server %7.0f actions/s (p99 %.1f ms), share %.1f %%\n", r + 1,
                        echo.perSecond(), full.perSecond(), full.percentile(0.99), shares.back());
        }
        std::sort(shares.begin(), shares.end());
        std::printf("  full stack / echo: %.1f %% of the summed rates, median round %.1f %% (target >= 50 %%)\n",
                    100.0 * fullSum / std::max(1.0, echoSum), shares[shares.size() / 2]);
    } else if (closed) {
        RunOptions o = base;
        auto [echo, full] = runBoth(o, 3);
        std::printf("closed loop (one action always in flight per game), %.1f s measured after %.1f s warm-up:\n", o.seconds, o.warmup);
        if (echo) printLine("echo baseline", "msg/s", *echo);
        if (full) printLine("senet-server", "actions/s", *full);
        if (echo && full)
            std::printf("  full stack / echo: %.1f %% (target >= 50 %%)\n", 100.0 * full->perSecond() / std::max(1.0, echo->perSecond()));
    }
    if (paced) {
        RunOptions o = base;
        o.paced = true;
        o.intervalMs = intervalMs;
        o.jitter = jitter;
        o.warmup = intervalMs / 1000 + 1;
        auto [echo, full] = runBoth(o, 2);
        std::printf("paced (open loop): each game acts every %.0f ms +/- %.0f %%, offered %.0f actions/s; %.1f s measured after %.1f s "
                    "warm-up; latency from the scheduled send:\n",
                    intervalMs, jitter * 100, games * 1000.0 / intervalMs, o.seconds, o.warmup);
        if (echo) printLine("echo baseline", "msg/s", *echo);
        if (full) printLine("senet-server", "actions/s", *full);
        if (full) std::printf("  senet-server p99 %.3f ms (target < 5 ms)\n", full->percentile(0.99));
    }
    return 0;
}
