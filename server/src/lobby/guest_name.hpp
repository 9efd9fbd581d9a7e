// The guest names of the lobby (PROTOCOL.md "Lobby", "Guest names"): a name a visitor typed,
// checked and normalised, or a random "Guest NNNN". ICU decides what a letter, a mark and a
// digit are, in every script.
#pragma once

#include <string>
#include <string_view>

namespace senet::server::lobby {

/// The most code points a guest name may have (after trimming and NFC).
inline constexpr int kMaxNameLength = 20;

/// Why a name was refused: `reason` is "too-long", "character", "spaces" or "link" (the page
/// shows its own text for it), `message` one English line.
struct NameError {
    std::string reason;
    std::string message;
};

/// A name checked: `name` trimmed and NFC ("" when nothing but white space was sent: the
/// caller draws a random name), or `error` non-empty.
struct CheckedName {
    std::string name;
    NameError error;
    bool ok() const { return error.reason.empty(); }
};

/// Trims `typed` (white space at both ends), normalises it to NFC, then requires at most
/// kMaxNameLength code points, each a letter, a combining mark after a letter or digit, a digit
/// (any script), a space (never two in a row), '.', '_' or '-', and no link ("://", "www.", a
/// domain-like "x.yz"). Ill-formed UTF-8 is a "character" error. Never throws.
CheckedName checkGuestName(std::string_view typed);

/// "Guest NNNN" with NNNN from 1000 to 9999, drawn from the server's random source.
std::string randomGuestName();

}  // namespace senet::server::lobby
