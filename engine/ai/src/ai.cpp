// Level names and the entry point that dispatches to a level (levels.cpp).
#include "senet/ai.hpp"

#include "levels.hpp"

namespace senet::ai {

std::optional<Level> levelByName(std::string_view name) {
    for (Level l : {Level::Random, Level::Beginner, Level::Intermediate, Level::Expert})
        if (levelName(l) == name) return l;
    return std::nullopt;
}

std::string_view levelName(Level level) {
    switch (level) {
        case Level::Random: return "random";
        case Level::Beginner: return "beginner";
        case Level::Intermediate: return "intermediate";
        case Level::Expert: return "expert";
    }
    return "random";
}

Move chooseMove(const Position& p, int throwValue, const Options& options, Rng& rng) {
    // A throw when one is due; kNoThrow while a remainder is spent (Piccione).
    const bool throwOk = p.throwDue() ? p.rules().canThrow(throwValue) : throwValue == kNoThrow;
    if (!throwOk || outcome(p) != Outcome::Ongoing) return Move::pass();
    MoveList moves;
    generateMoves(p, throwValue, moves);
    if (moves.empty()) return Move::pass();
    if (moves.size() == 1) return moves[0];
    switch (options.level) {
        case Level::Random: return detail::randomMove(moves, rng);
        case Level::Beginner: return detail::beginnerMove(p, throwValue, moves, rng);
        case Level::Intermediate: return detail::intermediateMove(p, throwValue, moves, rng);
        case Level::Expert: return detail::expertMove(p, throwValue, options);
    }
    return moves[0];
}

}  // namespace senet::ai
