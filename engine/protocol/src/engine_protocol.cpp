// `senet engine`'s protocol (PROTOCOL.md beside this folder): parsing a line, the session's
// state, and running a search.
#include "senet/engine_protocol.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "senet/ai_analysis.hpp"

namespace senet::protocol {

namespace {

/// The words of a line, split on spaces and tabs.
std::vector<std::string_view> wordsOf(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

/// A word cut for an error message (at most 40 bytes).
std::string shown(std::string_view word) { return std::string(word.substr(0, 40)); }

/// A whole decimal number in [min, max], named `what` in the error.
Result<std::int64_t> number(std::string_view word, std::string_view what, std::int64_t min, std::int64_t max) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
    if (ec != std::errc() || end != word.data() + word.size() || word.empty() || word[0] == '+' || v < min || v > max)
        return fail(std::string(what) + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                    ", got '" + shown(word) + "'");
    return v;
}

/// `go`'s arguments: NAME VALUE pairs, each name at most once.
Result<Command> parseGo(const std::vector<std::string_view>& w) {
    GoRequest go;
    bool seen[4] = {};
    for (std::size_t i = 1; i < w.size(); i += 2) {
        const std::string_view name = w[i];
        if (i + 1 >= w.size()) return fail("go: '" + shown(name) + "' needs a value");
        const std::string_view value = w[i + 1];
        const int slot = name == "level" ? 0 : name == "nodes" ? 1 : name == "ms" ? 2 : name == "depth" ? 3 : -1;
        if (slot < 0) return fail("go: unknown limit '" + shown(name) + "' (expected level, nodes, ms or depth)");
        if (seen[slot]) return fail("go: '" + std::string(name) + "' is given twice");
        seen[slot] = true;
        if (slot == 0) {
            const auto level = ai::levelByName(value);
            if (!level) return fail("go: unknown level '" + shown(value) + "' (expected random, beginner, intermediate or expert)");
            go.level = *level;
        } else if (slot == 1) {
            const auto n = number(value, "go nodes", 1, 1'000'000'000);
            if (!n) return n.error();
            go.nodes = static_cast<std::uint64_t>(*n);
        } else if (slot == 2) {
            const auto n = number(value, "go ms", 1, 600'000);
            if (!n) return n.error();
            go.ms = static_cast<int>(*n);
        } else {
            const auto n = number(value, "go depth", 1, ai::kMaxSearchDepth);
            if (!n) return n.error();
            go.depth = static_cast<int>(*n);
        }
    }
    return Command{go};
}

/// A probability or value with 4 decimals.
std::string decimals(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", v);
    return buf;
}

/// The status word(s) after a move: ongoing, win 1, win 2 or draw.
std::string statusOf(const Position& p) { return std::string(outcomeName(outcome(p))); }

}  // namespace

Result<Command> parseCommand(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > kMaxLineBytes) return fail("line too long (" + std::to_string(line.size()) + " bytes, at most " + std::to_string(kMaxLineBytes) + ")");
    for (const char c : line)
        if ((c < 0x20 || c > 0x7e) && c != '\t') return fail("the line holds a byte that is not printable ASCII");
    const auto w = wordsOf(line);
    if (w.empty()) return Command{Empty{}};
    const std::string_view name = w[0];
    const auto only = [&](Command c) -> Result<Command> {
        if (w.size() != 1) return fail("'" + std::string(name) + "' takes no argument");
        return c;
    };
    const auto one = [&](std::string_view usage) -> Result<std::string_view> {
        if (w.size() != 2) return fail("usage: " + std::string(usage));
        return w[1];
    };
    if (name == "senet-engine") return only(Hello{});
    if (name == "isready") return only(IsReady{});
    if (name == "stop") return only(Stop{});
    if (name == "quit") return only(Quit{});
    if (name == "position") {
        const auto text = one("position POSITION");
        if (!text) return text.error();
        auto p = parsePosition(*text);
        if (!p) return fail("bad position: " + p.error().message);
        return Command{SetPosition{*p}};
    }
    if (name == "throw") {
        const auto text = one("throw N (or throw - while a Piccione remainder is spent)");
        if (!text) return text.error();
        return Command{SetThrow{std::string(*text)}};
    }
    if (name == "play") {
        const auto text = one("play MOVE");
        if (!text) return text.error();
        return Command{Play{std::string(*text)}};
    }
    if (name == "seed") {
        const auto text = one("seed N");
        if (!text) return text.error();
        const auto n = number(*text, "seed", 0, INT64_MAX);
        if (!n) return n.error();
        return Command{Seed{static_cast<std::uint64_t>(*n)}};
    }
    if (name == "go") return parseGo(w);
    if (name == "analyse") {
        AnalyseRequest a;
        if (w.size() == 1) return Command{a};
        if (w.size() != 3 || w[1] != "depth") return fail("usage: analyse [depth N]");
        const auto n = number(w[2], "analyse depth", 1, ai::kMaxAnalysisDepth);
        if (!n) return n.error();
        a.depth = static_cast<int>(*n);
        return Command{a};
    }
    return fail("unknown command '" + shown(name) + "' (expected senet-engine, isready, position, throw, go, analyse, play, seed, stop or quit)");
}

Reply Session::handle(std::string_view line) {
    Reply r;
    const auto refuse = [&](const std::string& message) {
        r.lines.push_back("error " + message);
        return r;
    };
    auto parsed = parseCommand(line);
    if (!parsed) return refuse(parsed.error().message);
    const Command& c = *parsed;
    if (std::holds_alternative<Empty>(c) || std::holds_alternative<Stop>(c)) return r;  // stop: the caller stops a search
    if (std::holds_alternative<IsReady>(c)) {
        r.lines.push_back("readyok");
        return r;
    }
    if (std::holds_alternative<Quit>(c)) {
        r.quit = true;
        return r;
    }
    if (std::holds_alternative<Hello>(c)) {
        r.lines = {"id name Senet online engine", "id author Senet online", "protocol " + std::to_string(kProtocolVersion), "ok"};
        return r;
    }
    if (const auto* s = std::get_if<Seed>(&c)) {
        seed_ = s->seed;
        searches_ = 0;
        return r;
    }
    if (const auto* s = std::get_if<SetPosition>(&c)) {
        position_ = s->position;
        throw_.reset();
        return r;
    }
    if (!position_) return refuse("no position: send 'position POSITION' first");
    if (outcome(*position_) != Outcome::Ongoing) return refuse("the game in this position is over (" + statusOf(*position_) + ")");
    if (const auto* t = std::get_if<SetThrow>(&c)) {
        auto v = parseThrowFor(*position_, t->text);
        if (!v) return refuse(v.error().message);
        throw_ = *v;
        return r;
    }
    if (!throw_) return refuse(position_->throwDue() ? "no throw: send 'throw N' first" : "no throw: send 'throw -' first (a remainder is being spent)");
    if (const auto* m = std::get_if<Play>(&c)) {
        auto move = parseMove(*position_, *throw_, m->move);
        if (!move) return refuse(move.error().message);
        position_ = applyMove(*position_, *throw_, *move);
        throw_.reset();
        r.lines.push_back("position " + formatPosition(*position_) + " " + statusOf(*position_));
        return r;
    }
    Job job{*position_, *throw_, GoRequest{}, seed_ + 0x9e3779b97f4a7c15ULL * ++searches_};
    if (const auto* g = std::get_if<GoRequest>(&c)) job.request = *g;
    if (const auto* a = std::get_if<AnalyseRequest>(&c)) job.request = *a;
    r.job = job;
    return r;
}

void runJob(const Job& job, const std::atomic<bool>* stop, const std::function<void(const std::string&)>& write) {
    const Position& p = job.position;
    if (const auto* a = std::get_if<AnalyseRequest>(&job.request)) {
        const int depth = a->depth.value_or(ai::defaultAnalysisDepth(p.rulesetId));
        MoveList moves;
        generateMoves(p, job.throwValue, moves);
        std::vector<std::pair<double, Move>> valued;
        if (moves.empty()) moves.push(Move::pass());
        for (const Move& m : moves) {
            const double p1 = ai::winProbability(applyMove(p, job.throwValue, m), depth);
            valued.emplace_back(p.turn == Player::One ? p1 : 1.0 - p1, m);
        }
        std::stable_sort(valued.begin(), valued.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
        for (const auto& [winprob, m] : valued) write("analysis " + formatMove(m) + " " + decimals(winprob));
        write("analysis end");
        return;
    }
    const GoRequest& go = std::get<GoRequest>(job.request);
    ai::Options options;
    options.level = go.level;
    // Without ms the search has no clock: with nodes it is deterministic, without either it
    // takes the server's budget (100 ms).
    options.budget = std::chrono::milliseconds(go.ms.value_or(go.nodes ? 0 : 100));
    options.nodeBudget = go.nodes.value_or(0);
    options.maxDepth = go.depth.value_or(0);
    options.stop = stop;
    options.onIteration = [&](const ai::SearchResult& s) {
        write("info depth " + std::to_string(s.depth) + " nodes " + std::to_string(s.nodes) + " value " + decimals(s.value) +
              " winprob " + decimals(std::clamp((1.0 + s.value) / 2.0, 0.0, 1.0)) + " pv " + formatMove(s.move));
    };
    Rng rng(job.seed);
    write("bestmove " + formatMove(ai::chooseMove(p, job.throwValue, options, rng)));
}

}  // namespace senet::protocol
