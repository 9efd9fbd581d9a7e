// The benchmark's baseline: a bare Beast WebSocket echo server, one strand per connection like
// senet-server, run on the same number of threads.
#pragma once

#include <utility>  // before Asio (Boost 1.74 with C++20)
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <memory>
#include <thread>
#include <vector>

namespace bench {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

/// One echo connection: reads a message and writes it back, forever.
class EchoSession : public std::enable_shared_from_this<EchoSession> {
public:
    /// Takes over an accepted socket.
    explicit EchoSession(tcp::socket&& s) : ws_(std::move(s)) {}
    /// Accepts the WebSocket handshake and starts echoing.
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

/// The echo server on 127.0.0.1 (any free port), running on `threads` threads until destroyed.
class EchoServer {
public:
    /// Starts listening and the thread pool.
    explicit EchoServer(int threads)
        : ioc_(threads), acceptor_(ioc_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)), guard_(net::make_work_guard(ioc_)) {
        accept();
        for (int i = 0; i < threads; ++i) pool_.emplace_back([this] { ioc_.run(); });
    }
    ~EchoServer() {
        guard_.reset();
        ioc_.stop();
        for (auto& t : pool_) t.join();
    }
    EchoServer(const EchoServer&) = delete;
    EchoServer& operator=(const EchoServer&) = delete;
    /// The listening port.
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
    net::io_context ioc_;
    tcp::acceptor acceptor_;
    net::executor_work_guard<net::io_context::executor_type> guard_;
    std::vector<std::thread> pool_;
};

}  // namespace bench
