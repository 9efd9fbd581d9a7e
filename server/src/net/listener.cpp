#include "listener.hpp"

#include <iostream>

#include "http_session.hpp"
#include "log_limit.hpp"

namespace senet::server {

void reportError(beast::error_code ec, const char* what) {
    if (ec == net::error::operation_aborted || ec == websocket::error::closed || ec == beast::error::timeout ||
        ec == net::error::eof || ec == net::error::connection_reset || ec == http::error::end_of_stream ||
        ec == net::error::broken_pipe || ec == net::error::not_connected)
        return;  // the other side went away: ordinary, not worth a log line
    logLimited(what, std::string(what) + ": " + ec.message());
}

Listener::Listener(net::io_context& ioc, tcp::endpoint endpoint, ServerContext& context)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), context_(context), retry_(acceptor_.get_executor()) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(net::socket_base::max_listen_connections);
}

void Listener::run() { doAccept(); }

void Listener::stop() {
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
        beast::error_code ec;
        self->acceptor_.close(ec);
        self->retry_.cancel();
    });
}

void Listener::doAccept() {
    // Each connection gets its own strand, so its handlers never run concurrently.
    acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&Listener::onAccept, shared_from_this()));
}

namespace {

/// Connections being refused with 503 at once; beyond this, over-cap connections are closed unanswered.
constexpr int kMaxRefusing = 256;
constexpr std::chrono::milliseconds kFirstBackoff{50}, kMaxBackoff{1000};

}  // namespace

void Listener::onAccept(beast::error_code ec, Socket socket) {
    if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec) {
        // Out of descriptors (EMFILE, ENFILE) or memory: the pending connection stays queued, so
        // accepting again at once would spin. Wait, longer each time, until an accept succeeds.
        reportError(ec, "accept");
        backoff_ = backoff_.count() == 0 ? kFirstBackoff : std::min(backoff_ * 2, kMaxBackoff);
        retry_.expires_after(backoff_);
        retry_.async_wait([self = shared_from_this()](beast::error_code waited) {
            if (!waited && self->acceptor_.is_open()) self->doAccept();
        });
        return;
    }
    backoff_ = std::chrono::milliseconds(0);
    try {
        start(std::move(socket));
    } catch (const std::exception& e) {
        logLimited("internal error", std::string("accept: ") + e.what());
    }
    doAccept();
}

void Listener::start(Socket socket) {
    beast::error_code ec;
    socket.set_option(tcp::no_delay(true), ec);
    const auto remote = socket.remote_endpoint(ec);
    if (ec) return;  // already gone
    std::string peer = remote.address().is_v6() && remote.address().to_v6().is_v4_mapped()
                           ? net::ip::make_address_v4(net::ip::v4_mapped, remote.address().to_v6()).to_string()
                           : remote.address().to_string();
    const Config& config = context_.config;
    // A trusted proxy carries many clients: it is capped only in total (its clients' WebSockets
    // are capped per client address at the upgrade).
    const bool proxy = isListed(peer, config.trustedProxies);
    ConnectionSlot slot = context_.connections.acquire(proxy ? std::string() : peer, config.maxConnectionsPerAddress, true,
                                                       config.maxConnections);
    if (!slot && context_.refusing.load() >= kMaxRefusing) {
        logLimited("connection cap", "connection cap reached; closing a connection from " + peer + " unanswered");
        return;  // the socket closes here
    }
    if (!slot) logLimited("connection cap", "connection cap reached; answering 503 to " + peer);
    std::make_shared<HttpSession>(std::move(socket), context_, std::move(slot), std::move(peer))->run();
}

}  // namespace senet::server
