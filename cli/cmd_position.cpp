// `senet moves`, `senet apply`, `senet start`. RULES.md "Command-line contract".
#include <iostream>

#include "cli.hpp"

namespace senet::cli {

namespace {

/// Parses POSITION and THROW for a game that is still going; prints the error otherwise.
std::optional<std::pair<Position, int>> positionAndThrow(std::string_view positionText, std::string_view throwText) {
    auto p = parsePosition(positionText);
    if (!p) {
        error("bad position: " + p.error().message);
        return std::nullopt;
    }
    if (const Outcome o = outcome(*p); o != Outcome::Ongoing) {
        error("the game in this position is over (" + std::string(outcomeName(o)) + ")");
        return std::nullopt;
    }
    auto v = parseThrowFor(*p, throwText);
    if (!v) {
        error(v.error().message);
        return std::nullopt;
    }
    return std::pair{*p, *v};
}

}  // namespace

int cmdMoves(Args args) {
    if (args.size() != 2) return error("usage: senet moves POSITION THROW");
    const auto pt = positionAndThrow(args[0], args[1]);
    if (!pt) return kUsageError;
    MoveList moves;
    generateMoves(pt->first, pt->second, moves);
    if (moves.empty()) std::cout << "pass\n";
    for (const Move& m : moves) std::cout << formatMove(m) << '\n';
    return 0;
}

int cmdApply(Args args) {
    if (args.size() != 3) return error("usage: senet apply POSITION THROW MOVE");
    const auto pt = positionAndThrow(args[0], args[1]);
    if (!pt) return kUsageError;
    const auto& [p, v] = *pt;
    const auto m = parseMove(p, v, args[2]);
    if (!m) return error(m.error().message);
    const Position q = applyMove(p, v, *m);
    std::cout << formatPosition(q) << '\n' << outcomeName(outcome(q)) << '\n';
    return 0;
}

int cmdStart(Args args) {
    if (args.size() != 1) return error("usage: senet start RULESET");
    const auto id = parseRuleset(args[0]);
    if (!id) return kUsageError;
    std::cout << formatPosition(startPosition(*id)) << '\n';
    return 0;
}

}  // namespace senet::cli
