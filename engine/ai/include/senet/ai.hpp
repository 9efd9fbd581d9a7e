// The computer opponent: pick a move for a position and a throw. Plain C++, no I/O.
// Levels and their methods are described in engine/ai/README.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "senet/ai_search.hpp"
#include "senet/senet.hpp"

namespace senet::ai {

/// The computer's strength. `Random` plays a uniformly random legal move.
enum class Level : std::uint8_t { Random, Beginner, Intermediate, Expert };

/// "random", "beginner", "intermediate", "expert" → Level; nullopt otherwise.
std::optional<Level> levelByName(std::string_view name);
/// The name of a level, as accepted by levelByName.
std::string_view levelName(Level level);

/// How to decide.
struct Options {
    Level level = Level::Intermediate;
    /// Wall-clock cap for one decision; the search stops and answers with its best move so far.
    /// Used by `Expert` only (the other levels take well under a millisecond), which stops at
    /// 60% of it and starts no deeper iteration after 30% of that; 0 means no clock.
    std::chrono::milliseconds budget{100};
    /// Cap on the search nodes of one `Expert` decision; 0 means no cap. With a node cap and a
    /// budget long enough never to be reached, decisions depend only on the position, the throw
    /// and the options, so games can be reproduced exactly (tests, `senet arena` without --ms).
    std::uint64_t nodeBudget = 0;
    /// Deepest `Expert` iteration in plies (1..kMaxSearchDepth); 0 means kMaxSearchDepth.
    int maxDepth = 0;
    /// `Expert`: an outside stop and a report after each iteration (SearchLimits::stop and
    /// SearchLimits::onIteration). Null and empty by default.
    const std::atomic<bool>* stop = nullptr;
    std::function<void(const SearchResult&)> onIteration;
    /// `Expert`: exact values (the endgame tables, senet/ai_tables.hpp) used at the root and
    /// the leaves, so the expert plays the positions they know perfectly. May be null.
    const ExactValues* exact = nullptr;
};

/// The deepest search iteration the expert level attempts.
inline constexpr int kMaxSearchDepth = 12;

/// Picks one of the legal moves of the player to move in `p` for a throw of `throwValue`.
/// Returns Move::pass() when there is no legal move. Deterministic for the same `rng` state
/// (and, for time-limited searches, the same amount of work). Never throws.
Move chooseMove(const Position& p, int throwValue, const Options& options, Rng& rng);

}  // namespace senet::ai
