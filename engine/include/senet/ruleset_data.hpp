// The Ruleset data type: everything the move generator, the game flow and the site's
// rule-change tables need to know about one reconstruction of Senet, as plain data, and the
// constexpr helpers the ruleset files build their tables with. RULES.md sections "Standard",
// "Jéquier", "Bell", "Kendall" and "Piccione". The rulesets themselves are in senet/rulesets/*.hpp, which include this
// header only; senet/ruleset.hpp includes them all and looks them up by id or key.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <string_view>

#include "senet/core.hpp"

namespace senet {

/// Which ruleset: an index 0..kRulesetCount-1, in the order of `allRulesets()`.
enum class RulesetId : std::uint8_t { Standard = 0, Jequier = 1, Bell = 2, Kendall = 3, Piccione = 4 };
/// How many rulesets there are.
inline constexpr int kRulesetCount = 5;

/// How a turn is made of steps. Every turn is a sequence of chance steps (a throw) and decision
/// steps (a move, or a pass); the model says how they follow each other.
enum class TurnModel : std::uint8_t {
    /// Each throw is spent by exactly one move of one piece, or a pass (standard 2, Jéquier,
    /// Bell 2, Kendall): chance, decision, chance, decision, ...
    OneMovePerThrow,
    /// A throw may be split over several steps, each spending part of it, pieces wait in hand,
    /// the turn's first step fixes its direction, and throws can be owed (Piccione 4-10): a
    /// chance step is followed by one or more decision steps, written in the position's
    /// remainder, direction, owed-throws and entry fields.
    SplitSteps,
};

/// What is thrown: four two-sided sticks (16 equally likely patterns) or a four-sided die.
enum class Implement : std::uint8_t { FourSticks, FourSidedDie };

/// What landing on an unprotected opponent's piece does.
enum class CaptureMode : std::uint8_t {
    Swap,    ///< the two pieces change places (standard 4, Jéquier)
    Remove,  ///< the opponent's piece leaves the game for good (Bell 3)
};

/// Where a piece that lands on the House of Water goes.
enum class WaterReturn : std::uint8_t {
    None,                    ///< the ruleset has no House of Water (Bell)
    SquareOrNearestBefore,   ///< to `waterReturnSquare`, else the nearest empty square below it (standard 7, Kendall 7)
    LowestEmpty,             ///< to the lowest-numbered empty square of the board (Jéquier 5)
    ToHand,                  ///< off the board into its player's hand, to enter again (Piccione 11)
};

/// How a game is won.
enum class WinRule : std::uint8_t {
    AllBorneOff,  ///< the first to bear off every piece wins (standard 11, Jéquier 9)
    Majority,     ///< ends when one side's borne-off count cannot be caught; equal scores draw (Bell 8)
};

/// How the first mover is decided.
enum class OpeningRule : std::uint8_t {
    None,         ///< player 1 (the first seat) moves first from the starting position
    ThrowForOne,  ///< seats throw in turn until a 1; that seat becomes player 2 and moves 10→11 (Jéquier 1)
};

/// A named square shown on the board (RULES.md: standard 12, Jéquier 10, Bell 5).
struct House {
    std::uint8_t square;   ///< 1..30; 0 for an unused entry of Ruleset::houses
    /// translation key: "beauty", "water", "three-truths", "re-atoum", "return", "x", "iii", "ii", "i",
    /// "rebirth", "horus", "ankh", "nefer", "three-birds", "two-men"
    std::string_view key;
};

/// One equally-weighted-or-not chance outcome of a throw with its exact weight.
/// Probability = weight / Ruleset::outcomeWeightTotal.
struct ChanceOutcome {
    Throw throw_;          ///< the throw: its value and, for the sticks, which fell up
    std::uint8_t weight;   ///< its weight out of Ruleset::outcomeWeightTotal
};

/// One reconstruction of Senet, as immutable data. Obtain with `ruleset(id)`.
struct Ruleset {
    RulesetId id;           ///< this ruleset's id
    std::string_view key;   ///< notation and URL name: "standard", "jequier", "bell", "kendall", "piccione"
    std::string_view name;  ///< English display name

    // Setup and turn order (rule 1 of each ruleset).
    int piecesPerSide;              ///< 5 or 10
    /// OneMovePerThrow, or SplitSteps (Piccione). This field and those from `stopSquare` on have
    /// defaults, so a ruleset file names only the ones it uses.
    TurnModel turnModel = TurnModel::OneMovePerThrow;
    std::array<Bitboard, 2> setup;  ///< starting squares of player 1 and player 2 (after any opening)
    Player firstToMove;             ///< who throws first from `setup`
    OpeningRule opening;            ///< how the first mover is decided
    std::array<Bitboard, 2> openingSetup;  ///< the board while the opening is thrown (== setup without one)

    // Throws.
    Implement implement;             ///< four sticks or a four-sided die ("Throws")
    std::uint8_t sticksNoneUpValue;  ///< what no stick up counts (5 or 6); 0 for a die
    std::array<ChanceOutcome, 16> outcomes;  ///< the first `outcomeCount` are used
    int outcomeCount;        ///< 16 sticks patterns or 4 die faces
    int outcomeWeightTotal;  ///< sum of the weights (16 or 4)
    std::uint16_t throwValues;     ///< bit v set when value v can be thrown
    std::uint16_t extraThrowAfter; ///< bit v set when a throw of v gives another throw
    bool extraThrowAfterPass;      ///< false: a turn with no legal move is lost even after an extra-throw value

