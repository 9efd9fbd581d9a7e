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

/// The step of the piece on `s` by amount `a` (one the table allows): backward, off (rule 12),
/// onto 27 and back to the hand (rule 11), or onto an empty square.
SENET_INLINE Move stepOf(const Ruleset& r, int s, int a, bool backward) {
    const auto from = static_cast<std::uint8_t>(s);
    if (backward) return Move{from, static_cast<std::uint8_t>(s - a), static_cast<std::uint8_t>(s - a), kBackward};
    const int to = s + a;
    if (to == kOffBoard) return Move{from, kOffBoard, kOffBoard, kBearOff};
    if (to == r.waterSquare) return Move{from, static_cast<std::uint8_t>(to), 0, kToHand};
    return Move{from, static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(to), 0};
}

/// The legal steps of the player to move as bitboards by amount (rules 3-12): `froms[a]` holds
/// the squares whose piece may step by `a` (forward or, when `backward`, backward), `enter`
/// whether `in-1` is legal, `count` how many steps there are in all. The one statement of which
/// steps are legal: splitSteps lists it, stepAt draws from it without building the list.
struct StepTable {
    std::array<Bitboard, 6> froms{};  ///< index 1..5: the amount
    bool enter = false;
    bool backward = false;
    int count = 0;
};

/// Fills `t` with every legal step of the player to move: with the new throw `v` when
/// `p.throwDue()`, else with the remainder (`v` is then kNoThrow). Rule 5: only a whole, unspent
/// 1 that is not an entry throw enters, onto an empty square 1; rule 6: the entry throw's first
/// step moves the entered piece; rule 7: at the turn's first step forward steps and `in-1` come
/// first, later steps keep the turn's direction; rule 4: never backward from 28-30.
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

/// The square of the `k`-th lowest piece of `f` (0 <= k < popcount(f)): clears the lower ones.
SENET_INLINE int nthSquare(Bitboard f, int k) {
    for (; k > 0; --k) f &= f - 1;
    return lowestSquare(f);
}

/// The step number `k` (0 <= k < t.count) of a table: `in-1` first, then by amount and square.
/// `Nth` picks the k-th piece of a bitboard (nthSquare, or one with a CPU instruction for it).
template <auto Nth = nthSquare>
SENET_INLINE Move stepAt(const Ruleset& r, const StepTable& t, int k) {
    if (t.enter) {
        if (k == 0) return Move::enter(r.entrySquare);
        --k;
    }
    for (int a = 1; a <= 5; ++a) {
        const Bitboard f = t.froms[a];
        const int c = std::popcount(f);
        if (k >= c) {
            k -= c;
            continue;
        }
        return stepOf(r, Nth(f, k), a, t.backward);
    }
    return Move::pass();  // k out of range: not reached for 0 <= k < t.count
}

/// Every legal step of the player to move (see stepTable), sorted as `senet moves` prints them:
/// `in-1` first, then by FROM and TO, the bear-off after the squares. Empty when the only move
/// is `pass` (rule 9).
SENET_INLINE void splitSteps(const Ruleset& r, const Position& p, int v, MoveList& out) {
    StepTable t;
    stepTable(r, p, v, t);
    out.clear();
    if (t.enter) out.push(Move::enter(r.entrySquare));
    Bitboard movers = 0;
    for (const Bitboard f : t.froms) movers |= f;
    for (; movers; movers &= movers - 1) {
        const int s = lowestSquare(movers);
        // TO ascending: forward by growing amounts, backward by shrinking ones.
        for (int i = 1; i <= 5; ++i) {
            const int a = t.backward ? 6 - i : i;
            if (t.froms[a] & bit(s)) out.push(stepOf(r, s, a, t.backward));
        }
    }
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

/// Plays one step `m` on `q` in place (`m` from splitSteps for the same position and `v`, or a
/// pass when it gave none). RULES.md "Command line, Piccione additions", `apply` steps 1-4, and
/// rules 9-13. In place so that a playout keeps its position in registers: a copy per step
/// made the CPU reload fields just written byte by byte (a store-forwarding stall each step).
SENET_INLINE void playSplitStep(const Ruleset& r, Position& q, int v, Move m) {
    const Player mover = q.turn;
    const int me = index(mover);
    int budget = q.remainder;
    if (q.throwDue()) {
        // Step 1: a new throw; an owed one is now made. Rule 10: every 5 owes one more.
        if (!q.entryThrowDue && q.direction != TurnDirection::Unset) --q.owedThrows;
        if (r.givesExtraThrow(v)) oweThrow(q);
        budget = v;
    }
    if (m.isPass()) {
        // Rule 9: the mover's piece on square 1 goes back to the hand; the turn ends at once.
        q.board[me] &= ~bit(r.entrySquare);
        endTurn(q, opponent(mover));
        return;
    }
    if (m.has(kEnter)) {
        // Rule 5: entering spends the whole 1; the entry throw comes next (rule 6).
        q.board[me] |= bit(m.to);
        q.direction = TurnDirection::Forward;
        q.entryThrowDue = true;
        return;
    }
    q.board[me] &= ~bit(m.from);
    if (m.has(kBearOff)) ++q.off[me];
    else if (!m.has(kToHand)) {
        q.board[me] |= bit(m.to);
        if (r.extraThrowSquares & bit(m.to)) oweThrow(q);  // rule 10: 15 and 26
    }
    const int remainder = budget - stepAmount(m);
    q.remainder = static_cast<std::uint8_t>(remainder);
    q.direction = m.has(kBackward) ? TurnDirection::Backward : TurnDirection::Forward;
    q.entryThrowDue = false;
    if (q.off[me] >= r.piecesPerSide) endTurn(q, mover);  // rule 13: the game is over
    else if (!remainder && !q.owedThrows) endTurn(q, opponent(mover));
}

/// The position after one step `m` of `p` (see playSplitStep).
SENET_INLINE Position applySplitStep(const Ruleset& r, const Position& p, int v, Move m) {
    Position q = p;
    playSplitStep(r, q, v, m);
    return q;
}

}  // namespace senet::core
