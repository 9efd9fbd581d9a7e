// Routes every plain HTTP request (not the WebSocket upgrade): pages, the JSON API, static
// files, health and metrics. server/API.md documents each route.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "admission.hpp"
#include "config.hpp"
#include "connections.hpp"
#include "http_types.hpp"
#include "metrics.hpp"
#include "page_cache.hpp"
#include "registry.hpp"
#include "senet/signer.hpp"
#include "senet/site.hpp"
#include "static_files.hpp"

namespace senet::server {

class AnalysisService;
class HealthMonitor;
namespace lobby {
class Lobby;
}

/// Maps a request to a response. Thread-safe (const apart from the registry, which is).
class Router {
public:
    /// `signer` signs the verifiable records and answers GET /api/key; without one (tests and
    /// tools) records are served unsigned and /api/key answers 503.
    Router(Registry& registry, const site::Site& site, Metrics& metrics, const Config& config,
           const fairness::Signer* signer = nullptr);
    /// The response for `request`. Never throws: internal failures become 500.
    Response handle(const Request& request) const;
    /// Answers the requests that are computed off the I/O threads (GET /api/games/{id}/analysis,
    /// router_analysis.cpp): returns true when it took `request`, then calls `done` exactly once,
    /// possibly later on another thread; false for every other request (use handle()).
    bool handleDeferred(const Request& request, std::function<void(Response)> done) const;
    /// The analysis service behind GET /api/games/{id}/analysis; without one that route answers 503.
    void setAnalysis(AnalysisService* analysis) { analysis_ = analysis; }
    /// The lobby whose counts GET /api/lobby answers (none: 404).
    void setLobby(lobby::Lobby* lobby) { lobby_ = lobby; }
    /// The storage's health behind GET /healthz (health_monitor.hpp); without one /healthz always answers ok.
    void setHealth(const HealthMonitor* health) { health_ = health; }

private:
    Response route(const Request& request) const;
    /// The parts of route(): GET /healthz, GET /metrics, /api/…, and the site's pages.
    Response healthAnswer() const;
    Response metricsAnswer() const;
    Response routeApi(const Request& request, std::string_view path, bool get) const;
    Response routePage(const Request& request, std::string_view path, bool get) const;
    /// A redirect to the address a page is served at ("/DE/rules" → "/de/rules", "/de/rules/" →
    /// "/de/rules"), or nullopt when `path` is one.
    std::optional<Response> canonicalRedirect(std::string_view path) const;
    /// /{lang}/…: `rest` is the path after the site language `lang`.
    Response languagePage(std::string_view path, std::string_view lang, std::string_view rest) const;
    /// /{lang}/play/{id} and /{lang}/replay/{id}.
    Response playPage(std::string_view lang, const std::string& id) const;
    Response replayPage(std::string_view lang, const std::string& id) const;
    /// POST /api/games and joins through the per-address limits (admission.hpp).
    Response limitedCreate(const Request& request) const;
    Response limitedJoin(const Request& request, const std::string& id) const;
    /// POST /api/games/{id}/invite through the per-address join limit (a secret cannot be guessed faster).
    Response limitedInvite(const Request& request, const std::string& id) const;
    Response page(const site::Page& page) const;
    Response errorPage(std::string_view lang, site::ErrorKind kind, int status) const;
    bool isLanguage(std::string_view lang) const;
    /// The site language a first path segment means when it is not one exactly: "DE", "de-AT",
    /// "ar_EG" → "de", "de", "ar"; nullopt for anything else (a site language itself included).
    std::optional<std::string> languageAlias(std::string_view segment) const;

    Registry& registry_;
    const site::Site& site_;
    Metrics& metrics_;
    const Config& config_;
    const fairness::Signer* signer_;
    /// dist/ in memory and the compressed content pages, both built at construction.
    StaticFiles staticFiles_{config_.webRoot / "dist"};
    PageCache pageCache_{site_};
    /// Compresses an HTML answer (page_cache.hpp); its language was negotiated when the path
    /// does not start with a site language.
    void compressPage(Response& response, const Request& request) const;
    mutable TokenBuckets createBuckets_{config_.createRate, config_.createBurst};
    mutable TokenBuckets joinBuckets_{config_.joinRate, config_.joinBurst};
    mutable WaitingGames waiting_{config_.maxWaitingGames, [this](const std::string& id) { return stillWaiting(id); }};
    bool stillWaiting(const std::string& id) const;
    /// GET /api/games/{id}/analysis through the per-address analysis limit.
    void limitedAnalysis(const Request& request, const std::string& id, std::function<void(Response)> done) const;
    AnalysisService* analysis_ = nullptr;
    lobby::Lobby* lobby_ = nullptr;
    const HealthMonitor* health_ = nullptr;
    mutable TokenBuckets analysisBuckets_{config_.analysisRate, config_.analysisBurst};
};

// The JSON API (api.cpp). Each takes the request (and the game id from the path) and answers.

/// May refuse a validated creation before anything is stored (the waiting-games cap).
using CreateGate = std::function<std::optional<Response>(const CreateRequest&)>;
/// POST /api/games: create a game. `gate`, when set, is asked after validation.
Response apiCreateGame(Registry& registry, const site::Site& site, const Request& request, const CreateGate& gate = {});
/// POST /api/games/{id}/join: take the second seat with the invite token.
Response apiJoinGame(Registry& registry, const site::Site& site, const Request& request, const std::string& id);
/// POST /api/games/{id}/invite: the unused invite of a friend game, for the holder of a seat
/// (body {"secret", "lang"?}) while the other seat is free.
Response apiGameInvite(Registry& registry, const site::Site& site, const Request& request, const std::string& id);
/// GET /api/games/{id}: the public summary.
Response apiGameSummary(Registry& registry, const std::string& id);
/// GET /api/games/{id}/record: the verifiable record of a finished game, signed by `signer`
/// when given (server/PROTOCOL.md "Signed record").
Response apiGameRecord(Registry& registry, const std::string& id, const fairness::Signer* signer = nullptr);
/// GET /api/key: the public key that signs records (503 without a signer).
Response apiKey(const fairness::Signer* signer);
/// A JSON error body {"error": code, "message": message}.
Response apiError(int status, std::string_view code, std::string_view message);
/// 503 `moved` + Retry-After 1: another instance holds the game, or this one is handing it on.
Response gameMovingAnswer();
/// 503 `storage` + Retry-After 2: the game's stored row could not be read (the database is
/// unreachable); nothing changed.
Response storageDownAnswer();

}  // namespace senet::server
