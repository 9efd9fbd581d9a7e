#include "senet/movegen.hpp"
#include "senet/perft.hpp"

namespace senet {

PlayoutResult randomPlayout(Position p, Rng& rng, int maxPlies) {
    const Ruleset& r = p.rules();
    PlayoutResult result;
    while ((result.outcome = outcome(p)) == Outcome::Ongoing && result.plies < maxPlies) {
        // One 64-bit draw per ply: the low bits pick the chance outcome (16 or 4 of them, so
        // exactly), the high 32 bits the move (multiply-shift; bias below 10 / 2^32).
        const std::uint64_t x = rng.next();
        const int v = r.outcomes[x & static_cast<std::uint64_t>(r.outcomeCount - 1)].throw_.value;
        bool backward = false;
        Bitboard froms = legalFroms(p, v, backward);
        Move m = Move::pass();
        if (froms) {
            const auto n = static_cast<std::uint64_t>(std::popcount(froms));
            for (auto k = ((x >> 32) * n) >> 32; k > 0; --k) froms &= froms - 1;
            m = makeMove(p, lowestSquare(froms), v, backward);
        }
        p = applyMove(p, v, m);
        ++result.plies;
    }
    return result;
}

int randomOpening(Rng& rng, bool& seatZeroIsPlayerTwo) {
    const Ruleset& r = ruleset(RulesetId::Jequier);
    for (int n = 1;; ++n) {
        if (rng.throwOutcome(r).throw_.value == 1) {
            seatZeroIsPlayerTwo = (n % 2) == 1;
            return n;
        }
    }
}

}  // namespace senet
