// Computer levels against each other: the engine of `senet arena`. Plain C++, no I/O.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "senet/ai.hpp"

namespace senet::ai {

/// A side's decisions made outside the library (`senet arena --a-engine`: a program over the
/// engine protocol): given the position, the throw (kNoThrow for a Piccione remainder step) and
/// the legal moves (never empty), returns one of them. May throw; the arena then stops and
/// passes the exception on.
using OutsideDecider = std::function<Move(const Position& p, int throwValue, const MoveList& legal)>;

/// One arena: `games` games of `rules` between the options `a` and `b`. Seats alternate: in
/// even-numbered games (0, 2, ...) `a` sits in the first seat, in odd ones `b` does. The first
/// seat is player 1 except in Jéquier, where the opening throws decide (see randomOpening).
struct ArenaConfig {
    RulesetId rules = RulesetId::Standard;
    Options a;
    Options b;
    std::int64_t games = 100;   ///< >= 1
    std::uint64_t seed = 1;     ///< drives the throws and the levels' own random choices
    int maxPlies = 100'000;     ///< a game longer than this is counted as unfinished
    /// When set, decide for `a` / `b` instead of chooseMove with their options: they draw
    /// nothing from the levels' random source, so the throws and the other side's random
    /// choices are those of the same arena played in process.
    OutsideDecider outsideA, outsideB;
};

/// What an arena counted.
struct ArenaResult {
    std::int64_t games = 0;
    std::int64_t winsA = 0, winsB = 0, draws = 0, unfinished = 0;
    std::int64_t plies = 0;           ///< plies (steps) of all games, passes included; a Piccione remainder step makes no throw
    std::int64_t firstSeatWins = 0;   ///< wins of whoever sat in the first seat
    /// Wall-clock time of each searched decision of an Expert side, in microseconds (only
    /// decisions with two or more legal moves). Not reproducible; for reporting on stderr.
    std::vector<double> expertMicros;
};

/// Plays the arena. `progress`, when given, is called after each game with the number played.
ArenaResult runArena(const ArenaConfig& config, const std::function<void(std::int64_t)>& progress = {});

/// A two-sided confidence interval for a proportion.
struct Interval {
    double low = 0, high = 0;
};

/// The Wilson score interval for `successes` out of `trials` (0 <= successes <= trials, asserted
/// in debug builds) at normal quantile `z` (1.96 for 95%). Returns {0, 1} when trials is 0.
Interval wilsonInterval(std::int64_t successes, std::int64_t trials, double z = 1.96);

}  // namespace senet::ai
