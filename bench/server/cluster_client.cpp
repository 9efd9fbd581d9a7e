// cluster_client: plays whole games through a load balancer in front of several senet-server
// instances, survives instances dying, and checks afterwards that no acknowledged action was
// lost or duplicated (scripts/cluster-test.sh drives it).
//
//   cluster_client --port P [--games N] [--computer-share F] [--think-ms MS] [--kill PID
//                  --kill-after-acks K] [--records DIR] [--timeout-s S]
//
// Each game is a friend game (two connections, one per seat: created, then joined) or a
// computer game (one connection). A connection acts whenever its seat is to act, one action in
// flight at most, each action carrying its ply. An action is acknowledged when the `events`
// frame of the next ply that holds its own event (`thrown`, `moved`) arrives (the server sends
// it only after the write is durable; other frames carry the ply too: cluster_acks.hpp). When a
// connection closes (an instance killed, or 4001 "moved") it reconnects, says hello again and
// goes on from the snapshot: an unacknowledged action is sent again only with the same ply, so
// the server applies it at most once (a stale ply is answered `wrong-ply`).
//
// At the end every game's record (GET /api/games/{id}/record) is compared with the client's
// acknowledged actions: each must be in the record at its ply (else "lost"); a ply acknowledged
// twice, or a record holding more actions than the game's final ply, counts as "duplicated". The
// records are written to DIR for `senet verify`. The last line of output is
//   RESULT finished=N games=N lost=L duplicated=D takeover_p99_ms=X drops=K ...
// (then the largest takeover, the acknowledgements, the actions the game went past without
// their acknowledgement reaching the client — applied by an instance that died before sending
// it, or not applied — and the seconds played).
// where a "takeover" is the time from a connection's unexpected close to its next snapshot.
#include <signal.h>
#include <sys/types.h>

#include <utility>  // before Asio (Boost 1.74 with C++20)
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster_acks.hpp"

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    unsigned short port = 0;
    int games = 300;
    double computerShare = 0.5;
    int thinkMs = 40;
    pid_t killPid = 0;
    long killAfterAcks = 0;
    std::string records;
    int timeoutS = 600;
};

