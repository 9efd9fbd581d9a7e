#include "senet/ruleset.hpp"

namespace senet {

std::optional<RulesetId> rulesetByKey(std::string_view key) {
    for (const Ruleset* r : allRulesets())
        if (r->key == key) return r->id;
    return std::nullopt;
}

std::array<const Ruleset*, kRulesetCount> allRulesets() {
    return {&rulesets::kStandard, &rulesets::kJequier, &rulesets::kBell, &rulesets::kKendall, &rulesets::kPiccione};
}

int Ruleset::weightOfValue(int value) const {
    int w = 0;
    for (const ChanceOutcome& o : chanceOutcomes())
        if (o.throw_.value == value) w += o.weight;
    return w;
}

}  // namespace senet
