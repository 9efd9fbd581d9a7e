#include "http_session.hpp"

#include "log_limit.hpp"
#include "request_framing.hpp"
#include "security_headers.hpp"
#include "websocket_session.hpp"

namespace senet::server {

namespace {

/// Time allowed to send the one request answered with 503 when over the connection caps.
constexpr auto kRefusalTimeout = std::chrono::seconds(5);

std::string_view view(beast::string_view v) { return std::string_view(v.data(), v.size()); }

/// Where the request head at the start of `bytes` ends: one past the blank line that ends it
/// (CRLF CRLF), or one past a bare LF (Beast's parser then refuses the request, as it did before
/// the framing check); 0 when `bytes` holds no end yet. `from` bytes were searched before.
std::size_t headEnd(std::string_view bytes, std::size_t from) {
    for (std::size_t i = from > 3 ? from - 3 : 0; i < bytes.size(); ++i) {
        if (bytes[i] != '\n') continue;
        if (i == 0 || bytes[i - 1] != '\r') return i + 1;
        if (i >= 3 && bytes.compare(i - 3, 4, "\r\n\r\n") == 0) return i + 1;
    }
    return 0;
}

}  // namespace

HttpSession::HttpSession(Socket&& socket, ServerContext& context, ConnectionSlot slot, std::string peer)
    : stream_(std::move(socket)), context_(context), slot_(std::move(slot)), peer_(std::move(peer)), refusing_(!slot_) {
    if (refusing_) context_.refusing.fetch_add(1);
}

HttpSession::~HttpSession() {
    if (refusing_) context_.refusing.fetch_sub(1);
}

void HttpSession::run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::doRead, shared_from_this())); }

void HttpSession::doRead() {
    parser_.emplace();
    parser_->body_limit(kMaxBody);
    parser_->header_limit(kMaxHeader);
    // The whole request must arrive within the timeout: slow senders are cut off.
    stream_.expires_after(refusing_ ? std::min<std::chrono::steady_clock::duration>(context_.config.httpTimeout, kRefusalTimeout)
                                    : std::chrono::steady_clock::duration(context_.config.httpTimeout));
    searched_ = 0;
    readHead();
}

void HttpSession::readHead() {
    const auto data = buffer_.cdata();
    const std::string_view bytes(static_cast<const char*>(data.data()), data.size());
    if (const std::size_t end = headEnd(bytes, searched_)) return onHead(end);
    searched_ = bytes.size();
    // No end within the largest head: too large.
    if (bytes.size() > kMaxHeader) return sendPlain(431, "request header too large\n", true);
    stream_.async_read_some(buffer_.prepare(std::min<std::size_t>(8192, buffer_.max_size() - bytes.size())),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                try {
                                    self->buffer_.commit(n);
                                    if (ec == net::error::eof && self->buffer_.size() == 0) ec = http::error::end_of_stream;
                                    if (ec) return self->handle(ec);
                                    self->readHead();
                                } catch (const std::exception& e) {
                                    self->fail("http", e);
                                }
                            });
}

void HttpSession::onHead(std::size_t headBytes) {
    try {
        // Every head the parser sees has had its framing checked: one over the limit never gets
        // that far (Beast's own limit, counted otherwise, would let a few bytes more through).
        if (headBytes > kMaxHeader) return sendPlain(431, "request header too large\n", true);
        const auto data = buffer_.cdata();
        const std::string_view head(static_cast<const char*>(data.data()), headBytes);
        if (const auto fault = framingFault(head)) return sendPlain(400, "bad request: " + *fault + "\n", true);
        // The parser reads the head from buffer_, then the body.
        http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
    } catch (const std::exception& e) {
        fail("http", e);
    }
}

void HttpSession::closeSocket() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
}

void HttpSession::fail(const char* where, const std::exception& e) {
    logLimited("internal error", std::string(where) + ": " + e.what());
    if (writing_) return closeSocket();
    try {
        sendPlain(500, "internal error\n", true);
    } catch (const std::exception&) {
        closeSocket();
    }
}

