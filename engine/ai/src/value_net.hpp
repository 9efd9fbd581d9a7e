// A learned evaluation: a small neural network that estimates, for a position, the chance that
// the player to throw next wins. Trained by temporal-difference self-play (tools/train_value.cpp;
// G. Tesauro, "Temporal difference learning and TD-Gammon", Communications of the ACM 38 (1995)
// 58-68). Internal to senet_ai; shared with the trainer so both compute exactly the same thing.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "features.hpp"
#include "senet/position.hpp"

namespace senet::ai::detail {

/// Inputs: 30 squares of the side to throw, 30 of the other side (1 when a piece stands there),
/// then dense inputs, each for the side to throw and for the other side: the share of pieces
/// borne off (0..1), the share of pieces still before square 21, the squares still to travel
/// / 100, the squares it stands to lose to swaps on the opponent's next throw / 10, the squares
/// it stands to lose by being forced onto the House of Water on its own next throw / 10, and
/// (Jéquier) the opponent pieces it holds behind rows of three / 5 (features.hpp). Piccione
/// (no swaps, no blockades, a hand) uses the same 72 inputs otherwise: the share of pieces in
/// hand instead of those before square 21, a piece in hand travelling the whole path (31), and
/// for the side to throw its owed throws / 3 (at most 1), an entry throw due (1 or 0) and the
/// turn's direction (forward 1 / backward 1; both 0 before a turn's first step).
inline constexpr int kNetSquares = 2 * kSquareCount;
inline constexpr int kNetDense = 12;
inline constexpr int kNetInputs = kNetSquares + kNetDense;
inline constexpr int kNetHidden = 40;

/// The weights of one network: `w1[input][hidden]`, hidden biases, output weights and bias.
struct NetWeights {
    std::array<std::array<float, kNetHidden>, kNetInputs> w1{};
    std::array<float, kNetHidden> b1{};
    std::array<float, kNetHidden> w2{};
    float b2 = 0;
};

/// The inputs of `p` seen by the player to throw: the square inputs that are 1 (at most 20) and
/// the dense values.
struct NetInputs {
    std::array<std::uint8_t, 20> active{};
    int activeCount = 0;
    std::array<float, kNetDense> dense{};
};

inline NetInputs netInputs(const Position& p) {
    NetInputs in;
    const int us = index(p.turn), them = 1 - us;
    const float pieces = static_cast<float>(p.rules().piecesPerSide);
    const Bitboard early = squareRange(1, 20);
    const Ruleset& r = p.rules();
    const bool piccione = r.turnModel == TurnModel::SplitSteps;
    for (int side = 0; side < 2; ++side) {
        const Bitboard b = p.board[side == 0 ? us : them];
        const int hand = piccione ? p.inHand(side == 0 ? p.turn : opponent(p.turn)) : 0;
        float travel = static_cast<float>(kOffBoard * hand);
        for (Bitboard x = b; x; x &= x - 1) {
            const int s = lowestSquare(x);
            in.active[in.activeCount++] = static_cast<std::uint8_t>(side * kSquareCount + s - 1);
            travel += static_cast<float>(kOffBoard - s);
        }
        in.dense[side] = static_cast<float>(p.off[side == 0 ? us : them]) / pieces;
        in.dense[2 + side] = static_cast<float>(piccione ? hand : std::popcount(b & early)) / pieces;
        in.dense[4 + side] = travel / 100.0f;
    }
    if (piccione) {
        in.dense[6] = static_cast<float>(p.owedThrows < 3 ? p.owedThrows : 3) / 3.0f;
        in.dense[7] = p.entryThrowDue ? 1.0f : 0.0f;
        in.dense[8] = p.direction == TurnDirection::Forward ? 1.0f : 0.0f;
        in.dense[9] = p.direction == TurnDirection::Backward ? 1.0f : 0.0f;
        return in;
    }
    const Bitboard own = p.board[us], opp = p.board[them];
    const Bitboard empty = ~(own | opp) & kAllSquares;
    // Where a piece sent back by the House of Water ends, roughly: the lowest empty square
    // (Jéquier), else the return square (standard; 0 without a House of Water, as in Bell).
    const double back = r.waterReturn == WaterReturn::LowestEmpty ? static_cast<double>(empty ? lowestSquare(empty) : 1)
                                                                  : static_cast<double>(r.waterReturnSquare);
    in.dense[6] = static_cast<float>(swapThreat(r, opp, own) / 10.0);
    in.dense[7] = static_cast<float>(swapThreat(r, own, opp) / 10.0);
    if (r.waterSquare != 0) {
        in.dense[8] = static_cast<float>(waterDanger(r, own, opp, back) / 10.0);
        in.dense[9] = static_cast<float>(waterDanger(r, opp, own, back) / 10.0);
    }
    if (r.blockadeLength > 0) {
        in.dense[10] = static_cast<float>(blockadeHold(own, opp) / 5.0);
        in.dense[11] = static_cast<float>(blockadeHold(opp, own) / 5.0);
    }
    return in;
}

/// tanh to within 2e-7 on [-4.97, 4.97] and clamped to +-1 beyond (a continued-fraction
/// rational approximation): branch-free, so the hidden layer vectorises.
inline float fastTanh(float x) {
    x = x > 4.97f ? 4.97f : x < -4.97f ? -4.97f : x;
    const float x2 = x * x;
    const float num = x * (135135.0f + x2 * (17325.0f + x2 * (378.0f + x2)));
    const float den = 135135.0f + x2 * (62370.0f + x2 * (3150.0f + 28.0f * x2));
    const float t = num / den;
    return t > 1.0f ? 1.0f : t < -1.0f ? -1.0f : t;
}

/// Hidden activations and output for one position (kept for the trainer's gradient).
struct NetForward {
    std::array<float, kNetHidden> hidden{};
    float out = 0.5f;  ///< chance that the player to throw wins, (0, 1)
};

inline NetForward netForward(const NetWeights& w, const NetInputs& in) {
    NetForward f;
    std::array<float, kNetHidden> h = w.b1;
    for (int k = 0; k < in.activeCount; ++k) {
        const auto& row = w.w1[in.active[k]];
        for (int j = 0; j < kNetHidden; ++j) h[j] += row[j];
    }
    for (int d = 0; d < kNetDense; ++d) {
        const auto& row = w.w1[kNetSquares + d];
        const float x = in.dense[d];
        for (int j = 0; j < kNetHidden; ++j) h[j] += x * row[j];
    }
    for (int j = 0; j < kNetHidden; ++j) f.hidden[j] = fastTanh(h[j]);
    // Four partial sums, so the dot product vectorises without reordering a single sum.
    static_assert(kNetHidden % 4 == 0);
    std::array<float, 4> part{};
    for (int j = 0; j < kNetHidden; j += 4)
        for (int k = 0; k < 4; ++k) part[k] += w.w2[j + k] * f.hidden[j + k];
    const float sum = w.b2 + (part[0] + part[1]) + (part[2] + part[3]);
    f.out = 1.0f / (1.0f + std::exp(-sum));
    return f;
}

/// The trained network of a ruleset, or nullptr when it has none (learned.cpp).
const NetWeights* learnedWeights(RulesetId id);

}  // namespace senet::ai::detail
