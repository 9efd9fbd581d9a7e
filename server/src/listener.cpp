#include "listener.hpp"

#include <iostream>

#include "http_session.hpp"

namespace senet::server {

void reportError(beast::error_code ec, const char* what) {
    if (ec == net::error::operation_aborted || ec == websocket::error::closed || ec == beast::error::timeout ||
        ec == net::error::eof || ec == net::error::connection_reset || ec == http::error::end_of_stream ||
        ec == net::error::broken_pipe || ec == net::error::not_connected)
        return;  // the other side went away: ordinary, not worth a log line
    std::cerr << "senet-server: " << what << ": " << ec.message() << '\n';
}

Listener::Listener(net::io_context& ioc, tcp::endpoint endpoint, ServerContext& context)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), context_(context) {
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
    });
}

void Listener::doAccept() {
    // Each connection gets its own strand, so its handlers never run concurrently.
    acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&Listener::onAccept, shared_from_this()));
}

void Listener::onAccept(beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec) {
        reportError(ec, "accept");
    } else {
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        std::make_shared<HttpSession>(std::move(socket), context_)->run();
    }
    doAccept();
}

}  // namespace senet::server
