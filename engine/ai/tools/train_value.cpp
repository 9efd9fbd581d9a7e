// Trains the learned evaluation of one ruleset by TD(lambda) self-play and writes its weights
// as a C++ include file. engine/ai/README.md ("The learned evaluation") gives the method, the
// settings used and the command that produced each weights file.
//
//   senet-train-value --rules R --games N --seed S --out FILE [--alpha A] [--lambda L]
//                     [--hidden-init X] [--explore E] [--max-plies N] [--check N] [--init FILE]
//                     [--random-opponent F]
//
// --random-opponent F: in that share of the games one side (either, at random) plays uniformly
// random moves, so that the network also learns the positions a careless player creates.
//
// Piccione: a ply is one throw with all the steps that spend it (src/turn_steps.hpp); the
// network picks the best position in which the throw is spent.
//
// Every --check games it plays 4,000 games of the network (greedy, one ply) against the
// intermediate level and 1,000 against a random mover and prints the shares it wins, so the
// progress can be followed.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "senet/ai.hpp"
#include "senet/ai_search.hpp"
#include "senet/perft.hpp"
#include "senet/senet.hpp"
#include "turn_steps.hpp"
#include "value_net.hpp"

namespace {

using namespace senet;
using namespace senet::ai::detail;

struct Settings {
    RulesetId rules = RulesetId::Jequier;
    long games = 100000;
    std::uint64_t seed = 1;
    std::string out;
    double alpha = 0.1;
    double lambda = 0.7;
    double init = 0.1;
    long check = 10000;
    double explore = 0.0;
    int maxPlies = 5000;
    std::string from;  ///< --init: weights file to start from instead of random weights
    double randomSide = 0;  ///< --random-opponent: share of games where one side plays at random
};

[[noreturn]] void fail(const std::string& message) {
    std::fprintf(stderr, "senet-train-value: error: %s\n", message.c_str());
    std::exit(2);
}

template <class T>
T number(std::string_view name, std::string_view text) {
    T value{};
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size()) fail("bad value for " + std::string(name));
    return value;
}

double numberDouble(std::string_view name, std::string_view text) {
    char* end = nullptr;
    const std::string s(text);
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v)) fail("bad value for " + std::string(name));
    return v;
}

Settings parse(int argc, char** argv) {
    Settings s;
    for (int i = 1; i < argc; i += 2) {
        const std::string_view flag = argv[i];
        if (i + 1 >= argc) fail("missing value for " + std::string(flag));
        const std::string_view value = argv[i + 1];
        if (flag == "--rules") {
            const auto id = rulesetByKey(value);
            if (!id) fail("unknown ruleset " + std::string(value));
            s.rules = *id;
        } else if (flag == "--games") s.games = number<long>(flag, value);
        else if (flag == "--seed") s.seed = number<std::uint64_t>(flag, value);
        else if (flag == "--out") s.out = value;
        else if (flag == "--alpha") s.alpha = numberDouble(flag, value);
        else if (flag == "--lambda") s.lambda = numberDouble(flag, value);
        else if (flag == "--hidden-init") s.init = numberDouble(flag, value);
        else if (flag == "--check") s.check = number<long>(flag, value);
        else if (flag == "--explore") s.explore = numberDouble(flag, value);
        else if (flag == "--max-plies") s.maxPlies = number<int>(flag, value);
        else if (flag == "--init") s.from = value;
        else if (flag == "--random-opponent") s.randomSide = numberDouble(flag, value);
        else fail("unknown flag " + std::string(flag));
    }
    if (s.out.empty()) fail("--out is required");
    if (s.games < 1 || s.check < 1 || s.maxPlies < 1) fail("--games, --check and --max-plies must be positive");
    if (s.alpha < 0 || s.init < 0) fail("--alpha and --hidden-init must not be negative");
    for (const auto& [name, share] : {std::pair{"--lambda", s.lambda}, std::pair{"--explore", s.explore},
                                      std::pair{"--random-opponent", s.randomSide}})
        if (share < 0 || share > 1) fail(std::string(name) + " must lie in 0..1");
    return s;
}

/// Flat view of every weight, so gradients and traces are plain arrays.
constexpr int kWeightCount = kNetInputs * kNetHidden + kNetHidden + kNetHidden + 1;

float* flat(NetWeights& w) { return &w.w1[0][0]; }
static_assert(sizeof(NetWeights) == kWeightCount * sizeof(float));