void HttpSession::sendPlain(int status, std::string body, bool close, std::string_view retryAfter) {
    http::response<http::string_body> res{static_cast<http::status>(status), 11};
    addSecurityHeaders(res);
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.set(http::field::cache_control, "no-store");
    if (!retryAfter.empty()) res.set(http::field::retry_after, beast::string_view(retryAfter.data(), retryAfter.size()));
    res.keep_alive(!close);
    res.body() = std::move(body);
    res.prepare_payload();
    write(std::move(res));
}

void HttpSession::onRead(beast::error_code ec, std::size_t) {
    try {
        handle(ec);
    } catch (const std::exception& e) {
        fail("http", e);
    }
}

void HttpSession::handle(beast::error_code ec) {
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
    if (refusing_)
        return sendPlain(503, "the server has too many connections (from this address or in total); try again later\n", true, "5");
    if (req.version() >= 11 && req.find(http::field::host) == req.end())
        return sendPlain(400, "bad request: HTTP/1.1 needs a Host header\n", true);

    // Repeated X-Forwarded-For lines are one list in order (RFC 9110 5.3): a proxy that adds its
    // own line after the client's must be read at the end, not the client's first line.
    std::string forwardedFor;
    for (auto [it, end] = req.equal_range("X-Forwarded-For"); it != end; ++it) {
        if (!forwardedFor.empty()) forwardedFor += ',';
        forwardedFor.append(it->value().data(), it->value().size());
    }
    const std::string client = clientAddress(peer_, forwardedFor, context_.config.trustedProxies);
    if (websocket::is_upgrade(req)) return upgrade(client);

    Request request;
    request.method = std::string(req.method_string());
    request.target = std::string(req.target());
    request.body = std::move(req.body());
    // A list field sent on several lines is one list (RFC 9110 5.3): "gzip" then "br" is "gzip, br".
    auto listField = [&req](http::field name) {
        std::string joined;
        for (auto [it, end] = req.equal_range(name); it != end; ++it) {
            if (!joined.empty()) joined += ", ";
            joined.append(it->value().data(), it->value().size());
        }
        return joined;
    };
    request.acceptLanguage = listField(http::field::accept_language);
    request.acceptEncoding = listField(http::field::accept_encoding);
    request.contentType = std::string(req[http::field::content_type]);
    request.ifNoneMatch = std::string(req[http::field::if_none_match]);
    request.remoteAddress = client;
    const unsigned version = req.version();
    const bool keepAlive = req.keep_alive(), head = req.method() == http::verb::head;
    // Answers computed elsewhere (the analysis) come back on this connection's strand.
    auto later = [self = shared_from_this(), version, keepAlive, head](Response response) {
        net::post(self->stream_.get_executor(), [self, response = std::move(response), version, keepAlive, head]() mutable {
            try {
                self->stream_.expires_after(self->context_.config.httpTimeout);
                self->respond(std::move(response), version, keepAlive, head);
            } catch (const std::exception& e) {
                self->fail("http", e);
            }
        });
    };
    if (context_.router.handleDeferred(request, later)) return;
    respond(context_.router.handle(request), version, keepAlive, head);
}

void HttpSession::respond(Response response, unsigned version, bool keepAlive, bool head) {
    if (response.sharedBody) {
        // Bytes shared with the static table or the page cache: sent from there, not copied.
        auto reply = std::make_shared<SharedReply>();
        reply->owner = std::move(response.sharedBody);
        reply->res = http::response<http::span_body<const char>>{static_cast<http::status>(response.status), version};
        fillHeaders(reply->res, response, keepAlive);
        if (!head) reply->res.body() = {reply->owner->data(), reply->owner->size()};
        reply->res.content_length(reply->owner->size());
        return writeShared(std::move(reply));
    }
    http::response<http::string_body> res{static_cast<http::status>(response.status), version};
    fillHeaders(res, response, keepAlive);
    const std::size_t size = response.body.size();
    if (!head) res.body() = std::move(response.body);
    // A 304 has no content and no length (RFC 9110 8.6 allows only the 200's length there).
    if (response.status != 304) res.content_length(size);
    write(std::move(res));
}

