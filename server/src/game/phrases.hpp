// Quick phrases between the two players of a friend game (PROTOCOL.md "Quick phrases"): the
// closed set of phrase ids and the per-seat rate limit. No free text: a phrase is an id the
// page words in its reader's language.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace senet::server {

/// The phrase ids a player may send, in the order the page lists them.
inline constexpr std::array<std::string_view, 6> kPhraseIds = {"good-luck", "well-played", "good-game",
                                                               "thanks",    "oops",        "your-turn"};

/// Whether `id` is one of kPhraseIds.
bool isPhraseId(std::string_view id);

/// The rate limit of one game's phrases, per seat: at most one phrase per kPhraseGap and
/// kPhrasesPerMinute in any minute. Not thread-safe (the room calls it under its lock).
class PhraseLimiter {
public:
    /// The least time between two phrases of one seat.
    static constexpr std::chrono::milliseconds kPhraseGap{2000};
    /// How many phrases one seat may send within any 60 s.
    static constexpr std::size_t kPhrasesPerMinute = 10;

    /// Admits a phrase of `seat` at `now`: nullopt when it may go (it is counted), else the
    /// refusal's message (which limit, and how long to wait); a refused phrase is not counted.
    std::optional<std::string> admit(int seat, std::chrono::steady_clock::time_point now);

private:
    std::array<std::deque<std::chrono::steady_clock::time_point>, 2> sent_;  ///< each seat's phrases of the last minute
};

}  // namespace senet::server
