// Exact endgame tables for the standard, Jéquier and Kendall rulesets (one table per ruleset):
// the probability that the player to throw wins under perfect play of both sides, for every
// position with few pieces left on the board. Solved by retrograde value iteration
// (engine/tables/README.md). RULES.md "Standard", "Jéquier", "Kendall", "Throws" and "Position
// notation". Uses the engine only: no I/O, no exceptions; errors are Result values.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "senet/position.hpp"
#include "senet/result.hpp"
#include "senet/ruleset.hpp"

namespace senet::tables {

/// Which layers a table holds, and of which ruleset. A layer is (pieces on the board of the
/// player to throw, pieces on the board of the other), each 1..5; the rest of each side's five
/// are borne off (standard 1 and 11, Jéquier 9, Kendall 11: five a side, no captures). Layer
/// (m, o) is in the table when m <= maxPerSide, o <= maxPerSide and m + o <= maxTotal. The set is closed under bearing off, so every
/// successor of a position in the table is in the table or a finished game.
struct TableSpec {
    RulesetId ruleset = RulesetId::Standard;  ///< Standard, Jequier or Kendall (supportsRuleset)
    int maxPerSide = 4;                       ///< 1..5
    int maxTotal = 5;                         ///< 2..10
    /// Stop iterating a layer pair when no value changed by more than this in a sweep (> 0).
    double tolerance = 1e-12;
    /// A sweep limit per layer pair (>= 1); a pair that reaches it reports its residual anyway.
    int maxSweeps = 100000;
    /// The value every position of a pair starts from, in [0, 1]. Solving from 0 and from 1
    /// brackets every fixed point (the update is monotone), so equal tables from both show the
    /// fixed point is unique (tests/tables).
    double startValue = 0.5;
};

/// The measured figures of one layer after solving (or as read back from a byte buffer).
struct LayerStats {
    int mover = 0;               ///< pieces on the board of the player to throw, 1..5
    int other = 0;               ///< pieces on the board of the other player, 1..5
    /// positions in the layer: C(n, mover) * C(n - mover, other), n = tableSquares(ruleset)
    std::uint32_t entries = 0;
    std::uint32_t sweeps = 0;    ///< Gauss–Seidel sweeps of the layer pair {(m, o), (o, m)}
    double seconds = 0;          ///< wall time spent solving the layer pair (shared by both layers)
    /// max |V - BellmanUpdate(V)| over the layer after the last sweep, computed on the stored
    /// (rounded) values, so it includes the storage rounding (at most about 2.4e-10).
    double residual = 0;
};

/// The squares a standard piece can stand on: 1..27, 29, 30 (28, the House of Water, never
/// holds a piece: RULES.md standard 7; parsePosition refuses one there). Other rulesets:
/// tableSquares.
inline constexpr int kTableSquares = 29;

/// Whether tables can be solved for ruleset `id`: standard, jequier and kendall (five pieces a
/// side, no captures, one move per throw). Bell removes pieces and Piccione keeps them in hand,
/// so their positions do not fall into these layers.
bool supportsRuleset(RulesetId id);

/// The squares a piece of ruleset `id` can stand on, as a bitboard: every square but the House
/// of Water and, in Jéquier, 30 (RULES.md standard 7: 1..27, 29, 30; Jéquier 5 and 8: 1..26, 28,
/// 29; Kendall 7 and 14: 1..26, 28..30). Derived from the ruleset's data; 0 for a ruleset
/// supportsRuleset refuses.
Bitboard standingSquares(RulesetId id);

/// How many squares a piece of ruleset `id` can stand on: 29 (standard, Kendall), 28 (Jéquier);
/// 0 for a ruleset supportsRuleset refuses.
int tableSquares(RulesetId id);

/// The default table of ruleset `id` (what `senet table build RULESET FILE` solves without
/// options): at most 4 pieces a side on the board and 5 in all, for each of the three rulesets,
/// the largest spec whose table fits the size budget (engine/tables/README.md). The spec's
/// ruleset is `id` (a ruleset supportsRuleset refuses gives a spec solve refuses).
TableSpec defaultSpec(RulesetId id);

/// Whether `p` is Jéquier's board while its opening is thrown (RULES.md Jéquier 1: every piece on
/// its opening square, 1-10; Position holds the opening phase as that board). Such a position is
/// never in a table. False for every other ruleset.
bool isOpeningBoard(const Position& p);

/// An exact endgame table of one ruleset. Values are stored as unsigned 32-bit integers scaled
/// by 2^32 - 1 (4 bytes per position; rounding error at most 1.2e-10).
class EndgameTable {
public:
    /// An empty table (no layers): contains() is false for every position.
    EndgameTable() = default;

