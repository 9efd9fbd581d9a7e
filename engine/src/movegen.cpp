#include "senet/movegen.hpp"

#include "movegen_core.hpp"
#include "split_steps.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <charconv>

namespace senet {

namespace {

// Checks of the stated preconditions, for the asserts of debug builds only.

/// Whether legalFroms reports the piece on `from` with these `backward` moves.
[[maybe_unused]] bool isLegalFrom(const Position& p, int from, int v, bool backward) {
    bool b = false;
    return from >= 1 && from <= kSquareCount && (legalFroms(p, v, b) & bit(from)) && b == backward;
}

/// Whether `move` is one of generateMoves' moves for `p` and `v`, or a pass when it has none.
[[maybe_unused]] bool isGeneratedMove(const Position& p, int v, Move move) {
    MoveList moves;
    generateMoves(p, v, moves);
    if (moves.empty()) return move.isPass();
    return std::find(moves.begin(), moves.end(), move) != moves.end();
}

}  // namespace

Bitboard forwardFroms(const Ruleset& r, Bitboard own, Bitboard opp, int v) {
    assert(r.canThrow(v));
    return core::forwardFroms(r, own, opp, v);
}

Bitboard backwardFroms(const Ruleset& r, Bitboard own, Bitboard opp, int v) {
    assert(r.canThrow(v));
    return core::backwardFroms(r, own, opp, v);
}

Bitboard legalFroms(const Position& p, int v, bool& backward) {
    assert(p.rules().canThrow(v) && p.rules().turnModel == TurnModel::OneMovePerThrow);
    return withRuleset(p.rulesetId, [&](auto tag) { constexpr const Ruleset& r = decltype(tag)::rules; return core::legalFroms(r, p, v, backward); });
}

Move makeMove(const Position& p, int from, int v, bool backward) {
    assert(p.rules().turnModel == TurnModel::OneMovePerThrow && isLegalFrom(p, from, v, backward));
    return withRuleset(p.rulesetId, [&](auto tag) { constexpr const Ruleset& r = decltype(tag)::rules; return core::makeMove(r, p, from, v, backward); });
}

void generateMoves(const Position& p, int v, MoveList& moves) {
    assert(p.throwDue() ? p.rules().canThrow(v) : v == kNoThrow);
    withRuleset(p.rulesetId, [&](auto tag) {
        constexpr const Ruleset& r = decltype(tag)::rules;
        if constexpr (r.turnModel == TurnModel::SplitSteps) {
            core::splitSteps(r, p, v, moves);
            return;
        }
        moves.clear();
        bool backward = false;
        for (Bitboard b = core::legalFroms(r, p, v, backward); b; b &= b - 1)
            moves.push(core::makeMove(r, p, lowestSquare(b), v, backward));
    });
}

int countMoves(const Position& p, int v) {
    assert(p.throwDue() ? p.rules().canThrow(v) : v == kNoThrow);
    return withRuleset(p.rulesetId, [&](auto tag) {
        constexpr const Ruleset& r = decltype(tag)::rules;
        if constexpr (r.turnModel == TurnModel::SplitSteps) {
            core::StepTable t;
            core::stepTable(r, p, v, t);
            return t.count;
        } else {
            bool backward = false;
            return std::popcount(core::legalFroms(r, p, v, backward));
        }
    });
}

Move moveAt(const Position& p, int v, int k) {
    assert(k >= 0 && k < countMoves(p, v));
    return withRuleset(p.rulesetId, [&](auto tag) {
        constexpr const Ruleset& r = decltype(tag)::rules;
        if constexpr (r.turnModel == TurnModel::SplitSteps) {
            core::StepTable t;
            core::stepTable(r, p, v, t);
            return core::stepAt(r, t, k);
        } else {
            bool backward = false;
            Bitboard froms = core::legalFroms(r, p, v, backward);
            for (; k > 0; --k) froms &= froms - 1;
            return core::makeMove(r, p, lowestSquare(froms), v, backward);
        }
    });
}

bool keepsTurn(const Ruleset& r, int v, Move move) { return core::keepsTurn(r, v, move); }

Position applyMove(const Position& p, int v, Move move) {
    assert(isGeneratedMove(p, v, move));
    return withRuleset(p.rulesetId, [&](auto tag) {
        constexpr const Ruleset& r = decltype(tag)::rules;
        if constexpr (r.turnModel == TurnModel::SplitSteps) return core::applySplitStep(r, p, v, move);
        else return core::applyMove(r, p, v, move);
    });
}

Outcome outcome(const Position& p) {
    return withRuleset(p.rulesetId, [&](auto tag) { constexpr const Ruleset& r = decltype(tag)::rules; return core::outcome(r, p); });
}

std::string_view outcomeName(Outcome o) {
    switch (o) {
        case Outcome::WinOne: return "win 1";
        case Outcome::WinTwo: return "win 2";
        case Outcome::Draw: return "draw";
        case Outcome::Ongoing: break;
    }
    return "ongoing";
}

std::string formatMove(Move move) {
    if (move.isPass()) return "pass";
    if (move.has(kEnter)) return "in-" + std::to_string(move.to);
    return std::to_string(move.from) + '-' + (move.to == kOffBoard ? std::string("off") : std::to_string(move.to));
}

namespace {

std::optional<int> parseSquare(std::string_view s) {
    if (s.empty() || s.size() > 2) return std::nullopt;
    int v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || ptr != s.data() + s.size() || v < 1 || v > kSquareCount) return std::nullopt;
    return v;
}

/// The squares of `b` as text, runs of consecutive squares written FIRST-LAST and separated by
/// ", ": "26-30", "21-30", "1, 3-5"; empty for no square.
std::string squaresText(Bitboard b) {
    std::string out;
    while (b) {
        const int first = lowestSquare(b);
        int last = first;
        while (last < kSquareCount && (b & bit(last + 1))) ++last;
        b &= ~squareRange(first, last);
        if (!out.empty()) out += ", ";
        out += std::to_string(first);
        if (last > first) out += '-' + std::to_string(last);
    }
    return out;
}

/// Why `from-to` is not among the legal moves: the first rule it breaks.
std::string whyIllegal(const Position& p, int v, int from, int to, const MoveList& legal) {
    const Ruleset& r = p.rules();
    const Bitboard own = p.board[index(p.turn)];
    const Bitboard opp = p.board[index(opponent(p.turn))];
    const std::string move = std::to_string(from) + '-' + (to == kOffBoard ? std::string("off") : std::to_string(to));
    const std::string who = "player " + std::to_string(number(p.turn));
    if (!(own & bit(from))) return "square " + std::to_string(from) + " holds no piece of " + who;
    const bool backward = to != kOffBoard && to < from;
    if (!backward && r.stopSquare && from < r.stopSquare && from + v > r.stopSquare)
        return move + " would pass square " + std::to_string(r.stopSquare) + ", the House of Beauty, where every piece must stop";
    if (!backward && to != kOffBoard && (r.bearOffOnlySquares & bit(from)))
        return "a piece on squares " + squaresText(r.bearOffOnlySquares) + " moves only to bear off";
    if (to == kOffBoard ? from + v < r.bearOffAt : (backward ? from - to != v : to - from != v)) {
        if (to != kOffBoard && from + v >= r.bearOffAt && !backward)
            return move + " does not match the throw " + std::to_string(v) + ": that piece would leave the board";
        return move + " does not move " + std::to_string(v) + (v == 1 ? " square" : " squares");
    }
    if (backward) {
        if (!r.backwardWhenNoForward) return move + " goes backward; pieces only move forward in " + std::string(r.key);
        if (forwardFroms(r, own, opp, v)) return move + " goes backward, but a forward move exists";
        if (r.bearOffOnlySquares & bit(from)) return "a piece on squares " + squaresText(r.bearOffOnlySquares) + " never moves backward";
        if (own & bit(to)) return move + " goes backward onto " + who + "'s own piece";
        if ((opp & bit(to)) && !r.backwardSwaps) return move + " goes backward onto an occupied square";
        if ((opp & bit(to)) && !(backwardFroms(r, own, opp, v) & bit(from)) && (neighbours(to) & opp))
            return move + " goes backward onto an opponent's piece protected by a neighbour";
        return move + " passes a blockade of " + std::to_string(r.blockadeLength) + " opponent pieces";
    }
    if (to != kOffBoard && to >= r.bearOffAt)
        return "a piece that reaches square " + std::to_string(r.bearOffAt) + " is borne off: write " +
               std::to_string(from) + "-off";
    if (forwardFroms(r, own, opp, v) & bit(from)) {
        if (!legal.empty() && r.compulsionSquares)
            return move + " is not allowed: a piece on squares " + squaresText(r.compulsionSquares) +
                   " that can move must move";
        return move + " is not legal";
    }
    if (to == kOffBoard) {
        if (!((r.bearOffThrows[from] >> v) & 1))
            return "a throw of " + std::to_string(v) + " cannot bear off from square " + std::to_string(from);
        if (own & ~r.bearOffZone)
            return move + " bears off before all of " + who + "'s pieces stand on " + squaresText(r.bearOffZone);
        return move + " passes a blockade of " + std::to_string(r.blockadeLength) + " opponent pieces";
    }
    if (own & bit(to)) return move + " lands on " + who + "'s own piece";
    if (r.blockadeLength)
        return move + " passes a blockade of " + std::to_string(r.blockadeLength) + " opponent pieces";
    if (r.safeSquares & bit(to)) return move + " lands on an opponent's piece on a safe square";
    return move + " lands on an opponent's piece protected by a neighbour";
}

/// Why a Piccione step is not among the legal ones: the first rule it breaks. `budget` is what
/// the step may spend. RULES.md "Piccione", rules 3-12.
std::string whyStepIllegal(const Position& p, int budget, const std::string& move, int from, int to, const MoveList& legal) {
    const Ruleset& r = p.rules();
    const Bitboard own = p.pieces(p.turn);
    const std::string who = "player " + std::to_string(number(p.turn));
    if (!(own & bit(from))) return "square " + std::to_string(from) + " holds no piece of " + who;
    const bool backward = to != kOffBoard && to < from;
    const int amount = to == kOffBoard ? kOffBoard - from : backward ? from - to : to - from;
    if (to != kOffBoard && to == from) return move + " does not move the piece";
    if (amount > budget)
        return move + " moves " + std::to_string(amount) + " squares, but only " + std::to_string(budget) + " can be spent";
    if (to == kOffBoard && !((r.bearOffThrows[from] >> amount) & 1))
        return "a piece bears off only with exactly 31 - FROM: 5 from 26, 3 from 28, 2 from 29, 1 from 30";
    if (p.throwDue() && p.entryThrowDue && from != r.entrySquare)
        return "the entry throw's first step must move the piece that entered on square " + std::to_string(r.entrySquare);
    if (backward && p.direction == TurnDirection::Forward) return move + " goes backward in a turn that goes forward";
    if (!backward && p.direction == TurnDirection::Backward) return move + " goes forward in a turn that goes backward";
    if (backward && (r.noBackwardSquares & bit(from))) return "pieces on squares 28, 29 and 30 never move backward";
    if (backward && !legal.empty() && !legal[0].has(kBackward)) return move + " goes backward, but a forward step or in-1 exists";
    if (to != kOffBoard && (p.occupied() & bit(to))) return move + " ends on an occupied square";
    return move + " is not legal";
}

/// parseMove for SplitSteps rulesets: `in-1`, `FROM-TO`, `FROM-off` or `pass`.
Result<Move> parseSplitStep(const Position& p, int v, std::string_view text, const MoveList& legal) {
    const Ruleset& r = p.rules();
    const int budget = p.throwDue() ? v : p.remainder;
    if (text == "pass") {
        if (legal.empty()) return Move::pass();
        return fail("pass is not allowed: " + std::to_string(legal.size()) + (legal.size() == 1 ? " legal step exists" : " legal steps exist"));
    }
    const std::string shown(text.substr(0, 40));
    if (text == "in-" + std::to_string(r.entrySquare)) {
        if (!legal.empty() && legal[0].has(kEnter)) return legal[0];
        if (!p.throwDue() || budget != 1) return fail("illegal move: in-1 needs a whole throw of 1, not " + std::string(p.throwDue() ? "a throw of " : "a remainder of ") + std::to_string(budget));
        if (p.entryThrowDue) return fail("illegal move: an entry throw cannot enter a piece");
        if (p.direction == TurnDirection::Backward) return fail("illegal move: in-1 goes forward in a turn that goes backward");
        if (p.inHand(p.turn) == 0) return fail("illegal move: player " + std::to_string(number(p.turn)) + " has no piece in hand");
        return fail("illegal move: square 1 is occupied");
    }
    const std::size_t dash = text.find('-');
    if (dash == std::string_view::npos) return fail("move '" + shown + "' is malformed (expected in-1, FROM-TO, FROM-off or pass)");
    const auto from = parseSquare(text.substr(0, dash));
    const std::string_view toText = text.substr(dash + 1);
    const auto to = toText == "off" ? std::optional<int>(kOffBoard) : parseSquare(toText);
    if (!from || !to)
        return fail("move '" + shown + "' is malformed (expected in-1, FROM-TO with squares 1-" + std::to_string(kSquareCount) + ", FROM-off or pass)");
    for (const Move& m : legal)
        if (m.from == *from && m.to == *to) return m;
    return fail("illegal move: " + whyStepIllegal(p, budget, shown, *from, *to, legal));
}

}  // namespace