/// The gradient of the network's output for `in` with respect to every weight.
void gradient(const NetWeights& w, const NetInputs& in, const NetForward& f, float* g) {
    std::memset(g, 0, kWeightCount * sizeof(float));
    const float dOut = f.out * (1 - f.out);
    float* gw1 = g;
    float* gb1 = g + kNetInputs * kNetHidden;
    float* gw2 = gb1 + kNetHidden;
    float* gb2 = gw2 + kNetHidden;
    for (int j = 0; j < kNetHidden; ++j) {
        gw2[j] = dOut * f.hidden[j];
        gb1[j] = dOut * w.w2[j] * (1 - f.hidden[j] * f.hidden[j]);
    }
    *gb2 = dOut;
    for (int k = 0; k < in.activeCount; ++k) {
        float* row = gw1 + in.active[k] * kNetHidden;
        for (int j = 0; j < kNetHidden; ++j) row[j] = gb1[j];
    }
    for (int d = 0; d < kNetDense; ++d) {
        float* row = gw1 + (kNetSquares + d) * kNetHidden;
        for (int j = 0; j < kNetHidden; ++j) row[j] = gb1[j] * in.dense[d];
    }
}

/// The chance that player 1 wins `p`, by the network (or the result, once decided).
float playerOneValue(const NetWeights& w, const Position& p) {
    const Outcome o = outcome(p);
    if (o == Outcome::WinOne) return 1;
    if (o == Outcome::WinTwo) return 0;
    if (o == Outcome::Draw) return 0.5f;
    const float v = netForward(w, netInputs(p)).out;
    return p.turn == Player::One ? v : 1 - v;
}

/// The move the network prefers for the player to move: the best value after the move.
Move greedyMove(const NetWeights& w, const Position& p, int v, const MoveList& moves) {
    Move best = Move::pass();
    float bestValue = -1;
    for (const Move& m : moves) {
        const float u = playerOneValue(w, applyMove(p, v, m));
        const float mine = p.turn == Player::One ? u : 1 - u;
        if (mine > bestValue) {
            bestValue = mine;
            best = m;
        }
    }
    return best;
}

/// Piccione (a throw split over steps): the position after `p`'s throw `v` is spent, the
/// network's best of every distinct way to spend it, or (`random`) any one of them.
Position spendThrow(const NetWeights& w, const Position& p, int v, bool random, Rng& rng) {
    std::vector<Position> spent;
    spentThrowPositions(p, v, spent);
    if (random) return spent[rng.below(static_cast<std::uint32_t>(spent.size()))];
    Position best = spent[0];
    float bestValue = -1;
    for (const Position& q : spent) {
        const float u = playerOneValue(w, q);
        const float mine = p.turn == Player::One ? u : 1 - u;
        if (mine > bestValue) {
            bestValue = mine;
            best = q;
        }
    }
    return best;
}

Position openingPosition(RulesetId id, Rng& rng) {
    Position p = startPosition(id);
    if (ruleset(id).opening == OpeningRule::ThrowForOne) {
        bool unused = false;
        randomOpening(rng, unused);
    }
    return p;
}

/// Share of `games` games the greedy network wins against `level`.
double check(const NetWeights& w, RulesetId id, int games, std::uint64_t seed, senet::ai::Level level) {
    Rng rng(seed);
    senet::ai::Options inter;
    inter.level = level;
    const Ruleset& r = ruleset(id);
    double won = 0;
    MoveList moves;
    for (int g = 0; g < games; ++g) {
        Position p = openingPosition(id, rng);
        const Player net = g % 2 == 0 ? Player::One : Player::Two;
        for (int ply = 0; ply < 5000 && outcome(p) == Outcome::Ongoing; ++ply) {
            int v = rng.throwOutcome(r).throw_.value;
            if (r.turnModel == TurnModel::SplitSteps && p.turn == net) {
                p = spendThrow(w, p, v, false, rng);
                continue;
            }
            // The level decides step by step until the throw is spent (one step elsewhere).
            const Player mover = p.turn;
            do {
                generateMoves(p, v, moves);
                Move m = Move::pass();
                if (!moves.empty()) m = p.turn == net ? greedyMove(w, p, v, moves) : senet::ai::chooseMove(p, v, inter, rng);
                p = applyMove(p, v, m);
                v = kNoThrow;
            } while (!p.throwDue() && p.turn == mover && outcome(p) == Outcome::Ongoing);
        }
        const Outcome o = outcome(p);
        if (o == Outcome::Draw) won += 0.5;
        else if ((o == Outcome::WinOne) == (net == Player::One) && o != Outcome::Ongoing) won += 1;
    }
    return won / games;
}

