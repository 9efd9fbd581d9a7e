// The four levels. Methods and sources: engine/ai/README.md.
#include "levels.hpp"

#include <algorithm>

#include "senet/ai_search.hpp"

namespace senet::ai::detail {

Move randomMove(const MoveList& moves, Rng& rng) {
    return moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))];
}

Move beginnerMove(const Position& p, int throwValue, const MoveList& moves, Rng& rng) {
    (void)throwValue;
    // One move in four is a slip: any legal move.
    if (rng.below(4) == 0) return randomMove(moves, rng);
    const Ruleset& r = p.rules();
    double bestScore = -1e9;
    Move best = moves[0];
    for (const Move& m : moves) {
        double score = 0;
        if (m.has(kBearOff)) score = kOffBoard - m.from + 2;
        else score = static_cast<int>(m.dest) - static_cast<int>(m.from);
        if (m.has(kSwap) || m.has(kCapture)) score += 2;
        if (m.has(kWater)) score -= 4;
        // A Piccione step onto 27 sends the piece back to the hand (dest 0): -from squares.
        if (m.dest >= 1 && m.dest <= kSquareCount && r.isSafe(m.dest)) score += 1;
        score += 4.0 * rng.below(1000) / 1000.0;  // a beginner's judgement is rough
        if (score > bestScore) {
            bestScore = score;
            best = m;
        }
    }
    return best;
}

Move intermediateMove(const Position& p, int throwValue, const MoveList& moves, Rng& rng) {
    const RulesetId id = p.rules().id;
    if (id == RulesetId::Piccione) {
        // Piccione: the best way to spend the throw in hand by the pips (every sequence of steps
        // that uses it up, hand pieces counted at the whole path), no look-ahead at the next throw.
        SearchLimits limits;
        limits.minDepth = limits.maxDepth = 1;
        limits.evaluation = Evaluation::Pips;
        return searchMove(p, throwValue, limits).move;
    }
    if (id == RulesetId::Standard || id == RulesetId::Kendall) {
        // Standard and Kendall: the move in hand that leaves the best pip count (squares still to travel),
        // no look-ahead at the next throw's swaps; equal moves (every plain move of one throw
        // gains the same squares) at random.
        // The one-throw search below is nearly as strong as the expert in this ruleset
        // (engine/ai/README.md, "The intermediate in standard").
        double best = -2;
        std::uint32_t ties = 0;
        Move chosen = moves[0];
        for (const Move& m : moves) {
            const Position q = applyMove(p, throwValue, m);
            const Outcome o = outcome(q);
            const Evaluation kind = id == RulesetId::Kendall ? Evaluation::Full : Evaluation::Pips;
            const double v = o != Outcome::Ongoing ? terminalValue(o, p.turn)
                             : q.turn == p.turn    ? evaluate(q, kind)
                                                   : -evaluate(q, kind);
            if (v > best + 1e-12) {
                best = v;
                chosen = m;
                ties = 1;
            } else if (v > best - 1e-12 && rng.below(++ties) == 0) {
                chosen = m;  // each of the equal moves is kept with the same chance
            }
        }
        return chosen;
    }
    // Jéquier and Bell: one throw of look-ahead — each move's expected value over every value
    // of the next throw (exact probabilities) of the best answer to it, leaves on the pips.
    SearchLimits limits;
    limits.minDepth = limits.maxDepth = 2;
    limits.evaluation = Evaluation::Pips;
    return searchMove(p, throwValue, limits).move;
}

Move expertMove(const Position& p, int throwValue, const Options& options) {
    SearchLimits limits;
    // Piccione's root moves are single steps of a throw that may be split: a first iteration at
    // depth 1 (the best way to spend the throw) orders them before the deeper ones, which a
    // node or time budget may cut short.
    limits.minDepth = p.rules().turnModel == TurnModel::SplitSteps ? 1 : 2;
    limits.maxDepth = options.maxDepth > 0 ? std::min(options.maxDepth, kMaxSearchDepth) : kMaxSearchDepth;
    limits.minDepth = std::min(limits.minDepth, limits.maxDepth);
    limits.nodeBudget = options.nodeBudget;
    // The search stops at 60% of the budget: the iteration under way when time runs out is
    // cut short, and the caller keeps a margin for everything around the decision.
    if (options.budget.count() > 0) limits.time = std::max(std::chrono::milliseconds(1), options.budget * 6 / 10);
    limits.evaluation = Evaluation::Learned;
    limits.stop = options.stop;
    limits.onIteration = options.onIteration;
    limits.exact = options.exact;
    return searchMove(p, throwValue, limits).move;
}

}  // namespace senet::ai::detail
