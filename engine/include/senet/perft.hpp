// Perft and random playouts: counting and exercising the move generator.
#pragma once

#include <cstdint>

#include "senet/position.hpp"
#include "senet/rng.hpp"

namespace senet {

/// The number of leaf nodes of the game tree below `p` when every distinct throw value of the
/// ruleset and every legal move (a pass when there is none) is expanded for `depth` plies.
/// A ply is one decision step: a move or pass, preceded by a throw when one is due (in Piccione
/// a step that spends a remainder has no throw, so it is one branch). A finished game is a leaf
/// wherever it occurs. depth 0 gives 1.
std::uint64_t perft(const Position& p, int depth);

/// How a random playout ended.
struct PlayoutResult {
    Outcome outcome = Outcome::Ongoing;  ///< Ongoing only when `maxPlies` was reached
    int plies = 0;                       ///< decision steps made: moves and passes
    int throws = 0;                      ///< throws made (== plies, except in Piccione)
};

/// Plays uniformly random legal moves (in Piccione: steps) with randomly drawn throws from `p`
/// until the game ends or `maxPlies` plies have been played.
PlayoutResult randomPlayout(Position p, Rng& rng, int maxPlies = 1'000'000);

/// Throws Jéquier's opening at random (seats alternate until a 1). Returns the number of
/// opening throws and sets `seatZeroIsPlayerTwo` when the first seat threw the 1.
int randomOpening(Rng& rng, bool& seatZeroIsPlayerTwo);

}  // namespace senet
