// Game analysis (senet/ai_analysis.hpp): the values equal a slow exact expectimax written
// here from the rules alone, every ply's best move and loss agree with it, and analyses of
// self-play games have one value per position in [0, 1] that ends at the result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sample.hpp"
#include "senet/ai.hpp"
#include "senet/ai_analysis.hpp"

namespace senet::ai {
namespace {

using testing::kAllIds;
using testing::randomSample;

/// The reference: player 1's win probability at the chance node `p`, `depth` plies deep, by
/// plain recursion over every chance outcome of the ruleset (each stick pattern or die face
/// with its own weight, not grouped by value) and every legal move, player 1 maximising and
/// player 2 minimising, the expert's evaluation mapped to [0, 1] at the leaves.
double slowWinProbability(const Position& p, int depth) {
    switch (outcome(p)) {
        case Outcome::WinOne: return 1.0;
        case Outcome::WinTwo: return 0.0;
        case Outcome::Draw: return 0.5;
        case Outcome::Ongoing: break;
    }
    MoveList moves;
    const bool one = p.turn == Player::One;
    if (!p.throwDue()) {
        // Piccione: a remainder is spent by the same player without a throw, at the same depth.
        generateMoves(p, kNoThrow, moves);
        if (moves.empty()) return slowWinProbability(applyMove(p, kNoThrow, Move::pass()), depth);
        double best = one ? -1.0 : 2.0;
        for (const Move& m : moves) {
            const double x = slowWinProbability(applyMove(p, kNoThrow, m), depth);
            best = one ? std::max(best, x) : std::min(best, x);
        }
        return best;
    }
    if (depth == 0) {
        const double mine = (1.0 + evaluate(p, Evaluation::Learned)) / 2.0;
        return p.turn == Player::One ? mine : 1.0 - mine;
    }
    double total = 0, sum = 0;
    for (const ChanceOutcome& o : p.rules().chanceOutcomes()) {
        const int v = o.throw_.value;
        generateMoves(p, v, moves);
        double best = p.turn == Player::One ? -1.0 : 2.0;
        if (moves.empty()) best = slowWinProbability(applyMove(p, v, Move::pass()), depth - 1);
        for (const Move& m : moves) {
            const double x = slowWinProbability(applyMove(p, v, m), depth - 1);
            best = p.turn == Player::One ? std::max(best, x) : std::min(best, x);
        }
        sum += o.weight * best;
        total += o.weight;
    }
    return sum / total;
}

/// A finished game of `id` between two levels, throws and choices from `seed`.
Record selfPlay(RulesetId id, Level level, std::uint64_t seed) {
    Rng rng(seed);
    Game g(id);
    Options opt;
    opt.level = level;
    opt.budget = std::chrono::milliseconds(0);
    opt.nodeBudget = 2000;
    while (g.phase() != Phase::Over) {
        if (g.phase() == Phase::Move) {
            const Position p = g.position();
            EXPECT_TRUE(g.applyMove(chooseMove(p, g.moveThrowValue(), opt, rng)).ok());
        } else {
            EXPECT_TRUE(g.applyThrow(rng.throwOutcome(g.rules()).throw_).ok());
        }
    }
    return g.record();
}

/// The positions of a record: the start and the position after every ply.
std::vector<Position> positionsOf(const Record& r) {
    std::vector<Position> out{startPosition(r.rulesetId)};
    for (const Ply& ply : r.plies) out.push_back(applyMove(out.back(), ply.throw_.value, ply.move));
    return out;
}

double resultValue(Outcome o) { return o == Outcome::WinOne ? 1.0 : o == Outcome::WinTwo ? 0.0 : 0.5; }

TEST(Analysis, WinProbabilityEqualsSlowExactExpectimax) {
    int compared = 0;
    for (RulesetId id : kAllIds) {
        int k = 0;
        for (const auto& [p, v] : randomSample(id, 400, 77 + static_cast<int>(id))) {
            if (++k % 40 != 0) continue;
            for (int depth = 0; depth <= 2; ++depth) {
                const double fast = winProbability(p, depth);
                EXPECT_NEAR(fast, slowWinProbability(p, depth), 1e-9) << formatPosition(p) << " depth " << depth;
                EXPECT_GE(fast, 0.0);
                EXPECT_LE(fast, 1.0);
                ++compared;
            }
        }
    }
    EXPECT_EQ(compared, 5 * 10 * 3);
}

TEST(Analysis, EveryPlyAgreesWithTheSlowReference) {
    // A short stretch of a real game per ruleset: every value, best move and loss at depth 1,
    // and the first plies at depth 2, recomputed by the reference.
    for (RulesetId id : kAllIds) {
        Record r = selfPlay(id, Level::Beginner, 5 + static_cast<int>(id));
        r.plies.resize(std::min<std::size_t>(r.plies.size(), 40));
        for (int depth = 1; depth <= 2; ++depth) {
            Record part = r;
            if (depth == 2) part.plies.resize(std::min<std::size_t>(part.plies.size(), 12));
            AnalysisOptions o;
            o.depth = depth;
            const auto a = analyseGame(part, o);
            ASSERT_TRUE(a.ok()) << a.error().message;
            EXPECT_EQ(a->depth, depth);
            const auto pos = positionsOf(part);
            ASSERT_EQ(a->winProbability.size(), pos.size());
            ASSERT_EQ(a->plies.size(), part.plies.size());
            EXPECT_EQ(a->result, Outcome::Ongoing);
            for (std::size_t i = 0; i < pos.size(); ++i)
                EXPECT_NEAR(a->winProbability[i], slowWinProbability(pos[i], depth), 1e-9) << "position " << i;
            int choices = 0;
            for (std::size_t i = 0; i < part.plies.size(); ++i) {
                const PlyAnalysis& pa = a->plies[i];
                const Ply& ply = part.plies[i];
                EXPECT_EQ(pa.ply, static_cast<int>(i) + 1);
                EXPECT_EQ(pa.player, ply.player);
                EXPECT_EQ(pa.throwValue, ply.throw_.value);
                EXPECT_TRUE(pa.move.sameAs(ply.move));
                MoveList moves;
                generateMoves(pos[i], ply.throw_.value, moves);
                EXPECT_EQ(pa.legalMoves, moves.size());
                if (moves.size() < 2) {
                    EXPECT_FALSE(pa.best.has_value());
                    EXPECT_EQ(pa.loss, 0.0);
                    continue;
                }
                ++choices;
                // The reference's best for the mover over every legal move.
                const bool one = pos[i].turn == Player::One;
                double best = one ? -1.0 : 2.0;
                for (const Move& m : moves) {
                    const double x = slowWinProbability(applyMove(pos[i], ply.throw_.value, m), depth);
                    best = one ? std::max(best, x) : std::min(best, x);
                }
                ASSERT_TRUE(pa.best.has_value());
                EXPECT_NEAR(pa.bestWinProbability, best, 1e-9) << "ply " << i + 1;
                EXPECT_NEAR(slowWinProbability(applyMove(pos[i], ply.throw_.value, *pa.best), depth), best, 1e-9);
                const double played = slowWinProbability(pos[i + 1], depth);
                EXPECT_NEAR(pa.loss, one ? best - played : played - best, 1e-9) << "ply " << i + 1;
                EXPECT_GE(pa.loss, 0.0);
                if (pa.best->sameAs(pa.move)) EXPECT_EQ(pa.loss, 0.0);
            }
            EXPECT_GT(choices, 0) << "no ply with a choice: the test checks nothing";
        }
    }
}

TEST(Analysis, SelfPlayGamesHaveOneValuePerPositionEndingAtTheResult) {
    int games = 0, draws = 0, lossesMarked = 0;
    for (RulesetId id : kAllIds) {
        for (int g = 0; g < 3; ++g) {
            const Record r = selfPlay(id, g == 0 ? Level::Random : Level::Intermediate, 100 + g);
            const auto replayed = replay(r);
            ASSERT_TRUE(replayed.ok());
            const Outcome result = replayed->outcome();
            ASSERT_NE(result, Outcome::Ongoing);
            AnalysisOptions o;
            o.depth = id == RulesetId::Bell ? 3 : id == RulesetId::Piccione ? 1 : 2;  // Piccione: ~50x per depth
            const auto a = analyseGame(r, o);
            ASSERT_TRUE(a.ok()) << a.error().message;
            EXPECT_EQ(a->winProbability.size(), r.plies.size() + 1);
            EXPECT_EQ(a->plies.size(), r.plies.size());
            for (double p : a->winProbability) {
                EXPECT_GE(p, 0.0);
                EXPECT_LE(p, 1.0);
            }
            EXPECT_EQ(a->result, result);
            EXPECT_EQ(a->winProbability.back(), resultValue(result));
            // Before the last ply the game is not decided: no entry is the certainty of the end.
            EXPECT_GT(a->winProbability.front(), 0.05);
            EXPECT_LT(a->winProbability.front(), 0.95);
            for (const PlyAnalysis& pa : a->plies) lossesMarked += pa.loss >= 0.10;
            draws += result == Outcome::Draw;
            ++games;
        }
    }
    EXPECT_EQ(games, 15);
    // Random play makes big mistakes: some must be marked.
    EXPECT_GT(lossesMarked, 0);
    (void)draws;
}

TEST(Analysis, AnEndingOffTheBoardIsTheLastEntry) {
    Record r = selfPlay(RulesetId::Standard, Level::Random, 9);
    r.plies.resize(30);
    AnalysisOptions o;
    o.depth = 1;
    for (Outcome ending : {Outcome::WinOne, Outcome::WinTwo}) {
        const auto a = analyseGame(r, o, ending);
        ASSERT_TRUE(a.ok());
        EXPECT_EQ(a->winProbability.size(), 31u);
        EXPECT_EQ(a->result, ending);
        EXPECT_EQ(a->winProbability.back(), resultValue(ending));
    }
    // Without an ending the last entry is the search's value of the last position.
    const auto open = analyseGame(r, o);
    ASSERT_TRUE(open.ok());
    EXPECT_EQ(open->result, Outcome::Ongoing);
    EXPECT_NEAR(open->winProbability.back(), slowWinProbability(positionsOf(r).back(), 1), 1e-9);
}

TEST(Analysis, BadInputIsRefused) {
    const Record r = selfPlay(RulesetId::Bell, Level::Random, 3);
    AnalysisOptions o;
    o.depth = kMaxAnalysisDepth + 1;
    EXPECT_FALSE(analyseGame(r, o).ok());
    o.depth = -1;
    EXPECT_FALSE(analyseGame(r, o).ok());
    o.depth = 1;
    EXPECT_FALSE(analyseGame(r, o, Outcome::Ongoing).ok());
    Record broken = r;
    broken.plies[2].move = Move{1, 30, 30, 0};
    const auto bad = analyseGame(broken, o);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().ply, 3);
    EXPECT_FALSE(analyseRecordJson("{\"ruleset\":\"standard\",\"plies\":[{\"throw\":9}]}").ok());
    EXPECT_FALSE(analyseRecordJson("[").ok());
}

TEST(Analysis, DefaultDepthIsUsedAndBounded) {
    for (RulesetId id : kAllIds) {
        EXPECT_GE(defaultAnalysisDepth(id), 1);
        EXPECT_LE(defaultAnalysisDepth(id), kMaxAnalysisDepth);
    }
    Record r = selfPlay(RulesetId::Bell, Level::Random, 4);
    r.plies.resize(5);
    const auto a = analyseGame(r);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->depth, defaultAnalysisDepth(RulesetId::Bell));
}

}  // namespace
}  // namespace senet::ai
