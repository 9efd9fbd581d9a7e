#include "senet/perft.hpp"

#include "senet/movegen.hpp"

namespace senet {

std::uint64_t perft(const Position& p, int depth) {
    if (depth == 0 || outcome(p) != Outcome::Ongoing) return 1;
    const Ruleset& r = p.rules();
    std::uint64_t nodes = 0;
    MoveList moves;
    if (!p.throwDue()) {
        // A step that spends a remainder (Piccione) makes no throw: one branch, THROW `-`.
        generateMoves(p, kNoThrow, moves);
        if (moves.empty()) return perft(applyMove(p, kNoThrow, Move::pass()), depth - 1);
        for (const Move& m : moves) nodes += perft(applyMove(p, kNoThrow, m), depth - 1);
        return nodes;
    }
    for (int v = 1; v < 16; ++v) {
        if (!r.canThrow(v)) continue;
        generateMoves(p, v, moves);
        if (moves.empty()) {
            nodes += perft(applyMove(p, v, Move::pass()), depth - 1);
            continue;
        }
        for (const Move& m : moves) nodes += perft(applyMove(p, v, m), depth - 1);
    }
    return nodes;
}

}  // namespace senet
