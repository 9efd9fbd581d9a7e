// The positions a game record passes through, for replays (`senet replay --positions`, the
// WebAssembly build's replay()).
#pragma once

#include <vector>

#include "senet/game.hpp"

namespace senet {

/// The position before the first ply (the ruleset's start; for Jéquier the position after the
/// opening, as `startPosition` gives it) followed by the position after each ply of `record`:
/// record.plies.size() + 1 positions. `record` must replay (it comes from `replay`/`parseRecord`
/// or a Game); each ply's move is applied as recorded.
std::vector<Position> recordPositions(const Record& record);

}  // namespace senet
