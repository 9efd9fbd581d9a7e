// Piccione's one-sided race table (senet/ai_race.hpp): policy iteration over one player's turns.
//
// A state is one player's pieces at the start of a turn: which of the 29 squares a piece can
// stand on (1-26, 28-30) hold one, and how many are in hand; the others are borne off. For each
// state the table holds the first two moments of the number of turns still needed, under the
// play that minimises the mean. A turn is played by the engine's own steps: every distinct
// position in which a throw is spent (turn_steps.hpp), its owed and entry throws played out the
// same way (rules 5, 6, 10), the turn's direction kept (rule 7), a pass sending a piece on square
// 1 back to the hand (rule 9). Every throw of a turn is a chance node: the turn's first throw
// (one per state) and the owed and entry throws inside it (met on the way). Turns can send pieces
// back (27, a pass, a backward turn), so the values are solved by policy iteration: a sweep that
// spends every throw of every node the best way by the values so far (expensive), then the
// values of that play, iterated until they settle (cheap); until no choice changes.
#include "senet/ai_race.hpp"

#include <algorithm>
#include <cassert>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "throws.hpp"
#include "turn_steps.hpp"

namespace senet::ai {

double RaceTurns::variance() const { return std::max(0.0, meanSquare - mean * mean); }

namespace {

constexpr int kPieces = 5;
constexpr int kStandingSquares = 29;  // 1-26 and 28-30: no piece stands on 27 (rule 11)
constexpr Bitboard kBelowWater = (Bitboard{1} << 26) - 1;  // squares 1-26

/// The 29-bit set of a board's standing squares: squares 1-26 as bits 0-25, 28-30 as 26-28.
constexpr std::uint32_t compress(Bitboard b) { return (b & kBelowWater) | ((b >> 27) << 26); }
constexpr Bitboard expand(std::uint32_t m) { return (m & kBelowWater) | ((m >> 26) << 27); }

/// Binomial coefficients C(n, k) for n <= 29, k <= 5.
struct Binomials {
    std::array<std::array<std::uint32_t, kPieces + 1>, kStandingSquares + 1> c{};
    constexpr Binomials() {
        for (int n = 0; n <= kStandingSquares; ++n) {
            c[n][0] = 1;
            for (int k = 1; k <= kPieces; ++k) c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
        }
    }
};
constexpr Binomials kBinomials;

/// Where each (pieces on the board, pieces in hand) block of states begins.
struct Blocks {
    std::array<std::array<std::uint32_t, kPieces + 1>, kPieces + 1> base{};
    std::uint32_t total = 0;
    constexpr Blocks() {
        for (int k = 0; k <= kPieces; ++k)
            for (int h = 0; h + k <= kPieces; ++h) {
                base[k][h] = total;
                total += kBinomials.c[kStandingSquares][k];
            }
    }
};
constexpr Blocks kBlocks;

/// The index of a state: its block, then the colex rank of its set of squares.
std::uint32_t stateIndex(Bitboard pieces, int hand) {
    std::uint32_t m = compress(pieces);
    const int k = std::popcount(m);
    std::uint32_t rank = 0;
    for (int i = 1; m; ++i, m &= m - 1) rank += kBinomials.c[std::countr_zero(m)][i];
    return kBlocks.base[k][hand] + rank;
}

/// One player's pieces alone, player 1 to throw at the start of a turn.
Position oneSided(Bitboard pieces, int hand) {
    Position p;
    p.rulesetId = RulesetId::Piccione;
    p.turn = Player::One;
    p.board[0] = pieces;
    p.off[0] = static_cast<std::uint8_t>(kPieces - std::popcount(pieces) - hand);
    return p;
}

/// Owed throws beyond this many are not counted: they are rare, and without a bound a turn that
/// sends pieces round through 27 could owe ever more.
constexpr std::uint8_t kMostOwed = 3;

/// Moments of turns: m1 the mean, m2 the mean square.
struct Moments {
    double m1 = 0, m2 = 0;
};

/// T = 1 + R: the turns from a turn's start, from those after it.
Moments withThisTurn(const Moments& r) { return {1 + r.m1, 1 + 2 * r.m1 + r.m2}; }

/// Solves the table (the build only): every chance node of a player alone, its value R (the
/// turns after the current one) and its best way of spending each throw.
class RaceSolver {
public:
    explicit RaceSolver(int mostPiecesLeft) : mostPiecesLeft_(mostPiecesLeft) {}
    /// The states solved: those with at most mostPiecesLeft pieces not borne off.
    int states() const { return solved_; }
    /// Solves; `mean` and `square` receive T's moments for every state, `owedMean` and
    /// `owedSquare` R's moments of every state inside a forward turn with one throw owed, and
    /// `entryMean` and `entrySquare` the same with the entry throw due and nothing owed (NaN
    /// where no such throw was met).
    void solve(std::vector<float>& mean, std::vector<float>& square, std::vector<float>& owedMean,
               std::vector<float>& owedSquare, std::vector<float>& entryMean, std::vector<float>& entrySquare,
               int& sweeps) {
        order();
        for (sweeps = 1; sweeps <= kMostSweeps; ++sweeps) {
            const int changed = improve();
            evaluatePolicy();
            if (changed == 0) break;
        }
        mean.resize(states_);
        square.resize(states_);
        for (std::uint32_t i = 0; i < states_; ++i) {
            const Moments t = withThisTurn({r1_[i], r2_[i]});
            mean[i] = static_cast<float>(t.m1);
            square[i] = static_cast<float>(t.m2);
        }
        if (mean.size() > 0) mean[0] = square[0] = 0;  // no piece on the board, none in hand: all off
        owedMean.assign(states_, NAN);
        owedSquare.assign(states_, NAN);
        entryMean.assign(states_, NAN);
        entrySquare.assign(states_, NAN);
        for (std::uint32_t id = states_; id < nodes_.size(); ++id) {
            const Position& x = nodes_[id];
            if (x.direction != TurnDirection::Forward) continue;
            const std::uint32_t s = stateIndex(x.board[0], x.inHand(Player::One));
            if (!x.entryThrowDue && x.owedThrows == 1) {
                owedMean[s] = static_cast<float>(r1_[id]);
                owedSquare[s] = static_cast<float>(r2_[id]);
            } else if (x.entryThrowDue && x.owedThrows == 0) {
                entryMean[s] = static_cast<float>(r1_[id]);
                entrySquare[s] = static_cast<float>(r2_[id]);
            }
        }
    }

private:
    static constexpr int kThrows = 5;
    static constexpr int kMostSweeps = 8;
    /// A child of a node: the game won, the turn passed to a state, or another throw of the turn.
    static constexpr std::uint32_t kWon = 0xFFFFFFFFu;
    static constexpr std::uint32_t kPassed = 0x80000000u;
    static constexpr std::uint32_t kNone = 0x7FFFFFFFu;  ///< no choice made yet
    static constexpr std::array<std::uint32_t, kThrows> kNoChoices{kNone, kNone, kNone, kNone, kNone};

