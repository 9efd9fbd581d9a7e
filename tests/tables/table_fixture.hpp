// Shared pieces of the endgame table tests: a small table and the reference solver of each
// ruleset, solved once per test process (CTest runs each test in its own process, so only what a
// test asks for is solved), the position behind a notation, and the Bellman update of a table's
// own values. RULES.md "Standard", "Jéquier", "Kendall", "Throws", "Position notation".
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "reference_solver.hpp"
#include "senet/endgame_table.hpp"
#include "senet/senet.hpp"

namespace senet::test {

/// The position written `text`, which must be valid (a test fails, and the start is used, if not).
inline Position at(const std::string& text) {
    const auto p = parsePosition(text);
    EXPECT_TRUE(p.ok()) << text << ": " << p.error().message;
    return p.ok() ? p.value() : startPosition(RulesetId::Standard);
}

/// The small table of ruleset `id`: every layer with both sides at most 2, and 3 v 1 / 1 v 3
/// (maxPerSide 3, maxTotal 4). Solved on first use.
inline const tables::EndgameTable& smallTable(RulesetId id) {
    static std::map<RulesetId, std::unique_ptr<tables::EndgameTable>> cache;
    auto& slot = cache[id];
    if (!slot) {
        tables::TableSpec spec;
        spec.ruleset = id;
        spec.maxPerSide = 3;
        spec.maxTotal = 4;
        auto solved = tables::EndgameTable::solve(spec);
        EXPECT_TRUE(solved.ok()) << solved.error().message;
        slot = std::make_unique<tables::EndgameTable>(solved.ok() ? std::move(solved).value() : tables::EndgameTable{});
    }
    return *slot;
}

/// The reference solver of ruleset `id` over every position with both sides at most 2 on the
/// board. Solved on first use.
inline const ReferenceSolver& reference(RulesetId id) {
    static std::map<RulesetId, std::unique_ptr<ReferenceSolver>> cache;
    auto& slot = cache[id];
    if (!slot) slot = std::make_unique<ReferenceSolver>(id, 2);
    return *slot;
}

/// Every position of the small table (smallTable's layers), either player to throw.
inline std::vector<std::string> smallTablePositions(RulesetId id) {
    std::vector<std::string> keys;
    for (auto [a, b] : {std::pair{1, 1}, {2, 1}, {1, 2}, {3, 1}, {1, 3}, {2, 2}})
        for (std::string& k : positionsWith(id, a, b)) keys.push_back(std::move(k));
    return keys;
}

/// The Bellman update of the table's own values at `p`: over the throws with their exact
/// probabilities, the best move (a pass when none) by the table's value of what follows, for the
/// same player when applyMove kept the turn, else one minus it.
inline double bellman(const tables::EndgameTable& t, const Position& p) {
    double v = 0;
    for (const ChanceOutcome& c : p.rules().chanceOutcomes()) {
        const int throwValue = c.throw_.value;
        MoveList moves;
        generateMoves(p, throwValue, moves);
        std::vector<Move> options(moves.begin(), moves.end());
        if (options.empty()) options.push_back(Move{});
        double best = 0;
        for (const Move& m : options) {
            const Position q = applyMove(p, throwValue, m);
            const auto after = t.value(q);
            EXPECT_TRUE(after.has_value()) << formatPosition(p) << " -> " << formatPosition(q);
            if (!after) return -1;
            best = std::max(best, q.turn == p.turn ? *after : 1 - *after);
        }
        v += best * c.weight / p.rules().outcomeWeightTotal;
    }
    return v;
}

/// The rulesets with tables, for the parameterised tests, named by their notation key.
inline const std::vector<RulesetId> kTableRulesets = {RulesetId::Standard, RulesetId::Jequier, RulesetId::Kendall};
inline std::string rulesetName(const ::testing::TestParamInfo<RulesetId>& info) {
    return std::string(ruleset(info.param).key);
}

}  // namespace senet::test
