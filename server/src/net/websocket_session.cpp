#include "websocket_session.hpp"

#include <nlohmann/json.hpp>

#include "log_limit.hpp"
#include "security_headers.hpp"

namespace senet::server {

using SteadyTime = std::chrono::steady_clock;

void SessionSet::add(WebSocketSession* key, std::weak_ptr<WebSocketSession> session) {
    std::lock_guard lock(mutex_);
    sessions_[key] = std::move(session);
}

void SessionSet::remove(WebSocketSession* key) {
    std::lock_guard lock(mutex_);
    sessions_.erase(key);
}

void SessionSet::closeAll() {
    std::vector<std::shared_ptr<WebSocketSession>> open;
    {
        std::lock_guard lock(mutex_);
        for (auto& [key, weak] : sessions_)
            if (auto s = weak.lock()) open.push_back(std::move(s));
    }
    for (auto& s : open) s->close();
}

WebSocketSession::WebSocketSession(Socket&& socket, ServerContext& context, std::shared_ptr<SocketTarget> target, ConnectionSlot slot,
                                   ConnectionSlot clientSlot)
    : ws_(std::move(socket)),
      context_(context),
      target_(std::move(target)),
      slot_(std::move(slot)),
      clientSlot_(std::move(clientSlot)),
      tokens_(context.config.burst),
      refilled_(SteadyTime::now()) {
    context_.metrics.openSockets.fetch_add(1);
}

WebSocketSession::~WebSocketSession() {
    try {
        if (attached_) target_->detach(this);
    } catch (const std::exception& e) {
        logLimited("internal error", std::string("websocket detach: ") + e.what());
    }
    context_.sessions.remove(this);
    context_.metrics.openSockets.fetch_sub(1);
}

void WebSocketSession::run(http::request<http::string_body> req) {
    websocket::stream_base::timeout timeout;
    timeout.handshake_timeout = context_.config.httpTimeout;
    timeout.idle_timeout = context_.config.idle;
    timeout.keep_alive_pings = true;  // ping at half the idle time; no pong closes the connection
    ws_.set_option(timeout);
    ws_.read_message_max(context_.config.maxMessage);
    ws_.auto_fragment(false);
    // The 101 answer and Beast's own refusals (400, 426) carry the security headers too.
    ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) { addSecurityHeaders(res); }));
    // A close code Beast takes but RFC 6455 does not define (5000 and above) is answered with
    // 1002, not echoed. Called inside the read, on the strand, before Beast writes its answer.
    // A close frame without a code is answered with 1000, as Beast does.
    ws_.control_callback([this](websocket::frame_type kind, beast::string_view) {
        const auto code = ws_.reason().code;
        if (kind == websocket::frame_type::close && code != websocket::close_code::none && !closeCodeAllowed(code))
            ws_.next_layer().answerProtocolError();
    });
    ws_.async_accept(req, beast::bind_front_handler(&WebSocketSession::onAccept, shared_from_this()));
}

void WebSocketSession::drop() {
    closing_ = true;
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
}

void WebSocketSession::internalError(const char* where, const std::exception& e) {
    logLimited("internal error", std::string(where) + ": " + e.what());
    try {
        target_->reject(this, protocol::ParseError{"internal", "internal error; nothing changed"});
    } catch (const std::exception&) {
        drop();
    }
}

void WebSocketSession::onAccept(beast::error_code ec) {
    if (ec) return reportError(ec, "websocket accept");
    try {
        ws_.text(true);
        context_.sessions.add(this, weak_from_this());
        target_->attach(this, weak_from_this());
        attached_ = true;
        doRead();
    } catch (const std::exception& e) {
        logLimited("internal error", std::string("websocket accept: ") + e.what());
        drop();
    }
}

void WebSocketSession::doRead() {
    ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::onRead, shared_from_this()));
}

bool WebSocketSession::takeToken() {
    const auto now = SteadyTime::now();
    tokens_ = std::min(context_.config.burst, tokens_ + std::chrono::duration<double>(now - refilled_).count() * context_.config.rate);
    refilled_ = now;
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
}

