// The site's standard game. RULES.md "Standard (the site's default game)".
#pragma once

#include "senet/ruleset_data.hpp"

namespace senet::rulesets {

namespace detail {
constexpr std::array<std::uint16_t, kSquareCount + 1> standardBearOff() {
    std::array<std::uint16_t, kSquareCount + 1> t{};
    // Rule 8: from 27 or beyond with a throw that passes 30; from 29 only a 3, from 30 only a 2.
    t[27] = (1 << 4) | (1 << 5);
    t[28] = (1 << 3) | (1 << 4) | (1 << 5);
    t[29] = (1 << 3);
    t[30] = (1 << 2);
    return t;
}
}  // namespace detail

/// The standard ruleset, RulesetId::Standard. RULES.md "Standard (the site's default game)", rules cited per field.
inline constexpr Ruleset kStandard{
    .id = RulesetId::Standard,
    .key = "standard",
    .name = "Standard",
    .piecesPerSide = 5,                                      // rule 1
    .setup = {bit(1) | bit(3) | bit(5) | bit(7) | bit(9),     // rule 1
              bit(2) | bit(4) | bit(6) | bit(8) | bit(10)},
    .firstToMove = Player::One,
    .opening = OpeningRule::None,
    .openingSetup = {bit(1) | bit(3) | bit(5) | bit(7) | bit(9), bit(2) | bit(4) | bit(6) | bit(8) | bit(10)},
    .implement = Implement::FourSticks,                      // "Throws"
    .sticksNoneUpValue = 5,
    .outcomes = stickOutcomes(5),
    .outcomeCount = 16,
    .outcomeWeightTotal = 16,
    .throwValues = (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5),
    .extraThrowAfter = (1 << 1) | (1 << 4) | (1 << 5),       // rule 9
    .extraThrowAfterPass = true,                             // rule 9
    .safeSquares = squareRange(27, 30),                      // rule 6
    .neighbourProtection = true,                             // rule 4
    .capture = CaptureMode::Swap,                            // rule 4
    .blockadeLength = 0,                                     // rule 5
    .backwardWhenNoForward = false,
    .compulsionSquares = 0,
    .waterSquare = 28,                                       // rule 7
    .waterReturn = WaterReturn::SquareOrNearestBefore,
    .waterReturnSquare = 15,
    .bearOffAt = kOffBoard,                                  // rule 8
    .bearOffThrows = detail::standardBearOff(),
    .bearOffZone = kAllSquares,
    .bearOffFroms = bearOffFromsOf(detail::standardBearOff()),
    .win = WinRule::AllBorneOff,                             // rule 11
    .houses = {House{15, "return"}, House{27, "beauty"}, House{28, "water"},  // rule 12
               House{29, "three-truths"}, House{30, "re-atoum"}, House{0, ""}},
};

}  // namespace senet::rulesets
