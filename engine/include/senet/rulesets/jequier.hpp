// Jéquier's reconstruction. RULES.md "Jéquier (`jequier`)".
#pragma once

#include "senet/ruleset_data.hpp"

namespace senet::rulesets {

namespace detail {
constexpr std::array<std::uint16_t, kSquareCount + 1> jequierBearOff() {
    // Rule 8: a piece that reaches 30 or would pass it is borne off, with any throw.
    std::array<std::uint16_t, kSquareCount + 1> t{};
    for (int square = 1; square <= kSquareCount; ++square)
        for (int value : {1, 2, 3, 4, 6})
            if (square + value >= 30) t[square] |= static_cast<std::uint16_t>(1 << value);
    return t;
}
}  // namespace detail

/// Jéquier's ruleset, RulesetId::Jequier. RULES.md "Jéquier (`jequier`)", rules cited per field.
inline constexpr Ruleset kJequier{
    .id = RulesetId::Jequier,
    .key = "jequier",
    .name = "Jéquier",
    .piecesPerSide = 5,
    // After the opening (rule 1): player 2 threw the first 1 and moved 10→11.
    .setup = {bit(1) | bit(3) | bit(5) | bit(7) | bit(9),
              bit(2) | bit(4) | bit(6) | bit(8) | bit(11)},
    .firstToMove = Player::Two,                              // rule 1: the 1 gives another throw
    .opening = OpeningRule::ThrowForOne,                     // rule 1
    .openingSetup = {bit(1) | bit(3) | bit(5) | bit(7) | bit(9),
                     bit(2) | bit(4) | bit(6) | bit(8) | bit(10)},
    .implement = Implement::FourSticks,
    .sticksNoneUpValue = 6,                                  // rule 2
    .outcomes = stickOutcomes(6),
    .outcomeCount = 16,
    .outcomeWeightTotal = 16,
    .throwValues = (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 6),
    .extraThrowAfter = (1 << 1) | (1 << 4) | (1 << 6),       // rule 2
    .extraThrowAfterPass = false,                            // rule 7
    .safeSquares = bit(26) | bit(28) | bit(29) | bit(30),    // rule 4
    .neighbourProtection = true,                             // rule 4
    .capture = CaptureMode::Swap,
    .blockadeLength = 3,                                     // rule 3
    .backwardWhenNoForward = true,                           // rule 6
    .compulsionSquares = 0,
    .waterSquare = 27,                                       // rule 5
    .waterReturn = WaterReturn::LowestEmpty,
    .waterReturnSquare = 0,
    .bearOffAt = 30,                                         // rule 8
    .bearOffThrows = detail::jequierBearOff(),
    .bearOffZone = squareRange(21, 30),                      // rule 8
    .bearOffFroms = bearOffFromsOf(detail::jequierBearOff()),
    .win = WinRule::AllBorneOff,                             // rule 9
    .houses = {House{26, "beauty"}, House{27, "water"}, House{0, ""},  // rule 10
               House{0, ""}, House{0, ""}, House{0, ""}},
};

}  // namespace senet::rulesets
