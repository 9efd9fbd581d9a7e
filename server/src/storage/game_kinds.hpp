// The kinds a game's row names as types: who the opponent is, the game's status and the kind of
// each seat. Their strings are the ones stored in the games table, sent in JSON (API.md) and in
// the protocol (PROTOCOL.md); they are spelled here only (and in the SQL statements that filter
// on a status), and code elsewhere compares the types, so that a misspelt kind does not compile.
#pragma once

#include <optional>
#include <string_view>

namespace senet::server {

/// Who plays the second seat: a friend who joins by the invite, the computer, or nobody (both
/// seats on one device).
enum class Opponent { Friend, Computer, Local };

/// Where a game is: being played, over (with a result), or expired unfinished.
enum class GameStatus { Playing, Over, Expired };

/// Who holds a seat: a person (with a secret), or the computer.
enum class SeatKind { Human, Computer };

/// The seat hash that marks the computer's seat (GameRow::seatHashes), never a real hash.
inline constexpr std::string_view kComputerSeatHash = "computer";

/// "friend" | "computer" | "local".
constexpr std::string_view toString(Opponent o) {
    switch (o) {
        case Opponent::Friend: return "friend";
        case Opponent::Computer: return "computer";
        case Opponent::Local: return "local";
    }
    return "friend";
}

/// "playing" | "over" | "expired".
constexpr std::string_view toString(GameStatus s) {
    switch (s) {
        case GameStatus::Playing: return "playing";
        case GameStatus::Over: return "over";
        case GameStatus::Expired: return "expired";
    }
    return "playing";
}

/// "human" | "computer".
constexpr std::string_view toString(SeatKind k) { return k == SeatKind::Computer ? "computer" : "human"; }

/// The opponent named `s` (its toString), nullopt for any other string.
constexpr std::optional<Opponent> parseOpponent(std::string_view s) {
    for (const Opponent o : {Opponent::Friend, Opponent::Computer, Opponent::Local})
        if (s == toString(o)) return o;
    return std::nullopt;
}

/// The status named `s` (its toString), nullopt for any other string.
constexpr std::optional<GameStatus> parseGameStatus(std::string_view s) {
    for (const GameStatus g : {GameStatus::Playing, GameStatus::Over, GameStatus::Expired})
        if (s == toString(g)) return g;
    return std::nullopt;
}

/// The kind of the seat whose hash is `seatHash` (a free seat, "", is a person's to take).
constexpr SeatKind seatKindOf(std::string_view seatHash) {
    return seatHash == kComputerSeatHash ? SeatKind::Computer : SeatKind::Human;
}

}  // namespace senet::server
