// The computer opponent's evaluation and expectiminimax search, exposed for the levels, the
// tests and the benchmark. Values are always from the point of view of the player to throw
// next in the position searched: +1 a won game, -1 a lost one, 0 a draw (Bell); evaluations of
// unfinished games lie strictly inside (-1, 1).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "senet/senet.hpp"

namespace senet::ai {

/// Exact values for some positions, known without search (the endgame tables of engine/tables,
/// through `TableValues` in senet/ai_tables.hpp). An interface so that the search itself does not
/// depend on how they are stored (the WebAssembly build has none).
class ExactValues {
public:
    virtual ~ExactValues() = default;
    /// The probability, in [0, 1], that `p.turn` wins `p` (a chance node: the throw still to come)
    /// under perfect play of both sides; nullopt when it is not known. Never throws.
    virtual std::optional<double> winChance(const Position& p) const = 0;
};

/// Which evaluation a search uses at its leaves.
enum class Evaluation : std::uint8_t {
    Pips,  ///< squares travelled (standard, Jéquier) or pieces kept (Bell), nothing else
    Race,  ///< pieces' distance to bearing off (or, for Bell, pieces kept) and the turn only
    Full,  ///< Race plus threats of swaps and captures, House of Water danger, blockades
    /// A network trained by self-play (README "The learned evaluation"); `Full` for a ruleset
    /// that has no trained network.
    Learned,
};

/// Whether `id` has a trained network for Evaluation::Learned.
bool hasLearnedEvaluation(RulesetId id);

/// The static value of `p` for `p.turn` by `kind`, in [-kEvalBound, kEvalBound]. `p` must be
/// unfinished (`outcome(p)` Ongoing; asserted in debug builds): a finished game's value is
/// `terminalValue`.
double evaluate(const Position& p, Evaluation kind = Evaluation::Full);
/// The largest magnitude `evaluate` returns; wins and losses (±1) lie outside it.
inline constexpr double kEvalBound = 0.98;

/// The value of a finished game for `viewer`: +1 won, -1 lost, 0 drawn.
double terminalValue(Outcome o, Player viewer);

/// The answer of a search.
struct SearchResult {
    Move move = Move::pass();  ///< best move found (pass when there is no legal move)
    double value = 0;          ///< its value for the player to move
    int depth = 0;             ///< deepest iteration completed (a later one may have improved `move`)
    std::uint64_t nodes = 0;   ///< chance nodes and leaf evaluations visited
};

/// What limits one search.
struct SearchLimits {
    int maxDepth = 12;            ///< deepest iteration, in plies (decisions); >= 1
    int minDepth = 1;             ///< first iteration
    std::uint64_t nodeBudget = 0; ///< stop after this many nodes; 0: no cap
    std::chrono::milliseconds time{0};  ///< stop after this long; 0: no cap
    Evaluation evaluation = Evaluation::Full;
    bool pruning = true;          ///< Star1/Star2 at chance nodes, alpha-beta at decisions
    /// An outside stop (`senet engine`'s `stop`): the search ends soon after it reads true (it
    /// is read with the clock, every 256 nodes) and answers as when its time is up. May be null.
    const std::atomic<bool>* stop = nullptr;
    /// Called after each completed iteration with the result so far (its move, value, depth
    /// and the nodes visited until then), on the searching thread. May be empty.
    std::function<void(const SearchResult&)> onIteration;
    /// Exact values: every chance node they know is valued 2 * winChance - 1 and not searched
    /// below (the tables' perfect play at the root and at the leaves). May be null.
    const ExactValues* exact = nullptr;
};

/// Iterative-deepening expectiminimax for the player to move in `p`, who has thrown
/// `throwValue` (a value the ruleset can throw; asserted in debug builds), within `limits`.
/// A depth of d plies means d decisions: the root move, then d-1 further throws each with its
/// best reply (or the same player's move after an extra throw). Throw values are enumerated
/// with their exact weights. Returns the best move found (a pass when there is no legal move)
/// with its value, the depth completed and the nodes visited.
SearchResult searchMove(const Position& p, int throwValue, const SearchLimits& limits);

/// The value for `p.turn` of the chance node `p` (the throw still to come), `depth` plies
/// (decisions) deep with `kind` at the leaves, searched with *-minimax pruning (Star1 and Star2
/// probing) and no time or node limit: the expectimax value, exactly `bruteForceExpectimax`'s,
/// in fewer nodes. ±1 or 0 for a finished `p`; `depth` >= 0 (asserted in debug builds).
/// Used by the game analysis.
/// With `exact`, the chance nodes it knows (`p` itself included) take their exact value.
double prunedExpectimax(const Position& p, int depth, Evaluation kind = Evaluation::Full,
                        const ExactValues* exact = nullptr);

/// `prunedExpectimax` searched within the window (alpha, beta), -1 <= alpha < beta <= 1, for
/// proving a bound cheaply: a result strictly inside the window is the exact value; a result
/// <= alpha is an upper bound of it, one >= beta a lower bound (fail-soft). The analysis uses it
/// to show that a move is no better than the best found so far without valuing it exactly.
double prunedExpectimaxWithin(const Position& p, int depth, Evaluation kind, const ExactValues* exact, double alpha,
                              double beta);

/// The same value as `prunedExpectimax`, computed by brute force: every throw value and every
/// legal move, no pruning, no clock (the WebAssembly build's winProbability, and the tests'
/// reference). `depth` >= 0 (asserted in debug builds).
double bruteForceExpectimax(const Position& p, int depth, Evaluation kind = Evaluation::Full);

}  // namespace senet::ai
