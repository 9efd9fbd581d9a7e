#include "table_index.hpp"

#include <array>
#include <bit>

#include "senet/endgame_table.hpp"

namespace senet::tables {
namespace detail {
namespace {

constexpr std::array<std::array<std::uint32_t, 6>, 30> kBinomial = [] {
    std::array<std::array<std::uint32_t, 6>, 30> c{};
    for (int n = 0; n < 30; ++n) {
        c[n][0] = 1;
        for (int k = 1; k < 6; ++k) c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
    }
    return c;
}();

}  // namespace

std::uint32_t binomial(int n, int k) { return kBinomial[n][k]; }

std::uint32_t layerEntries(int n, int m, int o) { return kBinomial[n][m] * kBinomial[n - m][o]; }

Squares squaresOf(const Ruleset& r) {
    const int last = r.bearOffAt <= kSquareCount ? r.bearOffAt - 1 : kSquareCount;
    return Squares{r.waterSquare - 1, last - r.waterSquare};
}

std::uint32_t colexRank(std::uint32_t slots) {
    std::uint32_t rank = 0;
    for (int j = 1; slots; ++j) {
        rank += kBinomial[std::countr_zero(slots)][j];
        slots &= slots - 1;
    }
    return rank;
}

std::uint32_t layerIndex(int n, std::uint32_t moverSlots, std::uint32_t otherSlots) {
    const int m = std::popcount(moverSlots);
    const int o = std::popcount(otherSlots);
    std::uint32_t rank = 0;
    int j = 1;
    for (std::uint32_t s = otherSlots; s; s &= s - 1, ++j) {
        const int slot = std::countr_zero(s);
        const int squeezed = slot - std::popcount(moverSlots & ((1u << slot) - 1));
        rank += kBinomial[squeezed][j];
    }
    return colexRank(moverSlots) * kBinomial[n - m][o] + rank;
}

std::uint32_t deposit(std::uint32_t packed, std::uint32_t free) {
    std::uint32_t out = 0;
    for (int i = 0; packed; ++i, free &= free - 1) {
        if (packed & 1u) out |= free & (~free + 1);
        packed >>= 1;
    }
    return out;
}

std::vector<std::pair<int, int>> layerOrder(const TableSpec& spec) {
    std::vector<std::pair<int, int>> order;
    for (int total = 2; total <= 10; ++total)
        for (int a = 5; a >= 1; --a) {
            const int b = total - a;
            if (b < 1 || a < b || !inSpec(spec, a, b)) continue;
            order.emplace_back(a, b);
            if (a != b) order.emplace_back(b, a);
        }
    return order;
}

}  // namespace detail

bool supportsRuleset(RulesetId id) {
    return id == RulesetId::Standard || id == RulesetId::Jequier || id == RulesetId::Kendall;
}

Bitboard standingSquares(RulesetId id) { return supportsRuleset(id) ? detail::squaresOf(ruleset(id)).standing() : 0; }

int tableSquares(RulesetId id) { return supportsRuleset(id) ? detail::squaresOf(ruleset(id)).count() : 0; }

TableSpec defaultSpec(RulesetId id) {
    TableSpec spec;
    spec.ruleset = id;
    spec.maxPerSide = 4;
    spec.maxTotal = 5;
    return spec;
}

bool isOpeningBoard(const Position& p) {
    const Ruleset& r = p.rules();
    return r.opening == OpeningRule::ThrowForOne && p.board == r.openingSetup;
}

bool inSpec(const TableSpec& spec, int mover, int other) {
    return mover >= 1 && other >= 1 && mover <= 5 && other <= 5 && mover <= spec.maxPerSide &&
           other <= spec.maxPerSide && mover + other <= spec.maxTotal;
}

Position colourSwapped(const Position& p) {
    Position q = p;
    q.board = {p.board[1], p.board[0]};
    q.off = {p.off[1], p.off[0]};
    q.turn = opponent(p.turn);
    return q;
}

}  // namespace senet::tables
