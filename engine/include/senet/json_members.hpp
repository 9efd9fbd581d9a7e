// JSON text read one way only: an object with the same member twice can be read as either value
// (RFC 8259 §4 leaves it open), so a signed record or a message holding one is refused.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace senet {

/// The first member that appears twice in one object of the JSON text `text`, at any depth, as
/// a path: `"result"`, `fairness.serverSeed`, `moves[3].from` (names cut to 40 bytes each, the
/// path to 200). nullopt when every object's names are distinct — or when `text` is not JSON up
/// to the first duplicate: validity is the caller's parse to judge. Names are compared after
/// unescaping (`"a"` and `"\u0061"` are the same member). Never throws; O(size of text).
std::optional<std::string> firstDuplicateMember(std::string_view text);

/// Whether the JSON text `text` opens more than `depth` arrays and objects inside one another
/// (brackets inside strings do not count). A reader that recurses per level (a serializer, a
/// tree walk) can then refuse the text before it runs out of stack. Never throws; O(size).
bool nestedDeeperThan(std::string_view text, std::size_t depth);

}  // namespace senet
