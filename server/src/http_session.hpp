// One HTTP connection: reads requests with limits and a timeout, answers through the Router,
// and hands WebSocket upgrades for /ws/games/{id} to a WebSocketSession.
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
    HttpSession(tcp::socket&& socket, ServerContext& context);
    void run();

private:
    void doRead();
    void onRead(beast::error_code ec, std::size_t bytes);
    void onWrite(bool close, beast::error_code ec, std::size_t bytes);
    void upgrade();
    void sendPlain(int status, std::string body, bool close);
    void write(http::response<http::string_body> res);

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    ServerContext& context_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<void> pending_;  ///< keeps the response alive during the write
};

}  // namespace senet::server
