// The search: *-minimax pruning is exact, values have the right sign across extra throws,
// and the evaluation is symmetric.
#include <gtest/gtest.h>

#include <cmath>

#include "sample.hpp"
#include "senet/ai_search.hpp"

namespace senet::ai {
namespace {

using testing::kAllIds;
using testing::randomSample;

Position parsed(std::string_view text) {
    auto p = parsePosition(text);
    EXPECT_TRUE(p.ok()) << text << ": " << p.error().message;
    return *p;
}

TEST(Search, PrunedExpectimaxEqualsBruteForceExpectimax) {
    int compared = 0;
    for (RulesetId id : kAllIds) {
        // Piccione's brute force walks every sequence of steps of every throw: depth 2 at most.
        const int maxDepth = id == RulesetId::Bell || id == RulesetId::Piccione ? 2 : 3;
        int k = 0;
        for (const auto& [p, v] : randomSample(id, 600, 21 + static_cast<int>(id))) {
            if (++k % 60 != 0 || outcome(p) != Outcome::Ongoing) continue;
            for (int depth = 1; depth <= maxDepth; ++depth) {
                for (Evaluation e : {Evaluation::Pips, Evaluation::Full, Evaluation::Learned}) {
                    const double pruned = prunedExpectimax(p, depth, e);
                    const double brute = bruteForceExpectimax(p, depth, e);
                    EXPECT_NEAR(pruned, brute, 1e-9) << formatPosition(p) << " depth " << depth;
                    EXPECT_GE(brute, -1.0);
                    EXPECT_LE(brute, 1.0);
                    ++compared;
                }
            }
        }
    }
    EXPECT_GE(compared, 100);
}

TEST(Search, RootSearchWithPruningFindsTheBruteForceValue) {
    for (RulesetId id : kAllIds) {
        int k = 0;
        for (const auto& [p, v] : randomSample(id, 300, 31 + static_cast<int>(id))) {
            if (++k % 30 != 0) continue;
            const int depth = id == RulesetId::Piccione ? 2 : 3;
            SearchLimits pruned;
            pruned.minDepth = pruned.maxDepth = depth;
            SearchLimits plain = pruned;
            plain.pruning = false;
            const SearchResult a = searchMove(p, v, pruned), b = searchMove(p, v, plain);
            MoveList moves;
            generateMoves(p, v, moves);
            if (moves.size() < 2) continue;
            EXPECT_NEAR(a.value, b.value, 1e-9) << formatPosition(p) << " throw " << v;
            EXPECT_LE(a.nodes, b.nodes);
            // The value is the best child's brute-force value.
            double best = -2;
            for (const Move& m : moves) {
                const Position q = applyMove(p, v, m);
                const Outcome o = outcome(q);
                const double c = o != Outcome::Ongoing ? terminalValue(o, p.turn)
                                 : q.turn == p.turn     ? bruteForceExpectimax(q, depth - 1)
                                                        : -bruteForceExpectimax(q, depth - 1);
                best = std::max(best, c);
            }
            EXPECT_NEAR(a.value, best, 1e-9);
        }
    }
}

TEST(Search, PruningSavesNodes) {
    const Position p = startPosition(RulesetId::Standard);
    SearchLimits pruned;
    pruned.minDepth = pruned.maxDepth = 4;
    SearchLimits plain = pruned;
    plain.pruning = false;
    const auto a = searchMove(p, 2, pruned), b = searchMove(p, 3, pruned);
    const auto c = searchMove(p, 2, plain), d = searchMove(p, 3, plain);
    EXPECT_NEAR(a.value, c.value, 1e-9);
    EXPECT_NEAR(b.value, d.value, 1e-9);
    EXPECT_LT(a.nodes + b.nodes, c.nodes + d.nodes);
}

TEST(Search, WinningMoveIsTakenAndValuedOne) {
    // Standard: player 1 has four pieces off and one on 30; a 2 bears it off and wins.
    const Position q = parsed("standard:.2.2.2.2.2...................1:1:4:0");
    SearchLimits limits;
    limits.maxDepth = 3;
    const SearchResult r = searchMove(q, 2, limits);
    EXPECT_TRUE(r.move.has(kBearOff));
    EXPECT_DOUBLE_EQ(r.value, 1.0);
    // Any other throw cannot move the piece on 30: the chance node is worth at least P(2) = 6/16.
    EXPECT_GE(prunedExpectimax(q, 1), 6.0 / 16.0 - 1.0 * 10.0 / 16.0);
    EXPECT_NEAR(prunedExpectimax(q, 2), bruteForceExpectimax(q, 2), 1e-12);
}

TEST(Search, ExtraThrowKeepsThePerspective) {
    // Standard: player 1 on 26 with four off. Throw 1: 26-27 and player 1 throws again; then
    // a 4 or 5 bears off and wins. Player 2 is far behind and cannot win within two plies.
    const Position p = parsed("standard:22222....................1....:1:4:0");
    SearchLimits limits;
    limits.minDepth = limits.maxDepth = 2;
    const SearchResult r = searchMove(p, 1, limits);
    EXPECT_EQ(formatMove(r.move), "26-27");
    const Position after = applyMove(p, 1, r.move);
    ASSERT_EQ(after.turn, Player::One);  // the extra throw
    // Value = P(4 or 5) * 1 + the rest evaluated for player 1: at least 2/16 - 14/16 * kEvalBound.
    EXPECT_GT(r.value, 2.0 / 16.0 - 14.0 / 16.0 * kEvalBound);
    EXPECT_NEAR(r.value, bruteForceExpectimax(after, 1), 1e-12);
}

TEST(Search, JequierLostTurnPassesToTheOpponent) {
    // Jéquier: player 1's last piece on 1 faces player 2's protected pair on 2 and 3. A 1 (or
    // a 2) has no move, forward or backward: the turn is lost despite the 1's extra throw.
    const Position p = parsed("jequier:122................222........:1:4:0");
    MoveList moves;
    generateMoves(p, 1, moves);
    ASSERT_TRUE(moves.empty());
    EXPECT_EQ(applyMove(p, 1, Move::pass()).turn, Player::Two);
    EXPECT_TRUE(searchMove(p, 1, SearchLimits{}).move.isPass());
    // The chance node's value: the throw-1 and throw-2 branches are player 2's chance nodes.
    const double v = prunedExpectimax(p, 2);
    EXPECT_NEAR(v, bruteForceExpectimax(p, 2), 1e-12);
    const double lost = -bruteForceExpectimax(applyMove(p, 1, Move::pass()), 1);
    EXPECT_LE(v, 1.0 - (4.0 + 6.0) / 16.0 * (1.0 - lost) + 1e-12);
}

TEST(Search, PiccioneRemainderIsADecisionOfTheSamePlayerWithoutAThrow) {
    // RULES.md "Piccione" worked example 2: player 1 has spent 2 of an entry throw of 4 and has
    // a remainder of 2 (no new throw): 3-4, 3-5, 13-14 or 13-15 (15 owes an extra throw).
    const Position p = parsed("piccione:.21.........1......2..........:1:0:0:2:f:0:0");
    ASSERT_FALSE(p.throwDue());
    SearchLimits limits;
    limits.minDepth = limits.maxDepth = 2;
    const SearchResult r = searchMove(p, kNoThrow, limits);
    MoveList moves;
    generateMoves(p, kNoThrow, moves);
    ASSERT_EQ(moves.size(), 4);
    bool legal = false;
    for (const Move& m : moves) legal = legal || m == r.move;
    EXPECT_TRUE(legal) << formatMove(r.move);
    // The remainder's steps do not use up the depth: the position's value at depth d is the
    // best step's value at the same depth.
    double best = -2;
    for (const Move& m : moves) {
        // 13-15 owes player 1 another throw; the other steps end the turn.
        const Position q = applyMove(p, kNoThrow, m);
        best = std::max(best, q.turn == p.turn ? bruteForceExpectimax(q, 1) : -bruteForceExpectimax(q, 1));
    }
    EXPECT_NEAR(prunedExpectimax(p, 1), best, 1e-12);
    EXPECT_NEAR(bruteForceExpectimax(p, 1), best, 1e-12);
    EXPECT_NEAR(r.value, prunedExpectimax(p, 1), 1e-12);
}

TEST(Search, PiccioneThrowWithoutAStepPassesTheTurn) {
    // The empty starting board: a 3 can neither enter nor move a piece (worked example 1).
    const Position p = startPosition(RulesetId::Piccione);
    const SearchResult r = searchMove(p, 3, SearchLimits{});
    EXPECT_TRUE(r.move.isPass());
    // With a 1 the only step is in-1, and the entry throw follows for the same player.
    const SearchResult e = searchMove(p, 1, SearchLimits{});
    EXPECT_EQ(e.move, Move::enter(1));
    EXPECT_EQ(applyMove(p, 1, e.move).turn, Player::One);
}

TEST(Evaluation, IsBoundedAndSymmetric) {
    for (RulesetId id : kAllIds) {
        for (const auto& [p, v] : randomSample(id, 2000, 41 + static_cast<int>(id))) {
            if (outcome(p) != Outcome::Ongoing) continue;
            for (Evaluation e : {Evaluation::Pips, Evaluation::Race, Evaluation::Full, Evaluation::Learned}) {
                const double x = evaluate(p, e);
                ASSERT_LE(std::fabs(x), kEvalBound + 1e-12);
                // Both sides travel the same path: swapping colours and turn mirrors the value.
                Position m = p;
                std::swap(m.board[0], m.board[1]);
                std::swap(m.off[0], m.off[1]);
                m.turn = opponent(p.turn);
                ASSERT_NEAR(evaluate(m, e), x, 1e-12) << formatPosition(p);
            }
        }
    }
}

TEST(Evaluation, PrefersTheSideAhead) {
    // Standard: player 1 has borne off three pieces, player 2 none.
    const Position ahead = parsed("standard:.2.2.2.2.2.........1.1........:1:3:0");
    EXPECT_GT(evaluate(ahead), 0.3);
    Position behind = ahead;
    behind.turn = Player::Two;
    EXPECT_LT(evaluate(behind), -0.3);
    // Kendall: player 1 has three pieces off. Piccione: player 2 still has all five in hand.
    EXPECT_GT(evaluate(parsed("kendall:.2.2.2.2.2.........1.1........:1:3:0")), 0.3);
    EXPECT_GT(evaluate(parsed("piccione:.........1.1.1.1.1............:1:0:0:0:-:0:0")), 0.3);
    // Piccione: a piece sent back to the hand from 27 is a loss of most of its path.
    EXPECT_GT(evaluate(parsed("piccione:.........1.1.1.1.1............:1:0:0:0:-:0:0"), Evaluation::Pips),
              evaluate(parsed("piccione:.........1.1.1.1..............:1:0:0:0:-:0:0"), Evaluation::Pips));
    // Bell: player 1 has captured three of player 2's pieces.
    const Position bell = parsed("bell:121212121212121.1.1...........:1:0:0");
    EXPECT_GT(evaluate(bell), 0.2);
}

TEST(Evaluation, LearnedNetworksExistForTheStickRulesetsAndJudgeRaces) {
    EXPECT_TRUE(hasLearnedEvaluation(RulesetId::Standard));
    EXPECT_TRUE(hasLearnedEvaluation(RulesetId::Jequier));
    EXPECT_TRUE(hasLearnedEvaluation(RulesetId::Kendall));
    EXPECT_FALSE(hasLearnedEvaluation(RulesetId::Bell));
    EXPECT_TRUE(hasLearnedEvaluation(RulesetId::Piccione));
    // Bell has no network: Learned is the full evaluation there.
    for (const auto& [p, v] : randomSample(RulesetId::Bell, 200, 43)) {
        if (outcome(p) != Outcome::Ongoing) continue;
        ASSERT_EQ(evaluate(p, Evaluation::Learned), evaluate(p, Evaluation::Full));
    }
    // Four pieces borne off and the last near the end, against none borne off: the clear
    // favourite, whoever throws next.
    for (std::string_view text : {"standard:..........2.2.2.2.2......1....:1:4:0", "jequier:...........2.2.2.2.2.......1..:1:4:0",
                                  "kendall:..........2.2.2.2.2......1....:1:4:0",
                                  "piccione:..........2.2.2.2.2......1....:1:4:0:0:-:0:0"}) {
        const Position ahead = parsed(text);
        EXPECT_GT(evaluate(ahead, Evaluation::Learned), 0.6) << text;
        Position waiting = ahead;
        waiting.turn = Player::Two;
        EXPECT_LT(evaluate(waiting, Evaluation::Learned), -0.6) << text;
    }
    // The trained networks are not the untrained starting point: on the starting positions the
    // value is close to an even game, and it differs from the hand-made evaluations.
    for (RulesetId id : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Kendall, RulesetId::Piccione}) {
        const double start = evaluate(startPosition(id), Evaluation::Learned);
        EXPECT_LT(std::fabs(start), 0.3) << ruleset(id).key;
        EXPECT_NE(start, evaluate(startPosition(id), Evaluation::Full));
    }
}

TEST(Evaluation, TerminalValues) {
    EXPECT_EQ(terminalValue(Outcome::WinOne, Player::One), 1.0);
    EXPECT_EQ(terminalValue(Outcome::WinOne, Player::Two), -1.0);
    EXPECT_EQ(terminalValue(Outcome::WinTwo, Player::Two), 1.0);
    EXPECT_EQ(terminalValue(Outcome::Draw, Player::One), 0.0);
}

}  // namespace
}  // namespace senet::ai
