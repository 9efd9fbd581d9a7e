// One HTTP connection: reads requests with limits and a timeout, answers through the Router,
// and hands WebSocket upgrades for /ws/games/{id} and /ws/lobby to a WebSocketSession. No exception leaves
// a handler: a failure answers 500 (or closes) this connection only.
#pragma once

#include <optional>

#include "net.hpp"

namespace senet::server {

/// Largest request body (the API's JSON), in bytes.
inline constexpr std::size_t kMaxBody = 16 * 1024;
/// Largest request header block, in bytes.
inline constexpr std::uint32_t kMaxHeader = 8 * 1024;

/// Reads requests one at a time (keep-alive) until the peer closes or a read times out.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    /// `slot` holds the connection's place under the caps; an empty slot means the caps were
    /// reached: the session then answers its one request with 503 and closes. `peer` is the
    /// socket's remote address (canonical text).
    HttpSession(Socket&& socket, ServerContext& context, ConnectionSlot slot, std::string peer);
    ~HttpSession();
    void run();

private:
    /// Reads the next request's head into buffer_ (up to its blank line), checks its framing
    /// (request_framing.hpp), then lets the parser read the request from buffer_ and the socket.
    void doRead();
    /// Reads until buffer_ holds a whole head (or is full: 431).
    void readHead();
    /// The head is the first `headBytes` of buffer_: framing checked, then the parser's turn.
    void onHead(std::size_t headBytes);
    void onRead(beast::error_code ec, std::size_t bytes);
    void handle(beast::error_code ec);
    void onWrite(bool close, beast::error_code ec, std::size_t bytes);
    void upgrade(const std::string& client);
    /// Hands the upgrade over to a WebSocketSession talking to `target` (a room or a lobby
    /// connection), under the per-address cap of `client`.
    void upgradeTo(std::shared_ptr<SocketTarget> target, const std::string& client);
    void sendPlain(int status, std::string body, bool close, std::string_view retryAfter = {});
    void write(http::response<http::string_body> res);
    /// Sends the router's answer to a request of HTTP `version` (no body for HEAD).
    void respond(Response response, unsigned version, bool keepAlive, bool head);
    /// A response whose body is shared immutable bytes (Response::sharedBody), kept alive with it.
    struct SharedReply {
        std::shared_ptr<const std::string> owner;
        http::response<http::span_body<const char>> res;
    };
    void writeShared(std::shared_ptr<SharedReply> reply);
    /// Security headers, Content-Type (unless empty), the response's headers and keep-alive.
    template <class Message>
    void fillHeaders(Message& res, const Response& response, bool keepAlive);
    /// Answers 500 and closes after a handler threw; closes the socket if even that fails.
    void fail(const char* where, const std::exception& e);
    void closeSocket();

    Stream stream_;
    /// The bytes read and not yet parsed; at most a head, a body and some pipelined bytes.
    beast::flat_buffer buffer_{kMaxHeader + kMaxBody + 8 * 1024};
    ServerContext& context_;
    ConnectionSlot slot_;
    std::string peer_;
    bool refusing_;
    bool writing_ = false;
    std::size_t searched_ = 0;  ///< bytes of buffer_ already searched for the head's end
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<void> pending_;  ///< keeps the response alive during the write
};

}  // namespace senet::server
