// R. C. Bell's reconstruction. RULES.md "Bell (`bell`)".
#pragma once

#include "senet/ruleset_data.hpp"

namespace senet::rulesets {

namespace detail {
constexpr Bitboard squaresOfParity(int first) {
    Bitboard b = 0;
    for (int s = first; s <= 20; s += 2) b |= bit(s);
    return b;
}

constexpr std::array<ChanceOutcome, 16> dieOutcomes() {
    std::array<ChanceOutcome, 16> out{};
    for (int v = 1; v <= 4; ++v) out[v - 1] = ChanceOutcome{Throw{static_cast<std::uint8_t>(v), 0}, 1};
    return out;
}

constexpr std::array<std::uint16_t, kSquareCount + 1> bellBearOff() {
    // Rule 5: only the exact throw to 31 from X (27), III (28), II (29), I (30).
    std::array<std::uint16_t, kSquareCount + 1> t{};
    t[27] = 1 << 4;
    t[28] = 1 << 3;
    t[29] = 1 << 2;
    t[30] = 1 << 1;
    return t;
}
}  // namespace detail

/// R. C. Bell's ruleset, RulesetId::Bell. RULES.md "Bell (`bell`)", rules cited per field.
inline constexpr Ruleset kBell{
    .id = RulesetId::Bell,
    .key = "bell",
    .name = "R. C. Bell",
    .piecesPerSide = 10,                                     // rule 1
    .setup = {detail::squaresOfParity(1), detail::squaresOfParity(2)},       // rule 1
    .firstToMove = Player::One,
    .opening = OpeningRule::None,
    .openingSetup = {detail::squaresOfParity(1), detail::squaresOfParity(2)},
    .implement = Implement::FourSidedDie,                    // rule 2
    .sticksNoneUpValue = 0,
    .outcomes = detail::dieOutcomes(),
    .outcomeCount = 4,
    .outcomeWeightTotal = 4,
    .throwValues = (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4),
    .extraThrowAfter = 0,                                    // rule 2
    .extraThrowAfterPass = false,
    .safeSquares = squareRange(26, 30),                      // rule 4
    .neighbourProtection = false,                            // rule 3
    .capture = CaptureMode::Remove,                          // rule 3
    .blockadeLength = 0,
    .backwardWhenNoForward = false,
    .compulsionSquares = squareRange(26, 30),                // rule 6
    .waterSquare = 0,
    .waterReturn = WaterReturn::None,
    .waterReturnSquare = 0,
    .bearOffAt = kOffBoard,                                  // rule 5
    .bearOffThrows = detail::bellBearOff(),
    .bearOffZone = kAllSquares,
    .bearOffFroms = bearOffFromsOf(detail::bellBearOff()),
    .win = WinRule::Majority,                                // rule 8
    .houses = {House{26, "beauty"}, House{27, "x"}, House{28, "iii"},  // rule 5
               House{29, "ii"}, House{30, "i"}, House{0, ""}},
};

}  // namespace senet::rulesets
