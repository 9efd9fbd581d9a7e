// Computer opponent speed: decisions per second per level per ruleset, over a fixed sample of
// positions from random games (only throws with two or more legal moves). The expert runs
// twice: with the arena's node cap (20,000 nodes, reproducible) and with the server's default
// of 100 ms, where the median decision time is reported as a counter.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "senet/ai.hpp"
#include "senet/ai_search.hpp"

namespace {

using senet::Position;

/// 512 (position, throw) pairs with a real choice, from random games of ruleset `id`.
std::vector<std::pair<Position, int>> sample(senet::RulesetId id) {
    std::vector<std::pair<Position, int>> out;
    senet::Rng rng(2024);
    Position p = senet::startPosition(id);
    senet::MoveList moves;
    while (out.size() < 512) {
        // Piccione: a remainder is spent without a throw.
        const int v = p.throwDue() ? rng.throwOutcome(p.rules()).throw_.value : senet::kNoThrow;
        senet::generateMoves(p, v, moves);
        if (moves.size() >= 2) out.emplace_back(p, v);
        p = senet::applyMove(p, v, moves.empty() ? senet::Move::pass() : moves[static_cast<int>(rng.below(moves.size()))]);
        if (senet::outcome(p) != senet::Outcome::Ongoing) p = senet::startPosition(id);
    }
    return out;
}

/// Arguments: ruleset id, level, node cap (0: the 100 ms default budget).
void BM_Decision(benchmark::State& state) {
    const auto id = static_cast<senet::RulesetId>(state.range(0));
    senet::ai::Options o;
    o.level = static_cast<senet::ai::Level>(state.range(1));
    if (state.range(2) > 0) {
        o.nodeBudget = static_cast<std::uint64_t>(state.range(2));
        o.budget = std::chrono::milliseconds(0);
    }
    const auto positions = sample(id);
    senet::Rng rng(1);
    std::size_t i = 0;
    std::vector<double> millis;
    for (auto _ : state) {
        const auto& [p, v] = positions[i++ % positions.size()];
        const auto t0 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(senet::ai::chooseMove(p, v, o, rng));
        millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(millis.begin(), millis.end());
    const bool expert = o.level == senet::ai::Level::Expert;
    state.SetLabel(std::string(senet::ruleset(id).key) + " " + std::string(senet::ai::levelName(o.level)) +
                   (!expert ? std::string() : state.range(2) > 0 ? " nodes " + std::to_string(state.range(2)) : std::string(" budget 100 ms")));
    state.counters["decisions/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    if (expert && !millis.empty()) state.counters["median_ms"] = millis[millis.size() / 2];
}

void levels(benchmark::internal::Benchmark* b) {
    for (int id = 0; id < senet::kRulesetCount; ++id)
        for (int level = 0; level < 4; ++level) b->Args({id, level, level == 3 ? 20'000 : 0});
}
BENCHMARK(BM_Decision)->Apply(levels);

void expertDefault(benchmark::internal::Benchmark* b) {
    for (int id = 0; id < senet::kRulesetCount; ++id) b->Args({id, 3, 0});
}
BENCHMARK(BM_Decision)->Name("BM_ExpertDefaultBudget")->Apply(expertDefault)->Iterations(100)->Unit(benchmark::kMillisecond);

/// Evaluations per second: arguments ruleset id and evaluation kind (Pips, Race, Full, Learned).
void BM_Evaluate(benchmark::State& state) {
    const auto id = static_cast<senet::RulesetId>(state.range(0));
    const auto kind = static_cast<senet::ai::Evaluation>(state.range(1));
    const auto positions = sample(id);
    std::size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(senet::ai::evaluate(positions[i++ % positions.size()].first, kind));
    static const char* kNames[] = {"pips", "race", "full", "learned"};
    state.SetLabel(std::string(senet::ruleset(id).key) + " " + kNames[state.range(1)]);
    state.counters["evaluations/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Evaluate)->ArgsProduct({{0, 1, 2, 3, 4}, {0, 2, 3}});

}  // namespace

BENCHMARK_MAIN();
