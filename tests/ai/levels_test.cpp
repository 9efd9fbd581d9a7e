// Every level answers with a legal move, and answers the same way for the same seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "sample.hpp"
#include "senet/ai.hpp"
#include "senet/ai_search.hpp"

namespace senet::ai {
namespace {

using testing::kAllIds;
using testing::randomSample;

bool isLegal(const Position& p, int v, Move m) {
    MoveList moves;
    generateMoves(p, v, moves);
    if (moves.empty()) return m.isPass();
    for (const Move& legal : moves)
        if (legal == m) return true;
    return false;
}

Options expertOptions(std::uint64_t nodes) {
    Options o;
    o.level = Level::Expert;
    o.budget = std::chrono::milliseconds(0);  // no clock: reproducible
    o.nodeBudget = nodes;
    return o;
}

TEST(Levels, NamesRoundTrip) {
    for (Level l : {Level::Random, Level::Beginner, Level::Intermediate, Level::Expert})
        EXPECT_EQ(levelByName(levelName(l)), l);
    EXPECT_EQ(levelByName("expert"), Level::Expert);
    EXPECT_FALSE(levelByName("grandmaster").has_value());
    EXPECT_FALSE(levelByName("").has_value());
}

TEST(Levels, EveryLevelPlaysLegalMovesInThousandsOfPositions) {
    for (RulesetId id : kAllIds) {
        Rng rng(99);
        int passes = 0, checked = 0;
        for (const auto& [p, v] : randomSample(id, 3000, 1 + static_cast<int>(id))) {
            for (Level l : {Level::Random, Level::Beginner, Level::Intermediate}) {
                Options o;
                o.level = l;
                const Move m = chooseMove(p, v, o, rng);
                ASSERT_TRUE(isLegal(p, v, m)) << levelName(l) << " " << formatPosition(p) << " throw " << v << " " << formatMove(m);
                passes += m.isPass();
                ++checked;
            }
        }
        EXPECT_EQ(checked, 9000);
        EXPECT_GT(passes, 0) << "the sample should include throws without a legal move";
    }
}

TEST(Levels, ExpertPlaysLegalMoves) {
    for (RulesetId id : kAllIds) {
        Rng rng(7);
        for (const auto& [p, v] : randomSample(id, 400, 50 + static_cast<int>(id))) {
            const Move m = chooseMove(p, v, expertOptions(800), rng);
            ASSERT_TRUE(isLegal(p, v, m)) << formatPosition(p) << " throw " << v << " " << formatMove(m);
        }
    }
}

TEST(Levels, TimeBudgetedExpertAnswersLegally) {
    const auto sample = randomSample(RulesetId::Standard, 20, 3);
    Rng rng(1);
    Options o;
    o.level = Level::Expert;
    o.budget = std::chrono::milliseconds(2);
    for (const auto& [p, v] : sample) EXPECT_TRUE(isLegal(p, v, chooseMove(p, v, o, rng)));
}

TEST(Levels, FinishedGamesAndImpossibleThrowsGivePass) {
    Rng rng(1);
    Options o;
    o.level = Level::Expert;
    const auto won = parsePosition("standard:22222.........................:1:5:0");
    ASSERT_TRUE(won.ok());
    EXPECT_TRUE(chooseMove(*won, 2, o, rng).isPass());
    EXPECT_TRUE(chooseMove(startPosition(RulesetId::Standard), 6, o, rng).isPass());  // standard has no 6
    // Piccione: a remainder is spent without a throw (kNoThrow), a throw is due otherwise.
    const auto rem = parsePosition("piccione:.21.........1......2..........:1:0:0:2:f:0:0");
    ASSERT_TRUE(rem.ok());
    EXPECT_TRUE(chooseMove(*rem, 2, o, rng).isPass());
    EXPECT_FALSE(chooseMove(*rem, kNoThrow, o, rng).isPass());
    EXPECT_TRUE(chooseMove(startPosition(RulesetId::Piccione), kNoThrow, o, rng).isPass());
    EXPECT_EQ(chooseMove(startPosition(RulesetId::Piccione), 1, o, rng), Move::enter(1));
}

/// The value of the position after `m` for the mover, by `kind` (finished games: ±1 or 0).
double valueAfter(const Position& p, int v, Move m, Evaluation kind) {
    const Position q = applyMove(p, v, m);
    const Outcome o = outcome(q);
    if (o != Outcome::Ongoing) return terminalValue(o, p.turn);
    return q.turn == p.turn ? evaluate(q, kind) : -evaluate(q, kind);
}

TEST(Levels, IntermediateInStandardPlaysTheBestPipCountWithEqualMovesAtRandom) {
    // Standard: the intermediate plays a move in hand that leaves the best pip count, no
    // look-ahead; among equal moves it picks at random.
    Rng rng(5);
    Options o;
    o.level = Level::Intermediate;
    int compared = 0, differsFromSearch = 0, withTies = 0, tiesVaried = 0;
    for (const auto& [p, v] : randomSample(RulesetId::Standard, 1000, 81)) {
        if (outcome(p) != Outcome::Ongoing) continue;
        MoveList moves;
        generateMoves(p, v, moves);
        if (moves.size() < 2) continue;
        double best = -2;
        int bestCount = 0;
        for (const Move& m : moves) {
            const double value = valueAfter(p, v, m, Evaluation::Pips);
            if (value > best + 1e-12) best = value, bestCount = 1;
            else if (value > best - 1e-12) ++bestCount;
        }
        std::set<std::pair<int, int>> seen;
        for (int k = 0; k < 8; ++k) {
            const Move chosen = chooseMove(p, v, o, rng);
            EXPECT_NEAR(valueAfter(p, v, chosen, Evaluation::Pips), best, 1e-12) << formatPosition(p) << " throw " << v;
            seen.insert({chosen.from, chosen.dest});
        }
        if (bestCount > 1) {
            ++withTies;
            tiesVaried += seen.size() > 1;
        }
        SearchLimits oneThrow;
        oneThrow.minDepth = oneThrow.maxDepth = 2;
        oneThrow.evaluation = Evaluation::Pips;
        differsFromSearch += chooseMove(p, v, o, rng) != searchMove(p, v, oneThrow).move;
        ++compared;
    }
    EXPECT_GT(compared, 300);
    // Equal moves are common (every plain move of one throw gains the same squares), and eight
    // tries at such a position almost always see more than one of them (508 and 505 of 830 here).
    EXPECT_GT(withTies, compared / 2);
    EXPECT_GT(tiesVaried, withTies * 9 / 10);
    // Not the one-throw search of the other rulesets (314 differ here).
    EXPECT_GT(differsFromSearch, compared / 10);
}

TEST(Levels, IntermediateLooksOneThrowAheadBySearchInJequierAndBell) {
    // Jéquier and Bell: the intermediate plays the move of a depth-2 expectimax on the pips
    // (its move, every throw that can come next with its weight, the best answer to it).
    for (RulesetId id : {RulesetId::Jequier, RulesetId::Bell}) {
        Rng rng(5);
        Options o;
        o.level = Level::Intermediate;
        int k = 0, compared = 0, differsFromGreedy = 0;
        for (const auto& [p, v] : randomSample(id, 1000, 81 + static_cast<int>(id))) {
            if (++k % 4 != 0 || outcome(p) != Outcome::Ongoing) continue;
            MoveList moves;
            generateMoves(p, v, moves);
            if (moves.size() < 2) continue;
            SearchLimits limits;
            limits.minDepth = limits.maxDepth = 2;
            limits.evaluation = Evaluation::Pips;
            const Move chosen = chooseMove(p, v, o, rng);
            EXPECT_EQ(chosen, searchMove(p, v, limits).move) << formatPosition(p) << " throw " << v;
            double greedy = -2;
            for (const Move& m : moves) greedy = std::max(greedy, valueAfter(p, v, m, Evaluation::Pips));
            differsFromGreedy += valueAfter(p, v, chosen, Evaluation::Pips) < greedy - 1e-9;
            ++compared;
        }
        EXPECT_GT(compared, 60);
        // The look-ahead matters: some choices give up pips now for a better next throw.
        EXPECT_GT(differsFromGreedy, 0) << ruleset(id).key;
    }
}

/// The moves of one whole game where both sides play `o`, throws and choices from `seed`.
std::vector<Move> playGame(RulesetId id, const Options& o, std::uint64_t seed) {
    Rng throws(seed), choices(seed + 1);
    Position p = startPosition(id);
    std::vector<Move> played;
    for (int ply = 0; ply < 3000 && outcome(p) == Outcome::Ongoing; ++ply) {
        const int v = p.throwDue() ? throws.throwOutcome(p.rules()).throw_.value : kNoThrow;
        const Move m = chooseMove(p, v, o, choices);
        played.push_back(m);
        p = applyMove(p, v, m);
    }
    return played;
}

TEST(Levels, DecisionsAreReproducibleForAFixedSeed) {
    for (RulesetId id : kAllIds) {
        for (Level l : {Level::Random, Level::Beginner, Level::Intermediate}) {
            Options o;
            o.level = l;
            const auto first = playGame(id, o, 5);
            EXPECT_GT(first.size(), 20u);
            EXPECT_EQ(first, playGame(id, o, 5)) << levelName(l);
        }
        const auto expert = playGame(id, expertOptions(600), 8);
        EXPECT_EQ(expert, playGame(id, expertOptions(600), 8));
    }
    // A different seed gives a different random game.
    Options o;
    o.level = Level::Random;
    EXPECT_NE(playGame(RulesetId::Standard, o, 5), playGame(RulesetId::Standard, o, 6));
}

TEST(Levels, BeginnerIsNotUniformlyRandom) {
    // With a throw of 3, two of the five moves swap (1-4, 9-12); the beginner prefers them.
    const auto p = parsePosition("standard:1.121.1.1..2...2...2...2......:1:0:0");
    ASSERT_TRUE(p.ok());
    Rng rng(4);
    Options beginner;
    beginner.level = Level::Beginner;
    int swaps = 0;
    for (int i = 0; i < 400; ++i) swaps += chooseMove(*p, 3, beginner, rng).has(kSwap);
    MoveList moves;
    generateMoves(*p, 3, moves);
    int swapMoves = 0;
    for (const Move& m : moves) swapMoves += m.has(kSwap);
    // Uniform play would swap in swapMoves/size of the games; the beginner clearly more often.
    EXPECT_GT(swaps, 400 * swapMoves / moves.size() + 60);
}

}  // namespace
}  // namespace senet::ai
