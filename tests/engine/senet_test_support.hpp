// Shared utilities of the engine tests: positions and moves in the notation of RULES.md.
//
// Boards in the comments of the tests are drawn in path order:
//   row 1 is squares 1..10 left to right, row 2 is squares 20..11, row 3 is squares 21..30;
//   `1` a piece of player 1, `2` a piece of player 2, `.` an empty square.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "senet/senet.hpp"

namespace senet::test {

using Moves = std::vector<std::string>;

/// The position of a notation string; the test fails when the engine rejects it.
inline Position pos(std::string_view text) {
    auto p = parsePosition(text);
    if (!p) {
        ADD_FAILURE() << "position " << text << " rejected: " << p.error().message;
        return Position{};
    }
    return *p;
}

/// The legal moves in notation, in the order generated (by FROM); {"pass"} when there is none.
inline Moves movesOf(const Position& p, int throwValue) {
    MoveList list;
    generateMoves(p, throwValue, list);
    Moves out;
    for (const Move& m : list) out.push_back(formatMove(m));
    if (out.empty()) out.push_back("pass");
    return out;
}

inline Moves movesOf(std::string_view position, int throwValue) { return movesOf(pos(position), throwValue); }

/// The notation of the position after `move` (notation) is played with `throwValue`, or
/// "illegal: REASON" when the engine does not accept the move.
inline std::string after(std::string_view position, int throwValue, std::string_view move) {
    const Position p = pos(position);
    const auto m = parseMove(p, throwValue, move);
    if (!m) return "illegal: " + m.error().message;
    return formatPosition(applyMove(p, throwValue, *m));
}

/// The outcome name ("ongoing", "win 1", "win 2", "draw") after `move` is played.
inline std::string outcomeAfter(std::string_view position, int throwValue, std::string_view move) {
    const Position p = pos(position);
    const auto m = parseMove(p, throwValue, move);
    if (!m) return "illegal: " + m.error().message;
    return std::string(outcomeName(outcome(applyMove(p, throwValue, *m))));
}

/// The outcome name of a position.
inline std::string outcomeOf(std::string_view position) { return std::string(outcomeName(outcome(pos(position)))); }

/// The legal move of notation `move`; the test fails when the engine does not find it.
inline Move moveOf(std::string_view position, int throwValue, std::string_view move) {
    const auto m = parseMove(pos(position), throwValue, move);
    if (!m) {
        ADD_FAILURE() << "move " << move << " rejected in " << position << ": " << m.error().message;
        return Move::pass();
    }
    return *m;
}

/// Whether `move` is rejected by parseMove for this position and throw.
inline bool rejected(std::string_view position, int throwValue, std::string_view move) {
    return !parseMove(pos(position), throwValue, move).ok();
}

}  // namespace senet::test
