// Rules told in words, generated from a senet::Ruleset and a catalog, so the pages say
// exactly what the server enforces. The variant pages' rule-change tables come from here.
#pragma once

#include <string>
#include <vector>

#include "senet/ruleset.hpp"
#include "senet/site_catalog.hpp"

namespace senet::site {

/// One aspect of the rules a ruleset decides: "setup", "hand" (entering from the hand),
/// "opening", "throws", "split" (split throws), "direction" (the turn's direction), "extra"
/// (extra and owed throws), "landing", "blockade", "safe", "water", "houses", "stop" (Kendall's
/// stop on the House of Beauty), "backward", "compulsion", "no-move", "final" (the final houses
/// and their exit throws), "bear-off", "win". Its row label is the catalog key "rc.label.ASPECT".
const std::vector<std::string>& ruleAspects();

/// True when `a` and `b` differ in the Ruleset fields behind `aspect`.
bool aspectDiffers(const std::string& aspect, const Ruleset& a, const Ruleset& b);

/// The rule `aspect` of `rules` as one or two sentences in the catalog's language.
std::string describeAspect(const std::string& aspect, const Ruleset& rules, const Catalog& catalog);

/// One row of a rule-change table.
struct RuleChange {
    std::string aspect;    ///< one of ruleAspects()
    std::string label;     ///< the row heading
    std::string standard;  ///< the rule in the standard game
    std::string variant;   ///< the rule in the variant
};

/// The rows of the table comparing `variant` with `standard`: one per aspect whose fields differ.
std::vector<RuleChange> ruleChanges(const Ruleset& standard, const Ruleset& variant, const Catalog& catalog);

/// Squares as text: "27–30", "26, 28, 29 and 30", "1, 3, 5, 7 and 9".
std::string squaresText(Bitboard squares, const Catalog& catalog);

}  // namespace senet::site
