// Legal moves, applying them, and the game's outcome. No heap allocation anywhere here.
// The preconditions stated below are checked by asserts in debug builds (none in Release, which
// defines NDEBUG: the move generator's speed is unchanged there).
#pragma once

#include <string>
#include <string_view>

#include "senet/core.hpp"
#include "senet/position.hpp"
#include "senet/result.hpp"

namespace senet {

/// Fills `moves` with every legal move of the player to move for a throw of `throwValue`,
/// sorted by `from`. Empty when the player must pass (or loses the turn, in Jéquier).
/// `throwValue` must be one the ruleset can throw (`Ruleset::canThrow`). Implements each
/// ruleset's moving rules: standard 2–8, Jéquier 3–8, Bell 3–6.
void generateMoves(const Position& p, int throwValue, MoveList& moves);

/// How many legal moves generateMoves(p, throwValue) lists, counted without building the list
/// (0 when the only move is a pass). Same preconditions as generateMoves.
int countMoves(const Position& p, int throwValue);

/// The legal move number `k`, 0 <= k < countMoves(p, throwValue), in an order of its own (the
/// same set as generateMoves, not always its order: Piccione's steps go by amount). For drawing
/// a random move without building the list.
Move moveAt(const Position& p, int throwValue, int k);

/// The squares of the pieces that have a legal move with a throw of `v` (1 bit each: every
/// piece has at most one move per throw), `v` a value the ruleset can throw. Sets `backward`
/// when these are Jéquier's backward moves (rule 6). The allocation-free core of generateMoves.
Bitboard legalFroms(const Position& p, int v, bool& backward);

/// The move of the piece on `from` with a throw of `v`: `from` must be one of the squares
/// legalFroms(p, v, backward) reported, with the same `backward`.
Move makeMove(const Position& p, int from, int v, bool backward);

/// The squares from which `own` can move forward by `v` (before Bell's compulsion), `v` a
/// value `r` can throw. Standard 3, 4, 6 and 8, Jéquier 3, 4 and 8, Bell 3–5.
Bitboard forwardFroms(const Ruleset& r, Bitboard own, Bitboard opp, int v);
/// The squares from which `own` can move backward by `v` (Jéquier 6, ignoring the forward-first
/// rule), `v` a value `r` can throw.
Bitboard backwardFroms(const Ruleset& r, Bitboard own, Bitboard opp, int v);

/// The position after the player to move plays `move` with a throw of `throwValue`. The move
/// must come from generateMoves for the same position and throw: one of its moves, or a pass
/// when it gave none. `turn` becomes whoever throws next: the same player after an extra throw
/// (standard 9, Jéquier 2 and 7, Bell 2).
Position applyMove(const Position& p, int throwValue, Move move);

/// Whether the game is over and who won. Standard 11, Jéquier 9, Bell 8.
Outcome outcome(const Position& p);

/// Whether the player keeps the throw after playing `move` with `throwValue`.
bool keepsTurn(const Ruleset& rules, int throwValue, Move move);

/// The notation of a move: `FROM-TO`, `FROM-off` or `pass`.
std::string formatMove(Move move);

/// Finds `text` (`FROM-TO`, `FROM-off`, `pass`) among the legal moves for this position and throw.
/// Errors: malformed text, a move that is not legal (with the reason when one is known).
Result<Move> parseMove(const Position& p, int throwValue, std::string_view text);

/// "ongoing", "win 1", "win 2" or "draw".
std::string_view outcomeName(Outcome o);

}  // namespace senet
