#include "harness.hpp"

#include <algorithm>
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

#include <fstream>
#include <stdexcept>

#include <gtest/gtest.h>

namespace senet::testing {

namespace fs = std::filesystem;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

TempDir::TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "senet-server-test-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

fs::path makeWebRoot(const fs::path& dir) {
    const fs::path web = dir / "web";
    fs::create_directories(web / "dist" / "sub");
    fs::create_symlink(fs::path(SENET_WEB_ROOT) / "templates", web / "templates");
    fs::create_symlink(fs::path(SENET_WEB_ROOT) / "po", web / "po");
    auto write = [](const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; };
    // The play page's first script, inline by its hash (web/scripts/build.mjs "boot.js sha256").
    write(web / "dist" / "manifest.json", "{\"app.js\": \"app.0123abcd.js\", \"boot.js\": \"/static/boot-0a1b.js\", "
                                          "\"boot.js sha256\": \"sha256-qFwDOjbML2FjvNdixzf0s2p6IPhN5wDu5MPsgafqDmw=\"}");
    write(web / "dist" / "boot-0a1b.js", "(()=>{window.senetTestBoot=1;})();\n");
    std::string js = "// test bundle\n";
    for (int i = 0; i < 200; ++i) js += "console.log('line " + std::to_string(i) + "');\n";
    write(web / "dist" / "app.0123abcd.js", js);
    write(web / "dist" / "plain.css", "body { color: black; }\n");
    write(web / "dist" / "sub" / "logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n");
    write(web / "dist" / "pre.9f8e7d6c.css", "this is the uncompressed file\n");
    write(web / "dist" / "pre.9f8e7d6c.css.gz", "PRECOMPRESSED");
    // A WebAssembly module (the engine's, web/README.md): magic, version, then filler.
    write(web / "dist" / "engine-0a1b2c3d4e.wasm", std::string("\0asm\1\0\0\0", 8) + std::string(4000, '\0'));
    write(dir / "secret.txt", "do not serve\n");
    return web;
}

ServerProcess::ServerProcess(const fs::path& dataDir, const fs::path& webRoot, std::vector<std::string> extra,
                             const fs::path& stderrFile) {
    // A server that dies must fail the test, not kill the test process on its next write.
    signal(SIGPIPE, SIG_IGN);
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::vector<std::string> args = {SENET_SERVER_BINARY, "--port", "0", "--data-dir", dataDir.string(), "--web-root",
                                     webRoot.string(), "--computer-delay-ms", "0", "--ai-budget-ms", "20",
                                     // Tests act faster than people: a high rate limit unless a test sets its own.
                                     "--rate", "5000", "--burst", "5000"};
    // Without the build's endgame tables unless a test names its own: quicker starts, and the
    // analysis is then the same as `senet analyse` without --tables.
    if (std::find(extra.begin(), extra.end(), "--tables") == extra.end()) args.insert(args.end(), {"--tables", "none"});
    args.insert(args.end(), extra.begin(), extra.end());
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
        dup2(fds[1], 1);
        if (!stderrFile.empty()) {
            const int err = open(stderrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (err >= 0) dup2(err, 2);
        }
        close(fds[0]);
        close(fds[1]);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(fds[1]);
    out_ = fds[0];
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd p{out_, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0) continue;
        char buf[512];
        const ssize_t n = read(out_, buf, sizeof buf);
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
        const auto at = text.find("listening on http://");
        if (at != std::string::npos) {
            const auto colon = text.find(':', at + 20);
            const auto space = text.find(' ', colon);
            if (colon != std::string::npos && space != std::string::npos) {
                port_ = static_cast<unsigned short>(std::stoi(text.substr(colon + 1, space - colon - 1)));
                // Keep the pipe drained so the server never blocks on stdout.
                fcntl(out_, F_SETFL, O_NONBLOCK);
                return;
            }
        }
    }
    stop(SIGKILL);
    throw std::runtime_error("senet-server did not start: " + text);
}

ServerProcess::~ServerProcess() {
    if (pid_ > 0) stop(SIGKILL);
    if (out_ >= 0) close(out_);
}

int ServerProcess::stop(int signal) {
    if (pid_ <= 0) return -1;
    kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}

std::string HttpReply::header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
}

