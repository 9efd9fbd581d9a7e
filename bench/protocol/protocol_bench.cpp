// The engine protocol's overhead per decision (issue "engine protocol", engine/protocol/PROTOCOL.md):
// one decision of the expert at a fixed node budget, asked three ways, for every ruleset:
//   Direct   ai::chooseMove in process;
//   Session  the protocol library in process: `position`, `throw`, `go nodes N` parsed and
//            answered, the job run, its `info` and `bestmove` lines formatted;
//   Process  a `senet engine` child over pipes: the same three lines written, read until
//            `bestmove` (what an outside program pays).
// The difference of each to Direct is the overhead. Prints figures; asserts nothing.
#include <benchmark/benchmark.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "senet/ai.hpp"
#include "senet/engine_protocol.hpp"
#include "senet/senet.hpp"

namespace {

using namespace senet;

constexpr std::array<const char*, 5> kPositions = {
    "standard:1212121212....................:1:0:0", "jequier:..1.2.1....2.......1....2.....:1:2:2",
    "bell:1212121212....................:1:0:0",      "kendall:1212121212....................:1:0:0",
    "piccione:1.....2.......1......2.1......:1:1:2:0:-:0:0"};
constexpr int kThrow = 3;

ai::Options expertAt(std::uint64_t nodes) {
    ai::Options o;
    o.level = ai::Level::Expert;
    o.budget = std::chrono::milliseconds(0);
    o.nodeBudget = nodes;
    return o;
}

void Direct(benchmark::State& state) {
    const Position p = *parsePosition(kPositions[state.range(0)]);
    const ai::Options options = expertAt(static_cast<std::uint64_t>(state.range(1)));
    for (auto _ : state) {
        Rng rng(0);
        benchmark::DoNotOptimize(ai::chooseMove(p, kThrow, options, rng));
    }
    state.SetLabel(std::string(kPositions[state.range(0)]).substr(0, std::string(kPositions[state.range(0)]).find(':')));
}

void Session(benchmark::State& state) {
    const std::string position = std::string("position ") + kPositions[state.range(0)];
    const std::string go = "go nodes " + std::to_string(state.range(1));
    protocol::Session s;
    std::size_t bytes = 0;
    for (auto _ : state) {
        s.handle(position);
        s.handle("throw " + std::to_string(kThrow));
        const protocol::Reply r = s.handle(go);
        protocol::runJob(*r.job, nullptr, [&](const std::string& line) { bytes += line.size() + 1; });
    }
    benchmark::DoNotOptimize(bytes);
}

/// A `senet engine` child with its standard input and output as pipes.
class Child {
public:
    explicit Child(const char* binary) {
        int in[2], out[2];
        if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe");
        pid_ = fork();
        if (pid_ == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            close(in[1]);
            close(out[0]);
            execl(binary, binary, "engine", static_cast<char*>(nullptr));
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        to_ = fdopen(in[1], "w");
        from_ = fdopen(out[0], "r");
        say("senet-engine\n");
        until("ok");
    }
    ~Child() {
        say("quit\n");
        fclose(to_);
        fclose(from_);
        waitpid(pid_, nullptr, 0);
    }
    void say(const std::string& text) {
        fputs(text.c_str(), to_);
        fflush(to_);
    }
    /// Reads lines until one starts with `prefix`; throws at the end of the output.
    void until(std::string_view prefix) {
        std::array<char, 4096> line{};
        while (fgets(line.data(), line.size(), from_))
            if (std::string_view(line.data()).starts_with(prefix)) return;
        throw std::runtime_error("senet engine ended");
    }

private:
    pid_t pid_ = -1;
    FILE* to_ = nullptr;
    FILE* from_ = nullptr;
};

void Process(benchmark::State& state) {
    Child child(SENET_CLI_BINARY);
    const std::string ask = std::string("position ") + kPositions[state.range(0)] + "\nthrow " + std::to_string(kThrow) +
                            "\ngo nodes " + std::to_string(state.range(1)) + "\n";
    for (auto _ : state) {
        child.say(ask);
        child.until("bestmove");
    }
}

void Args(benchmark::internal::Benchmark* b) {
    for (int r = 0; r < static_cast<int>(kPositions.size()); ++r)
        for (int nodes : {1, 2000}) b->Args({r, nodes});
    b->ArgNames({"ruleset", "nodes"});
    b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(Direct)->Apply(Args);
BENCHMARK(Session)->Apply(Args);
BENCHMARK(Process)->Apply(Args);

}  // namespace

int main(int argc, char** argv) {
    signal(SIGPIPE, SIG_IGN);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
