// The move generator for rulesets whose turn is a sequence of steps that may each spend part of
// a throw (TurnModel::SplitSteps: Piccione). Inlined into each caller with the ruleset as a
// compile-time constant, like movegen_core.hpp. Internal to the engine.
// RULES.md "Piccione (`piccione`)", rules 3-13, and "Command line, Piccione additions".
#pragma once

#include <algorithm>
#include <array>
#include <bit>

#include "movegen_core.hpp"

namespace senet::core {

/// The amount a step spends: |to - from|, 31 - from for a bear-off, the whole 1 for `in-1`.
SENET_INLINE int stepAmount(Move m) {
    if (m.has(kEnter)) return 1;
    return m.has(kBackward) ? m.from - m.to : m.to - m.from;
}

/// The forward steps (rule 4) and `in-1` (rule 5) the player to move may take with `budget`:
/// `in-1` first, then by FROM and TO, the bear-off after the squares.
SENET_INLINE void forwardSteps(const Ruleset& r, const Position& p, int budget, bool freshThrow, MoveList& out) {
    const int me = index(p.turn);
    const Bitboard own = p.board[me];
    const Bitboard empty = ~(p.board[0] | p.board[1]) & kAllSquares;
    // Rule 5: only a whole, unspent 1 that is not an entry throw enters, onto an empty square 1.
    if (freshThrow && budget == 1 && !p.entryThrowDue && r.piecesPerSide - std::popcount(own) - p.off[me] > 0 &&
        (empty & bit(r.entrySquare)))
        out.push(Move::enter(r.entrySquare));
    // Rule 6: the entry throw's first step moves the entered piece.
    const Bitboard movers = freshThrow && p.entryThrowDue ? own & bit(r.entrySquare) : own;
    for (Bitboard b = movers; b; b &= b - 1) {
        const int s = lowestSquare(b);
        const auto from = static_cast<std::uint8_t>(s);
        for (int a = 1; a <= budget; ++a) {
            const int t = s + a;
            if (t > kSquareCount) {
                // Rule 12: off with exactly 31 - FROM, never further.
                if ((r.bearOffThrows[s] >> a) & 1) out.push(Move{from, kOffBoard, kOffBoard, kBearOff});
                break;
            }
            if (!(empty & bit(t))) continue;  // rule 3: a step ends only on an empty square
            const auto to = static_cast<std::uint8_t>(t);
            // Rule 11: a step onto 27 is an ordinary forward step; the piece goes to the hand.
            if (t == r.waterSquare) out.push(Move{from, to, 0, kToHand});
            else out.push(Move{from, to, to, 0});
        }
    }
}

/// The backward steps (rule 4) with `budget`, by FROM and TO: never from 28-30, never below 1,
/// only onto an empty square.
SENET_INLINE void backwardSteps(const Ruleset& r, const Position& p, int budget, MoveList& out) {
    const Bitboard empty = ~(p.board[0] | p.board[1]) & kAllSquares;
    for (Bitboard b = p.board[index(p.turn)] & ~r.noBackwardSquares; b; b &= b - 1) {
        const int s = lowestSquare(b);
        for (int a = std::min(budget, s - 1); a >= 1; --a)
            if (empty & bit(s - a))
                out.push(Move{static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(s - a), static_cast<std::uint8_t>(s - a), kBackward});
    }
}

/// Every legal step of the player to move: with the new throw `v` when `p.throwDue()`, else
/// with the remainder (`v` is then kNoThrow). Empty when the only move is `pass` (rule 9).
/// Rule 7: at the turn's first step forward steps and `in-1` come first; later steps keep the
/// turn's direction.
SENET_INLINE void splitSteps(const Ruleset& r, const Position& p, int v, MoveList& out) {
    out.clear();
    const bool fresh = p.throwDue();
    const int budget = fresh ? v : p.remainder;
    if (p.direction != TurnDirection::Backward) {
        forwardSteps(r, p, budget, fresh, out);
        if (!out.empty() || p.direction == TurnDirection::Forward) return;
    }
    backwardSteps(r, p, budget, out);
}

/// The legal steps of splitSteps as bitboards by amount, for counting and drawing one without
/// building the list (random playouts): `froms[a]` holds the squares whose piece may step by `a`
/// (forward or, when `backward`, backward), `enter` whether `in-1` is legal, `count` how many
/// steps there are in all.
struct StepTable {
    std::array<Bitboard, 6> froms{};  ///< index 1..5: the amount
    bool enter = false;
    bool backward = false;
    int count = 0;
};

/// Fills `t` with the steps splitSteps would list for `p` and `v` (the same set; another order).
SENET_INLINE void stepTable(const Ruleset& r, const Position& p, int v, StepTable& t) {
    const bool fresh = p.throwDue();
    const int budget = fresh ? v : p.remainder;
    const int me = index(p.turn);
    const Bitboard own = p.board[me];
    const Bitboard empty = ~(p.board[0] | p.board[1]) & kAllSquares;
    t = StepTable{};
    if (p.direction != TurnDirection::Backward) {
        t.enter = fresh && budget == 1 && !p.entryThrowDue && r.piecesPerSide - std::popcount(own) - p.off[me] > 0 &&
                  (empty & bit(r.entrySquare));
        const Bitboard movers = fresh && p.entryThrowDue ? own & bit(r.entrySquare) : own;
        // Square s steps to s + a when that square is empty (bit s-1 of empty >> a), or off when
        // s + a is exactly 31 (the bear-off table).
        for (int a = 1; a <= budget; ++a) {
            t.froms[a] = movers & ((empty >> a) | r.bearOffFroms[a]);
            t.count += std::popcount(t.froms[a]);
        }
        t.count += t.enter;
        if (t.count || p.direction == TurnDirection::Forward) return;
    }
    t.backward = true;
    const Bitboard movers = own & ~r.noBackwardSquares;
    for (int a = 1; a <= budget; ++a) {
        t.froms[a] = movers & (empty << a) & kAllSquares;  // s - a empty, and s - a >= 1
        t.count += std::popcount(t.froms[a]);
    }
}

/// The step number `k` (0 <= k < t.count) of a table: `in-1` first, then by amount and square.
SENET_INLINE Move stepAt(const Ruleset& r, const StepTable& t, int k) {
    if (t.enter) {
        if (k == 0) return Move::enter(r.entrySquare);
        --k;
    }
    for (int a = 1; a <= 5; ++a) {
        Bitboard f = t.froms[a];
        const int c = std::popcount(f);
        if (k >= c) {
            k -= c;
            continue;
        }
        for (; k > 0; --k) f &= f - 1;
        const int s = lowestSquare(f);
        const auto from = static_cast<std::uint8_t>(s);
        if (t.backward) return Move{from, static_cast<std::uint8_t>(s - a), static_cast<std::uint8_t>(s - a), kBackward};
        const int to = s + a;
        if (to == kOffBoard) return Move{from, kOffBoard, kOffBoard, kBearOff};
        if (to == r.waterSquare) return Move{from, static_cast<std::uint8_t>(to), 0, kToHand};
        return Move{from, static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(to), 0};
    }
    return Move::pass();  // k out of range: not reached for 0 <= k < t.count
}

/// Ends the turn in `q`: `next` acts, with a new turn (`0:-:0:0`).
SENET_INLINE void endTurn(Position& q, Player next) {
    q.turn = next;
    q.remainder = 0;
    q.direction = TurnDirection::Unset;
    q.owedThrows = 0;
    q.entryThrowDue = false;
}

SENET_INLINE void oweThrow(Position& q) {
    if (q.owedThrows < 255) ++q.owedThrows;  // saturates: unreachable in play (a position caps BONUS at 255)
}

/// The position after one step `m` (from splitSteps for the same `p` and `v`, or a pass when it
/// gave none). RULES.md "Command line, Piccione additions", `apply` steps 1-4, and rules 9-13.
SENET_INLINE Position applySplitStep(const Ruleset& r, const Position& p, int v, Move m) {
    Position q = p;
    const int me = index(p.turn);
    int budget = p.remainder;
    if (p.throwDue()) {
        // Step 1: a new throw; an owed one is now made. Rule 10: every 5 owes one more.
        if (!p.entryThrowDue && p.direction != TurnDirection::Unset) --q.owedThrows;
        if (r.givesExtraThrow(v)) oweThrow(q);
        budget = v;
    }
    if (m.isPass()) {
        // Rule 9: the mover's piece on square 1 goes back to the hand; the turn ends at once.
        q.board[me] &= ~bit(r.entrySquare);
        endTurn(q, opponent(p.turn));
        return q;
    }
    if (m.has(kEnter)) {
        // Rule 5: entering spends the whole 1; the entry throw comes next (rule 6).
        q.board[me] |= bit(m.to);
        q.direction = TurnDirection::Forward;
        q.entryThrowDue = true;
        return q;
    }
    q.board[me] &= ~bit(m.from);
    if (m.has(kBearOff)) ++q.off[me];
    else if (!m.has(kToHand)) {
        q.board[me] |= bit(m.to);
        if (r.extraThrowSquares & bit(m.to)) oweThrow(q);  // rule 10: 15 and 26
    }
    q.remainder = static_cast<std::uint8_t>(budget - stepAmount(m));
    q.direction = m.has(kBackward) ? TurnDirection::Backward : TurnDirection::Forward;
    q.entryThrowDue = false;
    if (q.off[me] >= r.piecesPerSide) endTurn(q, p.turn);  // rule 13: the game is over
    else if (!q.remainder && !q.owedThrows) endTurn(q, opponent(p.turn));
    return q;
}

}  // namespace senet::core
