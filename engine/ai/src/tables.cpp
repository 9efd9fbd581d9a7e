// The endgame tables as the search's exact values (senet/ai_tables.hpp).
#include "senet/ai_tables.hpp"

namespace senet::ai {

void TableValues::add(tables::EndgameTable table) {
    const auto at = static_cast<std::size_t>(table.spec().ruleset);
    tables_[at] = std::move(table);
}

Result<RulesetId> TableValues::addBytes(std::span<const std::uint8_t> bytes) {
    auto table = tables::EndgameTable::fromBytes(bytes);
    if (!table) return table.error();
    const RulesetId id = table->spec().ruleset;
    add(std::move(*table));
    return id;
}

const tables::EndgameTable* TableValues::table(RulesetId id) const {
    const auto& t = tables_[static_cast<std::size_t>(id)];
    return t ? &*t : nullptr;
}

bool TableValues::empty() const {
    for (const auto& t : tables_)
        if (t) return false;
    return true;
}

std::optional<double> TableValues::winChance(const Position& p) const {
    const auto& t = tables_[static_cast<std::size_t>(p.rulesetId)];
    if (!t || !p.throwDue()) return std::nullopt;
    return t->value(p);
}

std::string tableFileName(RulesetId id) { return std::string(ruleset(id).key) + ".sntb"; }

}  // namespace senet::ai
