// Fuzz target: `senet engine`'s protocol (engine/protocol/PROTOCOL.md). Input: lines, each
// handed to one Session as the command line tool does; a search it asks for is run with a small
// budget (go: at most 300 nodes, no clock; analyse: depth 1) so that runs stay fast. Checks:
// nothing throws or aborts; a refused line gets exactly one "error ..." line; every answer line
// is one of the protocol's kinds; a bestmove is a legal move of the position (or the pass when
// it has none); analyse lists every legal move once and ends with "analysis end".
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "senet/engine_protocol.hpp"

using namespace senet;
using senet::fuzz::check;

namespace {

bool startsWith(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

/// Runs `job` cut to a small budget; checks its lines against the position's legal moves.
void runSmall(protocol::Job job, std::string_view line) {
    if (auto* go = std::get_if<protocol::GoRequest>(&job.request)) {
        go->nodes = std::min<std::uint64_t>(go->nodes.value_or(300), 300);
        go->ms.reset();
    } else {
        std::get<protocol::AnalyseRequest>(job.request).depth = 1;
    }
    std::vector<std::string> out;
    protocol::runJob(job, nullptr, [&](const std::string& l) { out.push_back(l); });
    MoveList legal;
    generateMoves(job.position, job.throwValue, legal);
    std::vector<std::string> names;
    for (const Move& m : legal) names.push_back(formatMove(m));
    if (names.empty()) names.push_back("pass");
    check(!out.empty(), "a search writes at least one line", line);
    const bool go = std::holds_alternative<protocol::GoRequest>(job.request);
    if (go) {
        for (std::size_t i = 0; i + 1 < out.size(); ++i) check(startsWith(out[i], "info depth "), "go writes info lines before bestmove", out[i]);
        check(startsWith(out.back(), "bestmove "), "go ends with bestmove", out.back());
        const std::string move = out.back().substr(9);
        check(std::find(names.begin(), names.end(), move) != names.end(), "bestmove is a legal move", out.back());
    } else {
        check(out.back() == "analysis end", "analyse ends with 'analysis end'", out.back());
        check(out.size() == names.size() + 1, "analyse lists every legal move once", line);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    protocol::Session session;
    std::size_t start = 0;
    int searches = 0;
    while (start <= input.size()) {
        const std::size_t end = std::min(input.find('\n', start), input.size());
        const std::string_view line = input.substr(start, end - start);
        start = end + 1;
        const protocol::Reply r = session.handle(line);
        const bool refused = !r.lines.empty() && startsWith(r.lines[0], "error ");
        if (refused) check(r.lines.size() == 1 && !r.job && !r.quit, "a refused line gets exactly one error line", line);
        for (const std::string& l : r.lines)
            check(l.find('\n') == std::string::npos && (refused || l == "readyok" || l == "ok" || startsWith(l, "id ") ||
                                                        startsWith(l, "protocol ") || startsWith(l, "position ")),
                  "an answer line is one of the protocol's kinds", l);
        if (r.job && ++searches <= 4) runSmall(*r.job, line);  // a few searches an input: the rest is parsing
        if (r.quit || end == input.size()) break;
    }
    return 0;
}