template <class Message>
void HttpSession::fillHeaders(Message& res, const Response& response, bool keepAlive) {
    addSecurityHeaders(res, response.inlineScriptHash);
    if (!response.contentType.empty()) res.set(http::field::content_type, response.contentType);
    for (auto& [name, value] : response.headers) res.set(name, value);
    res.keep_alive(keepAlive);
}

void HttpSession::writeShared(std::shared_ptr<SharedReply> reply) {
    auto& res = reply->res;
    const bool close = res.need_eof();
    pending_ = reply;
    writing_ = true;
    http::async_write(stream_, res, beast::bind_front_handler(&HttpSession::onWrite, shared_from_this(), close));
}

void HttpSession::write(http::response<http::string_body> res) {
    auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
    pending_ = sp;
    const bool close = sp->need_eof();
    writing_ = true;
    http::async_write(stream_, *sp, beast::bind_front_handler(&HttpSession::onWrite, shared_from_this(), close));
}

void HttpSession::onWrite(bool close, beast::error_code ec, std::size_t) {
    writing_ = false;
    try {
        if (ec) return reportError(ec, "http write");
        pending_.reset();
        if (close || refusing_) {
            stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
            return;
        }
        doRead();
    } catch (const std::exception& e) {
        logLimited("internal error", std::string("http write: ") + e.what());
        closeSocket();
    }
}

void HttpSession::upgrade(const std::string& client) {
    auto& req = parser_->get();
    if (!originAllowed(view(req[http::field::origin]), view(req[http::field::host]), context_.config.allowOrigins))
        return sendPlain(403, "this server does not accept WebSocket connections from the page's origin\n", true);
    const std::string_view target(req.target().data(), req.target().size());
    constexpr std::string_view prefix = "/ws/games/";
    const std::string_view path = target.substr(0, target.find('?'));
    if (path == "/ws/lobby" && context_.lobby) return upgradeTo(context_.lobby->connect(client), client);
    if (!path.starts_with(prefix)) return sendPlain(404, "no WebSocket here\n", true);
    const std::string id(path.substr(prefix.size()));
    Lookup found;
    try {
        found = context_.registry.find(id);
    } catch (const GameElsewhere&) {
        // Another instance holds it until its lease expires or it hands it on: try again shortly.
        return sendPlain(503, "this game is moving between servers; try again in a moment\n", true, "1");
    } catch (const StorageError& e) {
        // The database is unreachable (e.g. PostgreSQL restarting): nothing was loaded.
        logLimited("storage", std::string("game lookup: ") + e.what());
        return sendPlain(503, "the game's storage is unavailable; try again in a moment\n", true, "2");
    }
    if (found.status == LookupStatus::Expired) return sendPlain(410, "this game has expired\n", true);
    if (!found.room) return sendPlain(404, "there is no such game\n", true);
    upgradeTo(std::move(found.room), client);
}

void HttpSession::upgradeTo(std::shared_ptr<SocketTarget> target, const std::string& client) {
    // Behind a trusted proxy the peer is the proxy: the client's own WebSockets are capped here.
    ConnectionSlot clientSlot;
    if (client != peer_) {
        clientSlot = context_.connections.acquire(client, context_.config.maxConnectionsPerAddress, false, 0);
        if (!clientSlot)
            return sendPlain(503, "too many connections from this address; try again later\n", true, "5");
    }
    // A client sends its first frame only after the handshake's answer (RFC 6455 §4.1); bytes
    // already sent after the request would be lost in the hand-over: refuse them, never drop them.
    if (buffer_.size() > 0)
        return sendPlain(400, "bad request: data after the WebSocket upgrade request, before the handshake's answer\n", true);
    stream_.expires_never();
    std::make_shared<WebSocketSession>(stream_.release_socket(), context_, std::move(target), std::move(slot_),
                                       std::move(clientSlot))
        ->run(parser_->release());
}

}  // namespace senet::server
