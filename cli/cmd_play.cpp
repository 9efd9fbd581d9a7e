// `senet selfplay`, `senet perft`, `senet replay`.
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include <vector>

#include "senet/perft.hpp"
#include "senet/record_positions.hpp"

namespace senet::cli {

int cmdSelfplay(Args args) {
    const auto flags = parseFlags(args, {"rules", "games", "seed"});
    if (!flags) return kUsageError;
    for (const char* required : {"rules", "games", "seed"})
        if (!flags->count(required)) return error(std::string("selfplay needs --") + required);
    const auto id = parseRuleset(flags->at("rules"));
    const auto games = id ? parseInteger(flags->at("games"), "--games", 1, 1'000'000'000) : std::nullopt;
    const auto seed = games ? parseInteger(flags->at("seed"), "--seed", 0, INT64_MAX) : std::nullopt;
    if (!seed) return kUsageError;

    const Ruleset& r = ruleset(*id);
    Rng rng(static_cast<std::uint64_t>(*seed));
    std::int64_t wins[2] = {0, 0}, draws = 0, unfinished = 0, totalPlies = 0, maxPlies = 0, openingThrows = 0, totalThrows = 0;
    const auto started = std::chrono::steady_clock::now();
    for (std::int64_t g = 0; g < *games; ++g) {
        if (r.opening == OpeningRule::ThrowForOne) {
            bool seatZeroIsPlayerTwo = false;
            openingThrows += randomOpening(rng, seatZeroIsPlayerTwo);
        }
        const PlayoutResult res = randomPlayout(startPosition(*id), rng);
        totalPlies += res.plies;
        totalThrows += res.throws;
        maxPlies = std::max<std::int64_t>(maxPlies, res.plies);
        switch (res.outcome) {
            case Outcome::WinOne: ++wins[0]; break;
            case Outcome::WinTwo: ++wins[1]; break;
            case Outcome::Draw: ++draws; break;
            case Outcome::Ongoing: ++unfinished; break;
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    // stdout depends only on the arguments; the timing goes to stderr.
    std::cout << "ruleset " << r.key << ", " << *games << " games, seed " << *seed << '\n'
              << "wins player 1: " << wins[0] << '\n'
              << "wins player 2: " << wins[1] << '\n'
              << "draws: " << draws << '\n';
    if (unfinished) std::cout << "unfinished: " << unfinished << '\n';
    std::cout << std::fixed << std::setprecision(2) << "mean plies: " << static_cast<double>(totalPlies) / *games << '\n'
              << "max plies: " << maxPlies << '\n';
    // Piccione: a ply is a step, and a throw may be spent by several steps.
    if (r.turnModel == TurnModel::SplitSteps)
        std::cout << "mean throws: " << static_cast<double>(totalThrows) / *games << '\n';
    if (r.opening == OpeningRule::ThrowForOne)
        std::cout << "mean opening throws: " << static_cast<double>(openingThrows) / *games << '\n';
    std::cerr << std::fixed << std::setprecision(0) << "games per second: " << (*games / std::max(seconds, 1e-9)) << '\n';
    return 0;
}

int cmdPerft(Args args) {
    if (args.size() != 2) return error("usage: senet perft POSITION DEPTH");
    const auto p = parsePosition(args[0]);
    if (!p) return error("bad position: " + p.error().message);
    const auto depth = parseInteger(args[1], "DEPTH", 0, 12);
    if (!depth) return kUsageError;
    std::cout << perft(*p, static_cast<int>(*depth)) << '\n';
    return 0;
}

int cmdReplay(Args args) {
    // --positions (before or after the file): every position of the game instead of the last.
    bool positions = false;
    std::vector<std::string_view> rest;
    for (std::string_view a : args) {
        if (a == "--positions" && !positions) positions = true;
        else rest.push_back(a);
    }
    if (rest.size() != 1 || (rest[0].starts_with("--")))
        return error("usage: senet replay [--positions] RECORD.json (or - for standard input)");
    std::stringstream text;
    if (rest[0] == "-") {
        text << std::cin.rdbuf();
    } else {
        std::ifstream in{std::string(rest[0])};
        if (!in) return error("cannot read '" + std::string(rest[0]) + "'");
        text << in.rdbuf();
    }
    const auto game = replayJson(text.str());
    if (!game) return error("bad record: " + game.error().message);
    if (positions) {
        for (const Position& p : recordPositions(game->record())) std::cout << formatPosition(p) << '\n';
        return 0;
    }
    std::cout << formatPosition(game->position()) << '\n' << outcomeName(game->outcome()) << '\n';
    return 0;
}

}  // namespace senet::cli
