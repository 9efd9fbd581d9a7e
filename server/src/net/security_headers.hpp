// The one place that adds the security headers (server/API.md) to every response the server
// writes: router answers, Beast-level errors, WebSocket refusals and the 101 upgrade answer.
#pragma once

#include <string>
#include <string_view>

namespace senet::server {

/// The Content-Security-Policy of every response. 'wasm-unsafe-eval' lets pages compile the
/// engine's WebAssembly module (web/src/engine/wasm.ts); it allows no eval of JavaScript.
inline constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; frame-ancestors 'none'";

/// kContentSecurityPolicy with `inlineScriptHash` ('sha256-' and 44 base64 characters: the
/// hash of an inline script the page runs, the play page's first script) added to script-src;
/// the policy unchanged for an empty or malformed hash.
inline std::string contentSecurityPolicy(std::string_view inlineScriptHash) {
    const bool wellFormed = inlineScriptHash.size() == 51 && inlineScriptHash.starts_with("sha256-") &&
        inlineScriptHash.substr(7).find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") == std::string_view::npos;
    std::string policy = kContentSecurityPolicy;
    const std::string_view at = "script-src 'self'";
    const auto where = policy.find(at);
    if (!wellFormed || where == std::string::npos) return policy;
    policy.insert(where + at.size(), " '" + std::string(inlineScriptHash) + "'");
    return policy;
}

/// Sets Server, Content-Security-Policy (contentSecurityPolicy(inlineScriptHash)),
/// Referrer-Policy, X-Content-Type-Options and X-Frame-Options on `message` (any Beast header
/// container: a response or a WebSocket handshake response).
template <class Message>
void addSecurityHeaders(Message& message, std::string_view inlineScriptHash = {}) {
    message.set("Server", "senet-server");
    message.set("Content-Security-Policy", contentSecurityPolicy(inlineScriptHash));
    message.set("Referrer-Policy", "no-referrer");
    message.set("X-Content-Type-Options", "nosniff");
    message.set("X-Frame-Options", "DENY");
}

}  // namespace senet::server
