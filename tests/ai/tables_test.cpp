// The endgame tables in the computer opponent and the analysis (senet/ai_tables.hpp): exact
// values where a table knows the position, the expert's perfect choice there, the hints' order,
// and the analysis' marks, accuracy and luck (engine/ai/README.md "Mistakes, accuracy and luck").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sample.hpp"
#include "senet/ai.hpp"
#include "senet/ai_analysis.hpp"
#include "senet/ai_tables.hpp"

namespace senet::ai {
namespace {

/// A small standard table (at most 2 pieces a side on the board, 3 in all), solved once.
const TableValues& smallTables() {
    static const TableValues tables = [] {
        tables::TableSpec spec;
        spec.maxPerSide = 2;
        spec.maxTotal = 3;
        auto t = tables::EndgameTable::solve(spec);
        EXPECT_TRUE(t.ok());
        TableValues v;
        v.add(std::move(*t));
        return v;
    }();
    return tables;
}

/// Standard positions with `mine` pieces of player 1 and `theirs` of player 2 on the board (the
/// rest borne off), drawn at random from the squares a piece may stand on, player `turn` to throw.
std::vector<Position> endgamePositions(int count, std::uint64_t seed) {
    std::vector<Position> out;
    Rng rng(seed);
    while (static_cast<int>(out.size()) < count) {
        const int mine = 1 + static_cast<int>(rng.below(2));
        const int theirs = mine == 2 ? 1 : 1 + static_cast<int>(rng.below(2));
        std::string board(30, '.');
        for (int k = 0; k < mine + theirs; ++k) {
            int sq;
            do sq = 1 + static_cast<int>(rng.below(30));
            while (sq == 28 || board[sq - 1] != '.');
            board[sq - 1] = k < mine ? '1' : '2';
        }
        const std::string text = "standard:" + board + ":" + (rng.below(2) ? "1" : "2") + ":" + std::to_string(5 - mine) +
                                 ":" + std::to_string(5 - theirs);
        const auto p = parsePosition(text);
        EXPECT_TRUE(p.ok()) << text;
        if (p && outcome(*p) == Outcome::Ongoing) out.push_back(*p);
    }
    return out;
}

/// The table's value of the position after a move, for the mover of `p`.
double tableChildValue(const TableValues& t, const Position& p, const Position& child) {
    const Outcome o = outcome(child);
    if (o != Outcome::Ongoing) return terminalValue(o, p.turn) > 0 ? 1.0 : 0.0;
    const double w = *t.winChance(child);
    return child.turn == p.turn ? w : 1.0 - w;
}

TEST(Tables, WinChanceIsTheTablesValueOnlyInsideIt) {
    const TableValues& t = smallTables();
    ASSERT_NE(t.table(RulesetId::Standard), nullptr);
    EXPECT_EQ(t.table(RulesetId::Jequier), nullptr);
    EXPECT_FALSE(t.empty());
    for (const Position& p : endgamePositions(50, 3)) {
        const auto w = t.winChance(p);
        ASSERT_TRUE(w.has_value()) << formatPosition(p);
        EXPECT_DOUBLE_EQ(*w, *t.table(RulesetId::Standard)->value(p));
    }
    EXPECT_FALSE(t.winChance(startPosition(RulesetId::Standard)).has_value());  // five a side
    EXPECT_FALSE(t.winChance(startPosition(RulesetId::Kendall)).has_value());   // no Kendall table
    // Player 1 alone on 30 against player 2 alone on 29, player 1 to throw: 15/19 (tests/tables).
    const auto p = parsePosition("standard:............................21:1:4:4");
    ASSERT_TRUE(p.ok());
    EXPECT_NEAR(*t.winChance(*p), 15.0 / 19.0, 1e-9);
    EXPECT_EQ(tableFileName(RulesetId::Standard), "standard.sntb");
    EXPECT_EQ(tableFileName(RulesetId::Piccione), "piccione.sntb");
}

TEST(Tables, AddBytesReadsAFileAndRefusesDamage) {
    TableValues v;
    const auto bytes = smallTables().table(RulesetId::Standard)->toBytes();
    const auto id = v.addBytes(bytes);
    ASSERT_TRUE(id.ok()) << id.error().message;
    EXPECT_EQ(*id, RulesetId::Standard);
    auto damaged = bytes;
    damaged[damaged.size() / 2] ^= 0x40;
    TableValues w;
    EXPECT_FALSE(w.addBytes(damaged).ok());
    EXPECT_TRUE(w.empty());
}

TEST(Tables, SearchValuesAKnownPositionExactly) {
    const TableValues& t = smallTables();
    for (const Position& p : endgamePositions(30, 5)) {
        const double exact = 2.0 * *t.winChance(p) - 1.0;
        for (int depth : {0, 1, 3}) EXPECT_NEAR(prunedExpectimax(p, depth, Evaluation::Learned, &t), exact, 1e-12);
        // Without the tables the search only estimates it.
        EXPECT_GT(std::abs(prunedExpectimax(p, 1, Evaluation::Learned) - exact), 0.0);
    }
}

TEST(Tables, TheExpertPlaysKnownPositionsPerfectly) {
    const TableValues& t = smallTables();
    Options o;
    o.level = Level::Expert;
    o.budget = std::chrono::milliseconds(0);
    o.nodeBudget = 2000;
    o.exact = &t;
    Options blind = o;
    blind.exact = nullptr;
    int decisions = 0, differ = 0;
    Rng rng(1);
    for (const Position& p : endgamePositions(400, 7)) {
        for (int v : {1, 2, 3, 4, 5}) {
            MoveList moves;
            generateMoves(p, v, moves);
            if (moves.size() < 2) continue;
            double best = -1;
            for (const Move& m : moves) best = std::max(best, tableChildValue(t, p, applyMove(p, v, m)));
            const Move chosen = chooseMove(p, v, o, rng);
            EXPECT_NEAR(tableChildValue(t, p, applyMove(p, v, chosen)), best, 1e-9) << formatPosition(p) << " throw " << v;
            const Move guess = chooseMove(p, v, blind, rng);
            differ += tableChildValue(t, p, applyMove(p, v, guess)) < best - 1e-9;
            ++decisions;
        }
    }
    EXPECT_GT(decisions, 200);
    // The test can tell: without the tables the expert misses the best move somewhere.
    EXPECT_GT(differ, 0);
}

TEST(Tables, RankMovesListsEveryMoveBestFirst) {
    const TableValues& t = smallTables();
    AnalysisOptions o;
    o.exact = &t;
    int ranked = 0;
    for (const Position& p : endgamePositions(40, 9)) {
        for (int v : {1, 2, 3, 4, 5}) {
            MoveList moves;
            generateMoves(p, v, moves);
            const auto r = rankMoves(p, v, o);
            ASSERT_TRUE(r.ok()) << r.error().message;
            ASSERT_EQ(static_cast<int>(r->size()), std::max(1, moves.size()));
            for (std::size_t k = 0; k < r->size(); ++k) {
                const MoveValue& mv = (*r)[k];
                EXPECT_TRUE(mv.exact);
                EXPECT_NEAR(mv.winChance, tableChildValue(t, p, applyMove(p, v, mv.move)), 1e-12);
                if (k > 0) EXPECT_LE(mv.winChance, (*r)[k - 1].winChance);
            }
            ++ranked;
        }
    }
    EXPECT_EQ(ranked, 200);
    // Outside the tables: estimates, not exact; the same order as the analysis' values.
    const Position start = startPosition(RulesetId::Standard);
    int middle = 0;
    for (const auto& [p, v] : testing::randomSample(RulesetId::Standard, 200, 4)) {
        MoveList moves;
        generateMoves(p, v, moves);
        if (moves.size() < 3 || t.winChance(p)) continue;
        const auto r = rankMoves(p, v, o);
        ASSERT_TRUE(r.ok());
        ASSERT_EQ(static_cast<int>(r->size()), moves.size());
        for (const MoveValue& mv : *r) {
            const double p1 = winProbability(applyMove(p, v, mv.move), 3, Evaluation::Learned, &t);
            EXPECT_NEAR(mv.winChance, p.turn == Player::One ? p1 : 1.0 - p1, 1e-12);
        }
        EXPECT_FALSE(r->front().exact);
        ++middle;
    }
    EXPECT_GT(middle, 20);
    // Errors: a throw the ruleset cannot make, a finished game, a bad depth.
    EXPECT_FALSE(rankMoves(start, 6, o).ok());
    EXPECT_FALSE(rankMoves(start, kNoThrow, o).ok());
    const auto over = parsePosition("standard:.............2................:1:5:4");
    ASSERT_TRUE(over.ok());
    EXPECT_FALSE(rankMoves(*over, 1, o).ok());
    AnalysisOptions deep = o;
    deep.depth = kMaxAnalysisDepth + 1;
    EXPECT_FALSE(rankMoves(start, 1, deep).ok());
}

TEST(Tables, LuckAveragesToZeroOverTheThrows) {
    // The luck of throw t at p is (best move's value at depth d - 1) - (p's value at depth d);
    // weighted by the throws' odds it sums to zero, in every ruleset, inside the tables and out.
    const TableValues& t = smallTables();
    int checked = 0;
    for (RulesetId id : testing::kAllIds) {
        if (id == RulesetId::Piccione) continue;  // its steps: tests/ai/analysis_test.cpp replays
        int k = 0;
        for (const auto& [p, unused] : testing::randomSample(id, 300, 31 + static_cast<int>(id))) {
            (void)unused;
            if (++k % 30 != 0 || !p.throwDue()) continue;
            for (int depth : {1, 2}) {
                const double before = winProbability(p, depth, Evaluation::Learned, &t);
                double mean = 0, total = 0;
                for (const ChanceOutcome& c : p.rules().chanceOutcomes()) {
                    MoveList moves;
                    generateMoves(p, c.throw_.value, moves);
                    if (moves.empty()) moves.push(Move::pass());
                    double top = 0;
                    for (const Move& m : moves) {
                        const double p1 = winProbability(applyMove(p, c.throw_.value, m), depth - 1, Evaluation::Learned, &t);
                        top = std::max(top, p.turn == Player::One ? p1 : 1.0 - p1);
                    }
                    mean += c.weight * top;
                    total += c.weight;
                }
                EXPECT_NEAR(mean / total, p.turn == Player::One ? before : 1.0 - before, 1e-12) << formatPosition(p);
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 4 * 10 * 2);
}

TEST(Tables, MarksAndAccuracyFollowTheirThresholds) {
    EXPECT_EQ(markOf(0.0), Mark::None);
    EXPECT_EQ(markOf(0.0199), Mark::None);
    EXPECT_EQ(markOf(0.02), Mark::Inaccuracy);
    EXPECT_EQ(markOf(0.0499), Mark::Inaccuracy);
    EXPECT_EQ(markOf(0.05), Mark::Mistake);
    EXPECT_EQ(markOf(0.0999), Mark::Mistake);
    EXPECT_EQ(markOf(0.10), Mark::Blunder);
    EXPECT_EQ(markOf(0.9), Mark::Blunder);
    EXPECT_EQ(markName(Mark::Mistake), "mistake");
    EXPECT_EQ(markName(Mark::None), "");
    EXPECT_NEAR(moveAccuracy(0.0), 99.9999, 1e-4);
    EXPECT_NEAR(moveAccuracy(0.02), 103.1668 * std::exp(-0.08708) - 3.1669, 1e-9);  // about 91.4
    EXPECT_NEAR(moveAccuracy(0.10), 63.58, 0.01);
    EXPECT_EQ(moveAccuracy(1.0), 0.0);  // clamped
}

/// A random game of the standard ruleset, every throw and move from `seed`.
Record randomGame(std::uint64_t seed) {
    Rng rng(seed);
    Game g(RulesetId::Standard);
    Options opt;
    opt.level = Level::Random;
    while (g.phase() != Phase::Over) {
        if (g.phase() == Phase::Move) EXPECT_TRUE(g.applyMove(chooseMove(g.position(), g.moveThrowValue(), opt, rng)).ok());
        else EXPECT_TRUE(g.applyThrow(rng.throwOutcome(g.rules()).throw_).ok());
    }
    return g.record();
}

TEST(Tables, AnalysisIsExactInTheEndgameAndSumsItsFigures) {
    const TableValues& t = smallTables();
    AnalysisOptions o;
    o.depth = 1;
    o.exact = &t;
    int exactPositions = 0;
    for (std::uint64_t seed : {11u, 12u, 13u}) {
        const Record r = randomGame(seed);
        const auto a = analyseGame(r, o);
        ASSERT_TRUE(a.ok()) << a.error().message;
        ASSERT_EQ(a->exact.size(), r.plies.size() + 1);
        Position p = startPosition(RulesetId::Standard);
        std::array<double, 2> luck{}, loss{}, accuracy{};
        std::array<int, 2> decisions{}, marks{};
        for (std::size_t i = 0; i <= r.plies.size(); ++i) {
            const bool known = outcome(p) != Outcome::Ongoing || t.winChance(p).has_value();
            EXPECT_EQ(a->exact[i], known) << "position " << i;
            if (known && outcome(p) == Outcome::Ongoing) {
                const double w = *t.winChance(p);
                EXPECT_NEAR(a->winProbability[i], p.turn == Player::One ? w : 1 - w, 1e-12);
                ++exactPositions;
            }
            if (i == r.plies.size()) break;
            const PlyAnalysis& pa = a->plies[i];
            const int k = pa.player == Player::One ? 0 : 1;
            const double sign = k == 0 ? 1.0 : -1.0;
            {
                // The best move's value one ply shallower than the curve, less the value before.
                MoveList moves;
                generateMoves(p, pa.throwValue, moves);
                if (moves.empty()) moves.push(Move::pass());
                double top = 0;
                for (const Move& m : moves) {
                    const double p1 = winProbability(applyMove(p, pa.throwValue, m), o.depth - 1, Evaluation::Learned, &t);
                    top = std::max(top, k == 0 ? p1 : 1.0 - p1);
                }
                EXPECT_NEAR(pa.luck, top - (k == 0 ? a->winProbability[i] : 1.0 - a->winProbability[i]), 1e-12) << "ply " << i + 1;
                (void)sign;
            }
            luck[k] += pa.luck;
            EXPECT_EQ(pa.mark, pa.legalMoves >= 2 ? markOf(pa.loss) : Mark::None);
            if (pa.legalMoves >= 2) {
                ++decisions[k];
                loss[k] += pa.loss;
                accuracy[k] += moveAccuracy(pa.loss);
                marks[k] += pa.mark != Mark::None;
            }
            p = applyMove(p, r.plies[i].throw_.value, r.plies[i].move);
        }
        for (int k = 0; k < 2; ++k) {
            const PlayerSummary& s = a->players[k];
            EXPECT_EQ(s.player, k == 0 ? Player::One : Player::Two);
            EXPECT_EQ(s.decisions, decisions[k]);
            EXPECT_NEAR(s.luck, luck[k], 1e-9);
            EXPECT_NEAR(s.loss, loss[k], 1e-9);
            EXPECT_NEAR(s.accuracy, decisions[k] ? accuracy[k] / decisions[k] : 100.0, 1e-9);
            EXPECT_EQ(s.inaccuracies + s.mistakes + s.blunders, marks[k]);
            EXPECT_GT(s.decisions, 0);
            EXPECT_LT(s.accuracy, 100.0);  // random moves give some win chance away
        }
        EXPECT_TRUE(a->exact.back());
    }
    EXPECT_GT(exactPositions, 10);
}

}  // namespace
}  // namespace senet::ai
