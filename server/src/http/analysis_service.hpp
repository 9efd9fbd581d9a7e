// GET /api/games/{id}/analysis: the engine's analysis of finished games (senet/ai_analysis.hpp)
// computed on worker threads of its own, never on the I/O threads; concurrent requests for one
// game share one computation; answers are kept in a bounded LRU cache (a finished game never
// changes). server/API.md "Analysis".
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "http_types.hpp"

namespace senet::ai {
class ExactValues;
}

namespace senet::server {

/// Computes and caches game analyses. Thread-safe.
class AnalysisService {
public:
    struct Options {
        int threads = 1;               ///< worker threads (>= 1)
        std::size_t cacheEntries = 256;///< analyses kept, least recently used dropped first (>= 1)
        std::size_t maxPending = 64;   ///< games being analysed at once before new ones get 503
        int depth = 0;                 ///< search depth; 0: the engine's default per ruleset
        /// Exact values (the endgame tables) for the positions they know; null: none. Must
        /// outlive the service.
        const ai::ExactValues* exact = nullptr;
    };
    /// Receives the answer: exactly once per accepted request, on the caller's thread (cache
    /// hit) or on a worker thread.
    using Done = std::function<void(Response)>;

    explicit AnalysisService(const Options& options);
    /// Stops the workers (see stop()).
    ~AnalysisService();
    AnalysisService(const AnalysisService&) = delete;
    AnalysisService& operator=(const AnalysisService&) = delete;

    /// The cached answer for game `id`, if any (marks it recently used).
    std::optional<Response> cached(const std::string& id);

    /// Answers with the analysis of game `id`, whose finished verifiable record is
    /// `recordJson`: from the cache, by joining a computation under way, or by starting one.
    /// The 200 answer carries "X-Analysis: cached|shared|computed". Returns false (and never
    /// calls `done`) when maxPending games are being analysed already. Should it throw (out of
    /// memory), `done` was not kept and will not be called.
    bool analyse(const std::string& id, std::string recordJson, Done done);

    /// Stops the workers: a computation under way finishes, queued ones are dropped with their
    /// callers (never called). Later requests get 503 from analyse's caller (returns false).
    void stop();

    /// Analyses computed since start (not answered from the cache or shared).
    std::uint64_t computed() const { return computed_.load(); }

private:
    struct Impl;
    void run(const std::string& id, const std::string& recordJson);
    void remember(const std::string& id, const std::string& body);

    const Options options_;
    std::unique_ptr<Impl> impl_;
    std::mutex mutex_;
    /// Most recently used first; the map points into it.
    std::list<std::pair<std::string, std::string>> lru_;
    std::unordered_map<std::string, std::list<std::pair<std::string, std::string>>::iterator> cache_;
    /// Games being analysed and the callers waiting for each.
    std::unordered_map<std::string, std::vector<Done>> pending_;
    std::atomic<std::uint64_t> computed_{0};
    bool stopped_ = false;
};

/// The 200 answer for an analysis body, labelled `how` ("cached", "shared", "computed").
Response analysisResponse(const std::string& body, const char* how);

}  // namespace senet::server
