// The rulesets and how to find one: by id (`ruleset`), by notation key (`rulesetByKey`), all of
// them (`allRulesets`), or as a compile-time constant (`withRuleset`). The Ruleset type is in
// senet/ruleset_data.hpp; each ruleset is one constexpr Ruleset in senet/rulesets/*.hpp.
// RULES.md sections "Standard", "Jéquier", "Bell", "Kendall" and "Piccione".
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "senet/ruleset_data.hpp"
#include "senet/rulesets/bell.hpp"
#include "senet/rulesets/jequier.hpp"
#include "senet/rulesets/kendall.hpp"
#include "senet/rulesets/piccione.hpp"
#include "senet/rulesets/standard.hpp"

namespace senet {

/// The ruleset with this id (rulesets::kStandard, kJequier, kBell, kKendall or kPiccione). Never fails.
inline const Ruleset& ruleset(RulesetId id) {
    switch (id) {
        case RulesetId::Jequier: return rulesets::kJequier;
        case RulesetId::Bell: return rulesets::kBell;
        case RulesetId::Kendall: return rulesets::kKendall;
        case RulesetId::Piccione: return rulesets::kPiccione;
        case RulesetId::Standard: break;
    }
    return rulesets::kStandard;
}

/// The id of the ruleset whose notation key (`Ruleset::key`) is `key` ("standard", "jequier",
/// "bell", "kendall", "piccione"), or nullopt for any other text. RULES.md "Position notation".
std::optional<RulesetId> rulesetByKey(std::string_view key);

/// All rulesets, in id order (standard, jequier, bell, kendall, piccione).
std::array<const Ruleset*, kRulesetCount> allRulesets();

/// A ruleset as a type: `RulesetTag<R>::rules` is R, known at compile time.
template <const Ruleset& R>
struct RulesetTag {
    static constexpr const Ruleset& rules = R;
};

/// Calls the generic callable `f(tag)` with the RulesetTag of ruleset `id`, so that `f` is
/// instantiated once per ruleset with its data as compile-time constants (the engine's hot
/// loops use this: `withRuleset(id, [&](auto tag) { const Ruleset& r = tag.rules; ... })`).
/// Returns what `f` returns.
template <class F>
inline decltype(auto) withRuleset(RulesetId id, F&& f) {
    switch (id) {
        case RulesetId::Jequier: return f(RulesetTag<rulesets::kJequier>{});
        case RulesetId::Bell: return f(RulesetTag<rulesets::kBell>{});
        case RulesetId::Kendall: return f(RulesetTag<rulesets::kKendall>{});
        case RulesetId::Piccione: return f(RulesetTag<rulesets::kPiccione>{});
        case RulesetId::Standard: break;
    }
    return f(RulesetTag<rulesets::kStandard>{});
}

}  // namespace senet
