#include "phrases.hpp"

#include <algorithm>

namespace senet::server {

bool isPhraseId(std::string_view id) { return std::find(kPhraseIds.begin(), kPhraseIds.end(), id) != kPhraseIds.end(); }

std::optional<std::string> PhraseLimiter::admit(int seat, std::chrono::steady_clock::time_point now) {
    using std::chrono::duration_cast;
    using std::chrono::milliseconds;
    auto& sent = sent_[static_cast<std::size_t>(seat)];
    while (!sent.empty() && now - sent.front() >= std::chrono::minutes(1)) sent.pop_front();
    if (!sent.empty() && now - sent.back() < kPhraseGap) {
        const auto wait = duration_cast<milliseconds>(kPhraseGap - (now - sent.back())).count();
        return "one phrase per 2 s: wait " + std::to_string(wait) + " ms";
    }
    if (sent.size() >= kPhrasesPerMinute) {
        const auto wait = duration_cast<milliseconds>(std::chrono::minutes(1) - (now - sent.front())).count();
        return "at most 10 phrases a minute: wait " + std::to_string(wait) + " ms";
    }
    sent.push_back(now);
    return std::nullopt;
}

}  // namespace senet::server
