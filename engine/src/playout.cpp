#include "movegen_core.hpp"
#include "split_steps.hpp"
#include "senet/movegen.hpp"
#include "senet/perft.hpp"

#include <utility>

namespace senet {

namespace {

/// Random steps for SplitSteps rulesets (Piccione): one 64-bit draw per step, its low bits the
/// throw when one is due, its high 32 bits the step. `Nth` picks the k-th piece of a bitboard.
template <const Ruleset& r, auto Nth>
SENET_INLINE PlayoutResult splitStepPlayout(Position p, Rng& rng, int maxPlies) {
    PlayoutResult result;
    result.outcome = core::outcome(r, p);
    core::StepTable steps;
    while (result.outcome == Outcome::Ongoing && result.plies < maxPlies) {
        const std::uint64_t x = rng.next();
        int v = kNoThrow;
        if (p.throwDue()) {
            v = r.outcomes[x & static_cast<std::uint64_t>(r.outcomeCount - 1)].throw_.value;
            ++result.throws;
        }
        // Counted by amount as bitboards, one drawn uniformly, without building the list.
        core::stepTable(r, p, v, steps);
        Move m = Move::pass();
        if (steps.count) m = core::stepAt<Nth>(r, steps, static_cast<int>(((x >> 32) * static_cast<std::uint64_t>(steps.count)) >> 32));
        core::playSplitStep(r, p, v, m);
        if (m.has(kBearOff)) result.outcome = core::outcome(r, p);
        ++result.plies;
    }
    return result;
}

#if defined(__x86_64__) && defined(__GNUC__)
/// The k-th piece of `f` by BMI2's parallel deposit (PDEP): one instruction instead of a loop
/// whose trip count a random playout makes unpredictable (bench/README.md). Written as assembly
/// so that the rest of the build keeps its target; run only where fastDeposit() holds.
SENET_INLINE int nthSquareByDeposit(Bitboard f, int k) {
    Bitboard d;
    asm("pdepl %2, %1, %0" : "=r"(d) : "r"(Bitboard{1} << k), "rm"(f));
    return std::countr_zero(d) + 1;
}

/// Whether the CPU has BMI2 with a fast deposit: AMD's family 17h (Zen 1 and 2) runs it in
/// microcode, slower than the loop.
bool fastDeposit() {
    static const bool fast = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("amdfam17h");
    }();
    return fast;
}
#endif

template <const Ruleset& r>
PlayoutResult randomSplitStepPlayout(Position p, Rng& rng, int maxPlies) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (fastDeposit()) return splitStepPlayout<r, nthSquareByDeposit>(p, rng, maxPlies);
#endif
    return splitStepPlayout<r, core::nthSquare>(p, rng, maxPlies);
}

}  // namespace

PlayoutResult randomPlayout(Position p, Rng& rng, int maxPlies) {
    return withRuleset(p.rulesetId, [&](auto tag) {
        constexpr const Ruleset& r = decltype(tag)::rules;
        if constexpr (r.turnModel == TurnModel::SplitSteps) return randomSplitStepPlayout<r>(p, rng, maxPlies);
        PlayoutResult result;
        result.outcome = core::outcome(r, p);
        // The side to move's pieces and the other side's, kept in registers; swapped when the
        // turn passes. The outcome can only change after a bear-off or a capture.
        Bitboard own = p.board[index(p.turn)], opp = p.board[index(opponent(p.turn))];
        std::uint8_t ownOff = p.off[index(p.turn)], oppOff = p.off[index(opponent(p.turn))];
        Player turn = p.turn;
        while (result.outcome == Outcome::Ongoing && result.plies < maxPlies) {
            // One 64-bit draw per ply: the low bits pick the chance outcome (16 or 4 of them, so
            // exactly), the high 32 bits the move (multiply-shift; bias below 10 / 2^32).
            const std::uint64_t x = rng.next();
            const int v = r.outcomes[x & static_cast<std::uint64_t>(r.outcomeCount - 1)].throw_.value;
            bool backward = false;
            Bitboard froms = core::legalFroms(r, own, opp, v, backward);
            Move m = Move::pass();
            if (froms) {
                const auto n = static_cast<std::uint64_t>(std::popcount(froms));
                for (auto k = ((x >> 32) * n) >> 32; k > 0; --k) froms &= froms - 1;
                m = core::makeMove(r, own, opp, lowestSquare(froms), v, backward);
                core::playMove(own, opp, ownOff, m);
                if (m.flags & (kBearOff | kCapture)) {
                    Position now;
                    now.board[index(turn)] = own;
                    now.board[index(opponent(turn))] = opp;
                    now.off[index(turn)] = ownOff;
                    now.off[index(opponent(turn))] = oppOff;
                    result.outcome = core::outcome(r, now);
                }
            }
            if (!core::keepsTurn(r, v, m)) {
                std::swap(own, opp);
                std::swap(ownOff, oppOff);
                turn = opponent(turn);
            }
            ++result.plies;
        }
        result.throws = result.plies;  // one throw a ply
        return result;
    });
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