    /// Solves every layer `spec` names, smallest first (a layer pair {(m, o), (o, m)} depends
    /// only on pairs with fewer pieces through bear-offs). Value iteration per pair:
    /// V(s) = sum over throws t of P(t) * max over legal moves m (a pass when none) of
    /// [V(s') when the same player throws again, else 1 - V(s')], with a won game worth 1.
    /// The moves, passes and extra throws are the engine's (generateMoves / applyMove / outcome
    /// for spec.ruleset): RULES.md standard 2-11, Jéquier 2-9, Kendall 2-11.
    /// Errors: an unsupported ruleset (supportsRuleset), maxPerSide outside 1..5, maxTotal outside
    /// 2..10, a tolerance <= 0, maxSweeps < 1 or a startValue outside [0, 1]. Time and memory grow
    /// with the layers: the default spec (maxPerSide 4, maxTotal 5) has 3,917,900 positions for
    /// standard and Kendall (15.7 MB), 3,255,462 for Jéquier (13.0 MB; README).
    static Result<EndgameTable> solve(const TableSpec& spec);

    /// Reads a table written by toBytes (of any supported ruleset; the header names it). Errors
    /// (never a crash): a buffer too short for its header, a wrong magic or version, an
    /// unsupported ruleset, a spec out of range, a layer
    /// list that does not match the spec, a size that does not match the layers, or a checksum
    /// mismatch.
    static Result<EndgameTable> fromBytes(std::span<const std::uint8_t> bytes);

    /// The table as bytes: a 32-byte header (magic "SNTB", format version, ruleset, spec, layer
    /// count), one 32-byte record per layer (its figures), the values (4 bytes each, little
    /// endian, layer by layer), then an FNV-1a 64-bit checksum of everything before it.
    std::vector<std::uint8_t> toBytes() const;

    /// Whether `p` is a position of the table's ruleset whose layer is in the table (counted from
    /// the player to throw), or a finished game of that ruleset (a side has borne off all five).
    /// Never Jéquier's opening board (isOpeningBoard), never a piece off the standing squares.
    bool contains(const Position& p) const;

    /// The probability, in [0, 1], that the player to throw in `p` (p.turn) wins under perfect
    /// play of both sides; 1 or 0 for a finished game (won by p.turn or by the other). nullopt
    /// for another ruleset or a layer outside the table.
    std::optional<double> value(const Position& p) const;

    /// The spec the table was solved with (or read back with).
    const TableSpec& spec() const { return spec_; }
    /// One record per layer, in the order they were solved.
    const std::vector<LayerStats>& layers() const { return stats_; }
    /// Positions in the table (the sum of every layer's entries).
    std::size_t entryCount() const { return values_.size(); }
    /// Bytes the values take in memory (4 per entry); toBytes adds the header and records.
    std::size_t valueBytes() const { return values_.size() * sizeof(std::uint32_t); }

private:
    TableSpec spec_{};
    std::vector<LayerStats> stats_;
    std::vector<std::uint32_t> values_;
    std::vector<std::int64_t> layerOffset_;  // (mover * 6 + other) -> first entry, -1 when absent
    friend class Solver;
    void indexLayers();
    std::optional<double> lookup(Bitboard mover, Bitboard other) const;
};

/// Whether layer (mover, other) belongs to `spec` (both in 1..5 and within its limits).
bool inSpec(const TableSpec& spec, int mover, int other);

/// A copy of `p` with the colours swapped: player 1's pieces and borne-off count become player
/// 2's and back, and the other player is to throw. Its value for its player to throw is the
/// value of `p` for p.turn (both players move the same way along the same path).
Position colourSwapped(const Position& p);

}  // namespace senet::tables