Result<Move> parseMove(const Position& p, int v, std::string_view text) {
    MoveList legal;
    generateMoves(p, v, legal);
    if (p.rules().turnModel == TurnModel::SplitSteps) return parseSplitStep(p, v, text, legal);
    if (text == "pass") {
        if (legal.empty()) return Move::pass();
        return fail("pass is not allowed: " + std::to_string(legal.size()) + (legal.size() == 1 ? " legal move exists" : " legal moves exist"));
    }
    const std::size_t dash = text.find('-');
    const std::string shown(text.substr(0, 40));
    if (dash == std::string_view::npos)
        return fail("move '" + shown + "' is malformed (expected FROM-TO, FROM-off or pass)");
    const auto from = parseSquare(text.substr(0, dash));
    const std::string_view toText = text.substr(dash + 1);
    const auto to = toText == "off" ? std::optional<int>(kOffBoard) : parseSquare(toText);
    if (!from || !to) return fail("move '" + shown + "' is malformed (expected FROM-TO with squares 1-" + std::to_string(kSquareCount) +
                                  ", FROM-off or pass)");
    for (const Move& m : legal)
        if (m.from == *from && m.to == *to) return m;
    return fail("illegal move: " + whyIllegal(p, v, *from, *to, legal));
}

}  // namespace senet
