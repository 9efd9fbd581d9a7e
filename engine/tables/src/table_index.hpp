// The index of a position inside its layer: a combinatorial (colex) rank of the mover's squares
// among the n squares a piece of the ruleset can stand on (its standing squares, `Squares`),
// times the count of the other's placements, plus the colex rank of the other's squares among
// the n - m squares the mover leaves free. RULES.md "Standard" 7, "Jéquier" 5 and 8, "Kendall" 7.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "senet/core.hpp"
#include "senet/ruleset_data.hpp"

namespace senet::tables {
struct TableSpec;
}

namespace senet::tables::detail {

/// The squares a piece of one ruleset can stand on, as a run 1..low, the House of Water skipped,
/// then the `high` squares after it: standard 1..27, 29, 30 (low 27, high 2); Kendall 1..26,
/// 28..30 (26, 3); Jéquier 1..26, 28, 29 (26, 2: no piece rests on 30). Slot i is the i-th of
/// them, lowest first.
struct Squares {
    int low = 27;
    int high = 2;

    /// How many squares a piece can stand on (the slots 0..count()-1).
    int count() const { return low + high; }
    /// The standing squares as a bitboard.
    Bitboard standing() const { return fromSlots((1u << count()) - 1); }
    /// Bitboard (standing squares only) -> count()-bit mask (bit i: the i-th standing square).
    std::uint32_t toSlots(Bitboard b) const {
        return (b & ((1u << low) - 1)) | ((b >> (low + 1)) & ((1u << high) - 1)) << low;
    }
    /// count()-bit mask -> bitboard; the inverse of toSlots.
    Bitboard fromSlots(std::uint32_t s) const {
        return (s & ((1u << low) - 1)) | ((s >> low) & ((1u << high) - 1)) << (low + 1);
    }
};

/// The standing squares of a ruleset with a House of Water, from its data: below the water, and
/// after it up to 30 or, where reaching `bearOffAt` bears off (Jéquier), up to bearOffAt - 1.
Squares squaresOf(const Ruleset& r);

/// Every layer (mover, other) of `spec` in the order they are solved and stored: by pieces on
/// the board, then pairs {(a, b), (b, a)} with a >= b, (a, b) first.
std::vector<std::pair<int, int>> layerOrder(const TableSpec& spec);

/// C(n, k) for 0 <= n <= 29, 0 <= k <= 5 (0 when k > n).
std::uint32_t binomial(int n, int k);

/// Positions in layer (m, o) over n standing squares: C(n, m) * C(n - m, o).
std::uint32_t layerEntries(int n, int m, int o);

/// The colex rank of the k-subset `slots` of 0..n-1 (k = popcount(slots)).
std::uint32_t colexRank(std::uint32_t slots);

/// The index in its layer of the mover on `moverSlots` and the other on `otherSlots` (disjoint
/// masks over n slots, m and o bits): colexRank(mover) * C(n - m, o) + colexRank(other squeezed).
std::uint32_t layerIndex(int n, std::uint32_t moverSlots, std::uint32_t otherSlots);

/// `packed` (bits 0..popcount(free)-1) spread onto the set bits of `free`, lowest first.
std::uint32_t deposit(std::uint32_t packed, std::uint32_t free);

/// The next k-subset after `s` in colex order (Gosper's hack): the next larger integer with as
/// many set bits.
constexpr std::uint32_t nextSubset(std::uint32_t s) {
    const std::uint32_t c = s & (~s + 1);
    const std::uint32_t r = s + c;
    return (((r ^ s) >> 2) / c) | r;
}

}  // namespace senet::tables::detail
