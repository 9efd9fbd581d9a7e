// Analysis time per game (senet analyse, GET /api/games/{id}/analysis): for each ruleset and
// depth, analyses self-play games between two intermediate players and prints the median and
// maximum time per game — CPU time of the analysing thread (what one core spends, unaffected by
// other processes) and wall-clock time — the plies per game and the searches per game.
// Usage: analysis_bench [GAMES_PER_RULESET (default 20)] [MAX_DEPTH (default 3)] [TABLES_DIR]
// (TABLES_DIR: the endgame tables' folder, e.g. build/tables, used as the server uses them).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "senet/ai.hpp"
#include "senet/ai_analysis.hpp"
#include "senet/ai_tables.hpp"

namespace {

using namespace senet;

/// One finished game of `id` between two intermediate players, from `seed`.
Record selfPlay(RulesetId id, std::uint64_t seed) {
    Rng rng(seed);
    Game g(id);
    ai::Options opt;
    opt.level = ai::Level::Intermediate;
    while (g.phase() != Phase::Over && g.record().plies.size() < 2000) {
        if (g.phase() == Phase::Move) {
            const Position& p = g.position();
            (void)g.applyMove(ai::chooseMove(p, g.moveThrowValue(), opt, rng));
        } else {
            (void)g.applyThrow(rng.throwOutcome(g.rules()).throw_);
        }
    }
    return g.record();
}

/// CPU time of the calling thread, in milliseconds.
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const int games = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
    const int maxDepth = argc > 2 ? std::clamp(std::atoi(argv[2]), 1, ai::kMaxAnalysisDepth) : 3;
    ai::TableValues tables;
    if (argc > 3) {
        for (const Ruleset* r : allRulesets()) {
            std::ifstream in(std::string(argv[3]) + "/" + ai::tableFileName(r->id), std::ios::binary);
            if (!in) continue;
            const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
            if (const auto id = tables.addBytes(bytes); !id)
                return std::fprintf(stderr, "analysis_bench: %s: %s\n", ai::tableFileName(r->id).c_str(), id.error().message.c_str()), 1;
        }
        if (tables.empty()) return std::fprintf(stderr, "analysis_bench: no table in %s\n", argv[3]), 1;
    }
    std::printf("%-9s %5s %12s %12s %12s %12s %8s %10s\n", "ruleset", "depth", "cpu median", "cpu max", "wall median",
                "wall max", "plies", "searches");
    for (RulesetId id : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell, RulesetId::Kendall,
                         RulesetId::Piccione}) {
        std::vector<Record> records;
        for (int i = 0; i < games; ++i) records.push_back(selfPlay(id, 1000 + static_cast<std::uint64_t>(i)));
        for (int depth = 1; depth <= maxDepth; ++depth) {
            std::vector<double> ms, cpu, plies, searches;
            for (const Record& r : records) {
                ai::AnalysisOptions o;
                o.depth = depth;
                o.exact = tables.empty() ? nullptr : &tables;
                const auto start = std::chrono::steady_clock::now();
                const double cpuStart = threadCpuMs();
                const auto a = ai::analyseGame(r, o);
                cpu.push_back(threadCpuMs() - cpuStart);
                ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
                if (!a) return std::fprintf(stderr, "analysis failed: %s\n", a.error().message.c_str()), 1;
                plies.push_back(static_cast<double>(a->plies.size()));
                searches.push_back(static_cast<double>(a->searches));
            }
            std::printf("%-9s %5d %10.1fms %10.1fms %10.1fms %10.1fms %8.0f %10.0f%s\n", std::string(ruleset(id).key).c_str(),
                        depth, median(cpu), *std::max_element(cpu.begin(), cpu.end()), median(ms),
                        *std::max_element(ms.begin(), ms.end()), median(plies), median(searches),
                        depth == ai::defaultAnalysisDepth(id) ? "  (default)" : "");
            std::fflush(stdout);
        }
    }
    return 0;
}
