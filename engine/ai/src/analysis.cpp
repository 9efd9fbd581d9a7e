// Game analysis: prunedExpectimax at a fixed depth over the exact throw odds, the expert's
// evaluation at the leaves (engine/ai/README.md "Analysis").
//
// Every ply's decision is searched once: each legal move's child is valued by the chance node
// below it at the analysis depth. The child of the move played is the next position, so its
// value is the next win probability and the loss is read off the same numbers the graph shows.
#include "senet/ai_analysis.hpp"

#include <algorithm>
#include <cmath>

namespace senet::ai {

namespace {

/// Player 1's win probability from a value `v` for `viewer` in [-1, 1].
double forPlayerOne(double v, Player viewer) {
    const double mine = std::clamp((1.0 + v) / 2.0, 0.0, 1.0);
    return viewer == Player::One ? mine : 1.0 - mine;
}

double resultProbability(Outcome o) {
    switch (o) {
        case Outcome::WinOne: return 1.0;
        case Outcome::WinTwo: return 0.0;
        default: return 0.5;
    }
}

/// Player 1's win probability at `p` and whether it is exact.
struct Valued {
    double p1 = 0.5;
    bool exact = false;
};

/// Player 1's win probability at `q`, a position after a move of `mover`, when the mover's value
/// there (in [-1, 1]) is above `floor`; otherwise any value no better for the mover than
/// `floor` (a bound: the move is not the best). Exact values are returned as they are.
Valued valueAbove(const Position& q, Player mover, double floor, int depth, Evaluation kind, const ExactValues* exact) {
    const Outcome o = outcome(q);
    if (o != Outcome::Ongoing) return {resultProbability(o), true};
    if (exact && q.throwDue())
        if (const auto w = exact->winChance(q)) return {q.turn == Player::One ? *w : 1.0 - *w, true};
    if (floor >= 1.0) floor = std::nextafter(1.0, 0.0);
    if (floor < -1.0) floor = -1.0;
    // The window (floor, 1) for the mover is (floor, 1) or (-1, -floor) for the player at q.
    const bool same = q.turn == mover;
    const double v = same ? prunedExpectimaxWithin(q, depth, kind, exact, floor, 1.0)
                          : prunedExpectimaxWithin(q, depth, kind, exact, -1.0, -floor);
    return {forPlayerOne(v, q.turn), false};
}

/// Player 1's win probability at `p` (the whole window: its exact expectimax value).
Valued valueOf(const Position& p, int depth, Evaluation kind, const ExactValues* exact) {
    return valueAbove(p, p.turn, -1.0, depth, kind, exact);
}

/// The error for an analysis depth outside 0..kMaxAnalysisDepth, or none.
std::optional<Error> badDepth(int depth) {
    if (depth >= 0 && depth <= kMaxAnalysisDepth) return std::nullopt;
    return fail("analysis depth must be from 0 to " + std::to_string(kMaxAnalysisDepth) + ", got " + std::to_string(depth));
}

}  // namespace

Mark markOf(double loss) {
    if (loss >= kBlunderLoss) return Mark::Blunder;
    if (loss >= kMistakeLoss) return Mark::Mistake;
    if (loss >= kInaccuracyLoss) return Mark::Inaccuracy;
    return Mark::None;
}

std::string_view markName(Mark mark) {
    switch (mark) {
        case Mark::Inaccuracy: return "inaccuracy";
        case Mark::Mistake: return "mistake";
        case Mark::Blunder: return "blunder";
        case Mark::None: break;
    }
    return "";
}

double moveAccuracy(double loss) {
    return std::clamp(103.1668 * std::exp(-4.354 * std::max(0.0, loss)) - 3.1669, 0.0, 100.0);
}

int defaultAnalysisDepth(RulesetId id) {
    // Measured with bench/ai/analysis_bench (engine/ai/README.md "Analysis"): depth 3 takes
    // about 0.8 s (standard), 0.5 s (Jéquier) and 0.05 s (Bell) of one core for a median game;
    // depth 4 would take about ten times as long. Kendall: about 0.15 s at depth 3. Piccione:
    // a throw split over steps has hundreds of ways to be spent, so each depth costs some
    // fifty times the one before: 0.6 s at depth 2 with its network, 2.6 s for the longest
    // game measured (depth 3 would take many minutes).
    return id == RulesetId::Piccione ? 2 : 3;
}

double winProbability(const Position& p, int depth, Evaluation kind, const ExactValues* exact) {
    return valueOf(p, depth, kind, exact).p1;
}

Result<std::vector<MoveValue>> rankMoves(const Position& p, int throwValue, const AnalysisOptions& options) {
    if (const auto e = badDepth(options.depth)) return *e;
    if (outcome(p) != Outcome::Ongoing) return fail("the game is over");
    if (p.throwDue() ? !p.rules().canThrow(throwValue) : throwValue != kNoThrow)
        return fail(p.throwDue() ? "the ruleset cannot throw " + std::to_string(throwValue)
                                 : std::string("a remainder is being spent: the throw must be -"));
    const int depth = options.depth > 0 ? options.depth : defaultAnalysisDepth(p.rulesetId);
    MoveList moves;
    generateMoves(p, throwValue, moves);
    if (moves.empty()) moves.push(Move::pass());
    std::vector<MoveValue> out;
    out.reserve(static_cast<std::size_t>(moves.size()));
    for (const Move& m : moves) {
        const Valued v = valueOf(applyMove(p, throwValue, m), depth, options.evaluation, options.exact);
        out.push_back({m, p.turn == Player::One ? v.p1 : 1.0 - v.p1, v.exact});
    }
    std::stable_sort(out.begin(), out.end(), [](const MoveValue& a, const MoveValue& b) { return a.winChance > b.winChance; });
    return out;
}

Result<GameAnalysis> analyseGame(const Record& record, const AnalysisOptions& options, std::optional<Outcome> ending) {
    if (const auto e = badDepth(options.depth)) return *e;
    if (ending && *ending == Outcome::Ongoing) return fail("an ending must be a win or a draw");
    auto game = replay(record);
    if (!game) return game.error();

    GameAnalysis out;
    out.rulesetId = record.rulesetId;
    out.depth = options.depth > 0 ? options.depth : defaultAnalysisDepth(record.rulesetId);
    const Evaluation kind = options.evaluation;
    const ExactValues* exact = options.exact;
    Position p = startPosition(record.rulesetId);
    out.winProbability.reserve(record.plies.size() + 1);
    const Valued first = valueOf(p, out.depth, kind, exact);
    out.winProbability.push_back(first.p1);
    out.exact.push_back(first.exact);
    ++out.searches;

    for (PlayerSummary& s : out.players) s.accuracy = 0;  // a sum until divided at the end
    MoveList moves;
    int number = 0;
    for (const Ply& ply : record.plies) {
        PlyAnalysis a;
        a.ply = ++number;
        a.player = ply.player;
        a.throwValue = ply.throw_.value;
        generateMoves(p, a.throwValue, moves);
        a.legalMoves = moves.size();
        // replay() accepted the record, so the move is one of `moves` (or a pass when none).
        Move played = Move::pass();
        for (const Move& m : moves)
            if (m.sameAs(ply.move)) played = m;
        a.move = played;
        const Position next = applyMove(p, a.throwValue, played);
        const Valued afterValue = valueOf(next, out.depth, kind, exact);
        const double after = afterValue.p1;
        ++out.searches;
        a.bestWinProbability = after;
        a.exact = afterValue.exact;
        if (moves.size() >= 2) {
            // The mover's view: player 1 maximises the probability, player 2 minimises it.
            const double sign = p.turn == Player::One ? 1.0 : -1.0;
            double best = after;
            Move bestMove = played;
            for (const Move& m : moves) {
                if (m.sameAs(played)) continue;
                // Only a move better than the best so far needs its exact value: the search is
                // asked to prove it is no better (a window above the best), which costs less.
                const Valued v = valueAbove(applyMove(p, a.throwValue, m), p.turn, sign * (best - 0.5) * 2.0, out.depth,
                                            kind, exact);
                ++out.searches;
                a.exact = a.exact && v.exact;
                if (sign * (v.p1 - best) > 0) {
                    best = v.p1;
                    bestMove = m;
                }
            }
            a.best = bestMove;
            a.bestWinProbability = best;
            a.loss = std::max(0.0, sign * (best - after));
            a.mark = markOf(a.loss);
        }
        // Luck: the mover's win probability once the throw is known, with its best move, less
        // the value before the throw (the previous position as a chance node). The moves are
        // valued one ply shallower than the curve, as the chance node values its own children,
        // so that over the throws the luck averages to exactly zero.
        if (a.throwValue != kNoThrow) {
            const double sign = p.turn == Player::One ? 1.0 : -1.0;
            double top = -1.0;  // the mover's value, in [-1, 1]
            const auto consider = [&](const Move& m) {
                const Valued v = valueAbove(applyMove(p, a.throwValue, m), p.turn, top, out.depth - 1, kind, exact);
                top = std::max(top, sign * (2.0 * v.p1 - 1.0));
            };
            if (moves.empty()) consider(Move::pass());
            for (const Move& m : moves) consider(m);
            const double before = p.turn == Player::One ? out.winProbability.back() : 1.0 - out.winProbability.back();
            a.luck = (1.0 + top) / 2.0 - before;
        }
        PlayerSummary& who = out.players[a.player == Player::One ? 0 : 1];
        who.luck += a.luck;
        if (moves.size() >= 2) {
            ++who.decisions;
            who.loss += a.loss;
            who.accuracy += moveAccuracy(a.loss);
            who.inaccuracies += a.mark == Mark::Inaccuracy;
            who.mistakes += a.mark == Mark::Mistake;
            who.blunders += a.mark == Mark::Blunder;
        }
        out.winProbability.push_back(after);
        out.exact.push_back(afterValue.exact);
        out.plies.push_back(a);
        p = next;
    }

    const Outcome board = game->outcome();
    out.result = board != Outcome::Ongoing ? board : ending.value_or(Outcome::Ongoing);
    if (out.result != Outcome::Ongoing) {
        out.winProbability.back() = resultProbability(out.result);
        out.exact.back() = true;
    }
    for (int k = 0; k < 2; ++k) {
        PlayerSummary& s = out.players[k];
        s.player = k == 0 ? Player::One : Player::Two;
        s.accuracy = s.decisions > 0 ? s.accuracy / s.decisions : 100.0;
    }
    return out;
}

}  // namespace senet::ai
