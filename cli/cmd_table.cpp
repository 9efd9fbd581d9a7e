// `senet table build standard|jequier|kendall FILE [--max-per-side N] [--max-total N]` and
// `senet table value FILE POSITION`: exact endgame tables, one per ruleset (engine/tables/README.md).
// Without options `build` solves the ruleset's default spec (tables::defaultSpec). Errors: one
// line on stderr, exit 2.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>

#include "cli.hpp"
#include "senet/endgame_table.hpp"

namespace senet::cli {

namespace {

constexpr const char* kUsage =
    "usage: senet table build standard|jequier|kendall FILE [--max-per-side N] [--max-total N] | senet table value FILE "
    "POSITION";

int build(Args args) {
    if (args.size() < 2 || args[0].starts_with("--") || args[1].starts_with("--")) return error(kUsage);
    const auto id = parseRuleset(args[0]);
    if (!id) return kUsageError;
    if (!tables::supportsRuleset(*id))
        return error("no endgame tables for " + std::string(args[0]) + " (standard, jequier or kendall)");
    const auto flags = parseFlags(args.subspan(2), {"max-per-side", "max-total"});
    if (!flags) return kUsageError;
    tables::TableSpec spec = tables::defaultSpec(*id);
    if (const auto f = flags->find("max-per-side"); f != flags->end()) {
        const auto n = parseInteger(f->second, "--max-per-side", 1, 5);
        if (!n) return kUsageError;
        spec.maxPerSide = static_cast<int>(*n);
    }
    if (const auto f = flags->find("max-total"); f != flags->end()) {
        const auto n = parseInteger(f->second, "--max-total", 2, 10);
        if (!n) return kUsageError;
        spec.maxTotal = static_cast<int>(*n);
    }
    const auto start = std::chrono::steady_clock::now();
    const auto table = tables::EndgameTable::solve(spec);
    if (!table) return error(table.error().message);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto bytes = table->toBytes();
    {
        std::ofstream out{std::string(args[1]), std::ios::binary};
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        if (!out) return error("cannot write '" + std::string(args[1].substr(0, 200)) + "'");
    }
    std::printf("layer  entries    sweeps  seconds  residual\n");
    for (const tables::LayerStats& l : table->layers())
        std::printf("%d v %d  %9u  %6u  %7.2f  %.3g\n", l.mover, l.other, l.entries, l.sweeps, l.seconds, l.residual);
    std::printf("total  %zu entries, %zu bytes, %.2f s\n", table->entryCount(), bytes.size(), seconds);
    return 0;
}

int value(Args args) {
    if (args.size() != 2) return error(kUsage);
    const auto position = parsePosition(args[1]);
    if (!position) return error(position.error().message);
    std::ifstream in{std::string(args[0]), std::ios::binary};
    if (!in) return error("cannot read '" + std::string(args[0].substr(0, 200)) + "'");
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const auto table = tables::EndgameTable::fromBytes(bytes);
    if (!table) return error("bad table '" + std::string(args[0].substr(0, 200)) + "': " + table.error().message);
    const auto v = table->value(*position);
    if (!v)
        return error("the position is outside the table (too many pieces on the board, another ruleset, or jequier's "
                     "opening)");
    std::printf("%.10f\n", *v);  // stored to 1.2e-10 (engine/tables/README.md)
    return 0;
}

}  // namespace

int cmdTable(Args args) {
    if (args.empty()) return error(kUsage);
    if (args[0] == "build") return build(args.subspan(1));
    if (args[0] == "value") return value(args.subspan(1));
    return error(kUsage);
}

}  // namespace senet::cli
