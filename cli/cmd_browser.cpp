// `senet winprob` and `senet query`: the native answers the WebAssembly build
// (engine/wasm/bindings.cpp) is compared with by web/test/wasm-engine.test.mjs.
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "senet/ai_win_probability.hpp"

namespace senet::cli {

namespace {

/// A probability with 17 significant digits: it reads back as the same double.
std::string probabilityText(double v) {
    std::ostringstream out;
    out << std::setprecision(17) << v;
    return out.str();
}

/// The position of a game still going and a throw it allows, or the message `senet moves` gives.
Result<std::pair<Position, int>> positionAndThrow(std::string_view positionText, std::string_view throwText) {
    auto p = parsePosition(positionText);
    if (!p) return fail("bad position: " + p.error().message);
    if (const Outcome o = outcome(*p); o != Outcome::Ongoing)
        return fail("the game in this position is over (" + std::string(outcomeName(o)) + ")");
    auto v = parseThrowFor(*p, throwText);
    if (!v) return v.error();
    return std::pair{*p, *v};
}

/// The one-line answer to one query line (see cmdQuery), "error: ..." when it is rejected.
std::string answer(const std::string& line) {
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string w; in >> w;) words.push_back(w);
    const auto is = [&](std::string_view command, std::size_t args) { return !words.empty() && words[0] == command && words.size() == args + 1; };
    if (is("moves", 2)) {
        const auto pt = positionAndThrow(words[1], words[2]);
        if (!pt) return "error: " + pt.error().message;
        MoveList moves;
        generateMoves(pt->first, pt->second, moves);
        if (moves.empty()) return "pass";
        std::string out;
        for (const Move& m : moves) out += (out.empty() ? "" : " ") + formatMove(m);
        return out;
    }
    if (is("apply", 3)) {
        const auto pt = positionAndThrow(words[1], words[2]);
        if (!pt) return "error: " + pt.error().message;
        const auto m = parseMove(pt->first, pt->second, words[3]);
        if (!m) return "error: " + m.error().message;
        const Position q = applyMove(pt->first, pt->second, *m);
        return formatPosition(q) + ' ' + std::string(outcomeName(outcome(q)));
    }
    if (is("winprob", 1)) {
        const auto p = parsePosition(words[1]);
        if (!p) return "error: bad position: " + p.error().message;
        return probabilityText(ai::winProbability(*p));
    }
    return "error: expected 'moves POSITION THROW', 'apply POSITION THROW MOVE' or 'winprob POSITION'";
}

}  // namespace

int cmdWinprob(Args args) {
    constexpr const char* kUsage = "usage: senet winprob POSITION [--tables DIR]";
    if (args.empty() || args[0].starts_with("--")) return error(kUsage);
    const auto flags = parseFlags(args.subspan(1), {"tables"});
    if (!flags) return kUsageError;
    const auto p = parsePosition(args[0]);
    if (!p) return error("bad position: " + p.error().message);
    if (const auto t = flags->find("tables"); t != flags->end()) {
        // The tables' exact value where they know the position (printed with "exact").
        const auto tables = loadTables(t->second);
        if (!tables) return kUsageError;
        if (outcome(*p) == Outcome::Ongoing)
            if (const auto w = tables->winChance(*p)) {
                std::cout << probabilityText(p->turn == Player::One ? *w : 1.0 - *w) << " exact\n";
                return 0;
            }
    }
    std::cout << probabilityText(ai::winProbability(*p)) << '\n';
    return 0;
}

int cmdQuery(Args args) {
    if (!args.empty()) return error("usage: senet query < QUERIES (one query per line)");
    std::string line;
    std::string out;
    while (std::getline(std::cin, line)) {
        out += answer(line);
        out += '\n';
        if (out.size() > (1 << 16)) {
            std::cout << out;
            out.clear();
        }
    }
    std::cout << out << std::flush;
    return 0;
}

}  // namespace senet::cli
