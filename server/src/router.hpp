// Routes every plain HTTP request (not the WebSocket upgrade): pages, the JSON API, static
// files, health and metrics. server/API.md documents each route.
#pragma once

#include <string_view>

#include "config.hpp"
#include "http_types.hpp"
#include "metrics.hpp"
#include "registry.hpp"
#include "senet/signer.hpp"
#include "senet/site.hpp"

namespace senet::server {

/// Maps a request to a response. Thread-safe (const apart from the registry, which is).
class Router {
public:
    /// `signer` signs the verifiable records and answers GET /api/key; without one (tests and
    /// tools) records are served unsigned and /api/key answers 503.
    Router(Registry& registry, const site::Site& site, Metrics& metrics, const Config& config,
           const fairness::Signer* signer = nullptr);
    /// The response for `request`. Never throws: internal failures become 500.
    Response handle(const Request& request) const;

private:
    Response route(const Request& request) const;
    Response page(const site::Page& page) const;
    Response errorPage(std::string_view lang, site::ErrorKind kind, int status) const;
    bool isLanguage(std::string_view lang) const;

    Registry& registry_;
    const site::Site& site_;
    Metrics& metrics_;
    const Config& config_;
    const fairness::Signer* signer_;
};

// The JSON API (api.cpp). Each takes the request (and the game id from the path) and answers.

/// POST /api/games: create a game.
Response apiCreateGame(Registry& registry, const site::Site& site, const Request& request);
/// POST /api/games/{id}/join: take the second seat with the invite token.
Response apiJoinGame(Registry& registry, const site::Site& site, const Request& request, const std::string& id);
/// GET /api/games/{id}: the public summary.
Response apiGameSummary(Registry& registry, const std::string& id);
/// GET /api/games/{id}/record: the verifiable record of a finished game, signed by `signer`
/// when given (server/PROTOCOL.md "Signed record").
Response apiGameRecord(Registry& registry, const std::string& id, const fairness::Signer* signer = nullptr);
/// GET /api/key: the public key that signs records (503 without a signer).
Response apiKey(const fairness::Signer* signer);
/// A JSON error body {"error": code, "message": message}.
Response apiError(int status, std::string_view code, std::string_view message);

}  // namespace senet::server
