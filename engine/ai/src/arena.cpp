// Levels against each other (senet arena), and the Wilson score interval for its report.
#include "senet/ai_arena.hpp"

#include <cassert>
#include <chrono>
#include <cmath>

#include "senet/perft.hpp"

namespace senet::ai {

namespace {

/// One game from the first throw to the end. `seatOptions[s]` plays seat s; `seatZeroIsTwo`
/// says whether the first seat plays player 2. Returns the outcome (Ongoing if cut off).
Outcome playGame(const ArenaConfig& c, const Options* seatOptions[2], const OutsideDecider* seatOutside[2], bool seatZeroIsTwo,
                 Rng& throws, Rng& choices, ArenaResult& result) {
    const Ruleset& r = ruleset(c.rules);
    Position p = startPosition(c.rules);
    MoveList moves;
    for (int ply = 0; ply < c.maxPlies; ++ply) {
        const Outcome o = outcome(p);
        if (o != Outcome::Ongoing) return o;
        // A step that spends a remainder (Piccione) makes no throw.
        const int v = p.throwDue() ? throws.throwOutcome(r).throw_.value : kNoThrow;
        const int seat = index(p.turn) ^ (seatZeroIsTwo ? 1 : 0);
        const Options& opt = *seatOptions[seat];
        generateMoves(p, v, moves);
        Move m = Move::pass();
        if (!moves.empty() && *seatOutside[seat]) {
            m = (*seatOutside[seat])(p, v, moves);
        } else if (!moves.empty()) {
            const auto started = std::chrono::steady_clock::now();
            m = chooseMove(p, v, opt, choices);
            if (opt.level == Level::Expert && moves.size() > 1)
                result.expertMicros.push_back(
                    std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count());
        }
        p = applyMove(p, v, m);
        ++result.plies;
    }
    return outcome(p);
}

}  // namespace

ArenaResult runArena(const ArenaConfig& c, const std::function<void(std::int64_t)>& progress) {
    ArenaResult result;
    const Ruleset& r = ruleset(c.rules);
    // Separate streams: the throws do not depend on how many random choices the levels make.
    Rng throws(c.seed);
    Rng choices(c.seed ^ 0x9E3779B97F4A7C15ull);
    for (std::int64_t g = 0; g < c.games; ++g) {
        const bool aFirst = g % 2 == 0;
        const Options* seats[2] = {aFirst ? &c.a : &c.b, aFirst ? &c.b : &c.a};
        const OutsideDecider* outside[2] = {aFirst ? &c.outsideA : &c.outsideB, aFirst ? &c.outsideB : &c.outsideA};
        bool seatZeroIsTwo = false;
        if (r.opening == OpeningRule::ThrowForOne) randomOpening(throws, seatZeroIsTwo);
        const Outcome o = playGame(c, seats, outside, seatZeroIsTwo, throws, choices, result);
        ++result.games;
        if (o == Outcome::Ongoing) {
            ++result.unfinished;
        } else if (o == Outcome::Draw) {
            ++result.draws;
        } else {
            const int winnerSeat = (o == Outcome::WinOne ? 0 : 1) ^ (seatZeroIsTwo ? 1 : 0);
            if (winnerSeat == 0) ++result.firstSeatWins;
            if ((winnerSeat == 0) == aFirst) ++result.winsA;
            else ++result.winsB;
        }
        if (progress) progress(result.games);
    }
    return result;
}

Interval wilsonInterval(std::int64_t successes, std::int64_t trials, double z) {
    if (trials <= 0) return {0, 1};
    assert(successes >= 0 && successes <= trials);
    const double n = static_cast<double>(trials);
    const double phat = static_cast<double>(successes) / n;
    const double z2 = z * z;
    const double denom = 1 + z2 / n;
    const double centre = (phat + z2 / (2 * n)) / denom;
    const double half = z * std::sqrt(phat * (1 - phat) / n + z2 / (4 * n * n)) / denom;
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

}  // namespace senet::ai
