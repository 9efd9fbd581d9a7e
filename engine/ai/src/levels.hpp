// The levels' move choosers (internal to senet_ai). Each takes a position whose player to move
// has thrown `throwValue` and at least one legal move, and returns one of the legal moves.
#pragma once

#include "senet/ai.hpp"

namespace senet::ai::detail {

/// A uniformly random legal move.
Move randomMove(const MoveList& moves, Rng& rng);
/// Greedy on a simple score (squares gained, swaps and captures, the House of Water avoided)
/// with noise, and a random move one time in four.
Move beginnerMove(const Position& p, int throwValue, const MoveList& moves, Rng& rng);
/// Standard: the move in hand that leaves the best pip count (no look-ahead), equal moves
/// at random from `rng`; Kendall the same by the full evaluation; Piccione the best way to spend
/// the throw in hand by the pips (a depth-1 search). Jéquier and Bell: one throw of look-ahead, a depth-2 expectimax over the
/// exact throw weights on the pips. `moves`: the legal moves for `throwValue` (at least one).
/// Why they differ: engine/ai/README.md, "The intermediate in standard".
Move intermediateMove(const Position& p, int throwValue, const MoveList& moves, Rng& rng);
/// Iterative-deepening *-minimax within the options' time and node budgets, learned evaluation
/// (standard, Jéquier) or full evaluation (Bell).
Move expertMove(const Position& p, int throwValue, const Options& options);

}  // namespace senet::ai::detail
