#include "router.hpp"

#include "lobby.hpp"
#include "log_limit.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "health_monitor.hpp"
#include "json_text.hpp"
#include "static_files.hpp"
#include "utf8.hpp"

namespace senet::server {

Router::Router(Registry& registry, const site::Site& site, Metrics& metrics, const Config& config,
               const fairness::Signer* signer)
    : registry_(registry), site_(site), metrics_(metrics), config_(config), signer_(signer) {}

bool Router::isLanguage(std::string_view lang) const {
    for (const auto& l : site_.languages())
        if (l == lang) return true;
    return false;
}

std::optional<std::string> Router::languageAlias(std::string_view segment) const {
    if (segment.empty() || segment.size() > 16 || isLanguage(segment)) return std::nullopt;
    std::string base;
    for (char ch : segment) {
        if (ch == '-' || ch == '_') break;
        if (!std::isalpha(static_cast<unsigned char>(ch))) return std::nullopt;
        base += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    for (char ch : segment)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_') return std::nullopt;
    if (!isLanguage(base)) return std::nullopt;
    return base;
}

Response Router::page(const site::Page& p) const {
    Response r;
    r.status = p.status;
    r.contentType = "text/html; charset=utf-8";
    r.body = p.body;
    r.inlineScriptHash = p.inlineScriptHash;
    r.headers.emplace_back("Cache-Control", "no-cache");
    if (!p.preloadLinks.empty()) r.headers.emplace_back("Link", p.preloadLinks);
    return r;
}

Response Router::errorPage(std::string_view lang, site::ErrorKind kind, int status) const {
    Response r = page(site_.error(lang, kind));
    r.status = status;
    return r;
}

Response Router::handle(const Request& request) const {
    metrics_.httpRequests.fetch_add(1, std::memory_order_relaxed);
    try {
        Response r = route(request);
        compressPage(r, request);
        return r;
    } catch (const GameElsewhere& e) {
        // Another instance holds the game; its lease expires or it is handed on within seconds.
        return gameMovingAnswer();
    } catch (const StorageError& e) {
        // The database is unreachable (e.g. PostgreSQL restarting): nothing was changed.
        logLimited("storage", std::string("request: ") + e.what());
        return storageDownAnswer();
    } catch (const std::exception& e) {
        std::cerr << "senet-server: " << request.method << ' ' << utf8::cut(request.target, 200) << ": " << e.what() << '\n';
        return apiError(500, "internal", "internal error");
    }
}

void Router::compressPage(Response& r, const Request& request) const {
    if (!r.contentType.starts_with("text/html")) return;
    const std::string_view target = request.target;
    const std::string_view path = target.substr(0, target.find('?'));
    const std::size_t slash = path.find('/', 1);
    const bool languagePath = slash != std::string_view::npos && isLanguage(path.substr(1, slash - 1));
    pageCache_.compress(r, request, path, !languagePath);
}

bool Router::stillWaiting(const std::string& id) const {
    // The stored row, read without loading the game (with several instances it may be another's).
    const auto row = registry_.peek(id);
    if (!row || row->opponent != Opponent::Friend || row->status != GameStatus::Playing) return false;
    return row->seatHashes[0].empty() || row->seatHashes[1].empty();
}

Response Router::limitedCreate(const Request& request) const {
    const std::string address = addressGroup(request.remoteAddress);
    if (auto wait = createBuckets_.take(address))
        return tooManyRequests("rate-limited", "too many games created from this address; try again later", *wait);
    bool reserved = false;
    const CreateGate gate = [&](const CreateRequest& req) -> std::optional<Response> {
        if (req.opponent != Opponent::Friend) return std::nullopt;
        if (!waiting_.reserve(address))
            return tooManyRequests("too-many-waiting",
                                   "too many games from this address are waiting for a second player; share or finish them first", 60);
        reserved = true;
        return std::nullopt;
    };
    Response r;
    try {
        r = apiCreateGame(registry_, site_, request, gate);
    } catch (...) {
        if (reserved) waiting_.settle(address, "");
        throw;
    }
    if (reserved) {
        // The new game's id: "game" in the JSON answer, or the play page in a form post's Location.
        std::string id;
        if (r.status == 201) {
            const auto body = nlohmann::json::parse(r.body, nullptr, false);
            if (body.is_object() && body.contains("game") && body["game"].is_string()) id = body["game"];
        } else if (r.status == 303) {
            for (const auto& [name, value] : r.headers)
                if (name == "Location" && value.find("/play/") != std::string::npos) {
                    const auto start = value.find("/play/") + 6;
                    id = value.substr(start, value.find('#', start) - start);
                }
        }
        waiting_.settle(address, id);
    }
    return r;
}

Response Router::limitedJoin(const Request& request, const std::string& id) const {
    if (auto wait = joinBuckets_.take(addressGroup(request.remoteAddress)))
        return tooManyRequests("rate-limited", "too many join requests from this address; try again later", *wait);
    Response r = apiJoinGame(registry_, site_, request, id);
    if (r.status == 200) waiting_.joined(id);
    return r;
}

Response Router::limitedInvite(const Request& request, const std::string& id) const {
    if (auto wait = joinBuckets_.take(addressGroup(request.remoteAddress)))
        return tooManyRequests("rate-limited", "too many invite requests from this address; try again later", *wait);
    return apiGameInvite(registry_, site_, request, id);
}

namespace {

Response methodNotAllowed(std::string allow) {
    Response r = apiError(405, "method", "method not allowed");
    r.headers.emplace_back("Allow", std::move(allow));
    return r;
}

Response redirect(std::string location) {
    Response r;
    r.status = 302;
    r.headers.emplace_back("Location", std::move(location));
    r.headers.emplace_back("Vary", "Accept-Language");
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

}  // namespace

Response Router::route(const Request& request) const {
    const std::string_view target = request.target;
    const std::string_view path = target.substr(0, target.find('?'));
    const bool get = request.method == "GET" || request.method == "HEAD";
    if (path == "/healthz") return get ? healthAnswer() : methodNotAllowed("GET, HEAD");
    if (path == "/metrics") return get ? metricsAnswer() : methodNotAllowed("GET, HEAD");
    if (path.starts_with("/static/")) return get ? staticFiles_.serve(path.substr(8), request) : methodNotAllowed("GET, HEAD");
    if (path.starts_with("/api/")) return routeApi(request, path, get);
    return routePage(request, path, get);
}

Response Router::healthAnswer() const {
    // The storage's last check (health_monitor.hpp): never a wait for the database here.
    const auto status = health_ ? health_->current() : HealthMonitor::Status{};
    Response r;
    if (status.ok) {
        r.body = "ok\n";
    } else {
        r = jsonResponse(503, jsonText(nlohmann::json({{"status", "unavailable"}, {"reason", status.reason}})));
        r.headers.emplace_back("Retry-After", "1");
    }
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

Response Router::metricsAnswer() const {
    Response r;
    r.contentType = "text/plain; version=0.0.4; charset=utf-8";
    r.body = metrics_.render();
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

Response Router::routeApi(const Request& request, std::string_view path, bool get) const {
    if (path == "/api/games") return request.method == "POST" ? limitedCreate(request) : methodNotAllowed("POST");
    if (path == "/api/key") return get ? apiKey(signer_) : methodNotAllowed("GET, HEAD");
    if (path == "/api/lobby" && lobby_) {
        if (!get) return methodNotAllowed("GET, HEAD");
        return jsonResponse(200, lobby_->countsJson());
    }
    if (!path.starts_with("/api/games/")) return apiError(404, "not-found", "no such API route");
    const std::string_view rest = path.substr(11);
    const std::string id(rest.substr(0, rest.find('/')));
    const std::string_view tail = rest.substr(id.size());
    if (tail.empty()) return get ? apiGameSummary(registry_, id) : methodNotAllowed("GET, HEAD");
    if (tail == "/join") return request.method == "POST" ? limitedJoin(request, id) : methodNotAllowed("POST");
    if (tail == "/invite") return request.method == "POST" ? limitedInvite(request, id) : methodNotAllowed("POST");
    if (tail == "/record") return get ? apiGameRecord(registry_, id, signer_) : methodNotAllowed("GET, HEAD");
    // With an analysis service, handleDeferred answers GET and HEAD before route() is reached
    // (a malformed id, e.g. the empty one of /api/games//analysis, is an unknown game).
    if (tail == "/analysis" && get && !Registry::plausibleId(id)) return apiError(404, "unknown-game", "there is no such game");
    if (tail == "/analysis")
        return get ? apiError(503, "no-analysis", "this server does not analyse games") : methodNotAllowed("GET, HEAD");
    return apiError(404, "not-found", "no such API route");
}

Response Router::routePage(const Request& request, std::string_view path, bool get) const {
    const std::string lang = site_.negotiate(request.acceptLanguage);
    if (!get) {
        Response r = errorPage(lang, site::ErrorKind::BadRequest, 405);
        r.headers.emplace_back("Allow", "GET, HEAD");
        return r;
    }
    if (path == "/") return redirect("/" + lang + "/");
    // "/en" (no slash): the language's home page, as people type it.
    if (path.size() > 1 && path.front() == '/' && isLanguage(path.substr(1))) return redirect("/" + std::string(path.substr(1)) + "/");
    // A WebSocket address opened as a page (no Upgrade): say what it is instead of "no such page".
    if (path.starts_with("/ws/")) {
        Response r = apiError(426, "upgrade-required", "this address takes WebSocket connections only");
        r.headers.emplace_back("Upgrade", "websocket");
        return r;
    }
    if (auto r = canonicalRedirect(path)) return std::move(*r);
    if (path.starts_with("/play/")) {
        const std::string_view id = path.substr(6);
        if (!Registry::plausibleId(id)) return errorPage(lang, site::ErrorKind::GameUnknown, 404);
        return redirect("/" + lang + "/play/" + std::string(id));
    }
    if (const auto slash = path.find('/', 1); slash != std::string_view::npos) {
        const std::string_view pathLang = path.substr(1, slash - 1);
        if (isLanguage(pathLang)) return languagePage(path, pathLang, path.substr(slash));
    }
    if (auto p = site_.content(path)) return page(*p);
    return errorPage(lang, site::ErrorKind::NotFound, 404);
}

std::optional<Response> Router::canonicalRedirect(std::string_view path) const {
    // "/DE/rules", "/de-AT/", "/ar_EG/play/ID": the same address in the site's language.
    if (path.size() > 1 && path.front() == '/') {
        const std::size_t slash = path.find('/', 1);
        const std::string_view first = path.substr(1, slash == std::string_view::npos ? std::string_view::npos : slash - 1);
        const std::string_view rest = slash == std::string_view::npos ? std::string_view("/") : path.substr(slash);
        // Only printable ASCII goes into the Location header (the HTTP parser is not the only caller).
        const bool printable = std::all_of(rest.begin(), rest.end(), [](char ch) { return ch > 0x20 && ch < 0x7f; });
        if (auto alias = languageAlias(first); alias && printable) return redirect("/" + *alias + std::string(rest));
    }
    // "/ar/rules/": the page without the trailing slash.
    if (path.size() > 1 && path.back() == '/' && path.find('/', 1) != path.size() - 1) {
        const std::string_view trimmed = path.substr(0, path.size() - 1);
        if (site_.content(trimmed)) return redirect(std::string(trimmed));
    }
    return std::nullopt;
}

Response Router::languagePage(std::string_view path, std::string_view lang, std::string_view rest) const {
    // /{lang}/play/{id}
    if (rest.starts_with("/play/")) return playPage(lang, std::string(rest.substr(6)));
    // /{lang}/replay (open a record file) and /{lang}/replay/{id} (a game of this server)
    if (rest == "/replay" || rest.starts_with("/replay/")) {
        const std::string id(rest.size() > 8 ? rest.substr(8) : std::string_view());
        if (id.empty()) return page(site_.replay(lang, ""));
        if (!Registry::plausibleId(id)) return errorPage(lang, site::ErrorKind::GameUnknown, 404);
        return replayPage(lang, id);
    }
    if (auto p = site_.content(path)) return page(*p);
    return errorPage(lang, site::ErrorKind::NotFound, 404);
}

Response Router::playPage(std::string_view lang, const std::string& id) const {
    Lookup found;
    try {
        found = registry_.find(id);
    } catch (const GameElsewhere&) {
        // The page needs only the ruleset: read it without the game (its socket retries).
        const auto row = registry_.peek(id);
        const auto ruleset = row ? rulesetByKey(row->ruleset) : std::nullopt;
        if (!ruleset) throw;
        return page(site_.play(lang, id, *ruleset));
    }
    if (found.status == LookupStatus::Expired) return errorPage(lang, site::ErrorKind::GameExpired, 410);
    if (!found.room) return errorPage(lang, site::ErrorKind::GameUnknown, 404);
    return page(site_.play(lang, id, found.room->rulesetId(), found.room->commitment()));
}

Response Router::replayPage(std::string_view lang, const std::string& id) const {
    Lookup found;
    try {
        found = registry_.find(id);
    } catch (const GameElsewhere&) {
        // Held by another instance: the page needs only to know the game exists.
        if (!registry_.peek(id)) throw;
        return page(site_.replay(lang, id));
    }
    if (found.status == LookupStatus::Expired) return errorPage(lang, site::ErrorKind::GameExpired, 410);
    if (!found.room) return errorPage(lang, site::ErrorKind::GameUnknown, 404);
    return page(site_.replay(lang, id));
}

}  // namespace senet::server
