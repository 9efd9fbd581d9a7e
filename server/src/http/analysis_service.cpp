#include "analysis_service.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <thread>

#include "log_limit.hpp"
#include "senet/ai_analysis.hpp"

namespace senet::server {

/// The workers and their queue of tasks.
struct AnalysisService::Impl {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> tasks;
    bool stopping = false;
    std::vector<std::thread> threads;

    void post(std::function<void()> task) {
        {
            std::lock_guard lock(mutex);
            tasks.push_back(std::move(task));
        }
        wake.notify_one();
    }
    void work() {
        while (true) {
            std::function<void()> task;
            {
                std::unique_lock lock(mutex);
                wake.wait(lock, [&] { return stopping || !tasks.empty(); });
                if (stopping) return;
                task = std::move(tasks.front());
                tasks.pop_front();
            }
            task();
        }
    }
    void stop() {
        {
            std::lock_guard lock(mutex);
            stopping = true;
            tasks.clear();
        }
        wake.notify_all();
        for (auto& t : threads) t.join();
        threads.clear();
    }
};

AnalysisService::AnalysisService(const Options& options) : options_(options), impl_(std::make_unique<Impl>()) {
    for (int i = 0; i < std::max(1, options.threads); ++i) impl_->threads.emplace_back([this] { impl_->work(); });
}

AnalysisService::~AnalysisService() { stop(); }

Response analysisResponse(const std::string& body, const char* how) {
    Response r = jsonResponse(200, body);
    r.headers.clear();
    // A finished game's analysis never changes (until the server's depth does).
    r.headers.emplace_back("Cache-Control", "public, max-age=3600");
    r.headers.emplace_back("X-Analysis", how);
    return r;
}

std::optional<Response> AnalysisService::cached(const std::string& id) {
    std::lock_guard lock(mutex_);
    const auto it = cache_.find(id);
    if (it == cache_.end()) return std::nullopt;
    lru_.splice(lru_.begin(), lru_, it->second);
    return analysisResponse(it->second->second, "cached");
}

bool AnalysisService::analyse(const std::string& id, std::string recordJson, Done done) {
    {
        std::unique_lock lock(mutex_);
        if (stopped_) return false;
        if (const auto it = cache_.find(id); it != cache_.end()) {
            lru_.splice(lru_.begin(), lru_, it->second);
            Response r = analysisResponse(it->second->second, "cached");
            lock.unlock();
            done(std::move(r));
            return true;
        }
        if (const auto it = pending_.find(id); it != pending_.end()) {
            it->second.push_back(std::move(done));
            return true;
        }
        if (pending_.size() >= options_.maxPending) return false;
        pending_[id].push_back(std::move(done));
    }
    try {
        impl_->post([this, id, record = std::move(recordJson)] { run(id, record); });
    } catch (...) {
        // Not queued: forget the caller so that no later request waits for it; the router answers 500.
        std::lock_guard lock(mutex_);
        pending_.erase(id);
        throw;
    }
    return true;
}

void AnalysisService::run(const std::string& id, const std::string& recordJson) {
    ai::AnalysisOptions o;
    o.depth = options_.depth;
    o.exact = options_.exact;
    Response answer;
    bool ok = false;
    try {
        const auto body = ai::analyseRecordJson(recordJson, o);
        if (body) {
            remember(id, *body);
            computed_.fetch_add(1);
            answer = analysisResponse(*body, "computed");
            ok = true;
        } else {
            // A stored finished game always replays; this is a server fault.
            logLimited("analysis", "analysis of " + id + ": " + body.error().message);
        }
    } catch (const std::exception& e) {
        logLimited("analysis", "analysis of " + id + ": " + e.what());
    }
    if (!ok) answer = jsonResponse(500, R"({"error":"internal","message":"the analysis failed"})");
    std::vector<Done> waiting;
    {
        std::lock_guard lock(mutex_);
        const auto it = pending_.find(id);
        if (it != pending_.end()) {
            waiting = std::move(it->second);
            pending_.erase(it);
        }
    }
    for (std::size_t i = 0; i < waiting.size(); ++i) {
        Response r = answer;
        if (ok && i > 0)
            for (auto& [name, value] : r.headers)
                if (name == "X-Analysis") value = "shared";
        try {
            waiting[i](std::move(r));
        } catch (const std::exception& e) {
            logLimited("analysis", std::string("analysis answer: ") + e.what());
        }
    }
}

void AnalysisService::remember(const std::string& id, const std::string& body) {
    std::lock_guard lock(mutex_);
    if (const auto it = cache_.find(id); it != cache_.end()) {
        lru_.splice(lru_.begin(), lru_, it->second);
        return;
    }
    lru_.emplace_front(id, body);
    cache_[id] = lru_.begin();
    while (cache_.size() > std::max<std::size_t>(1, options_.cacheEntries)) {
        cache_.erase(lru_.back().first);
        lru_.pop_back();
    }
}

void AnalysisService::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopped_) return;
        stopped_ = true;
    }
    impl_->stop();
    std::lock_guard lock(mutex_);
    pending_.clear();
}

}  // namespace senet::server
