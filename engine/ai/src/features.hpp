// Tactical features of a position (internal to senet_ai), used by the hand-made evaluation
// (evaluation.cpp) and as inputs of the learned one (value_net.hpp).
#pragma once

#include "senet/position.hpp"

namespace senet::ai::detail {

/// The squares the side with pieces `own` can move from with a throw of `v`, forward, with
/// Bell's compulsion applied.
Bitboard movers(const Ruleset& r, Bitboard own, Bitboard opp, int v);

/// Expected squares `attacker` wins by swapping with one of `victim`'s pieces on its next
/// throw (standard, Jéquier): a swap over v squares moves the attacker v forward and the victim
/// v back, so it counts 2v, weighted by the throw's probability.
double swapThreat(const Ruleset& r, Bitboard attacker, Bitboard victim);

/// Expected squares the side with `own` loses by being forced onto the House of Water on its
/// next throw (the only legal move lands there), the piece going back to square `back`.
double waterDanger(const Ruleset& r, Bitboard own, Bitboard opp, double back);

/// Jéquier: how many of `opp`'s pieces stand within six squares behind a row of three or more
/// of `own` (which they cannot pass).
double blockadeHold(Bitboard own, Bitboard opp);

}  // namespace senet::ai::detail
