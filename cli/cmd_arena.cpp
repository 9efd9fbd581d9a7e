// `senet arena --rules R --a LEVEL --b LEVEL --games N --seed S [--ms N] [--nodes N] [--depth N]`:
// computer levels against each other, seats alternating. --ms caps each expert decision's time
// (not reproducible); otherwise --nodes (default 20000) caps its search nodes. --depth caps the
// expert's search depth in plies. Methods and measured
// figures: engine/ai/README.md. stdout depends only on the arguments (without --ms, every
// decision is capped by nodes, not time); timings go to stderr.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>

#include "cli.hpp"
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

}  // namespace

int cmdArena(Args args) {
    const auto flags = parseFlags(args, {"rules", "a", "b", "games", "seed", "ms", "nodes", "depth"});
    if (!flags) return kUsageError;
    for (const char* required : {"rules", "a", "b", "games", "seed"})
        if (!flags->count(required)) return error(std::string("arena needs --") + required);
    const auto id = parseRuleset(flags->at("rules"));
    if (!id) return kUsageError;
    const auto a = ai::levelByName(flags->at("a"));
    if (!a) return error("unknown level '" + flags->at("a").substr(0, 40) + "' for --a (expected random, beginner, intermediate or expert)");
    const auto b = ai::levelByName(flags->at("b"));
    if (!b) return error("unknown level '" + flags->at("b").substr(0, 40) + "' for --b (expected random, beginner, intermediate or expert)");
    const auto games = parseInteger(flags->at("games"), "--games", 1, 100'000'000);
    if (!games) return kUsageError;
    const auto seed = parseInteger(flags->at("seed"), "--seed", 0, INT64_MAX);
    if (!seed) return kUsageError;
    std::optional<std::int64_t> ms;
    if (flags->count("ms")) {
        ms = parseInteger(flags->at("ms"), "--ms", 1, 60'000);
        if (!ms) return kUsageError;
    }

    std::uint64_t nodes = kArenaNodeBudget;
    if (flags->count("nodes")) {
        const auto n = parseInteger(flags->at("nodes"), "--nodes", 1000, 1'000'000'000);
        if (!n) return kUsageError;
        nodes = static_cast<std::uint64_t>(*n);
    }
    int depth = 0;
    if (flags->count("depth")) {
        const auto d = parseInteger(flags->at("depth"), "--depth", 1, ai::kMaxSearchDepth);
        if (!d) return kUsageError;
        depth = static_cast<int>(*d);
    }

    ai::ArenaConfig config;
    config.rules = *id;
    config.games = *games;
    config.seed = static_cast<std::uint64_t>(*seed);
    for (ai::Options* o : {&config.a, &config.b}) {
        if (ms) {
            o->budget = std::chrono::milliseconds(*ms);
        } else {
            o->budget = std::chrono::milliseconds(0);  // no clock: the node cap decides
            o->nodeBudget = nodes;
        }
        o->maxDepth = depth;
    }
    config.a.level = *a;
    config.b.level = *b;

    const auto started = std::chrono::steady_clock::now();
    const ai::ArenaResult res = ai::runArena(config);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    const std::string nameA(ai::levelName(*a)), nameB(ai::levelName(*b));
    std::cout << "arena " << ruleset(*id).key << ": A " << nameA << " vs B " << nameB << ", " << res.games
              << " games, seed " << *seed << ", seats alternating";
    if (*a == ai::Level::Expert || *b == ai::Level::Expert) {
        std::cout << ", expert capped at " << (ms ? std::to_string(*ms) + " ms" : std::to_string(nodes) + " nodes")
                  << " per decision";
        if (depth) std::cout << " and " << depth << " plies";
    }
    std::cout << '\n'
              << "wins A " << nameA << ": " << share(res.winsA, res.games) << '\n'
              << "wins B " << nameB << ": " << share(res.winsB, res.games) << '\n';
    if (ruleset(*id).win == WinRule::Majority || res.draws) std::cout << "draws: " << share(res.draws, res.games) << '\n';
    if (res.unfinished) std::cout << "unfinished: " << share(res.unfinished, res.games) << '\n';
    std::cout << "first seat wins: " << share(res.firstSeatWins, res.games) << '\n';
    char mean[32];
    std::snprintf(mean, sizeof mean, "%.1f", static_cast<double>(res.plies) / static_cast<double>(res.games));
    std::cout << "mean plies per game: " << mean << '\n';

    std::cerr << "seconds: " << seconds << '\n';
    if (!res.expertMicros.empty()) {
        std::vector<double> t = res.expertMicros;
        std::sort(t.begin(), t.end());
        auto at = [&](double q) { return t[std::min(t.size() - 1, static_cast<std::size_t>(q * static_cast<double>(t.size())))] / 1000.0; };
        std::cerr << "expert decisions: " << t.size() << ", median " << at(0.5) << " ms, 90th percentile " << at(0.9)
                  << " ms, max " << t.back() / 1000.0 << " ms\n";
    }
    return 0;
}

}  // namespace senet::cli
