// Positions reached by random play, shared by the computer opponent's tests.
#pragma once

#include <utility>
#include <vector>

#include "senet/senet.hpp"

namespace senet::ai::testing {

/// `count` (position, throw value) pairs from random games of ruleset `id` with seed `seed`:
/// every ply's position before its move, games restarted when they end. Includes positions
/// where the throw has no legal move, and (Piccione) positions with a remainder to spend, whose
/// throw value is kNoThrow.
inline std::vector<std::pair<Position, int>> randomSample(RulesetId id, int count, std::uint64_t seed) {
    std::vector<std::pair<Position, int>> out;
    Rng rng(seed);
    Position p = startPosition(id);
    MoveList moves;
    while (static_cast<int>(out.size()) < count) {
        const int v = p.throwDue() ? rng.throwOutcome(p.rules()).throw_.value : kNoThrow;
        out.emplace_back(p, v);
        generateMoves(p, v, moves);
        const Move m = moves.empty() ? Move::pass() : moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))];
        p = applyMove(p, v, m);
        if (outcome(p) != Outcome::Ongoing) p = startPosition(id);
    }
    return out;
}

/// The five rulesets, for parameterised loops.
inline constexpr RulesetId kAllIds[] = {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell, RulesetId::Kendall,
                                        RulesetId::Piccione};

}  // namespace senet::ai::testing