    // Moving.
    Bitboard safeSquares;       ///< an opponent's piece here cannot be landed on
    bool neighbourProtection;   ///< a piece with a same-coloured neighbour cannot be landed on
    CaptureMode capture;        ///< what landing on an unprotected opponent's piece does
    int blockadeLength;         ///< 0: pieces jump anything; n: cannot pass n opponent pieces in a row
    bool backwardWhenNoForward; ///< backward moves when no forward move exists (Jéquier 6)
    Bitboard compulsionSquares; ///< if a piece here can move, one of these must move (Bell 6)

    // House of Water.
    int waterSquare;  ///< 0 when there is none
    WaterReturn waterReturn;  ///< where a piece that lands on `waterSquare` goes
    int waterReturnSquare;  ///< for SquareOrNearestBefore; 0 otherwise

    // Bearing off.
    int bearOffAt;  ///< a move whose landing square is >= this leaves the board (31: past 30; 30: reaching 30)
    /// bearOffThrows[s]: bit v set when a throw of v bears a piece off from square s (index 0 unused).
    /// A move that would reach `bearOffAt` with a throw not listed here is illegal.
    std::array<std::uint16_t, kSquareCount + 1> bearOffThrows;
    /// All the mover's pieces on the board must stand within these squares to bear off.
    Bitboard bearOffZone;
    /// bearOffFroms[v]: the squares a throw of v bears off from; derived from bearOffThrows by
    /// `bearOffFromsOf` for the bitboard move generator.
    std::array<Bitboard, 16> bearOffFroms;

    WinRule win;  ///< how the game is won
    std::array<House, 6> houses;  ///< named squares for display; unused entries have square 0

    // Kendall's additions (all off for the other rulesets).
    /// A piece on a square below this one may not move past it: a throw that would take it
    /// beyond gives that piece no move (Kendall 5: 26, the House of Beauty). 0: no such square.
    int stopSquare = 0;
    /// Pieces here move only to bear off, never to another square (Kendall 8: 28, 29, 30).
    Bitboard bearOffOnlySquares = 0;
    /// A backward move may also land on a lone opponent piece and swap with it (Kendall 9);
    /// false: backward moves land only on empty squares (Jéquier 6).
    bool backwardSwaps = false;

    // Piccione's additions (SplitSteps only).
    /// Landing here, forward or backward, owes the player one more throw (Piccione 10: 15, 26).
    Bitboard extraThrowSquares = 0;
    /// Pieces here never move backward (Piccione 4: 28, 29, 30).
    Bitboard noBackwardSquares = 0;
    /// The square a piece in hand enters on, with an unspent throw of 1 (Piccione 5); 0: no hand.
    int entrySquare = 0;

    /// The chance outcomes actually used: 16 stick patterns or 4 die faces.
    std::span<const ChanceOutcome> chanceOutcomes() const {
        return {outcomes.data(), static_cast<std::size_t>(outcomeCount)};
    }
    /// Whether a throw of `value` can happen (any int; false outside 0..15). RULES.md "Throws".
    bool canThrow(int value) const { return value >= 0 && value < 16 && ((throwValues >> value) & 1); }
    /// Whether a throw of `value` gives another throw (any int; false outside 0..15). RULES.md:
    /// standard 9, Jéquier 2, Bell 2.
    bool givesExtraThrow(int value) const { return value >= 0 && value < 16 && ((extraThrowAfter >> value) & 1); }
    /// The summed weight of the outcomes that throw `value` (0 for impossible values): its exact
    /// probability is this / outcomeWeightTotal.
    int weightOfValue(int value) const;
    /// Whether `square` (1..30) is a safe square. RULES.md: standard 6, Jéquier 4, Bell 4.
    bool isSafe(int square) const { return (safeSquares & bit(square)) != 0; }
    /// The square of the house whose translation key is `houseKey` ("beauty", "water", ...: see
    /// House), or 0 when the ruleset shows no such house. RULES.md, each ruleset's houses for display.
    constexpr int houseSquare(std::string_view houseKey) const {
        for (const House& h : houses)
            if (h.square != 0 && h.key == houseKey) return h.square;
        return 0;
    }
};

/// The value four sticks count for, given which fell marked side up (bit i = stick i, 0..15):
/// the number up, or `noneUpValue` when none is up. RULES.md "Throws".
constexpr std::uint8_t sticksValue(std::uint8_t sticks, std::uint8_t noneUpValue) {
    const int up = std::popcount(static_cast<unsigned>(sticks & 15u));
    return static_cast<std::uint8_t>(up == 0 ? noneUpValue : up);
}

/// The 16 stick outcomes of a stick ruleset, each of weight 1.
constexpr std::array<ChanceOutcome, 16> stickOutcomes(std::uint8_t noneUpValue) {
    std::array<ChanceOutcome, 16> out{};
    for (int s = 0; s < 16; ++s)
        out[s] = ChanceOutcome{Throw{sticksValue(static_cast<std::uint8_t>(s), noneUpValue), static_cast<std::uint8_t>(s)}, 1};
    return out;
}

/// For each throw value v, the squares s whose bearOffThrows[s] include v.
constexpr std::array<Bitboard, 16> bearOffFromsOf(const std::array<std::uint16_t, kSquareCount + 1>& bearOffThrows) {
    std::array<Bitboard, 16> out{};
    for (int s = 1; s <= kSquareCount; ++s)
        for (int v = 0; v < 16; ++v)
            if ((bearOffThrows[s] >> v) & 1) out[v] |= bit(s);
    return out;
}

}  // namespace senet
