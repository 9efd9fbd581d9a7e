#include "abort_ladder.hpp"

#include <algorithm>

namespace senet::server::lobby {

std::chrono::seconds AbortLadder::waitFor(int streak) {
    if (streak <= kFreeAborts) return std::chrono::seconds(0);
    const int doublings = std::min(streak - kFreeAborts - 1, 6);  // 2^6 min > 1 h
    return std::min<std::chrono::seconds>(kFirstWait * (1 << doublings), kLongestWait);
}

void AbortLadder::aborted(const std::string& browser, Clock::time_point now) {
    if (browser.empty()) return;
    if (entries_.size() >= kMaxBrowsers && !entries_.count(browser))
        std::erase_if(entries_, [now](const auto& e) { return e.second.until <= now; });
    if (entries_.size() >= kMaxBrowsers && !entries_.count(browser)) return;
    Entry& e = entries_[browser];
    ++e.streak;
    if (const auto wait = waitFor(e.streak); wait.count() > 0) e.until = now + wait;
}

void AbortLadder::started(const std::string& browser) { entries_.erase(browser); }

std::optional<std::chrono::seconds> AbortLadder::waitLeft(const std::string& browser, Clock::time_point now) const {
    const auto it = entries_.find(browser);
    if (browser.empty() || it == entries_.end() || it->second.until <= now) return std::nullopt;
    const auto left = it->second.until - now;
    return std::chrono::ceil<std::chrono::seconds>(left);
}

int AbortLadder::streak(const std::string& browser) const {
    const auto it = entries_.find(browser);
    return it == entries_.end() ? 0 : it->second.streak;
}

}  // namespace senet::server::lobby
