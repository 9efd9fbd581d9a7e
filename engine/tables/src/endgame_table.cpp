// Solving a table: layer pairs {(m, o), (o, m)} in order of pieces on the board, each by
// Gauss–Seidel value iteration until no value moves by more than the tolerance. RULES.md
// "Standard" 2-11, "Jéquier" 2-9 and "Kendall" 2-11 (through the engine's generateMoves /
// applyMove / outcome, for the table's ruleset) and "Throws".
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>

#include "senet/endgame_table.hpp"
#include "senet/movegen.hpp"
#include "table_index.hpp"

namespace senet::tables {

namespace {

constexpr double kScale = 4294967295.0;  // 2^32 - 1: a stored value is round(V * kScale)

std::uint32_t toStored(double v) {
    v = std::clamp(v, 0.0, 1.0);
    return static_cast<std::uint32_t>(std::llround(v * kScale));
}
double fromStored(std::uint32_t s) { return s / kScale; }

int slotOf(int mover, int other) { return mover * 6 + other; }

detail::Squares squaresFor(RulesetId id) { return detail::squaresOf(ruleset(id)); }

}  // namespace

void EndgameTable::indexLayers() {
    layerOffset_.assign(36, -1);
    std::int64_t offset = 0;
    for (const LayerStats& l : stats_) {
        layerOffset_[slotOf(l.mover, l.other)] = offset;
        offset += l.entries;
    }
}

std::optional<double> EndgameTable::lookup(Bitboard mover, Bitboard other) const {
    const int m = std::popcount(mover), o = std::popcount(other);
    if (m < 1 || o < 1 || m > 5 || o > 5 || layerOffset_.empty()) return std::nullopt;
    const std::int64_t offset = layerOffset_[slotOf(m, o)];
    const detail::Squares sq = squaresFor(spec_.ruleset);
    if (offset < 0 || ((mover | other) & ~sq.standing())) return std::nullopt;
    return fromStored(values_[offset + detail::layerIndex(sq.count(), sq.toSlots(mover), sq.toSlots(other))]);
}

bool EndgameTable::contains(const Position& p) const {
    if (p.rulesetId != spec_.ruleset || layerOffset_.empty()) return false;
    if (isOpeningBoard(p)) return false;
    if (outcome(p) != Outcome::Ongoing) return true;
    const int m = p.onBoard(p.turn), o = p.onBoard(opponent(p.turn));
    return inSpec(spec_, m, o) && !(p.occupied() & ~squaresFor(spec_.ruleset).standing());
}

std::optional<double> EndgameTable::value(const Position& p) const {
    if (!contains(p)) return std::nullopt;
    switch (outcome(p)) {
        case Outcome::WinOne: return p.turn == Player::One ? 1.0 : 0.0;
        case Outcome::WinTwo: return p.turn == Player::Two ? 1.0 : 0.0;
        case Outcome::Draw: return std::nullopt;
        case Outcome::Ongoing: break;
    }
    return lookup(p.pieces(p.turn), p.pieces(opponent(p.turn)));
}

/// Solves one layer pair after another into an EndgameTable.
class Solver {
public:
    explicit Solver(EndgameTable& t) : t_(t), id_(t.spec_.ruleset), squares_(squaresFor(id_)), n_(squares_.count()) {
        const Ruleset& r = ruleset(id_);
        std::array<double, 16> weight{};
        for (const ChanceOutcome& c : r.chanceOutcomes()) weight[c.throw_.value] += c.weight;
        for (int v = 0; v < 16; ++v)
            if (weight[v] > 0) throws_.push_back({v, weight[v] / r.outcomeWeightTotal});
        nt_ = throws_.size();
    }