    void order() {
        states_ = kBlocks.total;
        // Every state, in order of the pips still to go, a piece in hand counted as one on square 1
        // and coming first (a pass sends the piece on square 1 back to the hand).
        std::vector<std::pair<int, std::uint32_t>> keyed;
        std::vector<Bitboard> pieces(states_);
        std::vector<std::uint8_t> hand(states_);
        for (int k = 0; k <= kPieces; ++k) {
            std::uint32_t m = (std::uint32_t{1} << k) - 1;  // every k-subset (Gosper's hack)
            while (m < (std::uint32_t{1} << kStandingSquares)) {
                int pips = 0;
                for (Bitboard b = expand(m); b; b &= b - 1) pips += kOffBoard - lowestSquare(b);
                for (int h = 0; h + k <= kPieces; ++h) {
                    const std::uint32_t i = stateIndex(expand(m), h);
                    pieces[i] = expand(m);
                    hand[i] = static_cast<std::uint8_t>(h);
                    keyed.push_back({(pips + 30 * h) * 8 - h, i});
                }
                if (k == 0) break;
                const std::uint32_t c = m & (~m + 1), r = m + c;
                m = (((r ^ m) >> 2) / c) | r;
            }
        }
        std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        nodes_.clear();
        r1_.assign(states_, 0);
        r2_.assign(states_, 0);
        for (std::uint32_t i = 0; i < states_; ++i) nodes_.push_back(oneSided(pieces[i], hand[i]));
        policy_.assign(states_, kNoChoices);
        sequence_.clear();
        for (const auto& [key, i] : keyed) {
            // A first guess of R: about four squares a turn.
            r1_[i] = key / 8 / 4.0;
            r2_[i] = r1_[i] * r1_[i];
            const int left = std::popcount(pieces[i]) + hand[i];
            if (i != 0 && left <= mostPiecesLeft_) sequence_.push_back(i);  // state 0 has every piece off
            solved_ += left <= mostPiecesLeft_;
        }
    }

