// The stream layer under each WebSocket session: it passes every byte through, except that it can
// turn the session's answer to a close frame into "protocol error" (1002). Beast 1.74 accepts
// close codes 5000 to 65535, which RFC 6455 (§7.4.2) leaves undefined, and echoes them; the
// session arms this layer from its control callback when a client's close code is one of them,
// and the echo goes out as 1002 instead.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/beast/websocket/teardown.hpp>

namespace senet::server {

/// True when the server accepts `code` in a client's close frame (RFC 6455 §7.4): 1000–1003,
/// 1007–1013 and 3000–4999. The others are answered with 1002: Beast refuses those below 1000,
/// 1004–1006 and 1014–2999 itself; this layer answers 5000 and above.
constexpr bool closeCodeAllowed(std::uint16_t code) {
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1013) || (code >= 3000 && code <= 4999);
}

/// `Next` (a Beast stream) with one addition: after `answerProtocolError()`, the next close frame
/// written that carries only a code (the form of Beast's echo) is sent with code 1002 instead.
/// Everything else, reads included, goes to `Next` unchanged. Used on the connection's strand only.
template <class Next>
class CloseAnswerLayer {
public:
    using next_layer_type = Next;
    using executor_type = typename Next::executor_type;

    /// Makes the next layer from `args` (a socket, for Beast's basic_stream).
    template <class... Args>
    explicit CloseAnswerLayer(Args&&... args) : next_(std::forward<Args>(args)...) {}

    executor_type get_executor() noexcept { return next_.get_executor(); }
    Next& next_layer() noexcept { return next_; }
    const Next& next_layer() const noexcept { return next_; }

    /// The next code-only close frame written goes out as 1002 (protocol error).
    void answerProtocolError() noexcept { answer_ = true; }

    template <class MutableBuffers, class Handler>
    void async_read_some(const MutableBuffers& buffers, Handler&& handler) {
        next_.async_read_some(buffers, std::forward<Handler>(handler));
    }

    /// Writes `buffers`; a 4-byte server close frame (0x88, length 2, the code) goes out as
    /// 1002 once armed, written whole (the handler sees 4 bytes, as for the original).
    template <class ConstBuffers, class Handler>
    void async_write_some(const ConstBuffers& buffers, Handler&& handler) {
        if (answer_ && boost::asio::buffer_size(buffers) == frame_.size()) {
            boost::asio::buffer_copy(boost::asio::buffer(frame_), buffers);
            if (frame_[0] == 0x88 && frame_[1] == 0x02) {
                answer_ = false;
                const auto code = static_cast<std::uint16_t>(boost::beast::websocket::close_code::protocol_error);
                frame_[2] = static_cast<unsigned char>(code >> 8);
                frame_[3] = static_cast<unsigned char>(code & 0xff);
                boost::asio::async_write(next_, boost::asio::buffer(frame_), std::forward<Handler>(handler));
                return;
            }
        }
        next_.async_write_some(buffers, std::forward<Handler>(handler));
    }

private:
    Next next_;
    bool answer_ = false;
    std::array<unsigned char, 4> frame_{};
};

/// The closing handshake's teardown, done by the next layer (Beast finds these by ADL).
template <class Next, class Handler>
void async_teardown(boost::beast::role_type role, CloseAnswerLayer<Next>& layer, Handler&& handler) {
    using boost::beast::websocket::async_teardown;
    async_teardown(role, layer.next_layer(), std::forward<Handler>(handler));
}

template <class Next>
void teardown(boost::beast::role_type role, CloseAnswerLayer<Next>& layer, boost::beast::error_code& ec) {
    using boost::beast::websocket::teardown;
    teardown(role, layer.next_layer(), ec);
}

}  // namespace senet::server
