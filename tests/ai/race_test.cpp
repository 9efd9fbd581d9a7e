// Piccione's one-sided race table (senet/ai_race.hpp): values that can be worked out by hand,
// agreement with the engine's own turns, and the win chance built on it.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "senet/ai_race.hpp"
#include "senet/senet.hpp"

namespace senet::ai {
namespace {

/// Tables of the last pieces only: they solve in milliseconds (the whole table takes minutes).
const PiccioneRaceTable& twoLeft() {
    static const PiccioneRaceTable table(2);
    return table;
}
const PiccioneRaceTable& threeLeft() {
    static const PiccioneRaceTable table(3);
    return table;
}

Position parsed(std::string_view text) {
    const Result<Position> p = parsePosition(text);
    EXPECT_TRUE(p.ok()) << text;
    return p.value();
}

TEST(PiccioneRace, OnePieceOnTheLastSquares) {
    // A lone piece on 30 bears off with any throw: a step of 1 is part of every throw (rules 4,
    // 12), so one turn, always.
    const RaceTurns on30 = twoLeft().turns(bit(30), 0);
    EXPECT_NEAR(on30.mean, 1.0, 1e-5);
    EXPECT_NEAR(on30.variance(), 0.0, 1e-4);
    // 29: every throw but 1 holds the step of 2 off; a 1 (4/16) must step to 30, off next turn.
    const RaceTurns on29 = twoLeft().turns(bit(29), 0);
    EXPECT_NEAR(on29.mean, 1.25, 1e-5);
    EXPECT_NEAR(on29.meanSquare, 0.75 * 1 + 0.25 * 4, 1e-4);
    // 28: 3, 4 and 5 (6/16) hold the step of 3 off; a 1 steps to 29, a 2 to 30.
    EXPECT_NEAR(twoLeft().turns(bit(28), 0).mean, 1 + 4.0 / 16 * 1.25 + 6.0 / 16 * 1.0, 1e-5);
    // Nothing left: no turn needed.
    EXPECT_EQ(twoLeft().turns(0, 0).mean, 0.0);
}

TEST(PiccioneRace, PiecesThatNeedAnExactThrow) {
    // Pieces on 29 and 30: the 1 takes 30 off, and a 1 alone leaves 29 (its 2 is a whole throw
    // of 2 or more after the 1: 3 = 1 + 2). Throws of 3, 4, 5 (6/16) take both off in one turn;
    // a 2 takes one of them (29 off with the 2, or 30 off and 29 to 30); a 1 takes 30 off.
    const double t29 = 1.25;
    const double expected = 1 + 6.0 / 16 * 1.0 + 4.0 / 16 * t29;  // 2: 30 left (T = 1); 1: 29 left
    EXPECT_NEAR(twoLeft().turns(bit(29) | bit(30), 0).mean, expected, 1e-5);
}

TEST(PiccioneRace, MorePiecesAndFurtherBackNeedMoreTurns) {
    EXPECT_GT(twoLeft().turns(0, 1).mean, twoLeft().turns(bit(1), 0).mean);  // entering needs a whole 1
    EXPECT_GT(twoLeft().turns(bit(10), 0).mean, twoLeft().turns(bit(20), 0).mean);
    // A lone piece must spend every throw (rule 8), so near 27 it is often forced onto it and back
    // to the hand (rule 11); a second piece gives the choice: 20 and 25 need fewer turns than 25.
    EXPECT_LT(twoLeft().turns(bit(20) | bit(25), 0).mean, twoLeft().turns(bit(25), 0).mean);
    EXPECT_GT(threeLeft().turns(0, 3).mean, threeLeft().turns(0, 2).mean);
    // Three pieces in hand: dozens of turns (each piece waits for a 1 to enter, then travels 30).
    const RaceTurns three = threeLeft().turns(0, 3);
    EXPECT_GT(three.mean, 15.0);
    EXPECT_LT(three.mean, 100.0);
    EXPECT_GT(three.variance(), 1.0);
    // The smaller table solves its states the same way.
    EXPECT_NEAR(threeLeft().turns(bit(12) | bit(20), 0).mean, twoLeft().turns(bit(12) | bit(20), 0).mean, 1e-4);
}

/// T of player 1's pieces once the turn passed in `q`, or what is left of player 1's turn.
RaceTurns afterSpending(const Position& q) {
    if (outcome(q) == Outcome::WinOne) return {0, 0};
    if (q.turn == Player::One) return twoLeft().rest(q, Player::One);
    return twoLeft().turns(q.board[0], q.inHand(Player::One));
}

TEST(PiccioneRace, AgreesWithTheEnginesTurns) {
    // For states reached by random one-sided play, T = 1 + the mean over the five throws of the
    // best way to spend each (every sequence of legal steps, by the engine), the rest of the turn
    // and the turns after it read from the table.
    Rng rng(7);
    int checked = 0;
    for (int game = 0; game < 40; ++game) {
        Position p = parsed("piccione:..............................:1:3:0:0:-:0:0");
        for (int ply = 0; ply < 400 && outcome(p) == Outcome::Ongoing; ++ply) {
            if (p.turn == Player::Two) {  // player 2 never moves: player 1 plays alone
                p.turn = Player::One;
                p.remainder = 0;
                p.direction = TurnDirection::Unset;
                p.owedThrows = 0;
                p.entryThrowDue = false;
            }
            if (p.throwDue() && p.direction == TurnDirection::Unset && ply % 7 == 0) {
                double expected = 0;
                for (int v = 1; v <= 5; ++v) {
                    const double prob = static_cast<double>(p.rules().weightOfValue(v)) / p.rules().outcomeWeightTotal;
                    double best = 1e9;
                    MoveList steps;
                    generateMoves(p, v, steps);
                    if (steps.empty()) best = afterSpending(applyMove(p, v, Move::pass())).mean;
                    for (const Move& m : steps) {
                        const Position q = applyMove(p, v, m);
                        best = std::min(best, q.throwDue() || outcome(q) != Outcome::Ongoing
                                                  ? afterSpending(q).mean
                                                  : twoLeft().rest(q, Player::One).mean);
                    }
                    expected += prob * best;
                }
                const double t = twoLeft().turns(p.board[0], p.inHand(Player::One)).mean;
                // The table plays a turn out to the end; a query stops after two throws of it.
                EXPECT_NEAR(1 + expected, t, 0.02 * t + 0.02) << formatPosition(p);
                ++checked;
            }
            const int v = p.throwDue() ? 1 + static_cast<int>(rng.below(5)) : kNoThrow;
            MoveList steps;
            generateMoves(p, v, steps);
            p = applyMove(p, v, steps.empty() ? Move::pass() : steps[static_cast<int>(rng.below(steps.size()))]);
        }
    }
    EXPECT_GT(checked, 200);
}

TEST(PiccioneRace, WinChanceFavoursTheSideAheadAndIsSymmetric) {
    // Player 1 on 30 against two pieces in hand: almost won, whoever throws.
    const Position ahead = parsed("piccione:.............................1:1:4:3:0:-:0:0");
    EXPECT_GT(twoLeft().winChance(ahead), 0.95);
    Position waiting = ahead;
    waiting.turn = Player::Two;
    EXPECT_LT(twoLeft().winChance(waiting), 0.05);
    // Two pieces in hand each: equal, the side to throw a little ahead.
    const double start = twoLeft().winChance(parsed("piccione:..............................:1:3:3:0:-:0:0"));
    EXPECT_GT(start, 0.5);
    EXPECT_LT(start, 0.6);
    // An owed throw is worth something to the side that has it.
    const Position owed = parsed("piccione:....1....2....1....2..........:1:3:3:0:f:1:0");
    Position none = parsed("piccione:....1....2....1....2..........:2:3:3:0:-:0:0");
    EXPECT_GT(twoLeft().winChance(owed), 1 - twoLeft().winChance(none));
}

TEST(PiccioneRace, TableFacts) {
    // At most two pieces left: 3 with none on the board (0-2 in hand), 29 * 2 with one, C(29, 2).
    const RaceTableFacts f = twoLeft().facts();
    EXPECT_EQ(f.states, 3 + 58 + 406);
    EXPECT_LT(f.bytes, std::size_t{5} << 20);
    EXPECT_GE(f.sweeps, 1);
}

}  // namespace
}  // namespace senet::ai