/// One HTTP request to the balancer; retries 503 (a game moving between instances) and
/// connection failures for up to `tries` attempts. Returns status and body.
std::pair<int, std::string> request(unsigned short port, http::verb verb, const std::string& target, const std::string& body,
                                    int tries = 100) {
    for (int attempt = 0;; ++attempt) {
        try {
            net::io_context ioc;
            beast::tcp_stream stream(ioc);
            stream.expires_after(std::chrono::seconds(10));
            stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
            http::request<http::string_body> req{verb, target, 11};
            req.set(http::field::host, "127.0.0.1");
            if (!body.empty()) {
                req.set(http::field::content_type, "application/json");
                req.body() = body;
            }
            req.prepare_payload();
            http::write(stream, req);
            beast::flat_buffer buffer;
            http::response<http::string_body> res;
            http::read(stream, buffer, res);
            const int status = static_cast<int>(res.result_int());
            if ((status == 503 || status == 502 || status == 504) && attempt + 1 < tries) {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                continue;
            }
            return {status, res.body()};
        } catch (const std::exception& e) {
            if (attempt + 1 >= tries) return {0, e.what()};
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    }
}

using senet::cluster::Action;

/// One game and what the client learned about it.
struct GameState {
    std::string id;
    bool computer = false;
    std::map<std::int64_t, Action> acked;  ///< by ply
    int duplicateAcks = 0;
    std::int64_t finalPly = -1;  ///< the ply of the first "over" state seen
    int connectionsDone = 0;
    int connections = 1;
    bool finished() const { return connectionsDone >= connections; }
};

struct Shared {
    Shared(net::io_context& c, const Options& o) : ioc(c), options(o) {}
    net::io_context& ioc;
    Options options;
    std::vector<GameState> games;
    long acks = 0;
    int finished = 0;
    bool killed = false;
    std::vector<double> takeoverMs;
    int errors = 0;
    long unacknowledged = 0;  ///< actions the game went past without their acknowledgement reaching the client
    std::mt19937 rng{20260601};

    void noteAck() {
        ++acks;
        if (!killed && options.killPid > 0 && acks >= options.killAfterAcks) {
            killed = true;
            std::cerr << "cluster_client: " << acks << " actions acknowledged; SIGKILL to instance pid " << options.killPid << '\n';
            ::kill(options.killPid, SIGKILL);
        }
    }
};

/// One seat's connection: plays its seat, reconnects after any close until its game is over.
class Seat : public std::enable_shared_from_this<Seat> {
public:
    Seat(Shared& shared, std::size_t game, std::string secret, std::string seed)
        : shared_(shared), game_(game), secret_(std::move(secret)), seed_(std::move(seed)), timer_(shared.ioc),
          rng_(static_cast<unsigned>(game * 7919 + seed_.size())) {}

    void start() { connect(); }

private:
    GameState& game() { return shared_.games[game_]; }

    void connect() {
        ws_ = std::make_unique<websocket::stream<beast::tcp_stream>>(shared_.ioc);
        beast::get_lowest_layer(*ws_).expires_after(std::chrono::seconds(10));
        beast::get_lowest_layer(*ws_).async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), shared_.options.port),
                                                    [self = shared_from_this()](beast::error_code ec) {
                                                        if (ec) return self->retry(200);
                                                        self->handshake();
                                                    });
    }
    void handshake() {
        ws_->async_handshake("127.0.0.1", "/ws/games/" + game().id, [self = shared_from_this()](beast::error_code ec) {
            // 503 while another instance still holds the game (its lease not yet expired), 502
            // while the balancer learns that an instance is gone: try again shortly.
            if (ec) return self->retry(200);
            beast::get_lowest_layer(*self->ws_).expires_never();
            websocket::stream_base::timeout t = websocket::stream_base::timeout::suggested(beast::role_type::client);
            t.idle_timeout = std::chrono::seconds(30);
            self->ws_->set_option(t);
            self->open_ = true;
            self->write(json({{"t", "hello"}, {"d", {{"secret", self->secret_}, {"clientSeed", self->seed_}}}}).dump());
            self->read();
        });
    }
    void retry(int ms) {
        open_ = false;
        timer_.expires_after(std::chrono::milliseconds(ms));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->connect();
        });
    }
    void write(std::string text) {
        outbox_.push_back(std::move(text));
        if (outbox_.size() == 1) flush();
    }
    void flush() {
        if (outbox_.empty() || !open_) return;
        ws_->async_write(net::buffer(outbox_.front()), [self = shared_from_this(), ws = ws_.get()](beast::error_code ec, std::size_t) {
            if (ws != self->ws_.get()) return;  // an old connection's write
            if (ec) return;                      // the read side notices the close
            self->outbox_.pop_front();
            self->flush();
        });
    }
    void read() {
        ws_->async_read(buffer_, [self = shared_from_this(), ws = ws_.get()](beast::error_code ec, std::size_t) {
            if (ws != self->ws_.get()) return;
            if (ec) return self->closed(ec);
            const std::string text = beast::buffers_to_string(self->buffer_.data());
            self->buffer_.consume(self->buffer_.size());
            self->onMessage(text);
            if (!self->done_) self->read();
        });
    }
    void closed(beast::error_code ec) {
        open_ = false;
        outbox_.clear();
        timer_.cancel();
        if (done_) return;
        const bool moved = ws_->reason().code == 4001;
        if (!dropped_) dropped_ = Clock::now();
        if (shared_.errors < 5 && !moved)
            std::cerr << "cluster_client: game " << game().id << ": connection closed (" << ec.message() << "), reconnecting\n";
        retry(moved ? 0 : 100);
    }

    void onMessage(const std::string& text) {
        const json m = json::parse(text, nullptr, false);
        if (m.is_discarded()) return;
        const std::string t = m.value("t", "");
        if (t == "snapshot") {
            if (dropped_) {
                shared_.takeoverMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - *dropped_).count());
                dropped_.reset();
            }
            state_ = m["d"];
            seats_.clear();
            for (const auto& s : state_["you"]) seats_.push_back(s.get<int>());
            const std::int64_t ply = state_.value("ply", std::int64_t{0});
            if (pending_ && ply != pendingPly_) {
                pending_.reset();  // it was applied (unacknowledged) or overtaken
                ++shared_.unacknowledged;
            }
            if (pending_) {
                // Not applied: the same action with the same ply, if it is still ours to make.
                return resend();
            }
            return next();
        }
        if (t == "events") {
            const json& d = m["d"];
            const std::int64_t ply = d.value("ply", std::int64_t{0});
            if (const auto a = pending_ ? senet::cluster::acknowledged(d, *pending_, pendingPly_) : std::nullopt) {
                auto [it, fresh] = game().acked.emplace(pendingPly_, *a);
                if (!fresh) ++game().duplicateAcks;
                pending_.reset();
                shared_.noteAck();
            } else if (pending_ && ply > pendingPly_) {
                pending_.reset();  // applied without its acknowledgement reaching us, or overtaken (as for a snapshot)
                ++shared_.unacknowledged;
            }
            if (!state_.is_object()) state_ = json::object();
            state_.update(d["state"]);  // only the members that changed (PROTOCOL.md "events")
            state_["ply"] = ply;
            return next();
        }
        if (t == "error") {
            const std::string code = m["d"].value("code", "");
            if (code == "wrong-ply") return;  // a snapshot follows
            pending_.reset();
            if (code != "seeds-pending" && code != "not-started" && shared_.errors++ < 5)
                std::cerr << "cluster_client: game " << game().id << ": error " << m["d"].dump() << '\n';
            timer_.expires_after(std::chrono::milliseconds(100));
            timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
                if (!ec) self->next();
            });
        }
    }

    bool mine() const {
        if (!state_.contains("seatToAct") || state_["seatToAct"].is_null()) return false;
        return std::find(seats_.begin(), seats_.end(), state_["seatToAct"].get<int>()) != seats_.end();
    }
    /// Acts if the seat is to act and nothing is in flight; finishes at the end of the game.
    void next() {
        if (state_.value("phase", "") == "over") return finish();
        if (pending_ || !mine() || thinking_) return;
        thinking_ = true;
        const int think = shared_.options.thinkMs;
        timer_.expires_after(std::chrono::milliseconds(think / 2 + static_cast<int>(rng_() % static_cast<unsigned>(think + 1))));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            self->thinking_ = false;
            if (ec || !self->open_ || self->pending_ || !self->mine()) return;
            self->act();
        });
    }
    void act() {
        const std::string phase = state_.value("phase", "");
        Action a;
        if (phase == "move") {
            const auto& moves = state_["legalMoves"];
            if (moves.empty()) return;
            // Among the moves that take a piece furthest, at random (random play can last long).
            std::vector<std::size_t> pick;
            int best = -1;
            for (std::size_t i = 0; i < moves.size(); ++i) {
                const int dest = moves[i].value("dest", 0);
                if (dest > best) pick.clear(), best = dest;
                if (dest == best) pick.push_back(i);
            }
            a.kind = 'm';
            a.move = moves[pick[rng_() % pick.size()]]["move"];
        } else if (phase == "throw" || phase == "opening") {
            a.kind = 't';
        } else {
            return;
        }
        pending_ = a;
        pendingPly_ = state_.value("ply", std::int64_t{0});
        send();
    }
    void resend() {
        if (!mine()) return pending_.reset(), next();
        const std::string phase = state_.value("phase", "");
        if ((pending_->kind == 'm') != (phase == "move")) return pending_.reset(), next();
        send();
    }
    void send() {
        json d = {{"ply", pendingPly_}};
        if (pending_->kind == 'm') d["move"] = pending_->move;
        write(json({{"t", pending_->kind == 'm' ? "move" : "throw"}, {"d", d}}).dump());
    }
    void finish() {
        if (done_) return;
        done_ = true;
        GameState& g = game();
        if (g.finalPly < 0) g.finalPly = state_.value("ply", std::int64_t{0});
        if (++g.connectionsDone == g.connections) ++shared_.finished;
        timer_.cancel();
        ws_->async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
    }

    Shared& shared_;
    std::size_t game_;
    std::string secret_, seed_;
    std::unique_ptr<websocket::stream<beast::tcp_stream>> ws_;
    beast::flat_buffer buffer_;
    net::steady_timer timer_;
    std::mt19937 rng_;
    std::deque<std::string> outbox_;
    json state_;
    std::vector<int> seats_;
    std::optional<Action> pending_;
    std::int64_t pendingPly_ = -1;
    std::optional<Clock::time_point> dropped_;
    bool open_ = false, done_ = false, thinking_ = false;
};