/// Reads a weights file written by `write` (comment lines, then the numbers between braces).
void read(const std::string& path, NetWeights& w) {
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (!f) fail("cannot read " + path);
    std::string text;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
    std::fclose(f);
    const auto open = text.find('{'), close = text.rfind('}');
    if (open == std::string::npos || close == std::string::npos || close < open) fail(path + ": no weights");
    float* x = flat(w);
    int count = 0;
    const char* p = text.c_str() + open + 1;
    const char* end = text.c_str() + close;
    while (p < end) {
        char* next = nullptr;
        const float v = std::strtof(p, &next);
        if (next == p) {
            ++p;  // a comma or white space
            continue;
        }
        if (count == kWeightCount) fail(path + ": too many weights");
        x[count++] = v;
        p = next;
    }
    if (count != kWeightCount) fail(path + ": " + std::to_string(count) + " weights, expected " + std::to_string(kWeightCount));
}

void write(const NetWeights& w, const Settings& s) {
    std::FILE* f = std::fopen(s.out.c_str(), "w");
    if (!f) fail("cannot write " + s.out);
    std::fprintf(f,
                 "// Generated by senet-train-value --rules %s --games %ld --seed %llu --alpha %g --lambda %g "
                 "--hidden-init %g --explore %g --max-plies %d --random-opponent %g%s%s\n// Do not edit: see engine/ai/README.md, \"The learned evaluation\".\n{\n",
                 std::string(ruleset(s.rules).key).c_str(), s.games, static_cast<unsigned long long>(s.seed), s.alpha,
                 s.lambda, s.init, s.explore, s.maxPlies, s.randomSide, s.from.empty() ? "" : " --init ", s.from.c_str());
    const float* x = &w.w1[0][0];
    for (int i = 0; i < kWeightCount; ++i) std::fprintf(f, "%.7g,%s", x[i], (i % 10 == 9) ? "\n" : "");
    std::fprintf(f, "\n}\n");
    std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
    const Settings s = parse(argc, argv);
    const Ruleset& r = ruleset(s.rules);
    Rng rng(s.seed);
    static NetWeights w;
    float* wf = flat(w);
    for (int i = 0; i < kWeightCount; ++i)
        wf[i] = static_cast<float>(s.init * (static_cast<double>(rng.below(2000001)) / 1e6 - 1.0));
    if (!s.from.empty()) read(s.from, w);
    static float trace[kWeightCount], grad[kWeightCount];
    MoveList moves;
    long plies = 0;
    for (long g = 1; g <= s.games; ++g) {
        std::memset(trace, 0, sizeof trace);
        Position p = openingPosition(s.rules, rng);
        // The rate falls slowly so that late games refine rather than overwrite.
        const float alpha = static_cast<float>(s.alpha / std::sqrt(1.0 + 10.0 * g / s.games));
        const float lambda = static_cast<float>(s.lambda);
        const bool withRandom = rng.below(1000000) < s.randomSide * 1e6;
        const Player careless = rng.below(2) == 0 ? Player::One : Player::Two;
        for (int ply = 0; ply < s.maxPlies && outcome(p) == Outcome::Ongoing; ++ply, ++plies) {
            const NetInputs in = netInputs(p);
            const NetForward f = netForward(w, in);
            const float u = p.turn == Player::One ? f.out : 1 - f.out;
            gradient(w, in, f, grad);
            const float sign = p.turn == Player::One ? 1.0f : -1.0f;  // d(player 1's chance)/d(out)
            for (int i = 0; i < kWeightCount; ++i) trace[i] = lambda * trace[i] + sign * grad[i];
            const int v = rng.throwOutcome(r).throw_.value;
            // A few exploratory moves keep self-play from settling into long mutual blockades.
            const bool random = (withRandom && p.turn == careless) || rng.below(1000000) < s.explore * 1e6;
            if (r.turnModel == TurnModel::SplitSteps) {
                p = spendThrow(w, p, v, random, rng);  // one throw, all its steps
            } else {
                generateMoves(p, v, moves);
                Move m = Move::pass();
                if (!moves.empty())
                    m = random ? moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))]
                               : greedyMove(w, p, v, moves);
                p = applyMove(p, v, m);
            }
            const float next = playerOneValue(w, p);
            const float step = alpha * (next - u);
            for (int i = 0; i < kWeightCount; ++i) wf[i] += step * trace[i];
        }
        if (g % s.check == 0 || g == s.games) {
            std::printf("games %ld  plies/game %.1f  greedy network vs intermediate: %.1f%%, vs random: %.1f%%\n", g,
                        static_cast<double>(plies) / s.check,
                        100 * check(w, s.rules, 4000, s.seed + 77, senet::ai::Level::Intermediate),
                        100 * check(w, s.rules, 1000, s.seed + 78, senet::ai::Level::Random));
            write(w, s);
            std::fflush(stdout);
            plies = 0;
        }
    }
    write(w, s);
    return 0;
}
