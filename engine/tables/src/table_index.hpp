// The index of a position inside its layer: a combinatorial (colex) rank of the mover's squares
// among the 29 squares a standard piece can stand on (1..27, 29, 30; never 28, the House of
// Water), times the count of the other's placements, plus the colex rank of the other's
// squares among the 29 - m squares the mover leaves free. RULES.md "Standard" 7.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "senet/core.hpp"

namespace senet::tables {
struct TableSpec;
}

namespace senet::tables::detail {

/// Every layer (mover, other) of `spec` in the order they are solved and stored: by pieces on
/// the board, then pairs {(a, b), (b, a)} with a >= b, (a, b) first.
std::vector<std::pair<int, int>> layerOrder(const TableSpec& spec);

/// C(n, k) for 0 <= n <= 29, 0 <= k <= 5 (0 when k > n).
std::uint32_t binomial(int n, int k);

/// Bitboard (squares 1..30, never 28) -> 29-bit mask (bit i: the i-th standing square).
constexpr std::uint32_t toSlots(Bitboard b) {
    return (b & 0x07FFFFFFu) | ((b >> 28) & 0x3u) << 27;
}
/// 29-bit mask -> bitboard; the inverse of toSlots.
constexpr Bitboard fromSlots(std::uint32_t s) {
    return (s & 0x07FFFFFFu) | ((s >> 27) & 0x3u) << 28;
}

/// Positions in layer (m, o): C(29, m) * C(29 - m, o).
std::uint32_t layerEntries(int m, int o);

/// The colex rank of the k-subset `slots` of 0..n-1 (k = popcount(slots)).
std::uint32_t colexRank(std::uint32_t slots);

/// The index in its layer of the mover on `moverSlots` and the other on `otherSlots` (disjoint
/// 29-bit masks, m and o bits): colexRank(mover) * C(29 - m, o) + colexRank(other squeezed).
std::uint32_t layerIndex(std::uint32_t moverSlots, std::uint32_t otherSlots);

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
