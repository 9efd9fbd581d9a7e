#include "senet/ai_win_probability.hpp"

#include <algorithm>

#include "senet/ai_search.hpp"

namespace senet::ai {

double winProbability(const Position& p) {
    switch (outcome(p)) {
        case Outcome::WinOne: return 1.0;
        case Outcome::WinTwo: return 0.0;
        case Outcome::Draw: return 0.5;
        case Outcome::Ongoing: break;
    }
    // bruteForceExpectimax (not prunedExpectimax, which equals it) reads no clock, so the
    // WebAssembly build needs no time import.
    const double v = bruteForceExpectimax(p, kWinProbabilityDepth, Evaluation::Learned);
    const double mover = std::clamp((v + 1.0) / 2.0, 0.0, 1.0);
    return p.turn == Player::One ? mover : 1.0 - mover;
}

}  // namespace senet::ai
