// Peter Piccione's rules for King Tut's Game. RULES.md "Piccione (`piccione`)". The steps of a
// turn (entering, split throws, the turn's direction, owed throws) follow from the fields below
// and `TurnModel::SplitSteps`; the move generator's Piccione part is engine/src/split_steps.hpp.
#pragma once

#include "senet/ruleset_data.hpp"

namespace senet::rulesets {

namespace detail {
constexpr std::array<std::uint16_t, kSquareCount + 1> piccioneBearOff() {
    // Rule 12: a forward step of exactly 31 - FROM: 5 from 26, 3 from 28, 2 from 29, 1 from 30.
    std::array<std::uint16_t, kSquareCount + 1> t{};
    t[26] = (1 << 5);
    t[28] = (1 << 3);
    t[29] = (1 << 2);
    t[30] = (1 << 1);
    return t;
}
}  // namespace detail

/// Piccione's ruleset, RulesetId::Piccione. RULES.md "Piccione (`piccione`)", rules cited per field.
inline constexpr Ruleset kPiccione{
    .id = RulesetId::Piccione,
    .key = "piccione",
    .name = "Piccione",
    .piecesPerSide = 5,                                      // rule 1
    .turnModel = TurnModel::SplitSteps,                      // rules 4-10
    .setup = {0, 0},                                         // rule 1: every piece in hand
    .firstToMove = Player::One,                              // rule 1
    .opening = OpeningRule::None,
    .openingSetup = {0, 0},
    .implement = Implement::FourSticks,                      // "Throws": standard's sticks
    .sticksNoneUpValue = 5,
    .outcomes = stickOutcomes(5),
    .outcomeCount = 16,
    .outcomeWeightTotal = 16,
    .throwValues = (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5),
    .extraThrowAfter = (1 << 5),                             // rules 2 and 10: only a 5
    .extraThrowAfterPass = false,                            // rule 9: a pass loses every owed throw
    .safeSquares = 0,                                        // rule 3: no captures at all
    .neighbourProtection = false,
    .capture = CaptureMode::Swap,                            // unused: a step ends only on an empty square (rule 3)
    .blockadeLength = 0,                                     // rule 3
    .backwardWhenNoForward = true,                           // rule 7
    .compulsionSquares = 0,
    .waterSquare = 27,                                       // rule 11
    .waterReturn = WaterReturn::ToHand,
    .waterReturnSquare = 0,
    .bearOffAt = kOffBoard,                                  // rule 12
    .bearOffThrows = detail::piccioneBearOff(),
    .bearOffZone = kAllSquares,
    .bearOffFroms = bearOffFromsOf(detail::piccioneBearOff()),
    .win = WinRule::AllBorneOff,                             // rule 13
    .houses = {House{15, "ankh"}, House{26, "nefer"}, House{27, "water"},  // rule 14
               House{28, "three-birds"}, House{29, "two-men"}, House{30, "horus"}},
    .extraThrowSquares = bit(15) | bit(26),                  // rule 10
    .noBackwardSquares = squareRange(28, 30),                // rule 4
    .entrySquare = 1,                                        // rule 5
};

}  // namespace senet::rulesets
