// Shared pieces of the `senet` command-line tool: the command table and argument helpers.
// Every malformed argument prints one line "senet: error: ..." to stderr and exits with 2.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "senet/ai_tables.hpp"
#include "senet/senet.hpp"

namespace senet::cli {

using Args = std::span<const std::string_view>;

/// Exit code for malformed input or an illegal move.
inline constexpr int kUsageError = 2;

/// Prints "senet: error: MESSAGE" to stderr; returns kUsageError.
int error(const std::string& message);

/// Parses `--name value` flags. `allowed` lists the flag names (without dashes); every flag
/// takes one value. Returns nullopt after printing an error for unknown, repeated or valueless
/// flags and for stray arguments.
std::optional<std::map<std::string, std::string, std::less<>>> parseFlags(Args args, std::initializer_list<std::string_view> allowed);

/// Parses a whole decimal number in [min, max]; prints an error naming `what` and returns nullopt otherwise.
std::optional<std::int64_t> parseInteger(std::string_view text, std::string_view what, std::int64_t min, std::int64_t max);

/// Parses a ruleset key; prints an error and returns nullopt when unknown.
std::optional<RulesetId> parseRuleset(std::string_view text);

/// Reads the endgame tables of folder `dir` (every "<ruleset>.sntb" it holds, cli/tables_dir.cpp).
/// Prints an error and returns null when `dir` is not a folder, holds no table, or a file is
/// unreadable, damaged or holds another ruleset's table.
std::unique_ptr<ai::TableValues> loadTables(std::string_view dir);
/// The largest table file loadTables reads (the default tables are 13-16 MB).
inline constexpr std::uintmax_t kMaxTableFileBytes = 256u << 20;

// Commands: each takes the arguments after its name and returns the exit code.
int cmdMoves(Args args);
int cmdApply(Args args);
int cmdStart(Args args);
int cmdSelfplay(Args args);
int cmdPerft(Args args);
int cmdReplay(Args args);
int cmdArena(Args args);   // cmd_arena.cpp (computer opponent)
int cmdVerify(Args args);  // cmd_verify.cpp (fair throws)
int cmdWinprob(Args args); // cmd_browser.cpp (compared with the WebAssembly build)
int cmdHint(Args args);    // cmd_analyse.cpp
int cmdQuery(Args args);   // cmd_browser.cpp
int cmdAnalyse(Args args); // cmd_analyse.cpp (game analysis)
int cmdEngine(Args args);  // cmd_engine.cpp (the engine protocol, engine/protocol/PROTOCOL.md)
int cmdTable(Args args);   // cmd_table.cpp (exact endgame tables, engine/tables/README.md)

}  // namespace senet::cli
