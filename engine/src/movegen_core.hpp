// The move generator's core, inlined into each caller with the ruleset as a compile-time
// constant (see withRuleset): this is what makes random playouts fast. Internal to the engine.
#pragma once

#include <algorithm>
#include <bit>

#include "senet/core.hpp"
#include "senet/position.hpp"

#define SENET_INLINE [[gnu::always_inline]] inline

namespace senet::core {

/// Squares r where `length` opponent pieces stand in a row on r, r+1, ..., r+length-1.
SENET_INLINE Bitboard blockadeStarts(Bitboard opp, int length) {
    Bitboard run = opp;
    for (int i = 1; i < length; ++i) run &= run >> 1;
    return run;
}

/// Where a piece landing on the House of Water ends up, given the occupied squares with the
/// mover's start square already vacated. Standard rule 7, Jéquier rule 5.
SENET_INLINE int waterDestination(const Ruleset& r, Bitboard occupiedWithoutMover) {
    const Bitboard empty = ~occupiedWithoutMover & kAllSquares;
    if (r.waterReturn == WaterReturn::LowestEmpty) return lowestSquare(empty);
    // The return square, or the nearest empty square before it. With at most 2 x 5 pieces on the
    // board, squares 1..15 are never all full.
    return highestSquare(empty & squareRange(1, r.waterReturnSquare));
}

SENET_INLINE Bitboard forwardFroms(const Ruleset& r, Bitboard own, Bitboard opp, int v) {
    // Moves that stay on the board: not onto an own piece (standard 3, Bell 3), not onto a
    // protected or safe opponent piece (standard 4 and 6, Jéquier 4, Bell 4).
    const int lastLanding = std::min(kSquareCount, r.bearOffAt - 1);
    Bitboard movers = own;
    // Kendall 8: pieces on the final houses move only to bear off.
    if (r.bearOffOnlySquares) movers &= ~r.bearOffOnlySquares;
    // Kendall 5: a piece below the House of Beauty may not move past it.
    if (r.stopSquare) movers &= ~squareRange(r.stopSquare - v + 1, r.stopSquare - 1);
    Bitboard landings = (movers & squareRange(1, lastLanding - v)) << v;
    Bitboard shielded = opp & r.safeSquares;
    if (r.neighbourProtection) shielded |= opp & ((opp << 1) | (opp >> 1));
    landings &= ~(own | shielded);
    Bitboard froms = landings >> v;
    // Bearing off: only from the squares and with the throws the ruleset lists, and only when
    // every piece stands in the bear-off zone (standard 8, Jéquier 8, Bell 5).
    if (!(own & ~r.bearOffZone)) froms |= own & r.bearOffFroms[v];
    // Blockade: a move from s passes s+1 .. s+v-1 (Jéquier 3); a row of `length` starting at
    // s+k blocks it for k = 1 .. v-length.
    if (r.blockadeLength) {
        const Bitboard starts = blockadeStarts(opp, r.blockadeLength);
        for (int k = 1; k <= v - r.blockadeLength; ++k) froms &= ~(starts >> k);
    }
    return froms;
}

SENET_INLINE Bitboard backwardFroms(const Ruleset& r, Bitboard own, Bitboard opp, int v) {
    // Jéquier 6: exactly the throw back, to an empty square, not below 1, blockade included.
    // Kendall 9: also onto a lone opponent piece (a swap); never from the final houses (rule 8).
    Bitboard blocked = own | opp;
    if (r.backwardSwaps) blocked = own | (opp & (r.safeSquares | ((opp << 1) | (opp >> 1))));
    const Bitboard movers = own & squareRange(v + 1, kSquareCount) & ~r.bearOffOnlySquares;
    Bitboard froms = ((movers >> v) & ~blocked) << v;
    if (r.blockadeLength) {
        const Bitboard starts = blockadeStarts(opp, r.blockadeLength);
        for (int k = r.blockadeLength; k <= v - 1; ++k) froms &= ~(starts << k);
    }
    return froms;
}

/// The squares of `own`'s pieces that may move with a throw of v; `backward` tells whether
/// these are backward moves (Jéquier 6, Kendall 9). One move per throw only (not SplitSteps).
SENET_INLINE Bitboard legalFroms(const Ruleset& r, Bitboard own, Bitboard opp, int v, bool& backward) {
    Bitboard froms = core::forwardFroms(r, own, opp, v);
    backward = false;
    if (r.backwardWhenNoForward && !froms) {
        froms = core::backwardFroms(r, own, opp, v);
        backward = froms != 0;
    }
    // Bell 6: when a piece on 26-30 can move, one of them must.
    if (froms & r.compulsionSquares) froms &= r.compulsionSquares;
    return froms;
}

SENET_INLINE Bitboard legalFroms(const Ruleset& r, const Position& p, int v, bool& backward) {
    return core::legalFroms(r, p.board[index(p.turn)], p.board[index(opponent(p.turn))], v, backward);
}

/// The move of `own`'s piece on `from` (which legalFroms reported) with a throw of v.
SENET_INLINE Move makeMove(const Ruleset& r, Bitboard own, Bitboard opp, int from, int v, bool backward) {
    const int to = backward ? from - v : from + v;
    if (to >= r.bearOffAt) return Move{static_cast<std::uint8_t>(from), kOffBoard, kOffBoard, kBearOff};
    std::uint8_t flags = backward ? kBackward : 0;
    if (opp & bit(to)) flags |= r.capture == CaptureMode::Swap ? kSwap : kCapture;
    int dest = to;
    if (to == r.waterSquare) {
        flags |= kWater;
        dest = waterDestination(r, (own | opp) & ~bit(from));
    }
    return Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(dest), flags};
}

