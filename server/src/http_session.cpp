#include "http_session.hpp"

#include "websocket_session.hpp"

namespace senet::server {

namespace {

constexpr const char* kCsp =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
    "frame-ancestors 'none'";

/// Adds the security headers every response carries.
template <class Res>
void secure(Res& res) {
    res.set(http::field::server, "senet-server");
    res.set("Content-Security-Policy", kCsp);
    res.set("Referrer-Policy", "no-referrer");
    res.set("X-Content-Type-Options", "nosniff");
    res.set("X-Frame-Options", "DENY");
}

}  // namespace

HttpSession::HttpSession(tcp::socket&& socket, ServerContext& context) : stream_(std::move(socket)), context_(context) {}

void HttpSession::run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::doRead, shared_from_this())); }

void HttpSession::doRead() {
    parser_.emplace();
    parser_->body_limit(kMaxBody);
    parser_->header_limit(kMaxHeader);
    // The whole request must arrive within the timeout: slow senders are cut off.
    stream_.expires_after(context_.config.httpTimeout);
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
}

void HttpSession::sendPlain(int status, std::string body, bool close) {
    http::response<http::string_body> res{static_cast<http::status>(status), 11};
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.keep_alive(!close);
    res.body() = std::move(body);
    res.prepare_payload();
    write(std::move(res));
}

void HttpSession::onRead(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) {
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        return;
    }
    if (ec == http::error::body_limit) return sendPlain(413, "request body too large\n", true);
    if (ec == http::error::header_limit) return sendPlain(431, "request header too large\n", true);
    if (ec == beast::error::timeout || ec == net::error::eof || ec == net::error::connection_reset) return;
    if (ec) {
        if (ec.category() == http::make_error_code(http::error::bad_target).category())
            return sendPlain(400, "bad request\n", true);
        return reportError(ec, "http read");
    }
    auto& req = parser_->get();
    if (websocket::is_upgrade(req)) return upgrade();

    Request request;
    request.method = std::string(req.method_string());
    request.target = std::string(req.target());
    request.body = std::move(req.body());
    request.acceptLanguage = std::string(req[http::field::accept_language]);
    request.acceptEncoding = std::string(req[http::field::accept_encoding]);
    request.contentType = std::string(req[http::field::content_type]);
    Response response = context_.router.handle(request);

    http::response<http::string_body> res{static_cast<http::status>(response.status), req.version()};
    secure(res);
    res.set(http::field::content_type, response.contentType);
    for (auto& [name, value] : response.headers) res.set(name, value);
    res.keep_alive(req.keep_alive());
    const std::size_t size = response.body.size();
    if (req.method() != http::verb::head) res.body() = std::move(response.body);
    res.content_length(size);
    write(std::move(res));
}

void HttpSession::write(http::response<http::string_body> res) {
    auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
    pending_ = sp;
    const bool close = sp->need_eof();
    http::async_write(stream_, *sp, beast::bind_front_handler(&HttpSession::onWrite, shared_from_this(), close));
}

void HttpSession::onWrite(bool close, beast::error_code ec, std::size_t) {
    if (ec) return reportError(ec, "http write");
    pending_.reset();
    if (close) {
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        return;
    }
    doRead();
}

void HttpSession::upgrade() {
    auto& req = parser_->get();
    const std::string_view target(req.target().data(), req.target().size());
    constexpr std::string_view prefix = "/ws/games/";
    const std::string_view path = target.substr(0, target.find('?'));
    if (!path.starts_with(prefix)) return sendPlain(404, "no WebSocket here\n", true);
    const std::string id(path.substr(prefix.size()));
    Lookup found = context_.registry.find(id);
    if (found.status == Lookup::Expired) return sendPlain(410, "this game has expired\n", true);
    if (!found.room) return sendPlain(404, "there is no such game\n", true);
    stream_.expires_never();
    std::make_shared<WebSocketSession>(stream_.release_socket(), context_, std::move(found.room))->run(parser_->release());
}

}  // namespace senet::server
