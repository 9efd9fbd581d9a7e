// Accepts TCP connections and hands each to an HttpSession, counting them under the connection
// caps; accept errors (out of descriptors) back off from 50 ms doubling to 1 s.
#pragma once

#include "net.hpp"

namespace senet::server {

/// Accepts connections on one endpoint until stopped.
class Listener : public std::enable_shared_from_this<Listener> {
public:
    /// Opens, binds and listens on `endpoint`. Throws boost::system::system_error on failure.
    Listener(net::io_context& ioc, tcp::endpoint endpoint, ServerContext& context);
    /// Starts accepting.
    void run();
    /// Stops accepting (thread-safe).
    void stop();
    /// The bound port (useful with port 0).
    unsigned short port() const { return acceptor_.local_endpoint().port(); }

private:
    void doAccept();
    void onAccept(beast::error_code ec, Socket socket);
    void start(Socket socket);

    net::io_context& ioc_;
    tcp::acceptor acceptor_;
    ServerContext& context_;
    net::steady_timer retry_;
    std::chrono::milliseconds backoff_{0};
};

}  // namespace senet::server
