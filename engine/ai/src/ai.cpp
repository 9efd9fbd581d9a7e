#include "senet/ai.hpp"

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

Move chooseMove(const Position& p, int throwValue, const Options& /*options*/, Rng& rng) {
    // Until the levels land, every level plays a random legal move.
    MoveList moves;
    generateMoves(p, throwValue, moves);
    if (moves.empty()) return Move::pass();
    return moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))];
}

}  // namespace senet::ai