SENET_INLINE Move makeMove(const Ruleset& r, const Position& p, int from, int v, bool backward) {
    return core::makeMove(r, p.board[index(p.turn)], p.board[index(opponent(p.turn))], from, v, backward);
}

/// Plays `move` (not a pass) for the side whose pieces are `own`, updating both sides' pieces
/// and the mover's borne-off count.
SENET_INLINE void playMove(Bitboard& own, Bitboard& opp, std::uint8_t& ownOff, Move move) {
    own &= ~bit(move.from);
    if (move.has(kBearOff)) {
        ++ownOff;
        return;
    }
    if (move.has(kSwap)) opp ^= bit(move.to) | bit(move.from);
    else if (move.has(kCapture)) opp &= ~bit(move.to);
    own |= bit(move.dest);
}

SENET_INLINE bool keepsTurn(const Ruleset& r, int v, Move move) {
    if (!r.givesExtraThrow(v)) return false;
    return !move.isPass() || r.extraThrowAfterPass;
}

SENET_INLINE Position applyMove(const Ruleset& r, const Position& p, int v, Move move) {
    Position q = p;
    const int me = index(p.turn);
    const int op = me ^ 1;
    if (!move.isPass()) playMove(q.board[me], q.board[op], q.off[me], move);
    if (!core::keepsTurn(r, v, move)) q.turn = opponent(p.turn);
    return q;
}

SENET_INLINE Outcome outcome(const Ruleset& r, const Position& p) {
    if (r.win == WinRule::AllBorneOff) {
        if (p.off[0] >= r.piecesPerSide) return Outcome::WinOne;
        if (p.off[1] >= r.piecesPerSide) return Outcome::WinTwo;
        return Outcome::Ongoing;
    }
    const int on1 = p.onBoard(Player::One), on2 = p.onBoard(Player::Two);
    if (p.off[0] > p.off[1] + on2) return Outcome::WinOne;
    if (p.off[1] > p.off[0] + on1) return Outcome::WinTwo;
    if (on1 == 0 && on2 == 0) return Outcome::Draw;  // equal scores, or one side would have won above
    return Outcome::Ongoing;
}

}  // namespace senet::core