HttpReply httpRequest(unsigned short port, const std::string& method, const std::string& target, const std::string& body,
                      std::map<std::string, std::string> headers) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1");
    for (auto& [k, v] : headers) req.set(k, v);
    if (!body.empty() || method == "POST") {
        if (req[http::field::content_type].empty()) req.set(http::field::content_type, "application/json");
        req.body() = body;
        req.prepare_payload();
    }
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    if (method == "HEAD") parser.skip(true);
    http::read(stream, buffer, parser);
    auto& res = parser.get();
    HttpReply reply;
    reply.status = static_cast<int>(res.result_int());
    for (auto& f : res) {
        std::string name(f.name_string());
        for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        reply.headers[name] = std::string(f.value());
    }
    reply.body = res.body();
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    return reply;
}

NewGame createGame(unsigned short port, const std::string& ruleset, const std::string& opponent, const std::string& side,
                   const std::string& level) {
    json body = {{"ruleset", ruleset}, {"opponent", opponent}, {"side", side}};
    if (!level.empty()) body["level"] = level;
    const HttpReply r = httpRequest(port, "POST", "/api/games", body.dump());
    EXPECT_EQ(r.status, 201) << r.body;
    NewGame g;
    g.raw = r.bodyJson();
    g.id = g.raw.value("game", "");
    g.secret = g.raw.value("secret", "");
    if (g.raw.contains("seats")) g.seats = g.raw["seats"].get<std::vector<int>>();
    if (g.raw.contains("inviteUrl") && g.raw["inviteUrl"].is_string()) {
        g.inviteUrl = g.raw["inviteUrl"];
        g.inviteToken = g.inviteUrl.substr(g.inviteUrl.find("#invite=") + 8);
    }
    return g;
}

std::pair<int, std::string> joinGame(unsigned short port, const std::string& id, const std::string& invite) {
    const HttpReply r = httpRequest(port, "POST", "/api/games/" + id + "/join", json({{"invite", invite}}).dump());
    const json j = r.bodyJson();
    return {r.status, j.is_object() ? j.value("secret", "") : ""};
}

struct WsClient::Impl {
    net::io_context ioc;
    websocket::stream<beast::tcp_stream> ws{ioc};
    beast::flat_buffer buffer;
    json you = json::array();
};

WsClient::WsClient(unsigned short port, const std::string& gameId) : impl_(std::make_unique<Impl>()) {
    beast::get_lowest_layer(impl_->ws).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    // A path ("/ws/lobby") is used as it is; anything else is a game id.
    impl_->ws.handshake("127.0.0.1", gameId.starts_with("/") ? gameId : "/ws/games/" + gameId);
    impl_->ws.text(true);
}

WsClient::~WsClient() { close(); }

void WsClient::close() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ec;
    beast::get_lowest_layer(impl_->ws).socket().close(ec);
}

void WsClient::sendText(const std::string& text) {
    beast::error_code ec;
    impl_->ws.write(net::buffer(text), ec);
}

void WsClient::sendBinary(const std::string& bytes) {
    beast::error_code ec;
    impl_->ws.binary(true);
    impl_->ws.write(net::buffer(bytes), ec);
    impl_->ws.text(true);
}

void WsClient::send(const std::string& type, json data) { sendText(json({{"t", type}, {"d", std::move(data)}}).dump()); }

std::optional<json> WsClient::receive(std::chrono::milliseconds timeout) {
    if (closed_) return std::nullopt;
    bool done = false;
    beast::error_code ec;
    impl_->ws.async_read(impl_->buffer, [&](beast::error_code e, std::size_t) {
        ec = e;
        done = true;
    });
    impl_->ioc.restart();
    impl_->ioc.run_for(timeout);
    if (!done) {
        beast::get_lowest_layer(impl_->ws).cancel();
        impl_->ioc.restart();
        impl_->ioc.run();
        closed_ = true;  // a cancelled read leaves the stream unusable
        return std::nullopt;
    }
    if (ec) {
        closed_ = true;
        closeCode_ = impl_->ws.reason().code;
        return std::nullopt;
    }
    const std::string text = beast::buffers_to_string(impl_->buffer.data());
    impl_->buffer.consume(impl_->buffer.size());
    json m = json::parse(text, nullptr, false);
    // Every server message is {"t":TYPE,"d":DATA} with DATA canonical (keys sorted, no spaces) as
    // nlohmann::json writes it: hand-written frames must not differ by a byte from a JSON tree's.
    if (m.is_object() && m.contains("t") && m.contains("d"))
        EXPECT_EQ("{\"t\":" + m["t"].dump() + ",\"d\":" + m["d"].dump() + "}", text);
    else
        ADD_FAILURE() << "not a server message: " << text;
    const std::string t = m.is_object() ? m.value("t", "") : "";
    last_ = m;
    if (t == "snapshot") {
        state_ = m["d"];
        impl_->you = state_["you"];
    } else if (t == "events") {
        // Only the members that changed come (PROTOCOL.md "events"); the record is a snapshot's.
        if (state_.is_object()) state_.erase("record");
        else state_ = json::object();
        state_.update(m["d"]["state"]);
        state_["you"] = impl_->you;
        for (auto& e : m["d"]["events"]) events_.push_back(e);
    } else if (t == "error") {
        errors_.push_back(m["d"]);
    }
    return m;
}

