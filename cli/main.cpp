// `senet`: the engine's command-line tool. RULES.md "Command-line contract".
#include <iostream>
#include <string_view>
#include <vector>

#include "cli.hpp"

namespace {

struct Command {
    std::string_view name;
    std::string_view usage;
    int (*run)(senet::cli::Args);
};

constexpr Command kCommands[] = {
    {"moves", "moves POSITION THROW            every legal move, one per line, or 'pass'", senet::cli::cmdMoves},
    {"apply", "apply POSITION THROW MOVE       the position after MOVE, then the game's state", senet::cli::cmdApply},
    {"start", "start RULESET                   the starting position of a ruleset", senet::cli::cmdStart},
    {"selfplay", "selfplay --rules R --games N --seed S   N random games; wins, plies, games/s", senet::cli::cmdSelfplay},
    {"perft", "perft POSITION DEPTH            leaf count over every throw value and move for DEPTH plies", senet::cli::cmdPerft},
    {"replay", "replay [--positions] RECORD.json   check a game record; print its final position and result\n"
               "                                        (--positions: the start and the position after every ply instead,\n"
               "                                        one per line; Jéquier's start is the position after its opening)",
     senet::cli::cmdReplay},
    {"arena", "arena --rules R --a LEVEL --b LEVEL --games N --seed S [--ms N] [--nodes N] [--depth N] [--tables DIR]\n"
              "                                        computer levels against each other (LEVEL: random, beginner,\n"
              "                                        intermediate, expert; --tables: the expert's endgame tables)", senet::cli::cmdArena},
    {"analyse", "analyse RECORD.json [--depth N] [--tables DIR]  win probability of player 1 at every position,\n"
                "                                        each ply's best move, loss and mark, each throw's luck, each\n"
                "                                        player's accuracy, as JSON (RECORD.json may be -)", senet::cli::cmdAnalyse},
    {"hint", "hint POSITION THROW [--depth N] [--tables DIR]  every legal move with the mover's win chance, best\n"
             "                                        first ('exact' where the endgame tables know it)", senet::cli::cmdHint},
    {"verify", "verify RECORD.json [--key KEY]  check a finished game's record: the signature (KEY: the server's\n"
               "                                        public key from GET /api/key), every throw, every move, the ending",
     senet::cli::cmdVerify},
    {"winprob", "winprob POSITION [--tables DIR] the expert's estimate that player 1 wins, in [0, 1] (with\n"
                "                                        --tables: the exact value, then 'exact', where a table knows it)",
     senet::cli::cmdWinprob},
    {"query", "query < QUERIES                 answers lines 'moves POSITION THROW', 'apply POSITION THROW MOVE',\n"
              "                                        'winprob POSITION' one line each ('error: ...' when rejected)",
     senet::cli::cmdQuery},
    {"engine", "engine                          speaks the engine protocol on standard input and output: position,\n"
               "                                        throw, go, analyse, play (engine/protocol/PROTOCOL.md)",
     senet::cli::cmdEngine},
    {"table", "table build standard|jequier|kendall FILE [--max-per-side N] [--max-total N]\n"
              "                                        solve the ruleset's exact endgame table (default: 4 per side, 5 in all)\n"
              "                                        and write it to FILE; per layer: entries, sweeps, seconds, residual\n"
              "  senet table value FILE POSITION       the exact win probability of the player to throw, from the table",
     senet::cli::cmdTable},
};

void printUsage(std::ostream& out) {
    out << "usage: senet COMMAND ARGS...\n\ncommands:\n";
    for (const Command& c : kCommands) out << "  senet " << c.usage << '\n';
    out << "\nPOSITION is RULESET:BOARD:TURN:OFF1:OFF2, e.g. standard:1212121212....................:1:0:0\n"
           "MOVE is FROM-TO, FROM-off or pass.\n";
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string_view> args(argv + 1, argv + argc);
    if (args.empty()) return senet::cli::error("no command given (try 'senet help')");
    if (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        printUsage(std::cout);
        return 0;
    }
    for (const Command& c : kCommands)
        if (c.name == args[0]) return c.run(senet::cli::Args(args).subspan(1));
    return senet::cli::error("unknown command '" + std::string(args[0].substr(0, 40)) + "' (try 'senet help')");
}