void WebSocketSession::onRead(beast::error_code ec, std::size_t) {
    // Errors end the session: closed, timed out, too big (Beast answers 1009 itself), not UTF-8 (1007).
    if (ec) return reportError(ec, "websocket read");
    try {
        handleFrame();
    } catch (const std::exception& e) {
        internalError("websocket message", e);
    }
    if (closing_ || readStopped_) return;
    try {
        doRead();
    } catch (const std::exception& e) {
        logLimited("internal error", std::string("websocket read: ") + e.what());
        drop();
    }
}

void WebSocketSession::handleFrame() {
    const auto received = SteadyTime::now();
    const std::string frame = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (!takeToken()) {
        target_->reject(this, protocol::ParseError{"rate-limited", "too many messages; this one was dropped"});
        if (++dropped_ > context_.config.maxDropped) {
            // The "rate-limited" answers already posted go out before the close frame.
            readStopped_ = true;
            return closeWith(static_cast<std::uint16_t>(websocket::close_code::policy_error), "");
        }
    } else if (!ws_.got_text()) {
        target_->reject(this, protocol::ParseError{"bad-json", "messages are JSON text frames"});
    } else {
        target_->receive(this, frame, received);
    }
}

void WebSocketSession::send(std::shared_ptr<const std::string> frame) {
    net::post(ws_.get_executor(), beast::bind_front_handler(&WebSocketSession::onSend, shared_from_this(), std::move(frame)));
}

void WebSocketSession::onSend(std::shared_ptr<const std::string> frame) {
    if (closing_ || pendingClose_) return;
    // A client that does not read: drop it rather than buffer without bound (in frames and in
    // bytes; one frame is always allowed, so that a large snapshot can go to a reader).
    if (queue_.size() >= kMaxQueuedFrames || (!queue_.empty() && queuedBytes_ + frame->size() > context_.config.maxQueueBytes)) {
        logLimited("slow client", "websocket: a client that does not read was disconnected (" + std::to_string(queuedBytes_) +
                                      " bytes queued)");
        return drop();
    }
    try {
        queuedBytes_ += frame->size();
        queue_.push_back(std::move(frame));
        if (queue_.size() > 1) return;  // a write is in progress
        ws_.async_write(net::buffer(*queue_.front()), beast::bind_front_handler(&WebSocketSession::onWrite, shared_from_this()));
    } catch (const std::exception& e) {
        logLimited("internal error", std::string("websocket send: ") + e.what());
        drop();
    }
}

void WebSocketSession::onWrite(beast::error_code ec, std::size_t) {
    if (ec) return reportError(ec, "websocket write");
    queuedBytes_ -= queue_.front()->size();
    queue_.pop_front();
    if (queue_.empty()) return closeWhenSent();
    if (closing_) return;
    try {
        ws_.async_write(net::buffer(*queue_.front()), beast::bind_front_handler(&WebSocketSession::onWrite, shared_from_this()));
    } catch (const std::exception& e) {
        logLimited("internal error", std::string("websocket write: ") + e.what());
        drop();
    }
}

void WebSocketSession::closeWith(websocket::close_reason reason) {
    if (closing_) return;
    closing_ = true;
    ws_.async_close(reason, [self = shared_from_this()](beast::error_code) {});
}

void WebSocketSession::close() {
    net::post(ws_.get_executor(), [self = shared_from_this()] { self->closeWith(websocket::close_code::going_away); });
}

void WebSocketSession::closeWith(std::uint16_t code, const std::string& reason) {
    net::post(ws_.get_executor(), [self = shared_from_this(), code, reason] {
        if (self->closing_ || self->pendingClose_) return;
        self->pendingClose_ = websocket::close_reason(static_cast<websocket::close_code>(code), reason);
        self->closeWhenSent();
    });
}

void WebSocketSession::closeWhenSent() {
    // A close frame may not overlap a message write: it waits for the queue (the frames sent
    // before the close, e.g. an action's events, still reach the client).
    if (!pendingClose_ || !queue_.empty()) return;
    auto reason = *pendingClose_;
    pendingClose_.reset();
    closeWith(reason);
}

}  // namespace senet::server