    void solvePair(int a, int b, std::size_t firstEntry) {
        const auto start = std::chrono::steady_clock::now();
        layers_.clear();
        layers_.push_back({a, b, firstEntry});
        if (a != b) layers_.push_back({b, a, firstEntry + detail::layerEntries(n_, a, b)});
        std::size_t total = 0;
        for (const Pending& l : layers_) total += detail::layerEntries(n_, l.mover, l.other);
        work_.assign(total, t_.spec_.startValue);
        // Positions in each layer, enumerated once: (mover squares, other squares) in index order.
        states_.clear();
        states_.reserve(total);
        for (const Pending& l : layers_) enumerate(l.mover, l.other);
        // Sweep order: most pips first (the sum of both sides' squares). A move adds to it or,
        // when it swaps, keeps it; only the House of Water lowers it. So most successors of a
        // position are solved before it within the same sweep.
        // The working values and the graph are kept in sweep order (place k holds the position
        // order_[k]), so a sweep reads them front to back.
        order_.resize(total);
        std::vector<std::uint16_t> key(total);
        for (std::size_t i = 0; i < total; ++i) {
            order_[i] = static_cast<std::uint32_t>(i);
            key[i] = static_cast<std::uint16_t>(pips(states_[i]));
        }
        std::stable_sort(order_.begin(), order_.end(), [&](std::uint32_t x, std::uint32_t y) { return key[x] > key[y]; });
        place_.resize(total);
        for (std::size_t k = 0; k < total; ++k) place_[order_[k]] = static_cast<std::uint32_t>(k);
        buildGraph(total);
        std::uint32_t sweeps = 0;
        for (; sweeps < static_cast<std::uint32_t>(t_.spec_.maxSweeps);) {
            ++sweeps;
            double change = 0;
            for (std::uint32_t k = 0; k < total; ++k) {
                const double v = update(k);
                change = std::max(change, std::abs(v - work_[k]));
                work_[k] = v;
            }
            if (change < t_.spec_.tolerance) break;
        }
        for (std::size_t k = 0; k < total; ++k) t_.values_[firstEntry + order_[k]] = toStored(work_[k]);
        // The residual on the stored values: one more Bellman pass, reading the table itself.
        std::array<double, 2> residual{};
        for (std::size_t i = 0; i < total; ++i) {
            const double v = bellman(states_[i].first, states_[i].second);
            const int which = (layers_.size() == 2 && i >= detail::layerEntries(n_, a, b)) ? 1 : 0;
            residual[which] = std::max(residual[which], std::abs(v - fromStored(t_.values_[firstEntry + i])));
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (std::size_t k = 0; k < layers_.size(); ++k) {
            LayerStats s;
            s.mover = layers_[k].mover;
            s.other = layers_[k].other;
            s.entries = detail::layerEntries(n_, s.mover, s.other);
            s.sweeps = sweeps;
            s.seconds = seconds;
            s.residual = residual[k];
            t_.stats_.push_back(s);
        }
    }

private:
    // The graph of the pair, built once: for each position and throw, the best value among the
    // moves that leave the pair (a bear-off into a solved layer, or a win), and the moves that
    // stay in it (index << 1 | 1 when the other player throws next). A forced pass that keeps
    // the throw (standard: a 1, 4 or 5 with no move, rule 9) returns to the same position: those
    // throws are solved exactly, V = rest / (1 - their probability), instead of iterated. (Jéquier
    // and Kendall end the turn on a pass, so they have none.) A move that returns to its own
    // position with the same player to throw, were there one, stays an ordinary edge.
    static constexpr std::uint8_t kNoConstant = 0x80;
    static constexpr std::uint8_t kSelf = 0x40;

    void buildGraph(std::size_t total) {
        first_.assign(total + 1, 0);
        counts_.assign(nt_ * total, 0);
        constants_.assign(nt_ * total, 0);
        refs_.clear();
        MoveList moves;
        for (std::size_t k = 0; k < total; ++k) {
            const std::uint32_t i = order_[k];
            first_[k] = static_cast<std::uint32_t>(refs_.size());
            const Position p = positionOf(states_[i].first, states_[i].second);
            for (std::size_t ti = 0; ti < nt_; ++ti) {
                const int t = throws_[ti].value;
                generateMoves(p, t, moves);
                std::uint8_t count = 0;
                double constant = -1;
                auto edge = [&](const Position& q, bool pass) {
                    if (q.board[0] == 0) {  // player 1 bore off the last piece: rule 11
                        constant = 1;
                        return;
                    }
                    const bool same = q.turn == Player::One;
                    const Bitboard m = same ? q.board[0] : q.board[1], o = same ? q.board[1] : q.board[0];
                    const int layer = local(std::popcount(m), std::popcount(o));
                    const std::uint32_t index = detail::layerIndex(n_, squares_.toSlots(m), squares_.toSlots(o));
                    if (layer < 0) {
                        const double v = stored(m, o);
                        constant = std::max(constant, same ? v : 1 - v);
                        return;
                    }
                    const std::uint32_t j = static_cast<std::uint32_t>(layerStart(layer) + index);
                    if (same && j == i && pass) {
                        count |= kSelf;
                        return;
                    }
                    refs_.push_back(place_[j] << 1 | (same ? 0u : 1u));
                    ++count;
                };
                if (moves.empty()) {
                    edge(applyMove(p, t, Move{}), true);
                } else {
                    for (const Move& mv : moves) edge(applyMove(p, t, mv), false);
                }
                if (constant < 0) count |= kNoConstant;
                counts_[nt_ * k + ti] = count;
                constants_[nt_ * k + ti] = constant < 0 ? 0 : constant;
            }
        }
        first_[total] = static_cast<std::uint32_t>(refs_.size());
    }

    // The Bellman update of the position at place i from the working values, self-loops solved exactly.
    double update(std::uint32_t i) const {
        double v = 0, self = 0;
        const std::uint32_t* r = refs_.data() + first_[i];
        for (std::size_t t = 0; t < nt_; ++t) {
            const std::uint8_t count = counts_[nt_ * i + t];
            if (count & kSelf) {
                self += throws_[t].weight;
                continue;
            }
            double best = (count & kNoConstant) ? 0 : constants_[nt_ * i + t];
            for (int k = count & 0x3f; k > 0; --k, ++r) {
                const double x = work_[*r >> 1];
                best = std::max(best, (*r & 1) ? 1 - x : x);
            }
            v += throws_[t].weight * best;
        }
        return v / (1 - self);
    }

    // Which layer of the pair (0 or 1) holds (m, o), or -1 for a solved layer.
    int local(int m, int o) const {
        for (std::size_t k = 0; k < layers_.size(); ++k)
            if (layers_[k].mover == m && layers_[k].other == o) return static_cast<int>(k);
        return -1;
    }
    std::size_t layerStart(int k) const { return layers_[k].first - layers_[0].first; }

    struct Pending {
        int mover, other;
        std::size_t first;  // index of its first entry in the table
    };

    static int pips(const std::pair<Bitboard, Bitboard>& s) {
        int sum = 0;
        for (Bitboard b = s.first | s.second; b; b &= b - 1) sum += std::countr_zero(b) + 1;
        return sum;
    }

    void enumerate(int m, int o) {
        const std::uint32_t all = (1u << n_) - 1;
        const std::uint32_t lastM = ((1u << m) - 1) << (n_ - m);
        for (std::uint32_t ms = (1u << m) - 1;; ms = detail::nextSubset(ms)) {
            const std::uint32_t freeSlots = all & ~ms;
            const std::uint32_t lastO = ((1u << o) - 1) << (n_ - m - o);
            for (std::uint32_t os = (1u << o) - 1;; os = detail::nextSubset(os)) {
                states_.emplace_back(squares_.fromSlots(ms), squares_.fromSlots(detail::deposit(os, freeSlots)));
                if (os == lastO) break;
            }
            if (ms == lastM) break;
        }
    }

    // The stored value of the player to throw with `mover` against `other` (a solved layer, or
    // the pair just stored, for the residual).
    double stored(Bitboard mover, Bitboard other) const {
        const int m = std::popcount(mover), o = std::popcount(other);
        const std::uint32_t index = detail::layerIndex(n_, squares_.toSlots(mover), squares_.toSlots(other));
        return fromStored(t_.values_[t_.layerOffset_[m * 6 + o] + index]);
    }

    // Player 1 (the player to throw) with `mover` against player 2 with `other`, the rest off.
    Position positionOf(Bitboard mover, Bitboard other) const {
        Position p;
        p.rulesetId = id_;
        p.board = {mover, other};
        p.off = {static_cast<std::uint8_t>(5 - std::popcount(mover)), static_cast<std::uint8_t>(5 - std::popcount(other))};
        return p;
    }

    // The value of the player who threw before `q` (applyMove's result for player 1).
    double after(const Position& q) const {
        if (q.board[0] == 0) return 1.0;  // player 1 bore off the last piece: rule 11
        if (q.turn == Player::One) return stored(q.board[0], q.board[1]);
        return 1.0 - stored(q.board[1], q.board[0]);
    }

    // The Bellman update of a position from the stored values, straight from the move generator.
    double bellman(Bitboard mover, Bitboard other) const {
        const Position p = positionOf(mover, other);
        double v = 0;
        MoveList moves;
        for (const ThrowWeight& tw : throws_) {
            const int t = tw.value;
            generateMoves(p, t, moves);
            double best = 0;
            if (moves.empty()) {
                best = after(applyMove(p, t, Move{}));  // a pass: standard 9-10, Jéquier 7, Kendall 2
            } else {
                for (const Move& mv : moves) best = std::max(best, after(applyMove(p, t, mv)));
            }
            v += tw.weight * best;
        }
        return v;
    }

    struct ThrowWeight {
        int value;
        double weight;  // its probability
    };

    EndgameTable& t_;
    RulesetId id_;
    detail::Squares squares_;
    int n_;                             // standing squares
    std::vector<ThrowWeight> throws_;   // the ruleset's throw values, lowest first
    std::size_t nt_ = 0;                // throws_.size()
    std::vector<Pending> layers_;
    std::vector<double> work_;
    std::vector<std::pair<Bitboard, Bitboard>> states_;
    std::vector<std::uint32_t> order_, place_;
    std::vector<std::uint32_t> first_, refs_;
    std::vector<std::uint8_t> counts_;
    std::vector<double> constants_;
};

Result<EndgameTable> EndgameTable::solve(const TableSpec& spec) {
    if (!supportsRuleset(spec.ruleset))
        return fail("endgame tables exist for the standard, jequier and kendall rulesets only");
    if (spec.maxPerSide < 1 || spec.maxPerSide > 5) return fail("maxPerSide must be 1..5");
    if (spec.maxTotal < 2 || spec.maxTotal > 10) return fail("maxTotal must be 2..10");
    if (!(spec.tolerance > 0)) return fail("the tolerance must be above 0");
    if (spec.maxSweeps < 1) return fail("maxSweeps must be at least 1");
    if (!(spec.startValue >= 0 && spec.startValue <= 1)) return fail("startValue must be in [0, 1]");
    EndgameTable t;
    t.spec_ = spec;
    // Layer pairs by pieces on the board, so bear-offs always reach a pair already solved.
    const auto order = detail::layerOrder(spec);
    std::size_t entries = 0;
    const int n = squaresFor(spec.ruleset).count();
    for (auto [a, b] : order) entries += detail::layerEntries(n, a, b);
    t.values_.assign(entries, 0);
    t.layerOffset_.assign(36, -1);
    std::size_t first = 0;
    for (auto [a, b] : order) {
        t.layerOffset_[slotOf(a, b)] = static_cast<std::int64_t>(first);
        first += detail::layerEntries(n, a, b);
    }
    Solver solver(t);
    for (auto [a, b] : order)
        if (a >= b) solver.solvePair(a, b, static_cast<std::size_t>(t.layerOffset_[slotOf(a, b)]));
    return t;
}

}  // namespace senet::tables
