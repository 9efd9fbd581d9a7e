#include "admission.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "json_text.hpp"

namespace senet::server {

TokenBuckets::TokenBuckets(double rate, double burst, std::size_t maxAddresses)
    : rate_(rate), burst_(burst), maxAddresses_(std::max<std::size_t>(1, maxAddresses)) {}

void TokenBuckets::prune(Clock::time_point now) {
    // A bucket that has refilled completely holds nothing worth remembering.
    for (auto it = buckets_.begin(); it != buckets_.end();) {
        const double tokens = it->second.tokens + std::chrono::duration<double>(now - it->second.at).count() * rate_;
        if (tokens >= burst_) it = buckets_.erase(it);
        else ++it;
    }
    pruneAt_ = std::max<std::size_t>(1024, buckets_.size() * 2);
}

std::optional<int> TokenBuckets::take(const std::string& address) {
    std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    auto it = buckets_.find(address);
    if (it == buckets_.end()) {
        if (buckets_.size() >= pruneAt_ || buckets_.size() >= maxAddresses_) prune(now);
        if (buckets_.size() >= maxAddresses_) buckets_.erase(buckets_.begin());  // still full: forget one
        it = buckets_.emplace(address, Bucket{burst_, now}).first;
    }
    Bucket& b = it->second;
    b.tokens = std::min(burst_, b.tokens + std::chrono::duration<double>(now - b.at).count() * rate_);
    b.at = now;
    if (b.tokens >= 1.0) {
        b.tokens -= 1.0;
        return std::nullopt;
    }
    return std::max(1, static_cast<int>(std::ceil((1.0 - b.tokens) / rate_)));
}

std::size_t TokenBuckets::size() const {
    std::lock_guard lock(mutex_);
    return buckets_.size();
}

WaitingGames::WaitingGames(int cap, std::function<bool(const std::string&)> stillWaiting)
    : cap_(cap), stillWaiting_(std::move(stillWaiting)) {}

bool WaitingGames::reserve(const std::string& address) {
    std::lock_guard lock(mutex_);
    Entry& e = byAddress_[address];
    if (static_cast<int>(e.ids.size()) + e.pending >= cap_) {
        // At the cap: forget the games that no longer wait (joined elsewhere, ended, expired).
        std::erase_if(e.ids, [&](const std::string& id) {
            if (stillWaiting_(id)) return false;
            owner_.erase(id);
            return true;
        });
        if (static_cast<int>(e.ids.size()) + e.pending >= cap_) return false;
    }
    ++e.pending;
    return true;
}

void WaitingGames::settle(const std::string& address, const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = byAddress_.find(address);
    if (it == byAddress_.end()) return;
    Entry& e = it->second;
    if (e.pending > 0) --e.pending;
    if (!id.empty()) {
        e.ids.push_back(id);
        owner_[id] = address;
    }
    if (e.ids.empty() && e.pending == 0) byAddress_.erase(it);
}

void WaitingGames::joined(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto o = owner_.find(id);
    if (o == owner_.end()) return;
    auto it = byAddress_.find(o->second);
    owner_.erase(o);
    if (it == byAddress_.end()) return;
    std::erase(it->second.ids, id);
    if (it->second.ids.empty() && it->second.pending == 0) byAddress_.erase(it);
}

Response tooManyRequests(std::string_view code, std::string_view message, int retryAfterSeconds) {
    Response r = jsonResponse(429, jsonText(nlohmann::json({{"error", code}, {"message", message}})));
    r.headers.emplace_back("Retry-After", std::to_string(retryAfterSeconds));
    return r;
}

}  // namespace senet::server
