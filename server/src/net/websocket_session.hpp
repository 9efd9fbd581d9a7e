// One WebSocket connection to a game room or the lobby (a SocketTarget): a read loop with a size limit, an idle timeout and a
// per-connection rate limit, and a write queue bounded in frames and bytes (Beast 1.74
// chat-multi's websocket_session). No exception leaves a handler.
#pragma once

#include <chrono>
#include <deque>
#include <optional>

#include "close_answer.hpp"
#include "net.hpp"
#include "socket_target.hpp"

namespace senet::server {

/// Frames queued for a client that does not read them; beyond this (or beyond
/// Config::maxQueueBytes unsent bytes) the connection is closed.
inline constexpr std::size_t kMaxQueuedFrames = 1024;

class WebSocketSession : public Peer, public std::enable_shared_from_this<WebSocketSession> {
public:
    /// `slot` (and `clientSlot`, the client's place behind a trusted proxy) are released when the session ends.
    WebSocketSession(Socket&& socket, ServerContext& context, std::shared_ptr<SocketTarget> target, ConnectionSlot slot,
                     ConnectionSlot clientSlot);
    ~WebSocketSession() override;
    /// Accepts the upgrade request `req` and starts reading.
    void run(http::request<http::string_body> req);
    /// Queues a frame (thread-safe).
    void send(std::shared_ptr<const std::string> frame) override;
    /// Closes with "going away" (thread-safe); used at shutdown.
    void close();
    /// Closes with `code` and `reason` after the frames already queued (thread-safe): the room's
    /// "moved" close (PROTOCOL.md).
    void closeWith(std::uint16_t code, const std::string& reason) override;

private:
    void onAccept(beast::error_code ec);
    void doRead();
    void onRead(beast::error_code ec, std::size_t bytes);
    void handleFrame();
    /// After a handler threw: logs (rate-limited) and answers `error` code `internal`.
    void internalError(const char* where, const std::exception& e);
    /// Drops the connection at once (no close handshake).
    void drop();
    void onSend(std::shared_ptr<const std::string> frame);
    void onWrite(beast::error_code ec, std::size_t bytes);
    void closeWith(websocket::close_reason reason);
    /// Starts the close handshake once the write queue is empty (see pendingClose_).
    void closeWhenSent();
    bool takeToken();

    websocket::stream<CloseAnswerLayer<Stream>> ws_;
    beast::flat_buffer buffer_;
    ServerContext& context_;
    std::shared_ptr<SocketTarget> target_;
    ConnectionSlot slot_, clientSlot_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    std::size_t queuedBytes_ = 0;
    double tokens_;
    std::chrono::steady_clock::time_point refilled_;
    int dropped_ = 0;
    bool attached_ = false;
    bool closing_ = false;
    bool readStopped_ = false;  ///< no more frames are read (a close is on its way)
    std::optional<websocket::close_reason> pendingClose_;  ///< a close waiting for the queued frames
};

}  // namespace senet::server
