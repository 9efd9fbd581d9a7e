// A position: where every piece stands, who throws next and how many pieces each side has
// borne off. 12 bytes, cheap to copy. RULES.md "Position notation".
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "senet/core.hpp"
#include "senet/result.hpp"
#include "senet/ruleset.hpp"

namespace senet {

struct Position {
    std::array<Bitboard, 2> board{};  ///< the squares of player 1's and player 2's pieces
    std::array<std::uint8_t, 2> off{};  ///< pieces borne off by player 1 and player 2
    Player turn = Player::One;          ///< the player who throws next
    RulesetId rulesetId = RulesetId::Standard;

    const Ruleset& rules() const { return ruleset(rulesetId); }
    Bitboard occupied() const { return board[0] | board[1]; }
    Bitboard pieces(Player p) const { return board[index(p)]; }
    int onBoard(Player p) const { return std::popcount(board[index(p)]); }
    int borneOff(Player p) const { return off[index(p)]; }
    /// Who has a piece on `square` (1..30): 0 nobody, 1 player 1, 2 player 2.
    int ownerAt(int square) const {
        return (board[0] & bit(square)) ? 1 : (board[1] & bit(square)) ? 2 : 0;
    }
    friend bool operator==(const Position&, const Position&) = default;
};

/// The starting position of a ruleset (Jéquier's as it stands after its opening). RULES.md "Position notation".
Position startPosition(RulesetId id);

/// Parses `RULESET:BOARD:TURN:OFF1:OFF2`. Errors name what is wrong: field count, unknown
/// ruleset, board length, unknown characters, too many pieces, borne-off counts that do not
/// add up, a piece on a square where none can stand, a bad turn.
Result<Position> parsePosition(std::string_view text);

/// Writes the notation of a position; `parsePosition(formatPosition(p)) == p`.
std::string formatPosition(const Position& p);

/// Parses a throw value for a ruleset ("1".."6"); an error when the ruleset cannot throw it.
Result<int> parseThrow(const Ruleset& rules, std::string_view text);

}  // namespace senet
