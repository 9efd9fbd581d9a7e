// `senet engine`'s protocol without I/O (engine/protocol/PROTOCOL.md): the handshake, every
// command's answer, one error line for each kind of bad line with the state unchanged, and the
// search: the same best move as the computer opponent in process at the same node budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "senet/engine_protocol.hpp"

namespace senet::protocol {
namespace {

const std::string kStandard = "standard:1212121212....................:1:0:0";

/// The lines a job writes.
std::vector<std::string> run(const Job& job) {
    std::vector<std::string> out;
    runJob(job, nullptr, [&](const std::string& line) { out.push_back(line); });
    return out;
}

/// Sends `lines` and returns the reply of the last.
Reply send(Session& s, std::initializer_list<std::string_view> lines) {
    Reply r;
    for (std::string_view line : lines) r = s.handle(line);
    return r;
}

TEST(EngineProtocol, HandshakeNamesTheProtocol) {
    Session s;
    const Reply r = s.handle("senet-engine");
    EXPECT_EQ(r.lines, (std::vector<std::string>{"id name Senet online engine", "id author Senet online", "protocol 1", "ok"}));
    EXPECT_EQ(s.handle("isready").lines, std::vector<std::string>{"readyok"});
    EXPECT_TRUE(s.handle("").lines.empty());
    EXPECT_TRUE(s.handle("quit").quit);
}

TEST(EngineProtocol, EveryBadLineGetsOneErrorAndChangesNothing) {
    Session s;
    ASSERT_TRUE(send(s, {"position " + kStandard, "throw 3"}).lines.empty());
    const std::vector<std::pair<std::string, std::string>> cases{
        {"bogus", "error unknown command 'bogus' (expected senet-engine, isready, position, throw, go, analyse, play, seed, stop or quit)"},
        {"isready now", "error 'isready' takes no argument"},
        {"position", "error usage: position POSITION"},
        {"position standard:12:1:0:0", "error bad position: board must have 30 characters, got 2"},
        {"throw 9", "error throw '9' cannot be thrown in standard (expected one of 1, 2, 3, 4, 5)"},
        {"throw -", "error throw '-' is only for a position with a remainder to spend (REM above 0); this one needs a new throw"},
        {"go nodes 0", "error go nodes must be a whole number from 1 to 1000000000, got '0'"},
        {"go nodes", "error go: 'nodes' needs a value"},
        {"go nodes 5 nodes 6", "error go: 'nodes' is given twice"},
        {"go level god", "error go: unknown level 'god' (expected random, beginner, intermediate or expert)"},
        {"go speed 3", "error go: unknown limit 'speed' (expected level, nodes, ms or depth)"},
        {"go depth 13", "error go depth must be a whole number from 1 to 12, got '13'"},
        {"go ms +5", "error go ms must be a whole number from 1 to 600000, got '+5'"},
        {"analyse depth 9", "error analyse depth must be a whole number from 1 to 4, got '9'"},
        {"analyse 2", "error usage: analyse [depth N]"},
        {"play 2-5", "error illegal move: square 2 holds no piece of player 1"},
        {"seed -1", "error seed must be a whole number from 0 to 9223372036854775807, got '-1'"},
        {"go\x01", "error the line holds a byte that is not printable ASCII"},
        {std::string(1025, 'x'), "error line too long (1025 bytes, at most 1024)"},
    };
    for (const auto& [line, error] : cases) {
        const Reply r = s.handle(line);
        EXPECT_EQ(r.lines, std::vector<std::string>{error}) << line;
        EXPECT_FALSE(r.job) << line;
        EXPECT_FALSE(r.quit) << line;
    }
    // Still the same position and throw: 9-12 is legal with the 3 set before the errors.
    EXPECT_EQ(s.handle("play 9-12").lines, std::vector<std::string>{"position standard:12121212.2.1..................:2:0:0 ongoing"});
}

TEST(EngineProtocol, PositionAndThrowComeFirst) {
    Session s;
    EXPECT_EQ(s.handle("go").lines, std::vector<std::string>{"error no position: send 'position POSITION' first"});
    EXPECT_EQ(s.handle("throw 2").lines, std::vector<std::string>{"error no position: send 'position POSITION' first"});
    s.handle("position " + kStandard);
    EXPECT_EQ(s.handle("go").lines, std::vector<std::string>{"error no throw: send 'throw N' first"});
    // A played move needs a new throw; a finished game takes none.
    ASSERT_EQ(send(s, {"throw 1", "play 9-10"}).lines.size(), 1u);
    EXPECT_EQ(s.handle("analyse").lines, std::vector<std::string>{"error no throw: send 'throw N' first"});
    ASSERT_TRUE(s.handle("position standard:...................2..........:1:5:4").lines.empty());
    EXPECT_EQ(s.handle("throw 2").lines, std::vector<std::string>{"error the game in this position is over (win 1)"});
    // Piccione: a remainder is spent with throw -, a new throw is refused then.
    s.handle("position piccione:.1............................:1:0:0:2:f:0:0");
    EXPECT_EQ(s.handle("go").lines, std::vector<std::string>{"error no throw: send 'throw -' first (a remainder is being spent)"});
    EXPECT_FALSE(s.handle("throw 3").lines.empty());
    EXPECT_TRUE(s.handle("throw -").lines.empty());
    EXPECT_EQ(s.handle("play 2-4").lines, std::vector<std::string>{"position piccione:...1..........................:2:0:0:0:-:0:0 ongoing"});
}

TEST(EngineProtocol, GoAnswersAsTheComputerInProcessAtTheSameNodeBudget) {
    // Deterministic with a node budget: the protocol's best move is chooseMove's, iteration by iteration.
    for (const char* position : {"standard:1212121212....................:1:0:0", "jequier:..1.2.1....2.......1....2.....:1:2:2",
                                 "bell:1212121212....................:1:0:0", "kendall:1212121212....................:1:0:0",
                                 "piccione:1.....2.......1......2.1......:1:1:2:0:-:0:0"}) {
        const Position p = *parsePosition(position);
        for (int v : {1, 2, 3, 4}) {
            Session s;
            send(s, {std::string("position ") + position, "throw " + std::to_string(v)});
            const Reply r = s.handle("go nodes 3000");
            ASSERT_TRUE(r.job) << position;
            const auto lines = run(*r.job);
            ai::Options options;
            options.level = ai::Level::Expert;
            options.budget = std::chrono::milliseconds(0);
            options.nodeBudget = 3000;
            Rng rng(0);
            const Move expected = ai::chooseMove(p, v, options, rng);
            ASSERT_FALSE(lines.empty());
            EXPECT_EQ(lines.back(), "bestmove " + formatMove(expected)) << position << " throw " << v;
            for (std::size_t i = 0; i + 1 < lines.size(); ++i) EXPECT_EQ(lines[i].rfind("info depth ", 0), 0u) << lines[i];
            // The same session asked again answers the same (no clock).
            EXPECT_EQ(run(*s.handle("go nodes 3000").job), lines);
        }
    }
}

TEST(EngineProtocol, AnalyseListsEveryLegalMoveBestFirst) {
    Session s;
    send(s, {"position " + kStandard, "throw 3"});
    const auto lines = run(*s.handle("analyse depth 1").job);
    ASSERT_EQ(lines.size(), 6u);  // five legal moves, then the end
    EXPECT_EQ(lines.back(), "analysis end");
    double previous = 2;
    std::vector<std::string> moves;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        char move[16];
        double p = -1;
        ASSERT_EQ(std::sscanf(lines[i].c_str(), "analysis %15s %lf", move, &p), 2) << lines[i];
        EXPECT_LE(p, previous);
        EXPECT_GE(p, 0.0);
        EXPECT_LE(p, 1.0);
        previous = p;
        moves.push_back(move);
    }
    std::sort(moves.begin(), moves.end());
    EXPECT_EQ(moves, (std::vector<std::string>{"1-4", "3-6", "5-8", "7-10", "9-12"}));
    // No legal move: the pass is the one line.
    send(s, {"position standard:....2.......................1.:1:4:4", "throw 2"});
    const auto pass = run(*s.handle("analyse depth 1").job);
    ASSERT_EQ(pass.size(), 2u);
    EXPECT_EQ(pass[0].rfind("analysis pass ", 0), 0u) << pass[0];
}

TEST(EngineProtocol, AStopEndsTheSearchWithAMove) {
    Session s;
    send(s, {"position " + kStandard, "throw 2"});
    const Reply r = s.handle("go");
    ASSERT_TRUE(r.job);
    std::atomic<bool> stop{true};  // already stopped: the first check ends it
    std::vector<std::string> out;
    runJob(*r.job, &stop, [&](const std::string& line) { out.push_back(line); });
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back().rfind("bestmove ", 0), 0u);
    EXPECT_NE(out.back(), "bestmove pass");
}

}  // namespace
}  // namespace senet::protocol
