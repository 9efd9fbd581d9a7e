// Game analysis: prunedExpectimax at a fixed depth over the exact throw odds, the expert's
// evaluation at the leaves (engine/ai/README.md "Analysis").
//
// Every ply's decision is searched once: each legal move's child is valued by the chance node
// below it at the analysis depth. The child of the move played is the next position, so its
// value is the next win probability and the loss is read off the same numbers the graph shows.
#include "senet/ai_analysis.hpp"

#include <algorithm>

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

}  // namespace

int defaultAnalysisDepth(RulesetId id) {
    // Measured with bench/ai/analysis_bench (engine/ai/README.md "Analysis"): depth 3 takes
    // about 0.8 s (standard), 0.5 s (Jéquier) and 0.05 s (Bell) of one core for a median game;
    // depth 4 would take about ten times as long. Kendall: about 0.15 s at depth 3. Piccione:
    // a throw split over steps has hundreds of ways to be spent, so each depth costs some
    // fifty times the one before: 1.8 s at depth 2 (depth 3 would take minutes).
    return id == RulesetId::Piccione ? 2 : 3;
}

double winProbability(const Position& p, int depth, Evaluation kind) {
    const Outcome o = outcome(p);
    if (o != Outcome::Ongoing) return resultProbability(o);
    return forPlayerOne(prunedExpectimax(p, depth, kind), p.turn);
}

Result<GameAnalysis> analyseGame(const Record& record, const AnalysisOptions& options, std::optional<Outcome> ending) {
    if (options.depth < 0 || options.depth > kMaxAnalysisDepth)
        return fail("analysis depth must be from 0 to " + std::to_string(kMaxAnalysisDepth) + ", got " +
                    std::to_string(options.depth));
    if (ending && *ending == Outcome::Ongoing) return fail("an ending must be a win or a draw");
    auto game = replay(record);
    if (!game) return game.error();

    GameAnalysis out;
    out.rulesetId = record.rulesetId;
    out.depth = options.depth > 0 ? options.depth : defaultAnalysisDepth(record.rulesetId);
    const Evaluation kind = options.evaluation;
    Position p = startPosition(record.rulesetId);
    out.winProbability.reserve(record.plies.size() + 1);
    out.winProbability.push_back(winProbability(p, out.depth, kind));
    ++out.searches;

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
        const double after = winProbability(next, out.depth, kind);
        ++out.searches;
        a.bestWinProbability = after;
        if (moves.size() >= 2) {
            // The mover's view: player 1 maximises the probability, player 2 minimises it.
            const double sign = p.turn == Player::One ? 1.0 : -1.0;
            double best = after;
            Move bestMove = played;
            for (const Move& m : moves) {
                if (m.sameAs(played)) continue;
                const double v = winProbability(applyMove(p, a.throwValue, m), out.depth, kind);
                ++out.searches;
                if (sign * (v - best) > 0) {
                    best = v;
                    bestMove = m;
                }
            }
            a.best = bestMove;
            a.bestWinProbability = best;
            a.loss = std::max(0.0, sign * (best - after));
        }
        out.winProbability.push_back(after);
        out.plies.push_back(a);
        p = next;
    }

    const Outcome board = game->outcome();
    out.result = board != Outcome::Ongoing ? board : ending.value_or(Outcome::Ongoing);
    if (out.result != Outcome::Ongoing) out.winProbability.back() = resultProbability(out.result);
    return out;
}

}  // namespace senet::ai
