// A position: where every piece stands, who throws next and how many pieces each side has
// borne off, and for Piccione where the turn stands within its steps. 16 bytes, cheap to copy.
// RULES.md "Position notation" and "Piccione position notation".
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "senet/core.hpp"
#include "senet/result.hpp"
#include "senet/ruleset.hpp"

namespace senet {

/// The direction fixed for the current turn (Piccione rule 7; RULES.md DIR `-`, `f`, `b`).
enum class TurnDirection : std::uint8_t { Unset, Forward, Backward };

/// What a position waits for next: a throw (a chance step) or a move that spends the remainder
/// of the last throw (a decision step without a new throw, Piccione only).
struct Position {
    std::array<Bitboard, 2> board{};  ///< the squares of player 1's and player 2's pieces
    std::array<std::uint8_t, 2> off{};  ///< pieces borne off by player 1 and player 2
    Player turn = Player::One;          ///< the player who acts next (throws, or spends the remainder)
    RulesetId rulesetId = RulesetId::Standard;
    // Piccione's turn state (RULES.md "Piccione position notation"); always 0 / Unset / false in
    // the other rulesets.
    std::uint8_t remainder = 0;  ///< REM 0..4: what is left of the current throw; 0: a throw is next
    TurnDirection direction = TurnDirection::Unset;  ///< DIR
    std::uint8_t owedThrows = 0;  ///< BONUS: extra throws owed in this turn and not yet made (<= 255)
    bool entryThrowDue = false;   ///< ENTRY: the next throw is the entry throw of the piece on square 1

    const Ruleset& rules() const { return ruleset(rulesetId); }
    Bitboard occupied() const { return board[0] | board[1]; }
    Bitboard pieces(Player p) const { return board[index(p)]; }
    int onBoard(Player p) const { return std::popcount(board[index(p)]); }
    int borneOff(Player p) const { return off[index(p)]; }
    /// Pieces of `p` neither on the board nor borne off: Piccione's hand (Bell's captured pieces).
    int inHand(Player p) const { return rules().piecesPerSide - onBoard(p) - off[index(p)]; }
    /// Whether the next step is a throw (a chance step); false while a remainder is to be spent.
    bool throwDue() const { return remainder == 0; }
    /// Who has a piece on `square` (1..30): 0 nobody, 1 player 1, 2 player 2.
    int ownerAt(int square) const {
        return (board[0] & bit(square)) ? 1 : (board[1] & bit(square)) ? 2 : 0;
    }
    friend bool operator==(const Position&, const Position&) = default;
};

/// The starting position of a ruleset (Jéquier's as it stands after its opening). RULES.md "Position notation".
Position startPosition(RulesetId id);

/// Parses `RULESET:BOARD:TURN:OFF1:OFF2` (Piccione: `...:REM:DIR:BONUS:ENTRY`). Errors name what
/// is wrong: field count, unknown ruleset, board length, unknown characters, too many pieces,
/// borne-off counts that do not add up, a piece on a square where none can stand, a bad turn,
/// Piccione's turn fields out of range or in a combination that cannot arise (its rules a-f).
Result<Position> parsePosition(std::string_view text);

/// Writes the notation of a position; `parsePosition(formatPosition(p)) == p`.
std::string formatPosition(const Position& p);

/// Parses a throw value for a ruleset ("1".."6"); an error when the ruleset cannot throw it.
Result<int> parseThrow(const Ruleset& rules, std::string_view text);

/// The throw argument of `moves` / `apply` for `p`: a value the ruleset can throw when a throw is
/// due, or `-` (returned as kNoThrow) when the position has a remainder to spend (Piccione
/// "Command line, Piccione additions"). The wrong kind is an error.
Result<int> parseThrowFor(const Position& p, std::string_view text);

}  // namespace senet
