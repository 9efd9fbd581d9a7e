// The expert's estimate of who wins: the win probability of player 1 shown by the replay and
// learning pages (through the WebAssembly build, engine/wasm) and printed by `senet winprob`.
#pragma once

#include "senet/senet.hpp"

namespace senet::ai {

/// Plies (decisions) of look-ahead behind winProbability.
inline constexpr int kWinProbabilityDepth = 2;

/// The chance that player 1 wins from `p` (whose `turn` throws next), in [0, 1]: the exact
/// expectimax over every throw value (with its probability) kWinProbabilityDepth plies deep,
/// leaves valued by the expert's evaluation (Evaluation::Learned), a value v for the player to
/// throw mapped to (v + 1) / 2. A finished game gives 1 (player 1 won), 0 (player 2 won) or
/// 0.5 (a Bell draw). Deterministic, no clock, no allocation beyond the stack; never throws.
double winProbability(const Position& p);

}  // namespace senet::ai
