// The one place where client WebSocket messages are parsed and validated (PROTOCOL.md
// "Client → server"): a closed set of types, each into a typed struct; errors as values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace senet::server::protocol {

/// hello{secret?, clientSeed?}: take a seat (or watch) and contribute a client seed.
struct Hello {
    std::optional<std::string> secret;
    std::optional<std::string> clientSeed;  ///< validated: 1..64 of [0-9A-Za-z_-]
};
/// throw{ply}: throw the sticks for action number `ply`.
struct ThrowRequest {
    std::int64_t ply = 0;
};
/// move{ply, move}: move with the pending throw; `move` is "FROM-TO" or "FROM-off" (not yet checked against the rules).
struct MoveRequest {
    std::int64_t ply = 0;
    std::string move;
};
/// phrase{phrase}: a quick phrase to the opponent; `phrase` is one of kPhraseIds (phrases.hpp).
struct PhraseRequest {
    std::string phrase;
};
/// takeback{ply}: take back the last move (local and computer games), at action number `ply`.
struct TakeBack {
    std::int64_t ply = 0;
};
/// hint{ply}: every legal move for the throw in hand with its win chance (local and computer
/// games only), at action number `ply`. Answered to the asking connection only; changes nothing.
struct HintRequest {
    std::int64_t ply = 0;
};
struct Resign {};
struct Rematch {};
struct Claim {};
struct Ping {};

/// Any valid client message.
using ClientMessage = std::variant<Hello, ThrowRequest, MoveRequest, Resign, Rematch, Claim, Ping, PhraseRequest, TakeBack, HintRequest>;

/// Why a message was refused: `code` from PROTOCOL.md "Error codes" (bad-json, unknown-type,
/// bad-field, bad-seed, bad-phrase) and a one-line message naming the field.
struct ParseError {
    std::string code;
    std::string message;
};

/// Either a message or why it is not one.
using ParseResult = std::variant<ClientMessage, ParseError>;

/// Parses one text frame. Never throws. The hot frames take parseFast; the rest parseFull.
ParseResult parse(std::string_view frame);

/// The throw and move frames in the exact shape the page sends, `{"t":"throw","d":{"ply":N}}`
/// and `{"t":"move","d":{"ply":N,"move":"M"}}` (no spaces, N without leading zeros and at most
/// 1,000,000,000, M 1-8 characters of [0-9A-Za-z-]), read without building a JSON tree.
/// nullopt for any other frame (then parseFull decides). Where it returns a message,
/// parseFull returns the same one (tests/server/protocol_test.cpp checks it). Never throws.
std::optional<ClientMessage> parseFast(std::string_view frame);

/// The complete parser (a JSON tree, every message type, every error). Never throws.
ParseResult parseFull(std::string_view frame);

/// The type name of a message ("hello", "throw", ...).
std::string_view typeName(const ClientMessage& m);

/// A server→client message `{"t":TYPE,"d":DATA}` where `dataJson` is already serialized JSON.
std::string envelope(std::string_view type, std::string_view dataJson);
/// An error message `{"t":"error","d":{"code","message","ply"}}`.
std::string errorMessage(std::string_view code, std::string_view message, std::int64_t ply);

/// The lobby's client messages (PROTOCOL.md "Lobby"), parsed here too: one parser module for
/// every wire message. The guest name's rules (NFC, classes, links) are the lobby's own check
/// (lobby/guest_name.hpp); here it is only a string of at most kMaxNameBytes.
namespace lobby {

/// Bytes a `name` may have before it is checked (20 code points of 4 bytes, with room for marks).
inline constexpr std::size_t kMaxNameBytes = 256;

/// seek{ruleset, name?, browser?, bot?, bots?}: wait for an opponent of `ruleset` ("any" or a ruleset key).
struct Seek {
    std::string ruleset;                ///< a ruleset key (checked by the lobby) or "any"
    std::optional<std::string> name;    ///< as sent, at most kMaxNameBytes
    std::optional<std::string> browser; ///< validated: 1..64 of [0-9A-Za-z_-]
    bool bot = false;                   ///< the seeker is a program: its opponent sees a bot mark
    bool bots = false;                  ///< the seeker may be paired with a bot
};
/// take{seek, name?, browser?, bot?}: be paired at once with the open seek `seek`.
struct Take {
    std::string seek;                   ///< the open seek's id: 1..32 of [0-9A-Za-z_-]
    std::optional<std::string> name;
    std::optional<std::string> browser;
    bool bot = false;                   ///< the taker is a program (it may take only a seek that accepts bots)
};
struct Cancel {};
struct LobbyPing {};

/// Any valid lobby message.
using Message = std::variant<Seek, Take, Cancel, LobbyPing>;
/// Either a lobby message or why it is not one.
using Result = std::variant<Message, ParseError>;

/// Parses one lobby text frame. Never throws.
Result parse(std::string_view frame);

}  // namespace lobby

}  // namespace senet::server::protocol