std::string WsClient::lastSeen() const {
    std::string text = last_.is_null() ? std::string("none") : last_.dump();
    if (text.size() > 400) text = text.substr(0, 400) + "...";
    std::string out = "; last message received: " + text;
    if (closed_) out += "; the connection is closed (close code " + std::to_string(closeCode_) + ")";
    return out;
}

std::optional<json> WsClient::tryReceiveType(const std::string& type, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        auto m = receive(left);
        if (!m) return std::nullopt;
        if (m->value("t", "") == type) return m;
    }
}

std::optional<json> WsClient::receiveType(const std::string& type, std::chrono::milliseconds timeout) {
    auto m = tryReceiveType(type, timeout);
    if (!m) ADD_FAILURE() << "waited " << timeout.count() << " ms for a `" << type << "` message in vain" << lastSeen();
    return m;
}

bool WsClient::tryReceiveUntilPly(std::int64_t ply, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!(state_.is_object() && (state_.value("ply", -1) >= ply || state_.value("phase", "") == "over"))) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        if (!receive(left)) return false;
    }
    return true;
}

bool WsClient::receiveUntilPly(std::int64_t ply, std::chrono::milliseconds timeout) {
    if (tryReceiveUntilPly(ply, timeout)) return true;
    ADD_FAILURE() << "waited " << timeout.count() << " ms for ply " << ply << " (or the end) in vain; state ply "
                  << (state_.is_object() ? state_.value("ply", std::int64_t{-1}) : -1) << lastSeen();
    return false;
}

json WsClient::tryHello(const std::string& secret, const std::string& clientSeed) {
    json d = json::object();
    if (!secret.empty()) d["secret"] = secret;
    if (!clientSeed.empty()) d["clientSeed"] = clientSeed;
    send("hello", d);
    auto m = tryReceiveType("snapshot");
    return m ? (*m)["d"] : json();
}

json WsClient::hello(const std::string& secret, const std::string& clientSeed) {
    json snap = tryHello(secret, clientSeed);
    if (!snap.is_object()) ADD_FAILURE() << "hello got no snapshot" << lastSeen();
    return snap;
}

json WsClient::waitForError(const std::string& code, std::chrono::milliseconds timeout) {
    auto m = tryReceiveType("error", timeout);
    if (!m) {
        ADD_FAILURE() << "waited " << timeout.count() << " ms for the error `" << code << "` in vain" << lastSeen();
        return json();
    }
    json d = (*m)["d"];
    if (d.value("code", "") != code) ADD_FAILURE() << "waited for the error `" << code << "`, got " << d.dump();
    return d;
}

json WsClient::waitForEvent(const std::string& name, const json& match, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        auto m = left.count() > 0 ? receive(left) : std::nullopt;
        if (!m) {
            ADD_FAILURE() << "waited " << timeout.count() << " ms for the event `" << name << "` "
                          << (match.is_object() ? match.dump() : std::string()) << " in vain" << lastSeen();
            return json();
        }
        if (m->value("t", "") != "events") continue;
        for (const json& e : (*m)["d"]["events"]) {
            if (e.value("e", "") != name) continue;
            bool all = true;
            if (match.is_object())
                for (auto& [k, v] : match.items()) all = all && e.contains(k) && e[k] == v;
            if (all) return e;
        }
    }
}

std::optional<std::vector<json>> WsClient::roundTrip(std::chrono::milliseconds timeout) {
    send("ping");
    std::vector<json> before;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        auto m = left.count() > 0 ? receive(left) : std::nullopt;
        if (!m) {
            ADD_FAILURE() << "waited " << timeout.count() << " ms for a pong in vain" << lastSeen();
            return std::nullopt;
        }
        if (m->value("t", "") == "pong") return before;
        before.push_back(*m);
    }
}

