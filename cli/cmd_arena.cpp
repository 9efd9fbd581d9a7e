// `senet arena --rules R --a LEVEL --b LEVEL --games N --seed S [--ms N] [--nodes N] [--depth N]
// [--a-engine CMD] [--b-engine CMD]`: computer levels against each other, seats alternating. --ms
// caps each expert decision's time (not reproducible); otherwise --nodes (default 20000) caps its
// search nodes. --depth caps the expert's search depth in plies. --a-engine / --b-engine: that
// side's moves come from the program CMD (run by /bin/sh) over the engine protocol
// (engine/protocol/PROTOCOL.md), asked `go level LEVEL` with the same limits; `senet engine`
// there plays exactly as in process (the expert; the other levels draw from a random source of
// their own). Methods and measured figures: engine/ai/README.md. stdout depends only on the
// arguments (without --ms, every decision is capped by nodes, not time); timings go to stderr.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli.hpp"
#include "engine_child.hpp"
#include "senet/ai.hpp"
#include "senet/ai_arena.hpp"

namespace senet::cli {

namespace {

/// The expert's node cap when no --ms is given: reproducible decisions of a few milliseconds.
constexpr std::uint64_t kArenaNodeBudget = 20'000;

std::string percent(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * x);
    return buf;
}

std::string share(std::int64_t count, std::int64_t games) {
    const ai::Interval ci = ai::wilsonInterval(count, games);
    return std::to_string(count) + " (" + percent(static_cast<double>(count) / static_cast<double>(games)) +
           ", 95% CI " + percent(ci.low) + " - " + percent(ci.high) + ")";
}

/// What the flags ask for: the arena to run, and what its first output line names.
struct ArenaPlan {
    ai::ArenaConfig config;
    std::int64_t seed = 0;
    std::optional<std::int64_t> ms;  ///< --ms: the expert's time cap per decision
    std::uint64_t nodes = kArenaNodeBudget;
    int depth = 0;
    std::string engineA, engineB;  ///< --a-engine / --b-engine: "" in process
    std::unique_ptr<ai::TableValues> tables;  ///< --tables: the expert's exact values
};

/// An optional whole-number flag: `fallback` when absent, nullopt (reported) when out of range.
std::optional<std::int64_t> optionalInteger(const std::map<std::string, std::string, std::less<>>& flags, const char* name,
                                            std::int64_t fallback, std::int64_t min, std::int64_t max) {
    if (!flags.count(name)) return fallback;
    return parseInteger(flags.at(name), std::string("--") + name, min, max);
}

/// The flags read and checked; nullopt (the problem reported) when one is missing or bad.
std::optional<ArenaPlan> planArena(Args args) {
    const auto flags = parseFlags(args, {"rules", "a", "b", "games", "seed", "ms", "nodes", "depth", "a-engine", "b-engine", "tables"});
    if (!flags) return std::nullopt;
    for (const char* required : {"rules", "a", "b", "games", "seed"})
        if (!flags->count(required)) return error(std::string("arena needs --") + required), std::nullopt;
    const auto id = parseRuleset(flags->at("rules"));
    if (!id) return std::nullopt;
    const auto a = ai::levelByName(flags->at("a"));
    if (!a)
        return error("unknown level '" + flags->at("a").substr(0, 40) + "' for --a (expected random, beginner, intermediate or expert)"),
               std::nullopt;
    const auto b = ai::levelByName(flags->at("b"));
    if (!b)
        return error("unknown level '" + flags->at("b").substr(0, 40) + "' for --b (expected random, beginner, intermediate or expert)"),
               std::nullopt;
    const auto games = parseInteger(flags->at("games"), "--games", 1, 100'000'000);
    if (!games) return std::nullopt;
    ArenaPlan plan;
    const auto seed = parseInteger(flags->at("seed"), "--seed", 0, INT64_MAX);
    if (!seed) return std::nullopt;
    if (flags->count("ms") && !(plan.ms = parseInteger(flags->at("ms"), "--ms", 1, 60'000))) return std::nullopt;
    const auto nodes = optionalInteger(*flags, "nodes", kArenaNodeBudget, 1000, 1'000'000'000);
    if (!nodes) return std::nullopt;
    const auto depth = optionalInteger(*flags, "depth", 0, 1, ai::kMaxSearchDepth);
    if (!depth) return std::nullopt;
    plan.seed = *seed;
    plan.nodes = static_cast<std::uint64_t>(*nodes);
    plan.depth = static_cast<int>(*depth);
    plan.config.rules = *id;
    plan.config.games = *games;
    plan.config.seed = static_cast<std::uint64_t>(*seed);
    for (ai::Options* o : {&plan.config.a, &plan.config.b}) {
        if (plan.ms) {
            o->budget = std::chrono::milliseconds(*plan.ms);
        } else {
            o->budget = std::chrono::milliseconds(0);  // no clock: the node cap decides
            o->nodeBudget = plan.nodes;
        }
        o->maxDepth = plan.depth;
    }
    plan.config.a.level = *a;
    plan.config.b.level = *b;
    if (flags->count("tables")) {
        plan.tables = loadTables(flags->at("tables"));
        if (!plan.tables) return std::nullopt;
        plan.config.a.exact = plan.config.b.exact = plan.tables.get();
    }
    for (const char* side : {"a-engine", "b-engine"}) {
        if (!flags->count(side)) continue;
        const std::string& command = flags->at(side);
        if (command.empty() || command.size() > 1000)
            return error(std::string("--") + side + " must name a command (1-1000 characters)"), std::nullopt;
        (side[0] == 'a' ? plan.engineA : plan.engineB) = command;
    }
    return plan;
}

/// The results on stdout: they depend only on the arguments (without --ms).
void printResults(const ArenaPlan& plan, const ai::ArenaResult& res) {
    const ai::Level a = plan.config.a.level, b = plan.config.b.level;
    const std::string nameA(ai::levelName(a)), nameB(ai::levelName(b));
    const auto through = [](const std::string& engine) { return engine.empty() ? std::string() : " (engine: " + engine.substr(0, 60) + ")"; };
    std::cout << "arena " << ruleset(plan.config.rules).key << ": A " << nameA << through(plan.engineA) << " vs B " << nameB
              << through(plan.engineB) << ", " << res.games
              << " games, seed " << plan.seed << ", seats alternating";
    if (a == ai::Level::Expert || b == ai::Level::Expert) {
        std::cout << ", expert capped at " << (plan.ms ? std::to_string(*plan.ms) + " ms" : std::to_string(plan.nodes) + " nodes")
                  << " per decision";
        if (plan.depth) std::cout << " and " << plan.depth << " plies";
    }
    std::cout << '\n'
              << "wins A " << nameA << ": " << share(res.winsA, res.games) << '\n'
              << "wins B " << nameB << ": " << share(res.winsB, res.games) << '\n';
    if (ruleset(plan.config.rules).win == WinRule::Majority || res.draws) std::cout << "draws: " << share(res.draws, res.games) << '\n';
    if (res.unfinished) std::cout << "unfinished: " << share(res.unfinished, res.games) << '\n';
    std::cout << "first seat wins: " << share(res.firstSeatWins, res.games) << '\n';
    char mean[32];
    std::snprintf(mean, sizeof mean, "%.1f", static_cast<double>(res.plies) / static_cast<double>(res.games));
    std::cout << "mean plies per game: " << mean << '\n';
}

/// The timings on stderr (they vary from run to run).
void printTimings(const ai::ArenaResult& res, double seconds) {
    std::cerr << "seconds: " << seconds << '\n';
    if (res.expertMicros.empty()) return;
    std::vector<double> t = res.expertMicros;
    std::sort(t.begin(), t.end());
    auto at = [&](double q) { return t[std::min(t.size() - 1, static_cast<std::size_t>(q * static_cast<double>(t.size())))] / 1000.0; };
    std::cerr << "expert decisions: " << t.size() << ", median " << at(0.5) << " ms, 90th percentile " << at(0.9) << " ms, max "
              << t.back() / 1000.0 << " ms\n";
}

}  // namespace

/// The `go` arguments that ask an outside engine what `o` would choose in process.
std::string goFor(const ai::Options& o, const ArenaPlan& plan) {
    std::string go = "level " + std::string(ai::levelName(o.level));
    if (plan.ms) go += " ms " + std::to_string(*plan.ms);
    else go += " nodes " + std::to_string(plan.nodes);
    if (plan.depth) go += " depth " + std::to_string(plan.depth);
    return go;
}

int cmdArena(Args args) {
    auto plan = planArena(args);
    if (!plan) return kUsageError;
    std::unique_ptr<EngineChild> childA, childB;
    try {
        if (!plan->engineA.empty()) childA = std::make_unique<EngineChild>(plan->engineA);
        if (!plan->engineB.empty()) childB = std::make_unique<EngineChild>(plan->engineB);
    } catch (const EngineFailure& e) {
        std::cerr << "senet: error: " << e.what() << '\n';
        return 1;
    }
    const auto outside = [&](EngineChild* child, const std::string& go) -> ai::OutsideDecider {
        if (!child) return {};
        return [child, go](const Position& p, int v, const MoveList&) { return child->bestMove(p, v, go); };
    };
    plan->config.outsideA = outside(childA.get(), goFor(plan->config.a, *plan));
    plan->config.outsideB = outside(childB.get(), goFor(plan->config.b, *plan));
    const auto started = std::chrono::steady_clock::now();
    ai::ArenaResult res;
    try {
        res = ai::runArena(plan->config);
    } catch (const EngineFailure& e) {
        std::cerr << "senet: error: " << e.what() << '\n';
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    printResults(*plan, res);
    printTimings(res, seconds);
    return 0;
}

}  // namespace senet::cli
