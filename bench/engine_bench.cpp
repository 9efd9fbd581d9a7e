// Engine speed: random playouts and move generations per second for each ruleset.
// Target (issue): >= 200,000 random standard playouts per second on one core.
#include <benchmark/benchmark.h>

#include "senet/perft.hpp"
#include "senet/senet.hpp"

namespace {

void BM_RandomPlayout(benchmark::State& state) {
    const auto id = static_cast<senet::RulesetId>(state.range(0));
    senet::Rng rng(42);
    const senet::Position start = senet::startPosition(id);
    std::int64_t plies = 0, throws = 0;
    for (auto _ : state) {
        const auto r = senet::randomPlayout(start, rng);
        plies += r.plies;
        throws += r.throws;
        benchmark::DoNotOptimize(r);
    }
    state.SetLabel(std::string(senet::ruleset(id).key));
    state.counters["playouts/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["plies/s"] = benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
    state.counters["plies/game"] = static_cast<double>(plies) / static_cast<double>(state.iterations());
    state.counters["throws/game"] = static_cast<double>(throws) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_RandomPlayout)->Arg(0)->Arg(1)->Arg(2)->Arg(3)->Arg(4);

/// Move generation over a fixed sample of positions reached in random games.
void BM_GenerateMoves(benchmark::State& state) {
    const auto id = static_cast<senet::RulesetId>(state.range(0));
    const senet::Ruleset& r = senet::ruleset(id);
    senet::Rng rng(7);
    std::vector<std::pair<senet::Position, int>> sample;
    senet::Position p = senet::startPosition(id);
    senet::MoveList moves;
    while (sample.size() < 4096) {
        // Piccione: a step that spends a remainder makes no throw (kNoThrow).
        const int v = p.throwDue() ? rng.throwOutcome(r).throw_.value : senet::kNoThrow;
        sample.emplace_back(p, v);
        senet::generateMoves(p, v, moves);
        p = senet::applyMove(p, v, moves.empty() ? senet::Move::pass() : moves[static_cast<int>(rng.below(moves.size()))]);
        if (senet::outcome(p) != senet::Outcome::Ongoing) p = senet::startPosition(id);
    }
    std::size_t i = 0;
    for (auto _ : state) {
        const auto& [pos, v] = sample[i++ & 4095];
        senet::generateMoves(pos, v, moves);
        benchmark::DoNotOptimize(moves);
    }
    state.SetLabel(std::string(r.key));
    state.counters["generations/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GenerateMoves)->Arg(0)->Arg(1)->Arg(2)->Arg(3)->Arg(4);

void BM_Perft3(benchmark::State& state) {
    const auto id = static_cast<senet::RulesetId>(state.range(0));
    for (auto _ : state) benchmark::DoNotOptimize(senet::perft(senet::startPosition(id), 3));
    state.SetLabel(std::string(senet::ruleset(id).key));
}
BENCHMARK(BM_Perft3)->Arg(0)->Arg(1)->Arg(2)->Arg(3)->Arg(4);

}  // namespace

BENCHMARK_MAIN();