int playToEnd(std::map<int, WsClient*> players, std::vector<WsClient*> watchers, std::mt19937& rng, int maxActions, bool forward) {
    constexpr int kRandomActions = 1500;
    WsClient* primary = players.begin()->second;
    std::vector<WsClient*> all;
    for (auto& [seat, c] : players)
        if (std::find(all.begin(), all.end(), c) == all.end()) all.push_back(c);
    all.insert(all.end(), watchers.begin(), watchers.end());
    int sent = 0;
    while (sent < maxActions) {
        const json s = primary->state();
        if (s.value("phase", "") == "over") break;
        const std::int64_t ply = s["ply"];
        if (s["seatToAct"].is_null()) {
            // Before the first throw no seat acts until both client seeds are fixed (the other
            // seat's hello may still be on its way): wait for the next message.
            if (s.value("throwIndex", 1) == 0 && primary->receive()) continue;
            ADD_FAILURE() << "no seat to act in phase " << s.value("phase", "");
            return sent;
        }
        const int seat = s["seatToAct"];
        auto it = players.find(seat);
        if (it == players.end()) {  // the computer's turn
            if (!primary->tryReceiveUntilPly(ply + 1)) {
                ADD_FAILURE() << "the computer did not act at ply " << ply;
                return sent;
            }
            continue;
        }
        WsClient* actor = it->second;
        const std::string phase = s["phase"];
        if (phase == "move") {
            const auto& moves = s["legalMoves"];
            if (moves.empty()) {
                ADD_FAILURE() << "phase move without legal moves";
                return sent;
            }
            std::vector<std::size_t> pick;
            int best = -1;
            for (std::size_t i = 0; i < moves.size(); ++i) {
                // After kRandomActions random actions, forward play, so every game ends within
                // maxActions whatever the server's throws.
                const int dest = forward || sent >= kRandomActions ? moves[i].value("dest", 0) : 0;
                if (dest > best) pick.clear(), best = dest;
                if (dest == best) pick.push_back(i);
            }
            const auto& m = moves[pick[std::uniform_int_distribution<std::size_t>(0, pick.size() - 1)(rng)]];
            actor->send("move", {{"ply", ply}, {"move", m["move"]}});
        } else {
            actor->send("throw", {{"ply", ply}});
        }
        ++sent;
        for (WsClient* c : all) {
            if (!c->tryReceiveUntilPly(ply + 1)) {
                ADD_FAILURE() << "no update after ply " << ply;
                return sent;
            }
        }
        for (WsClient* c : all)
            if (!c->errors().empty()) {
                ADD_FAILURE() << "error: " << c->errors().back().dump();
                return sent;
            }
    }
    // Let every follower reach the end too.
    for (WsClient* c : all) c->receiveUntilPly(1 << 30);
    return sent;
}

namespace {

json playActionsImpl(WsClient& c, int actions, std::mt19937& rng, bool checked) {
    for (int i = 0; i < actions && c.state()["phase"] != "over"; ++i) {
        const json s = c.state();
        if (s["phase"] == "move") {
            const auto& moves = s["legalMoves"];
            c.send("move", {{"ply", s["ply"]}, {"move", moves[rng() % moves.size()]["move"]}});
        } else {
            c.send("throw", {{"ply", s["ply"]}});
        }
        const std::int64_t next = s["ply"].get<std::int64_t>() + 1;
        if (!(checked ? c.receiveUntilPly(next) : c.tryReceiveUntilPly(next))) break;
    }
    return c.state();
}

}  // namespace

json playActions(WsClient& c, int actions, std::mt19937& rng) { return playActionsImpl(c, actions, rng, true); }

json tryPlayActions(WsClient& c, int actions, std::mt19937& rng) { return playActionsImpl(c, actions, rng, false); }

std::pair<int, std::string> runCli(const std::vector<std::string>& args) { return runProgram(SENET_CLI_BINARY, args); }

std::pair<int, std::string> runProgram(const std::string& program, const std::vector<std::string>& args) {
    std::string cmd = program;
    for (const auto& a : args) cmd += " '" + a + "'";
    cmd += " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return {-1, ""};
    std::string out;
    char buf[256];
    while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace senet::testing