    /// The child reference of `q`, a position in which a throw of node `x` is spent.
    std::uint32_t childOf(Position q) {
        if (q.off[0] == kPieces) return kWon;
        if (q.turn != Player::One) return kPassed | stateIndex(q.board[0], q.inHand(Player::One));
        q.owedThrows = std::min(q.owedThrows, kMostOwed);
        const std::uint64_t key = std::uint64_t{stateIndex(q.board[0], q.inHand(Player::One))} |
                                  std::uint64_t{q.owedThrows} << 20 | std::uint64_t{q.entryThrowDue} << 28 |
                                  std::uint64_t(q.direction) << 29;
        const auto [it, fresh] = midId_.try_emplace(key, static_cast<std::uint32_t>(nodes_.size()));
        if (fresh) {
            // A throw inside a turn, met for the first time: guessed as if the turn ended here.
            const std::uint32_t s = stateIndex(q.board[0], q.inHand(Player::One));
            nodes_.push_back(q);
            const Moments t = withThisTurn({r1_[s], r2_[s]});
            r1_.push_back(t.m1);
            r2_.push_back(t.m2);
            policy_.push_back(kNoChoices);
            sequence_.push_back(it->second);
        }
        return it->second;
    }

    Moments valueOf(std::uint32_t ref) const {
        if (ref == kWon) return {0, 0};
        if (ref & kPassed) {
            const std::uint32_t s = ref & ~kPassed;
            return withThisTurn({r1_[s], r2_[s]});
        }
        return {r1_[ref], r2_[ref]};
    }

    static bool better(const Moments& a, const Moments& b) {
        return a.m1 < b.m1 - 1e-12 || (a.m1 <= b.m1 + 1e-12 && a.m2 < b.m2);
    }

    /// One sweep over every node (new ones met on the way are appended and swept too): each
    /// throw spent the best way by the current values. Returns how many choices changed.
    int improve() {
        const detail::ThrowTable& t = detail::throwTable(RulesetId::Piccione);
        std::vector<Position> spent;
        int changed = 0;
        for (std::size_t k = 0; k < sequence_.size(); ++k) {
            const std::uint32_t id = sequence_[k];
            const Position x = nodes_[id];
            Moments r;
            for (int i = 0; i < t.count; ++i) {
                spent.clear();
                detail::spentThrowPositions(x, t.values[i], spent);
                std::uint32_t bestRef = kWon;
                Moments best{1e30, 1e30};
                for (const Position& q : spent) {
                    const std::uint32_t ref = childOf(q);
                    const Moments m = valueOf(ref);
                    if (better(m, best)) {
                        best = m;
                        bestRef = ref;
                    }
                }
                // A choice changes only for a strictly better one, so that equal ones do not cycle.
                std::uint32_t& chosen = policy_[id][i];
                if (chosen == kNone || (chosen != bestRef && best.m1 < valueOf(chosen).m1 - 1e-9)) {
                    chosen = bestRef;
                    ++changed;
                } else {
                    best = valueOf(chosen);
                }
                r.m1 += t.prob[i] * best.m1;
                r.m2 += t.prob[i] * best.m2;
            }
            r1_[id] = r.m1;
            r2_[id] = r.m2;
        }
        return changed;
    }

    /// The values of the current choices, iterated until no mean moves by more than 1e-7 turns.
    void evaluatePolicy() {
        const detail::ThrowTable& t = detail::throwTable(RulesetId::Piccione);
        for (int iteration = 0; iteration < 2000; ++iteration) {
            double moved = 0;
            for (const std::uint32_t id : sequence_) {
                Moments r;
                for (int i = 0; i < t.count; ++i) {
                    const Moments m = valueOf(policy_[id][i]);
                    r.m1 += t.prob[i] * m.m1;
                    r.m2 += t.prob[i] * m.m2;
                }
                moved = std::max(moved, std::abs(r.m1 - r1_[id]));
                r1_[id] = r.m1;
                r2_[id] = r.m2;
            }
            if (moved < 1e-7) break;
        }
    }

