// The engine's small value types: squares, players, throws and moves.
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstdint>

namespace senet {

/// One bit per square: bit (n - 1) is square n, squares 1..30. RULES.md "The board".
using Bitboard = std::uint32_t;

inline constexpr int kSquareCount = 30;
/// The `to` of a bear-off move: one past the last square.
inline constexpr int kOffBoard = 31;
/// The throw value passed to the move generator when no new throw is made: the step spends the
/// remainder of the last one (Piccione; RULES.md THROW `-`).
inline constexpr int kNoThrow = 0;
inline constexpr Bitboard kAllSquares = (Bitboard{1} << kSquareCount) - 1;

/// The bit of square `square`, which must be 1..30 (asserted in debug builds).
constexpr Bitboard bit(int square) {
    assert(square >= 1 && square <= kSquareCount);
    return Bitboard{1} << (square - 1);
}

/// The squares `first`..`last` inclusive (both clamped to 1..30); empty when first > last.
constexpr Bitboard squareRange(int first, int last) {
    if (first < 1) first = 1;
    if (last > kSquareCount) last = kSquareCount;
    if (first > last) return 0;
    return (kAllSquares >> (kSquareCount - (last - first + 1))) << (first - 1);
}

/// The path neighbours of a square 1..30 (n-1 and n+1, within 1..30). RULES.md "The board".
constexpr Bitboard neighbours(int square) {
    const Bitboard b = bit(square);
    return ((b << 1) | (b >> 1)) & kAllSquares;
}

/// The lowest square of `b`, which must not be empty (asserted in debug builds).
constexpr int lowestSquare(Bitboard b) {
    assert(b != 0);
    return std::countr_zero(b) + 1;
}
/// The highest square of `b`, which must not be empty (asserted in debug builds).
constexpr int highestSquare(Bitboard b) {
    assert(b != 0);
    return 32 - std::countl_zero(b);
}

/// A player of a position. Player One owns the pieces that start on the odd squares.
enum class Player : std::uint8_t { One = 0, Two = 1 };

constexpr Player opponent(Player p) { return p == Player::One ? Player::Two : Player::One; }
/// 0 for Player One, 1 for Player Two: the index into per-player arrays.
constexpr int index(Player p) { return static_cast<int>(p); }
/// 1 or 2, as written in the notation.
constexpr int number(Player p) { return static_cast<int>(p) + 1; }

/// One outcome of a throw. For the four sticks, `sticks` holds which fell marked side up
/// (bit i = stick i, 0..15) and `value` is what they count for; for a die `sticks` is 0.
struct Throw {
    std::uint8_t value = 0;
    std::uint8_t sticks = 0;
    friend constexpr bool operator==(Throw, Throw) = default;
};

/// What a move does besides moving one piece. Flags combine (a swap never lands in the water).
enum MoveFlag : std::uint8_t {
    kSwap = 1,      ///< the opponent's piece on `to` goes to `from` (standard, Jéquier)
    kCapture = 2,   ///< the opponent's piece on `to` leaves the game (Bell)
    kWater = 4,     ///< landed on the House of Water; the piece ends on `dest`
    kBearOff = 8,   ///< the piece leaves the board (`to` == `dest` == kOffBoard)
    kBackward = 16, ///< a backward move (Jéquier, Kendall, Piccione when no forward move exists)
    kEnter = 32,    ///< a piece enters from the hand onto `to` (Piccione `in-1`; `from` is 0)
    kToHand = 64,   ///< the piece landed on `to` (Piccione's 27) and went back to the hand; `dest` is 0
};

/// A move of one piece (in Piccione a step, which may spend part of a throw), or a pass. 4 bytes.
/// `from` 1..30 (0 for a pass or an entry from the hand); `to` the square the throw lands on,
/// 1..30, or kOffBoard (0 only for a pass); `dest` where the piece finally stands (differs from
/// `to` only after the House of Water; 0 when it went to the hand).
struct Move {
    std::uint8_t from = 0;
    std::uint8_t to = 0;
    std::uint8_t dest = 0;
    std::uint8_t flags = 0;

    static constexpr Move pass() { return Move{}; }
    /// Piccione's `in-1`: a piece from the hand onto `square`.
    static constexpr Move enter(int square) {
        return Move{0, static_cast<std::uint8_t>(square), static_cast<std::uint8_t>(square), kEnter};
    }
    constexpr bool isPass() const { return to == 0; }
    constexpr bool has(MoveFlag f) const { return (flags & f) != 0; }
    /// Same piece and same landing square: the identity used by the notation.
    constexpr bool sameAs(Move o) const { return from == o.from && to == o.to; }
    friend constexpr bool operator==(Move, Move) = default;
};

/// The legal moves for one throw, without heap allocation. With one move per throw a player
/// never has more than 10 pieces and each piece has at most one move; in Piccione each of 5
/// pieces has at most 5 steps (one per amount), plus `in-1`: 26 moves fit.
class MoveList {
public:
    static constexpr int kCapacity = 26;
    constexpr void clear() { size_ = 0; }
    /// Appends `m`; the list must hold fewer than kCapacity moves (asserted in debug builds).
    constexpr void push(Move m) {
        assert(size_ < kCapacity);
        moves_[size_++] = m;
    }
    constexpr int size() const { return size_; }
    constexpr bool empty() const { return size_ == 0; }
    /// The move at `i`, 0 <= i < size() (asserted in debug builds).
    constexpr const Move& operator[](int i) const {
        assert(i >= 0 && i < size_);
        return moves_[i];
    }
    constexpr const Move* begin() const { return moves_.data(); }
    constexpr const Move* end() const { return moves_.data() + size_; }
    /// Keeps only the moves for which `keep(move)` is true, in order.
    template <class Pred>
    constexpr void filter(Pred keep) {
        int n = 0;
        for (int i = 0; i < size_; ++i)
            if (keep(moves_[i])) moves_[n++] = moves_[i];
        size_ = n;
    }

private:
    std::array<Move, kCapacity> moves_{};
    int size_ = 0;
};

/// How a game stands. RULES.md: standard 11, Jéquier 9, Bell 8, Kendall 11, Piccione 13.
enum class Outcome : std::uint8_t { Ongoing, WinOne, WinTwo, Draw };

}  // namespace senet
