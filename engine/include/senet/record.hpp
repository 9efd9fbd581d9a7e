// Game records as JSON, and replaying them under the rules.
//
// Format (see engine/README.md):
//   {"ruleset":"jequier",
//    "opening":[{"throw":2,"sticks":"1100"}, ..., {"throw":1,"sticks":"0010"}],
//    "plies":[{"player":2,"throw":3,"sticks":"1101","move":"11-14"}, ...],
//    "result":"win 1"}
// "sticks" has one character per stick, '1' when it fell marked side up (omitted for Bell's die);
// "opening" appears only for Jéquier; "player" and "result" are checked when present.
#pragma once

#include <string>
#include <string_view>

#include "senet/game.hpp"
#include "senet/result.hpp"

namespace senet {

/// Serializes a record (with the outcome of replaying it) to one line of JSON.
std::string recordToJson(const Record& record, Outcome outcome);

/// Parses a record and checks it by replaying it (see `replay`). Errors: malformed JSON, unknown
/// ruleset, missing or ill-typed fields, sticks that do not count the thrown value, a malformed or
/// illegal move, a wrong "player" or "result"; `Error::ply` names the ply.
Result<Record> parseRecord(std::string_view json);

/// Parses a record and replays it (see `parseRecord`): the game as the record leaves it.
Result<Game> replayJson(std::string_view json);

/// Replays a record from the start under its ruleset. An illegal step is rejected with the reason,
/// its message starting "ply N: " (N 1-based, also in Error::ply) or "opening throw N: ".
Result<Game> replay(const Record& record);

/// The 4-character sticks string of a throw ("1101"), empty for a die.
std::string sticksString(const Ruleset& rules, Throw t);

}  // namespace senet
