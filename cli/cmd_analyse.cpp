// `senet analyse RECORD.json [--depth N]`: the win probability of player 1 at every position of
// a game record and, for every ply with a choice, the best move and the loss of the move played,
// as one line of JSON (format: engine/ai/include/senet/ai_analysis.hpp, analyseRecordJson).
// RECORD.json is a record of `senet replay` or the verifiable record of GET /api/games/{id}/record;
// "-" reads standard input. Errors: one line on stderr, exit 2.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "senet/ai_analysis.hpp"

namespace senet::cli {

int cmdAnalyse(Args args) {
    constexpr const char* kUsage = "usage: senet analyse RECORD.json [--depth N] (RECORD.json may be - for standard input)";
    if (args.empty() || args[0].starts_with("--")) return error(kUsage);
    const auto flags = parseFlags(args.subspan(1), {"depth"});
    if (!flags) return kUsageError;
    ai::AnalysisOptions options;
    if (const auto d = flags->find("depth"); d != flags->end()) {
        const auto depth = parseInteger(d->second, "--depth", 1, ai::kMaxAnalysisDepth);
        if (!depth) return kUsageError;
        options.depth = static_cast<int>(*depth);
    }
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

}  // namespace senet::cli
