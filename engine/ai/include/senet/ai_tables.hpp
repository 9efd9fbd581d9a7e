// The endgame tables (engine/tables) as exact values for the computer opponent, the analysis
// and the hints: one table per ruleset at most. Plain C++, no I/O: the caller reads the files
// and hands their bytes to `add` (cli/ and the server do).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>

#include "senet/ai_search.hpp"
#include "senet/endgame_table.hpp"

namespace senet::ai {

/// The tables the search may use, at most one per ruleset. Immutable once filled; safe to read
/// from several threads at once.
class TableValues final : public ExactValues {
public:
    /// Adds `table` for its ruleset, replacing one added before.
    void add(tables::EndgameTable table);
    /// Reads a table from the bytes of its file (tables::EndgameTable::fromBytes) and adds it.
    /// Errors: the reader's (a short, damaged or foreign buffer); nothing is added then.
    Result<RulesetId> addBytes(std::span<const std::uint8_t> bytes);
    /// The table for `id`, or null.
    const tables::EndgameTable* table(RulesetId id) const;
    /// Whether any table was added.
    bool empty() const;
    /// The exact probability that p.turn wins, when `p` (with its throw still to come) lies in
    /// the table of its ruleset; nullopt otherwise (another ruleset, too many pieces on the
    /// board, a Piccione remainder). ExactValues.
    std::optional<double> winChance(const Position& p) const override;

private:
    std::array<std::optional<tables::EndgameTable>, kRulesetCount> tables_{};
};

/// The file name of a ruleset's default table inside a tables folder: "<ruleset key>.sntb".
std::string tableFileName(RulesetId id);

}  // namespace senet::ai
