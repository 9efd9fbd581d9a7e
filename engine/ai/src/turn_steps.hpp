// A throw spent over several steps (Piccione, TurnModel::SplitSteps), as the search sees it:
// every distinct position in which the throw is used up (internal to senet_ai). Header-only:
// the WebAssembly build compiles search.cpp without a list of its own sources.
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "senet/senet.hpp"

namespace senet::ai::detail {

/// Appends to `out` every distinct position reached from `p` by a legal sequence of steps of
/// the player to move that spends the throw `v` (kNoThrow: p's remainder) completely: each is a
/// position where a throw is due next (the same player's entry or owed throw, or the
/// opponent's turn) or the game is over. Transpositions (the same pieces moved in another
/// order) appear once. A throw with no step gives the pass. Piccione rules 4-9.
inline void spentThrowPositions(const Position& p, int v, std::vector<Position>& out);

/// A vector of positions for this thread's searches to reuse, so that a search allocates only
/// when it needs more room than an earlier one did.
inline std::vector<Position>& threadPositionPool();

namespace steps {

/// The positions met while one throw is spent: an open-addressing set cleared in O(1) by a
/// generation stamp. A full set stops merging (the search stays correct, only slower).
class SeenSet {
public:
    void clear() {
        if (++stamp_ == 0) {
            std::fill(stamps_.begin(), stamps_.end(), 0u);
            stamp_ = 1;
        }
        size_ = 0;
    }
    /// Inserts `q`; false when it was already in the set.
    bool insert(const Position& q) {
        if (size_ >= kSlots * 3 / 4) return true;
        std::uint64_t w[2];
        static_assert(sizeof(Position) == sizeof w, "a position is 16 bytes");
        std::memcpy(w, &q, sizeof w);
        std::uint64_t h = (w[0] ^ (w[1] * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
        for (std::size_t i = (h >> 40) & (kSlots - 1);; i = (i + 1) & (kSlots - 1)) {
            if (stamps_[i] != stamp_) {
                stamps_[i] = stamp_;
                slots_[i] = q;
                ++size_;
                return true;
            }
            if (slots_[i] == q) return false;
        }
    }

private:
    static constexpr std::size_t kSlots = 1 << 14;
    std::vector<Position> slots_ = std::vector<Position>(kSlots);
    std::vector<std::uint32_t> stamps_ = std::vector<std::uint32_t>(kSlots);
    std::uint32_t stamp_ = 0;
    std::size_t size_ = 0;
};

inline void spend(const Position& p, int v, std::vector<Position>& out, SeenSet& seen) {
    MoveList steps;
    generateMoves(p, v, steps);
    if (steps.empty()) {
        const Position q = applyMove(p, v, Move::pass());
        if (seen.insert(q)) out.push_back(q);
        return;
    }
    for (const Move& m : steps) {
        const Position q = applyMove(p, v, m);
        if (!seen.insert(q)) continue;
        if (q.throwDue()) out.push_back(q);  // the throw is spent (or the game is over)
        else spend(q, kNoThrow, out, seen);
    }
}

}  // namespace steps

inline void spentThrowPositions(const Position& p, int v, std::vector<Position>& out) {
    thread_local steps::SeenSet seen;
    seen.clear();
    steps::spend(p, v, out, seen);
}

inline std::vector<Position>& threadPositionPool() {
    thread_local std::vector<Position> pool = [] {
        std::vector<Position> v;
        v.reserve(1 << 14);
        return v;
    }();
    return pool;
}

}  // namespace senet::ai::detail
