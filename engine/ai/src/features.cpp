// Tactical features of a position shared by the hand-made evaluation and the learned one:
// swap threats, House of Water danger, blockades. Descriptions in features.hpp.
#include "features.hpp"

#include <bit>

#include "senet/movegen.hpp"
#include "throws.hpp"

namespace senet::ai::detail {

Bitboard movers(const Ruleset& r, Bitboard own, Bitboard opp, int v) {
    Bitboard f = forwardFroms(r, own, opp, v);
    if (f & r.compulsionSquares) f &= r.compulsionSquares;
    return f;
}

double swapThreat(const Ruleset& r, Bitboard attacker, Bitboard victim) {
    const ThrowTable& t = throwTable(r.id);
    double gain = 0;
    for (int i = 0; i < t.count; ++i) {
        const int v = t.values[i];
        const Bitboard hits = (movers(r, attacker, victim, v) << v) & victim & kAllSquares;
        if (hits) gain += t.prob[i] * 2.0 * v;
    }
    return gain;
}

double waterDanger(const Ruleset& r, Bitboard own, Bitboard opp, double back) {
    const ThrowTable& t = throwTable(r.id);
    double loss = 0;
    for (int i = 0; i < t.count; ++i) {
        const int v = t.values[i];
        if (r.waterSquare - v < 1) continue;
        const Bitboard f = forwardFroms(r, own, opp, v);
        if (f && f == (f & bit(r.waterSquare - v))) loss += t.prob[i] * (r.waterSquare - back);
    }
    return loss;
}

double blockadeHold(Bitboard own, Bitboard opp) {
    const Bitboard starts = own & (own >> 1) & (own >> 2);
    if (!starts) return 0;
    double held = 0;
    for (Bitboard b = starts; b; b &= b - 1) {
        const int s = lowestSquare(b);
        held += std::popcount(opp & squareRange(s - 6, s - 1));
    }
    return held;
}
}  // namespace senet::ai::detail