    int mostPiecesLeft_ = kPieces;
    int solved_ = 0;
    std::uint32_t states_ = 0;
    std::vector<Position> nodes_;  ///< every chance node: the states' turn starts, then throws inside turns
    std::vector<double> r1_, r2_;  ///< each node's R
    std::vector<std::array<std::uint32_t, kThrows>> policy_;  ///< each node's child chosen per throw value
    std::vector<std::uint32_t> sequence_;  ///< the order of the sweeps
    std::unordered_map<std::uint64_t, std::uint32_t> midId_;  ///< the throws inside turns met so far
};

/// `side`'s pieces of `p` alone, player 1 to act, inside the turn under way when it is theirs.
Position sideAlone(const Position& p, Player side) {
    Position q = oneSided(p.board[index(side)], p.inHand(side));
    if (side == p.turn) {
        q.remainder = p.remainder;
        q.direction = p.direction;
        q.owedThrows = p.owedThrows;
        q.entryThrowDue = p.entryThrowDue;
    }
    return q;
}

/// The throws of a turn under way a query plays out before it counts the turn as ended (rare:
/// each throw owes another with about one chance in three).
constexpr int kQueryThrows = 1;

}  // namespace

PiccioneRaceTable::PiccioneRaceTable(int mostPiecesLeft) : mostPiecesLeft_(std::clamp(mostPiecesLeft, 1, kPieces)) {
    const auto start = std::chrono::steady_clock::now();
    RaceSolver solver(mostPiecesLeft_);
    solver.solve(mean_, square_, owedMean_, owedSquare_, entryMean_, entrySquare_, sweeps_);
    states_ = solver.states();
    buildSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

RaceTurns PiccioneRaceTable::turns(Bitboard pieces, int hand) const {
    assert(std::popcount(pieces) + hand <= mostPiecesLeft_ && !(pieces & bit(27)));
    const std::uint32_t i = stateIndex(pieces, hand);
    return {mean_[i], square_[i]};
}

RaceTurns PiccioneRaceTable::restAlone(const Position& x, int depth) const {
    if (x.throwDue() && x.direction == TurnDirection::Forward && x.owedThrows <= 1) {
        const std::uint32_t s = stateIndex(x.board[0], x.inHand(Player::One));
        const bool entry = x.entryThrowDue && x.owedThrows == 0, owed = !x.entryThrowDue && x.owedThrows == 1;
        if (entry && !std::isnan(entryMean_[s])) return {entryMean_[s], entrySquare_[s]};
        if (owed && !std::isnan(owedMean_[s])) return {owedMean_[s], owedSquare_[s]};
    }
    if (!x.throwDue()) return spendAlone(x, kNoThrow, depth);
    if (depth >= kQueryThrows) return turns(x.board[0], x.inHand(Player::One));
    const detail::ThrowTable& t = detail::throwTable(RulesetId::Piccione);
    RaceTurns r;
    for (int i = 0; i < t.count; ++i) {
        const RaceTurns best = spendAlone(x, t.values[i], depth + 1);
        r.mean += t.prob[i] * best.mean;
        r.meanSquare += t.prob[i] * best.meanSquare;
    }
    return r;
}

RaceTurns PiccioneRaceTable::spendAlone(const Position& x, int v, int depth) const {
    std::vector<Position> spent;
    detail::spentThrowPositions(x, v, spent);
    RaceTurns best{1e30, 1e30};
    for (const Position& q : spent) {
        const RaceTurns m = q.off[0] == kPieces    ? RaceTurns{0, 0}
                            : q.turn == Player::One ? restAlone(q, depth)
                                                    : turns(q.board[0], q.inHand(Player::One));
        if (m.mean < best.mean - 1e-12 || (m.mean <= best.mean + 1e-12 && m.meanSquare < best.meanSquare)) best = m;
    }
    return best;
}

RaceTurns PiccioneRaceTable::rest(const Position& p, Player side) const {
    const Position q = sideAlone(p, side);
    if (q.direction == TurnDirection::Unset) {
        const RaceTurns t = turns(q.board[0], q.inHand(Player::One));
        if (side != p.turn) return t;
        return {t.mean - 1, t.meanSquare - 2 * t.mean + 1};  // R = T - 1
    }
    return restAlone(q, 0);
}

double PiccioneRaceTable::winChance(const Position& p) const {
    const RaceTurns mine = rest(p, p.turn);
    const RaceTurns theirs = rest(p, opponent(p.turn));
    // The mover wins when R_mine < T_theirs, i.e. T_theirs - R_mine >= 1 (whole turns): with a
    // continuity correction, P(D > 0.5) for D normal.
    const double lead = theirs.mean - mine.mean - 0.5;
    const double spread = std::sqrt(mine.variance() + theirs.variance() + 0.25);
    return 0.5 * std::erfc(-lead / (spread * std::sqrt(2.0)));
}

RaceTableFacts PiccioneRaceTable::facts() const {
    RaceTableFacts f;
    f.states = states_;
    f.bytes = mean_.size() * sizeof(float) * 6;
    f.buildSeconds = buildSeconds_;
    f.sweeps = sweeps_;
    return f;
}

const PiccioneRaceTable& piccioneRaceTable() {
    static const PiccioneRaceTable table;
    return table;
}

}  // namespace senet::ai
