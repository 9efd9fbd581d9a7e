// Beast/Asio names shared by the network code (listener, HTTP and WebSocket sessions). Modelled
// on Boost.Beast 1.74's example/websocket/server/chat-multi.
#pragma once

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange without it
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "config.hpp"
#include "connections.hpp"
#include "lobby.hpp"
#include "metrics.hpp"
#include "registry.hpp"
#include "router.hpp"

namespace senet::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

/// Each connection's strand, as a concrete type: Beast's default (any_io_executor) is a
/// type-erased executor that allocates a copy of the strand on the heap on every asynchronous
/// operation, which cost ~5 % of the server's CPU per action (bench/README.md).
using Strand = net::strand<net::io_context::executor_type>;
/// A connection's socket and stream, on its strand.
using Socket = tcp::socket::rebind_executor<Strand>::other;
using Stream = beast::basic_stream<tcp, Strand>;

class WebSocketSession;

/// The open WebSocket sessions, so that shutdown can close them. Thread-safe.
class SessionSet {
public:
    void add(WebSocketSession* key, std::weak_ptr<WebSocketSession> session);
    void remove(WebSocketSession* key);
    /// Sends a close frame (going away) on every open session.
    void closeAll();

private:
    std::mutex mutex_;
    std::unordered_map<WebSocketSession*, std::weak_ptr<WebSocketSession>> sessions_;
};

/// What every session needs. Outlives every session.
struct ServerContext {
    Registry& registry;
    const Router& router;
    Metrics& metrics;
    const Config& config;
    SessionSet sessions;
    lobby::Lobby* lobby = nullptr;     ///< GET /ws/lobby (none: 404)
    ConnectionCounter connections{};   ///< open connections per address and in total
    std::atomic<int> refusing{0};      ///< connections being answered 503 (over the caps)
};

/// Prints a network error unless it is an ordinary disconnect; rate-limited per `what` (log_limit.hpp).
void reportError(beast::error_code ec, const char* what);

}  // namespace senet::server
