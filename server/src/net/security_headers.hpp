// The one place that adds the security headers (server/API.md) to every response the server
// writes: router answers, Beast-level errors, WebSocket refusals and the 101 upgrade answer.
#pragma once

namespace senet::server {

/// The Content-Security-Policy of every response. 'wasm-unsafe-eval' lets pages compile the
/// engine's WebAssembly module (web/src/engine/wasm.ts); it allows no eval of JavaScript.
inline constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; frame-ancestors 'none'";

/// Sets Server, Content-Security-Policy, Referrer-Policy, X-Content-Type-Options and
/// X-Frame-Options on `message` (any Beast header container: a response or a WebSocket
/// handshake response).
template <class Message>
void addSecurityHeaders(Message& message) {
    message.set("Server", "senet-server");
    message.set("Content-Security-Policy", kContentSecurityPolicy);
    message.set("Referrer-Policy", "no-referrer");
    message.set("X-Content-Type-Options", "nosniff");
    message.set("X-Frame-Options", "DENY");
}

}  // namespace senet::server
