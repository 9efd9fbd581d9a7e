#include "load_client.hpp"

#include <utility>  // before Asio (Boost 1.74 with C++20)
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <random>

namespace bench {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

double Stats::percentile(double p) {
    if (latencies.empty()) return 0;
    std::sort(latencies.begin(), latencies.end());
    return latencies[std::min(latencies.size() - 1, static_cast<std::size_t>(p * static_cast<double>(latencies.size())))] / 1000.0;
}

double Stats::maxMs() const {
    return latencies.empty() ? 0 : *std::max_element(latencies.begin(), latencies.end()) / 1000.0;
}

namespace {

/// What every connection of a run shares (one client thread: no locking).
struct Shared {
    Shared(net::io_context& c, const RunOptions& o, std::vector<GameRef> g) : ioc(c), options(o), games(std::move(g)) {}
    net::io_context& ioc;
    RunOptions options;
    std::vector<GameRef> games;
    std::size_t nextGame = 0;
    Clock::time_point start, end;
    Stats stats;
    std::mt19937 rng{12345};

    /// A paced interval: the mean interval with uniform jitter.
    Clock::duration interval() {
        std::uniform_real_distribution<double> u(1.0 - options.jitter, 1.0 + options.jitter);
        return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(options.intervalMs * u(rng)));
    }
    void record(Clock::time_point now, Clock::time_point sent) {
        if (now < start || now >= end) return;
        ++stats.actions;
        stats.latencies.push_back(static_cast<std::uint32_t>(std::chrono::duration_cast<std::chrono::microseconds>(now - sent).count()));
    }
};

/// One connection playing one game (or echoing), one action in flight at most.
class Player : public std::enable_shared_from_this<Player> {
public:
    Player(Shared& shared, std::size_t game)
        : shared_(shared), ws_(shared.ioc), timer_(shared.ioc), game_(game), rng_(static_cast<unsigned>(game)) {}

    void start() {
        beast::get_lowest_layer(ws_).async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), shared_.options.port),
                                                   [self = shared_from_this()](beast::error_code ec) {
                                                       if (ec) return self->fail("connect", ec);
                                                       beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true));
                                                       self->handshake();
                                                   });
    }

private:
    bool echo() const { return shared_.options.echo; }

    void fail(const char* what, beast::error_code ec) {
        if (ec == net::error::operation_aborted) return;
        ++shared_.stats.errors;
        if (shared_.stats.errors <= 5) std::cerr << "bench: " << what << ": " << ec.message() << '\n';
    }
    void handshake() {
        const std::string target = echo() ? "/" : "/ws/games/" + shared_.games[game_].first;
        ws_.async_handshake("127.0.0.1", target, [self = shared_from_this()](beast::error_code ec) {
            if (ec) return self->fail("handshake", ec);
            if (self->echo()) return self->schedule(true);
            self->write(R"({"t":"hello","d":{"secret":")" + self->shared_.games[self->game_].second + R"(","clientSeed":"bench"}})");
        });
    }
    /// Sends the next action now (closed loop) or at the next paced time.
    void schedule(bool first) {
        const auto now = Clock::now();
        if (now >= shared_.end) return close();
        acted_ = ply_;
        if (!shared_.options.paced) {
            sent_ = now;
            return act();
        }
        if (first) {
            // Spread the first actions over one interval so that the games do not act in step.
            std::uniform_real_distribution<double> u(0.0, shared_.options.intervalMs);
            due_ = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(u(shared_.rng)));
        } else {
            due_ += shared_.interval();
        }
        // The latency counts from the scheduled time: a late reply delays the next send, and
        // that delay is charged to the server rather than hidden (no coordinated omission).
        sent_ = due_;
        if (due_ <= now) return act();
        timer_.expires_at(due_);
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->act();
        });
    }
    void write(std::string text) {
        out_ = std::move(text);
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
        if (echo()) {
            buffer_.consume(buffer_.size());
            shared_.record(now, sent_);
            return schedule(false);
        }
        // A light reader instead of a full JSON parse, so that the client is not the bottleneck:
        // the server writes keys sorted, so the first "ply", "phase" and "legalMoves" are the state's.
        const std::string text = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        if (text.rfind("{\"t\":\"error\"", 0) == 0) {
            ++shared_.stats.errors;
            if (shared_.stats.errors <= 5) std::cerr << "bench: " << text << '\n';
        }
        const auto plyAt = text.find("\"ply\":");
        if (plyAt == std::string::npos) return read();
        const std::int64_t ply = std::atoll(text.c_str() + plyAt + 6);
        // An events frame carries only the state members that changed: keep the others.
        if (const auto phaseAt = text.find("\"phase\":\""); phaseAt != std::string::npos)
            phase_ = text.substr(phaseAt + 9, text.find('"', phaseAt + 9) - phaseAt - 9);
        if (const auto movesAt = text.find("\"legalMoves\":["); movesAt != std::string::npos) {
            moves_.clear();
            const auto movesEnd = text.find(']', movesAt);
            for (auto at = text.find("\"move\":\"", movesAt); at < movesEnd; at = text.find("\"move\":\"", at + 1))
                moves_.push_back(text.substr(at + 8, text.find('"', at + 8) - at - 8));
        }
        ply_ = ply;
        // Act once per new state: presence events and the hello snapshot both arrive first.
        if (ply <= acted_) return read();
        if (acted_ >= 0) shared_.record(now, sent_);
        if (phase_ == "over") return nextGame();
        schedule(acted_ < 0);
    }
    void act() {
        if (echo()) return write(R"({"t":"move","d":{"ply":123,"move":"10-13"}})");
        if (phase_ == "move" && !moves_.empty())
            write("{\"t\":\"move\",\"d\":{\"ply\":" + std::to_string(ply_) + ",\"move\":\"" + moves_[rng_() % moves_.size()] + "\"}}");
        else
            write("{\"t\":\"throw\",\"d\":{\"ply\":" + std::to_string(ply_) + "}}");
    }
    void nextGame() {
        if (shared_.nextGame >= shared_.games.size()) {
            std::cerr << "bench: out of games; pass more --seconds-worth of games\n";
            return close();
        }
        auto next = std::make_shared<Player>(shared_, shared_.nextGame++);
        close();
        next->start();
    }
    void close() {
        ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
    }

    Shared& shared_;
    websocket::stream<beast::tcp_stream> ws_;
    net::steady_timer timer_;
    beast::flat_buffer buffer_;
    std::size_t game_;
    std::mt19937 rng_;
    std::int64_t ply_ = 0;
    std::string phase_;
    std::vector<std::string> moves_;
    std::string out_;
    Clock::time_point sent_, due_;
    std::int64_t acted_ = -1;  ///< the ply of the last action sent
};

}  // namespace

Stats drive(const RunOptions& options, std::vector<GameRef> games) {
    net::io_context ioc(1);
    Shared shared{ioc, options, std::move(games)};
    shared.start = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.warmup));
    shared.end = shared.start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.seconds));
    shared.nextGame = options.echo ? 0 : static_cast<std::size_t>(options.connections);
    std::cerr << "bench: driving " << options.connections << (options.echo ? " echo connections" : " games") << '\n';
    for (int i = 0; i < options.connections; ++i) std::make_shared<Player>(shared, static_cast<std::size_t>(i))->start();
    ioc.run_until(shared.end + std::chrono::seconds(3));
    shared.stats.seconds = options.seconds;
    return std::move(shared.stats);
}

}  // namespace bench
