// GET /api/games/{id}/analysis: the route's limits and lookups on the I/O thread, the
// computation on the analysis service's workers (analysis_service.hpp). server/API.md "Analysis".
#include "analysis_service.hpp"
#include "log_limit.hpp"
#include "router.hpp"

namespace senet::server {

bool Router::handleDeferred(const Request& request, std::function<void(Response)> done) const {
    if (!analysis_) return false;
    const std::string_view target = request.target;
    const std::string_view path = target.substr(0, target.find('?'));
    constexpr std::string_view prefix = "/api/games/", suffix = "/analysis";
    if (!path.starts_with(prefix) || !path.ends_with(suffix) || path.size() <= prefix.size() + suffix.size()) return false;
    const std::string_view id = path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
    if (id.find('/') != std::string_view::npos) return false;
    if (request.method != "GET" && request.method != "HEAD") return false;  // route() answers 405
    metrics_.httpRequests.fetch_add(1, std::memory_order_relaxed);
    try {
        limitedAnalysis(request, std::string(id), done);
    } catch (const GameElsewhere&) {
        done(gameMovingAnswer());
    } catch (const StorageError& e) {
        logLimited("storage", std::string("analysis: ") + e.what());
        done(storageDownAnswer());
    } catch (const std::exception& e) {
        // The service keeps `done` only when it did not throw: answer here.
        logLimited("internal error", std::string("analysis: ") + e.what());
        done(apiError(500, "internal", "internal error"));
    }
    return true;
}

void Router::limitedAnalysis(const Request& request, const std::string& id, std::function<void(Response)> done) const {
    if (auto wait = analysisBuckets_.take(addressGroup(request.remoteAddress)))
        return done(tooManyRequests("rate-limited", "too many analysis requests from this address; try again later", *wait));
    if (auto hit = analysis_->cached(id)) return done(std::move(*hit));
    Lookup found = registry_.find(id);
    if (found.status == LookupStatus::Expired) return done(apiError(410, "expired", "this game has expired"));
    if (!found.room) return done(apiError(404, "unknown-game", "there is no such game"));
    auto record = found.room->verifiableRecord();
    if (!record) return done(apiError(409, "not-finished", "the analysis is served once the game is over"));
    if (!analysis_->analyse(id, std::move(*record), done)) {
        Response busy = apiError(503, "busy", "the server is analysing many games; try again later");
        busy.headers.emplace_back("Retry-After", "5");
        done(std::move(busy));
    }
}

}  // namespace senet::server