/// The record's actions in ply order: opening throws, then each ply's throw and (unless a
/// pass) its move.
std::vector<Action> recordActions(const json& record) {
    std::vector<Action> out;
    if (record.contains("opening"))
        for (const auto& o : record["opening"]) out.push_back(Action{'t', "", o.value("throw", -1)});
    for (const auto& p : record["plies"]) {
        out.push_back(Action{'t', "", p.value("throw", -1)});
        const std::string move = p.value("move", "pass");
        if (move != "pass") out.push_back(Action{'m', move, -1});
    }
    return out;
}

int usage() {
    std::cerr << "usage: cluster_client --port P [--games N] [--computer-share F] [--think-ms MS] [--kill PID "
                 "--kill-after-acks K] [--records DIR] [--timeout-s S]\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) return usage();
        const std::string v = argv[++i];
        try {
            if (a == "--port") o.port = static_cast<unsigned short>(std::stoi(v));
            else if (a == "--games") o.games = std::stoi(v);
            else if (a == "--computer-share") o.computerShare = std::stod(v);
            else if (a == "--think-ms") o.thinkMs = std::max(0, std::stoi(v));
            else if (a == "--kill") o.killPid = static_cast<pid_t>(std::stol(v));
            else if (a == "--kill-after-acks") o.killAfterAcks = std::stol(v);
            else if (a == "--records") o.records = v;
            else if (a == "--timeout-s") o.timeoutS = std::stoi(v);
            else return usage();
        } catch (const std::exception&) {
            return usage();
        }
    }
    if (!o.port || o.games < 1) return usage();

    net::io_context ioc(1);
    Shared shared{ioc, o};
    // Create the games through the balancer (round-robin over the instances) and join the friend games.
    struct Seated {
        std::size_t game;
        std::string secret;
        std::string seed;
    };
    std::vector<Seated> seats;
    const int computers = static_cast<int>(o.games * o.computerShare + 0.5);
    for (int i = 0; i < o.games; ++i) {
        // Spread evenly: game i is a computer game when the running share crosses a whole number.
        const bool computer = static_cast<int>((i + 1) * o.computerShare) > static_cast<int>(i * o.computerShare);
        const json body = computer ? json{{"ruleset", "standard"}, {"opponent", "computer"}, {"level", "beginner"}, {"side", "first"}}
                                   : json{{"ruleset", "standard"}, {"opponent", "friend"}, {"side", "first"}};
        const auto [status, text] = request(o.port, http::verb::post, "/api/games", body.dump());
        const json created = json::parse(text, nullptr, false);
        if (status != 201 || !created.is_object()) {
            std::cerr << "cluster_client: creating a game failed: " << status << ' ' << text.substr(0, 200) << '\n';
            return 1;
        }
        GameState g;
        g.id = created["game"];
        g.computer = computer;
        g.connections = computer ? 1 : 2;
        shared.games.push_back(g);
        seats.push_back({shared.games.size() - 1, created["secret"], "seed-" + std::to_string(i) + "-a"});
        if (!computer) {
            const std::string url = created.value("inviteUrl", "");
            const std::string token = url.substr(url.find("#invite=") + 8);
            const auto [js, jt] =
                request(o.port, http::verb::post, "/api/games/" + g.id + "/join", json{{"invite", token}}.dump());
            const json joined = json::parse(jt, nullptr, false);
            if (js != 200 || !joined.is_object()) {
                std::cerr << "cluster_client: joining " << g.id << " failed: " << js << ' ' << jt.substr(0, 200) << '\n';
                return 1;
            }
            seats.push_back({shared.games.size() - 1, joined["secret"], "seed-" + std::to_string(i) + "-b"});
        }
    }
    std::cerr << "cluster_client: " << o.games << " games created (" << computers << " against the computer); playing\n";
    const auto started = Clock::now();
    for (const auto& s : seats) std::make_shared<Seat>(shared, s.game, s.secret, s.seed)->start();
    while (shared.finished < o.games && Clock::now() - started < std::chrono::seconds(o.timeoutS)) {
        ioc.run_for(std::chrono::milliseconds(200));
        if (ioc.stopped()) ioc.restart();
    }
    const double playS = std::chrono::duration<double>(Clock::now() - started).count();
    std::cerr << "cluster_client: " << shared.finished << "/" << o.games << " games finished in " << playS << " s, "
              << shared.acks << " actions acknowledged\n";
    ioc.stop();

    // Compare every game's record with the acknowledged actions.
    long lost = 0, duplicated = 0;
    if (!o.records.empty()) std::filesystem::create_directories(o.records);
    for (const GameState& g : shared.games) {
        duplicated += g.duplicateAcks;
        const auto [status, text] = request(o.port, http::verb::get, "/api/games/" + g.id + "/record", "");
        const json record = json::parse(text, nullptr, false);
        if (status != 200 || !record.is_object() || !record.contains("plies")) {
            std::cerr << "cluster_client: game " << g.id << ": no record (" << status << "): " << text.substr(0, 200) << '\n';
            lost += static_cast<long>(g.acked.size());
            continue;
        }
        if (!o.records.empty()) std::ofstream(o.records + "/" + g.id + ".json") << text;
        const auto actions = recordActions(record);
        for (const auto& [ply, a] : g.acked) {
            const bool same = ply < static_cast<std::int64_t>(actions.size()) && actions[ply].kind == a.kind &&
                              (a.kind == 'm' ? actions[ply].move == a.move : actions[ply].value == a.value);
            if (!same) {
                ++lost;
                if (lost <= 5) {
                    std::cerr << "cluster_client: game " << g.id << (g.computer ? " (computer)" : " (friend)") << ": acknowledged "
                              << a.kind << ' ' << a.move << ' ' << a.value << " at ply " << ply << ", the record has ";
                    if (ply < static_cast<std::int64_t>(actions.size()))
                        std::cerr << actions[ply].kind << ' ' << actions[ply].move << ' ' << actions[ply].value << '\n';
                    else
                        std::cerr << "no action there\n";
                }
            }
        }
        if (g.finalPly >= 0 && static_cast<std::int64_t>(actions.size()) > g.finalPly) {
            duplicated += static_cast<long>(actions.size()) - g.finalPly;
            std::cerr << "cluster_client: game " << g.id << ": the record holds " << actions.size() << " actions, the game ended at ply "
                      << g.finalPly << '\n';
        }
    }
    auto& t = shared.takeoverMs;
    std::sort(t.begin(), t.end());
    const double p99 = t.empty() ? 0 : t[std::min(t.size() - 1, static_cast<std::size_t>(0.99 * static_cast<double>(t.size())))];
    std::cout << "RESULT finished=" << shared.finished << " games=" << o.games << " lost=" << lost << " duplicated=" << duplicated
              << " takeover_p99_ms=" << static_cast<long>(p99 + 0.5) << " drops=" << t.size()
              << " takeover_max_ms=" << static_cast<long>(t.empty() ? 0 : t.back() + 0.5) << " acks=" << shared.acks
              << " unacknowledged=" << shared.unacknowledged
              << " seconds=" << static_cast<long>(playS + 0.5) << std::endl;
    return shared.finished == o.games && lost == 0 && duplicated == 0 ? 0 : 1;
}
