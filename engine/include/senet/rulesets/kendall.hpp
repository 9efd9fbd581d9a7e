// Timothy Kendall's reconstruction as modern sets print it. RULES.md "Kendall (`kendall`)".
#pragma once

#include "senet/ruleset_data.hpp"

namespace senet::rulesets {

namespace detail {
constexpr std::array<std::uint16_t, kSquareCount + 1> kendallBearOff() {
    std::array<std::uint16_t, kSquareCount + 1> t{};
    t[26] = (1 << 5);  // rule 6: a 5 bears off from the House of Beauty
    t[28] = (1 << 3);  // rule 8: exactly 3 from 28, 2 from 29, 1 from 30
    t[29] = (1 << 2);
    t[30] = (1 << 1);
    return t;
}
}  // namespace detail

/// Kendall's ruleset, RulesetId::Kendall. RULES.md "Kendall (`kendall`)", rules cited per field.
inline constexpr Ruleset kKendall{
    .id = RulesetId::Kendall,
    .key = "kendall",
    .name = "Kendall",
    .piecesPerSide = 5,                                      // rule 1
    .setup = {bit(1) | bit(3) | bit(5) | bit(7) | bit(9),     // rule 1
              bit(2) | bit(4) | bit(6) | bit(8) | bit(10)},
    .firstToMove = Player::One,                              // rule 1
    .opening = OpeningRule::None,                            // rule 1
    .openingSetup = {bit(1) | bit(3) | bit(5) | bit(7) | bit(9), bit(2) | bit(4) | bit(6) | bit(8) | bit(10)},
    .implement = Implement::FourSticks,                      // rule 1: standard's sticks
    .sticksNoneUpValue = 5,
    .outcomes = stickOutcomes(5),
    .outcomeCount = 16,
    .outcomeWeightTotal = 16,
    .throwValues = (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5),
    .extraThrowAfter = (1 << 1) | (1 << 4) | (1 << 5),       // rule 2
    .extraThrowAfterPass = false,                            // rule 2: only when the throw moved a piece
    .safeSquares = 0,                                        // rule 3: no safe squares
    .neighbourProtection = true,                             // rule 3, on every square
    .capture = CaptureMode::Swap,                            // rule 3
    .blockadeLength = 3,                                     // rule 4
    .backwardWhenNoForward = true,                           // rule 9
    .compulsionSquares = 0,
    .waterSquare = 27,                                       // rule 7
    .waterReturn = WaterReturn::SquareOrNearestBefore,
    .waterReturnSquare = 15,
    .bearOffAt = kOffBoard,                                  // rules 6 and 8: past 30 only
    .bearOffThrows = detail::kendallBearOff(),
    .bearOffZone = kAllSquares,                              // nothing else is required
    .bearOffFroms = bearOffFromsOf(detail::kendallBearOff()),
    .win = WinRule::AllBorneOff,                             // rule 11
    .houses = {House{15, "rebirth"}, House{26, "beauty"}, House{27, "water"},  // rule 12
               House{28, "three-truths"}, House{29, "re-atoum"}, House{30, "horus"}},
    .stopSquare = 26,                                        // rule 5
    .bearOffOnlySquares = squareRange(28, 30),               // rule 8
    .backwardSwaps = true,                                   // rule 9
};

}  // namespace senet::rulesets
