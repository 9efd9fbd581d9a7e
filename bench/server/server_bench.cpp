// server_bench: plays N concurrent local games against the real senet-server over WebSocket and
// prints actions per second and p50/p99 action latency; then measures a bare Beast WebSocket
// echo server (same machine, same client code) as the baseline.
//
//   server_bench [--games N] [--seconds S] [--server PATH] [--web-root DIR] [--threads N]
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>  // before Asio (Boost 1.74 with C++20)
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

/// Latencies (µs) and counts of one run.
struct Stats {
    std::vector<std::uint32_t> latencies;
    std::uint64_t actions = 0;
    double seconds = 0;
    double perSecond() const { return actions / seconds; }
    double percentile(double p) {
        if (latencies.empty()) return 0;
        std::sort(latencies.begin(), latencies.end());
        return latencies[std::min(latencies.size() - 1, static_cast<std::size_t>(p * latencies.size()))] / 1000.0;
    }
};

// ---------------------------------------------------------------------------------------------
// The baseline: a bare Beast WebSocket echo server (one strand per connection, like senet-server).

class EchoSession : public std::enable_shared_from_this<EchoSession> {
public:
    explicit EchoSession(tcp::socket&& s) : ws_(std::move(s)) {}
    void run() {
        ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->read();
        });
    }

private:
    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return;
            self->ws_.text(self->ws_.got_text());
            self->ws_.async_write(self->buffer_.data(), [self](beast::error_code ec2, std::size_t) {
                if (ec2) return;
                self->buffer_.consume(self->buffer_.size());
                self->read();
            });
        });
    }
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
};

class EchoServer {
public:
    EchoServer(net::io_context& ioc) : ioc_(ioc), acceptor_(ioc, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) { accept(); }
    unsigned short port() const { return acceptor_.local_endpoint().port(); }

private:
    void accept() {
        acceptor_.async_accept(net::make_strand(ioc_), [this](beast::error_code ec, tcp::socket s) {
            if (!ec) {
                s.set_option(tcp::no_delay(true));
                std::make_shared<EchoSession>(std::move(s))->run();
            }
            accept();
        });
    }
    net::io_context& ioc_;
    tcp::acceptor acceptor_;
};

// ---------------------------------------------------------------------------------------------
// The client side: one connection per game (or per echo peer), one action in flight each.

struct Shared {
    net::io_context& ioc;
    unsigned short port;
    bool echo;
    std::vector<std::pair<std::string, std::string>> games;  // id, secret
    std::size_t nextGame = 0;
    Clock::time_point start, end;
    Stats stats;
    int open = 0;
};

class Player : public std::enable_shared_from_this<Player> {
public:
    Player(Shared& shared, std::size_t game) : shared_(shared), ws_(shared.ioc), game_(game), rng_(static_cast<unsigned>(game)) {}

    void start() {
        beast::get_lowest_layer(ws_).async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), shared_.port),
                                                   [self = shared_from_this()](beast::error_code ec) {
                                                       if (ec) return self->fail("connect", ec);
                                                       beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true));
                                                       self->handshake();
                                                   });
    }

private:
    void fail(const char* what, beast::error_code ec) {
        if (ec != net::error::operation_aborted) std::cerr << "bench: " << what << ": " << ec.message() << '\n';
    }
    void handshake() {
        const std::string target = shared_.echo ? "/" : "/ws/games/" + shared_.games[game_].first;
        ws_.async_handshake("127.0.0.1", target, [self = shared_from_this()](beast::error_code ec) {
            if (ec) return self->fail("handshake", ec);
            ++self->shared_.open;
            if (self->shared_.echo) return self->act();
            self->send(json({{"t", "hello"}, {"d", {{"secret", self->shared_.games[self->game_].second}, {"clientSeed", "bench"}}}}).dump(), false);
        });
    }
    void send(std::string text, bool timed) {
        out_ = std::move(text);
        if (timed) sent_ = Clock::now();
        timed_ = timed;
        ws_.async_write(net::buffer(out_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return self->fail("write", ec);
            self->read();
        });
    }
    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return self->fail("read", ec);
            self->onMessage();
        });
    }
    void onMessage() {
        const auto now = Clock::now();
        if (shared_.echo && timed_ && now >= shared_.start && now < shared_.end) {
            ++shared_.stats.actions;
            shared_.stats.latencies.push_back(static_cast<std::uint32_t>(std::chrono::duration_cast<std::chrono::microseconds>(now - sent_).count()));
        }
        if (shared_.echo) {
            buffer_.consume(buffer_.size());
            return now < shared_.end ? act() : close();
        }
        // A light reader instead of a full JSON parse, so that the client is not the bottleneck:
        // the server writes keys sorted, so the first "ply", "phase" and "legalMoves" are the state's.
        const std::string text = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        if (text.compare(0, 14, "{\"t\":\"error\"") == 0) std::cerr << "bench: " << text << '\n';
        const auto plyAt = text.find("\"ply\":");
        if (plyAt == std::string::npos) return read();
        const std::int64_t ply = std::atoll(text.c_str() + plyAt + 6);
        const auto phaseAt = text.find("\"phase\":\"");
        phase_ = text.substr(phaseAt + 9, text.find('"', phaseAt + 9) - phaseAt - 9);
        moves_.clear();
        const auto movesAt = text.find("\"legalMoves\":[");
        const auto movesEnd = text.find(']', movesAt);
        for (auto at = text.find("\"move\":\"", movesAt); at < movesEnd; at = text.find("\"move\":\"", at + 1))
            moves_.push_back(text.substr(at + 8, text.find('"', at + 8) - at - 8));
        ply_ = ply;
        // Act once per new state: presence events and the hello snapshot both arrive first.
        if (ply <= acted_) return read();
        if (timed_ && now >= shared_.start && now < shared_.end) {
            ++shared_.stats.actions;
            shared_.stats.latencies.push_back(static_cast<std::uint32_t>(std::chrono::duration_cast<std::chrono::microseconds>(now - sent_).count()));
        }
        if (now >= shared_.end) return close();
        if (phase_ == "over") return nextGame();
        act();
    }
    void act() {
        if (shared_.echo) return send(R"({"t":"throw","d":{"ply":123}})", true);
        acted_ = ply_;
        if (phase_ == "move" && !moves_.empty())
            send("{\"t\":\"move\",\"d\":{\"ply\":" + std::to_string(ply_) + ",\"move\":\"" + moves_[rng_() % moves_.size()] + "\"}}", true);
        else
            send("{\"t\":\"throw\",\"d\":{\"ply\":" + std::to_string(ply_) + "}}", true);
    }
    void nextGame() {
        if (shared_.nextGame >= shared_.games.size()) return close();
        auto next = std::make_shared<Player>(shared_, shared_.nextGame++);
        close();
        next->start();
    }
    void close() {
        --shared_.open;
        ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
    }

    Shared& shared_;
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    std::size_t game_;
    std::mt19937 rng_;
    std::int64_t ply_ = 0;
    std::string phase_;
    std::vector<std::string> moves_;
    std::string out_;
    Clock::time_point sent_;
    bool timed_ = false;
    std::int64_t acted_ = -1;  ///< the ply of the last action sent
};

