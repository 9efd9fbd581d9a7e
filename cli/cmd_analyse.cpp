// `senet analyse RECORD.json [--depth N] [--tables DIR]`: the win probability of player 1 at
// every position of a game record and, for every ply with a choice, the best move, the loss of
// the move played and its mark, each throw's luck and each player's accuracy, as one line of JSON
// (format: engine/ai/include/senet/ai_analysis.hpp, analyseRecordJson). RECORD.json is a record
// of `senet replay` or the verifiable record of GET /api/games/{id}/record; "-" reads standard
// input. `senet hint POSITION THROW [--depth N] [--tables DIR]`: every legal move with the
// mover's win chance, best first. Errors: one line on stderr, exit 2.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "senet/ai_analysis.hpp"

namespace senet::cli {

namespace {

/// --depth and --tables into `options` (`tables` keeps the tables alive); false after an error.
bool analysisFlags(const std::map<std::string, std::string, std::less<>>& flags, ai::AnalysisOptions& options,
                   std::unique_ptr<ai::TableValues>& tables) {
    if (const auto d = flags.find("depth"); d != flags.end()) {
        const auto depth = parseInteger(d->second, "--depth", 1, ai::kMaxAnalysisDepth);
        if (!depth) return false;
        options.depth = static_cast<int>(*depth);
    }
    if (const auto t = flags.find("tables"); t != flags.end()) {
        tables = loadTables(t->second);
        if (!tables) return false;
        options.exact = tables.get();
    }
    return true;
}

}  // namespace

int cmdAnalyse(Args args) {
    constexpr const char* kUsage =
        "usage: senet analyse RECORD.json [--depth N] [--tables DIR] (RECORD.json may be - for standard input)";
    if (args.empty() || args[0].starts_with("--")) return error(kUsage);
    const auto flags = parseFlags(args.subspan(1), {"depth", "tables"});
    if (!flags) return kUsageError;
    ai::AnalysisOptions options;
    std::unique_ptr<ai::TableValues> tables;
    if (!analysisFlags(*flags, options, tables)) return kUsageError;
    std::stringstream text;
    if (args[0] == "-") {
        text << std::cin.rdbuf();
    } else {
        std::ifstream in{std::string(args[0])};
        if (!in) return error("cannot read '" + std::string(args[0].substr(0, 200)) + "'");
        text << in.rdbuf();
    }
    const auto out = ai::analyseRecordJson(text.str(), options);
    if (!out) return error("bad record: " + out.error().message);
    std::cout << *out << '\n';
    return 0;
}

int cmdHint(Args args) {
    constexpr const char* kUsage = "usage: senet hint POSITION THROW [--depth N] [--tables DIR]";
    if (args.size() < 2 || args[0].starts_with("--") || args[1].starts_with("--")) return error(kUsage);
    const auto flags = parseFlags(args.subspan(2), {"depth", "tables"});
    if (!flags) return kUsageError;
    ai::AnalysisOptions options;
    std::unique_ptr<ai::TableValues> tables;
    if (!analysisFlags(*flags, options, tables)) return kUsageError;
    const auto p = parsePosition(args[0]);
    if (!p) return error("bad position: " + p.error().message);
    if (const Outcome o = outcome(*p); o != Outcome::Ongoing)
        return error("the game in this position is over (" + std::string(outcomeName(o)) + ")");
    const auto v = parseThrowFor(*p, args[1]);
    if (!v) return error(v.error().message);
    const auto ranked = ai::rankMoves(*p, *v, options);
    if (!ranked) return error(ranked.error().message);
    for (const ai::MoveValue& m : *ranked)
        std::printf("%s %.6f%s\n", formatMove(m.move).c_str(), m.winChance, m.exact ? " exact" : "");
    return 0;
}

}  // namespace senet::cli
