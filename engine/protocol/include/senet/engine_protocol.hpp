// `senet engine`'s line protocol (engine/protocol/PROTOCOL.md) without I/O: a line read from the
// client is parsed into a Command, a Session holds the position and the throw the client set
// and answers each command with the lines to write. A search (`go`, `analyse`) is a Job that the
// caller runs, on another thread if it likes, with an outside stop. Errors are values: every
// malformed or untimely line gets exactly one "error ..." line and changes nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "senet/ai.hpp"
#include "senet/senet.hpp"

namespace senet::protocol {

/// The protocol's version, sent in the handshake as `protocol 1`.
inline constexpr int kProtocolVersion = 1;
/// The longest line accepted, in bytes (without its line end); a longer one is an error.
inline constexpr std::size_t kMaxLineBytes = 1024;

/// `go`'s limits; each absent value takes its default (PROTOCOL.md "go").
struct GoRequest {
    ai::Level level = ai::Level::Expert;
    std::optional<std::uint64_t> nodes;  ///< 1..1,000,000,000
    std::optional<int> ms;               ///< 1..600,000
    std::optional<int> depth;            ///< 1..ai::kMaxSearchDepth
};

/// `analyse`'s depth; absent: the analysis default of the ruleset (ai::defaultAnalysisDepth).
struct AnalyseRequest {
    std::optional<int> depth;  ///< 1..ai::kMaxAnalysisDepth
};

struct Hello {};                                   ///< senet-engine
struct IsReady {};                                 ///< isready
struct SetPosition { Position position; };         ///< position POSITION
struct SetThrow { std::string text; };             ///< throw N | throw - (checked against the position)
struct Play { std::string move; };                 ///< play MOVE
struct Seed { std::uint64_t seed = 0; };           ///< seed N
struct Stop {};                                    ///< stop
struct Quit {};                                    ///< quit
struct Empty {};                                   ///< a blank line: ignored

/// One parsed line.
using Command = std::variant<Hello, IsReady, SetPosition, SetThrow, Play, Seed, GoRequest, AnalyseRequest, Stop, Quit, Empty>;

/// Parses one line (without its line end; a trailing '\r' is allowed). Errors: an unknown
/// command, a wrong argument count, a malformed or out-of-range value, a bad position (its
/// notation error), a line over kMaxLineBytes or with bytes outside printable ASCII. Never throws.
Result<Command> parseCommand(std::string_view line);

/// A search to run: the position, the throw (kNoThrow while a Piccione remainder is spent) and
/// what to do. Made by Session::handle; run by runJob.
struct Job {
    Position position;
    int throwValue = 0;
    std::variant<GoRequest, AnalyseRequest> request;
    std::uint64_t seed = 0;  ///< the levels' random source for this search
};

/// The outcome of handling one command: lines to write now, a search to run (its lines come
/// from runJob), and whether the client asked to quit.
struct Reply {
    std::vector<std::string> lines;
    std::optional<Job> job;
    bool quit = false;
};

/// The engine's state between lines: the position and the throw the client set, the levels'
/// seed. Not thread-safe: the caller hands it one line at a time.
class Session {
public:
    /// Handles one line; `stop` is left to the caller (it stops the caller's running job). Never throws.
    Reply handle(std::string_view line);

private:
    std::optional<Position> position_;
    std::optional<int> throw_;  ///< valid for position_
    std::uint64_t seed_ = 1;
    std::uint64_t searches_ = 0;
};

/// Runs `job`: `go` writes an `info ...` line after each completed iteration of the expert's
/// search and ends with `bestmove MOVE`; `analyse` writes `analysis MOVE WINPROB` for every
/// legal move, best first, and `analysis end`. `stop` (may be null) ends a `go` early with the
/// best move so far. `write` gets each line (without line end), on the calling thread.
void runJob(const Job& job, const std::atomic<bool>* stop, const std::function<void(const std::string&)>& write);

}  // namespace senet::protocol
