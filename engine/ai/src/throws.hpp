// Throw values of a ruleset grouped with their exact probabilities (internal to senet_ai).
#pragma once

#include <array>

#include "senet/ruleset.hpp"

namespace senet::ai::detail {

/// The distinct throw values of a ruleset and their probabilities: the 16 stick patterns
/// grouped by value (4/6/4/1/1 out of 16) or the four die faces (1/4 each).
struct ThrowTable {
    int count = 0;                    ///< number of distinct values (5 or 4)
    std::array<int, 8> values{};      ///< the values, ascending
    std::array<double, 8> prob{};     ///< probability of each value, summing to 1
    std::array<double, 16> probOf{};  ///< probability by value (0 for impossible values)
};

/// The table of a ruleset, built once from `Ruleset::weightOfValue`.
const ThrowTable& throwTable(RulesetId id);

}  // namespace senet::ai::detail
