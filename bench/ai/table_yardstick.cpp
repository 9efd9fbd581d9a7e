// The yardstick for the computer's levels (engine/ai/README.md "Against the endgame tables"):
// over decisions sampled from real games that fall inside an endgame table, the win chance each
// level gives away against the table's perfect choice, per decision and per game.
//
//   table_yardstick TABLES_DIR [GAMES] [SEED]
//
// For every ruleset with a table in TABLES_DIR ("<ruleset>.sntb", as the build writes them into
// build/tables): GAMES games (default 200) of the intermediate level against itself, throws and
// choices from SEED (default 1); every decision of those games whose position lies in the table
// and whose throw allows two or more moves is kept. Each level (the expert at 20,000 nodes, as in
// the arena, and at the server's 100 ms budget when --ms is given as a fourth argument) then
// decides every kept decision *without* the tables, and its loss is the table value of the best
// move minus that of its move, for the mover. "Per game" is the mean loss per decision times the
// decisions per player per game that fell in the table.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "senet/ai.hpp"
#include "senet/ai_tables.hpp"

namespace {

using namespace senet;

struct Decision {
    Position position;
    int throwValue;
};

/// The table value, for the mover of `p`, of the position after `m`.
double valueAfter(const ai::TableValues& t, const Position& p, int v, const Move& m) {
    const Position q = applyMove(p, v, m);
    const Outcome o = outcome(q);
    if (o != Outcome::Ongoing) return ai::terminalValue(o, p.turn) > 0 ? 1.0 : 0.0;
    const double w = *t.winChance(q);
    return q.turn == p.turn ? w : 1.0 - w;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 5) {
        std::fprintf(stderr, "usage: table_yardstick TABLES_DIR [GAMES] [SEED] [MS]\n");
        return 2;
    }
    const std::string dir = argv[1];
    const int games = argc > 2 ? std::atoi(argv[2]) : 200;
    const std::uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
    const int ms = argc > 4 ? std::atoi(argv[4]) : 0;
    if (games < 1 || games > 1'000'000 || ms < 0) {
        std::fprintf(stderr, "table_yardstick: GAMES must be 1..1000000, MS >= 0\n");
        return 2;
    }
    ai::TableValues tables;
    for (const Ruleset* r : allRulesets()) {
        std::ifstream in(dir + "/" + ai::tableFileName(r->id), std::ios::binary);
        if (!in) continue;
        const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        if (const auto id = tables.addBytes(bytes); !id) {
            std::fprintf(stderr, "table_yardstick: %s: %s\n", ai::tableFileName(r->id).c_str(), id.error().message.c_str());
            return 1;
        }
    }
    if (tables.empty()) {
        std::fprintf(stderr, "table_yardstick: no table in %s\n", dir.c_str());
        return 1;
    }

    std::printf("| ruleset | level | decisions in the table (per player per game) | loss per decision | loss per game | best move found |\n");
    std::printf("|---|---|---:|---:|---:|---:|\n");
    for (const Ruleset* r : allRulesets()) {
        if (!tables.table(r->id)) continue;
        // The sample: decisions of intermediate self-play games inside the table.
        std::vector<Decision> sample;
        Rng rng(seed);
        ai::Options play;
        play.level = ai::Level::Intermediate;
        for (int g = 0; g < games; ++g) {
            Game game(r->id);
            while (game.phase() != Phase::Over) {
                if (game.phase() != Phase::Move) {
                    (void)game.applyThrow(rng.throwOutcome(game.rules()).throw_);
                    continue;
                }
                const Position p = game.position();
                const int v = game.moveThrowValue();
                if (game.legalMoves().size() >= 2 && tables.winChance(p)) sample.push_back({p, v});
                (void)game.applyMove(ai::chooseMove(p, v, play, rng));
            }
        }
        const double perPlayerGame = static_cast<double>(sample.size()) / (2.0 * games);
        struct Row {
            const char* name;
            ai::Level level;
            int ms;
        };
        std::vector<Row> rows = {{"random", ai::Level::Random, 0},
                                 {"beginner", ai::Level::Beginner, 0},
                                 {"intermediate", ai::Level::Intermediate, 0},
                                 {"expert (20,000 nodes)", ai::Level::Expert, 0}};
        if (ms > 0) rows.push_back({"expert (server budget)", ai::Level::Expert, ms});
        for (const Row& row : rows) {
            ai::Options o;
            o.level = row.level;
            if (row.ms > 0) {
                o.budget = std::chrono::milliseconds(row.ms);
            } else {
                o.budget = std::chrono::milliseconds(0);
                o.nodeBudget = 20'000;
            }
            Rng choose(seed + 99);
            double loss = 0;
            int best = 0;
            for (const Decision& d : sample) {
                MoveList moves;
                generateMoves(d.position, d.throwValue, moves);
                double top = 0;
                for (const Move& m : moves) top = std::max(top, valueAfter(tables, d.position, d.throwValue, m));
                const double got = valueAfter(tables, d.position, d.throwValue, ai::chooseMove(d.position, d.throwValue, o, choose));
                loss += top - got;
                best += top - got < 1e-9;
            }
            const double n = sample.empty() ? 1.0 : static_cast<double>(sample.size());
            std::printf("| %s | %s | %zu (%.1f) | %.4f%% | %.3f%% | %.1f%% |\n", std::string(r->key).c_str(), row.name, sample.size(),
                        perPlayerGame, 100.0 * loss / n, 100.0 * loss / n * perPlayerGame, 100.0 * best / n);
            std::fflush(stdout);
        }
    }
    return 0;
}