/// Runs `count` clients against `port` for `seconds` after a one-second warm-up.
Stats drive(unsigned short port, bool echo, int count, double seconds, std::vector<std::pair<std::string, std::string>> games) {
    net::io_context ioc;
    Shared shared{ioc, port, echo, std::move(games), 0, {}, {}, {}, 0};
    shared.start = Clock::now() + std::chrono::seconds(1);
    shared.end = shared.start + std::chrono::milliseconds(static_cast<int>(seconds * 1000));
    shared.nextGame = echo ? 0 : static_cast<std::size_t>(count);
    for (int i = 0; i < count; ++i) std::make_shared<Player>(shared, static_cast<std::size_t>(i))->start();
    ioc.run_until(shared.end + std::chrono::seconds(3));
    shared.stats.seconds = seconds;
    return std::move(shared.stats);
}

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
              "100000", "--burst", "100000", "--threads", t.c_str(), static_cast<char*>(nullptr));
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

}  // namespace

int main(int argc, char** argv) {
    int games = 1000, threads = 2;
    double seconds = 5;
    std::string server = SENET_SERVER_BINARY, webRoot = SENET_WEB_ROOT;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        if (flag == "--games") games = std::stoi(value);
        else if (flag == "--seconds") seconds = std::stod(value);
        else if (flag == "--server") server = value;
        else if (flag == "--web-root") webRoot = value;
        else if (flag == "--threads") threads = std::stoi(value);
        else {
            std::cerr << "usage: server_bench [--games N] [--seconds S] [--server PATH] [--web-root DIR] [--threads N]\n";
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);

    // Baseline: the bare echo server with the same number of threads as senet-server.
    Stats echo;
    {
        net::io_context ioc(threads);
        EchoServer es(ioc);
        auto guard = net::make_work_guard(ioc);
        std::vector<std::thread> pool;
        for (int i = 0; i < threads; ++i) pool.emplace_back([&] { ioc.run(); });
        echo = drive(es.port(), true, games, seconds, {});
        guard.reset();
        ioc.stop();
        for (auto& t : pool) t.join();
    }

    const auto dataDir = std::filesystem::temp_directory_path() / ("senet-bench-" + std::to_string(getpid()));
    std::filesystem::create_directories(dataDir);
    auto [pid, port] = startServer(server, dataDir.string(), webRoot, threads);
    std::vector<std::pair<std::string, std::string>> pool;
    const char* rulesets[] = {"standard", "jequier", "bell"};
    for (int i = 0; i < games * 3; ++i) pool.push_back(createGame(port, rulesets[i % 3]));
    Stats full = drive(port, false, games, seconds, std::move(pool));
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    std::filesystem::remove_all(dataDir);

    const double ep50 = echo.percentile(0.5), ep99 = echo.percentile(0.99);
    const double fp50 = full.percentile(0.5), fp99 = full.percentile(0.99);
    std::printf("connections: %d, measured %.1f s each, server threads %d\n", games, seconds, threads);
    std::printf("echo baseline   : %9.0f msg/s      p50 %7.3f ms  p99 %7.3f ms\n", echo.perSecond(), ep50, ep99);
    std::printf("senet-server    : %9.0f actions/s  p50 %7.3f ms  p99 %7.3f ms\n", full.perSecond(), fp50, fp99);
    std::printf("full stack / echo: %.1f %%\n", 100.0 * full.perSecond() / std::max(1.0, echo.perSecond()));
    return 0;
}
