// Expectiminimax over the explicit throw values with *-minimax pruning.
//
// The tree alternates chance nodes (a throw to come, enumerated by value with its exact
// probability) and decision nodes (the thrower picks a move for that value). Turns do not
// simply alternate: after an extra throw the same player decides again, so every child's
// value is negated only when `turn` changed. Pruning follows Ballard (1983), "The *-minimax
// search procedure for trees containing chance nodes", in the form of Hauk, Buro & Schaeffer
// (2004), "Rediscovering *-Minimax Search": Star1 narrows each outcome's window from the bounds
// of the outcomes already searched and the value range [-1, 1] of those still to come; Star2
// first probes one move per outcome (each outcome's node is a max node of the thrower, so one
// move's value is a lower bound of it) and cuts off when the probes alone reach beta.
//
// Piccione (TurnModel::SplitSteps) splits a throw over several steps of the same player: a
// position with a remainder is a decision of that player with no throw (kNoThrow). A decision
// node's children are then the distinct positions in which the throw is spent (every sequence of
// steps, transpositions merged; turn_steps.hpp), so that one throw is one layer of the tree and
// the depth counts throws in every ruleset.
#include <algorithm>
#include <cassert>
#include <chrono>
#include <vector>

#include "senet/ai_search.hpp"
#include "throws.hpp"
#include "turn_steps.hpp"

namespace senet::ai {

namespace {

constexpr double kLow = -1.0;
constexpr double kHigh = 1.0;

using Clock = std::chrono::steady_clock;

/// One decision's children, best-first by static evaluation: `count` positions from `begin` in
/// the searcher's pool.
struct Children {
    int begin = 0;
    int count = 0;
};

class Searcher {
public:
    Searcher(const SearchLimits& limits, Clock::time_point start)
        : limits_(limits), start_(start), pool_(detail::threadPositionPool()) {
        pool_.clear();
    }

    /// Value for p.turn of the chance node p, `depth` decisions deep, window (alpha, beta).
    double chance(const Position& p, int depth, double alpha, double beta) {
        ++nodes_;
        if (limits_.exact)
            if (const auto w = limits_.exact->winChance(p)) return 2.0 * *w - 1.0;
        if (depth == 0) return evaluate(p, limits_.evaluation);
        if (nodes_ >= nextCheck_) {
            nextCheck_ = nodes_ + 256;
            checkLimits();
        }
        if (stopped_) return 0;
        const PoolMark mark(pool_);
        const detail::ThrowTable& t = detail::throwTable(p.rulesetId);
        std::array<Children, 8> branch;
        for (int i = 0; i < t.count; ++i) expand(p, t.values[i], depth, branch[i]);
        if (depth == 1) return chanceAtHorizon(p, t, branch);
        if (!limits_.pruning) {
            double sum = 0;
            for (int i = 0; i < t.count; ++i)
                sum += t.prob[i] * decision(p, branch[i], depth - 1, kLow, kHigh, kLow, 0);
            return sum;
        }

        // Star2 probing: the first (best-ordered) move of every outcome, searched with an open
        // lower end so that its value is exact unless it proves the cut-off on its own.
        std::array<double, 8> lower{};
        double lowerSum = 0;  // sum of P_j * lower_j over the outcomes probed so far
        for (int i = 0; i < t.count; ++i) {
            double rest = 0;
            for (int j = i + 1; j < t.count; ++j) rest += t.prob[j] * kLow;
            const double b = (beta - lowerSum - rest) / t.prob[i];
            if (b <= kLow) return lowerSum + t.prob[i] * kLow + rest;
            const Position first = pool_[branch[i].begin];
            lower[i] = childValue(p, first, depth - 1, kLow, std::min(b, kHigh));
            if (stopped_) return 0;
            lowerSum += t.prob[i] * lower[i];
            if (lower[i] >= b) return lowerSum + rest;
        }

        // Star1 with the probes as lower bounds of the outcomes still to come.
        double done = 0;
        for (int i = 0; i < t.count; ++i) {
            double upRest = 0, lowRest = 0;
            for (int j = i + 1; j < t.count; ++j) {
                upRest += t.prob[j] * kHigh;
                lowRest += t.prob[j] * lower[j];
            }
            const double a = (alpha - done - upRest) / t.prob[i];
            const double b = (beta - done - lowRest) / t.prob[i];
            const double d = decision(p, branch[i], depth - 1, a, b, lower[i], 1);
            if (stopped_) return 0;
            if (d >= b) return done + t.prob[i] * d + lowRest;
            if (d <= a) return done + t.prob[i] * d + upRest;
            done += t.prob[i] * d;
        }
        return done;
    }

    /// Value for `parent.turn` of the position `child` reached by one of its moves.
    double childValue(const Position& parent, const Position& child, int depth, double alpha, double beta) {
        const Outcome o = outcome(child);
        if (o != Outcome::Ongoing) {
            ++nodes_;
            return terminalValue(o, parent.turn);
        }
        // A remainder to spend: the same player decides again, within the same throw.
        if (!child.throwDue()) return remainder(child, depth, alpha, beta);
        if (child.turn == parent.turn) return chance(child, depth, alpha, beta);
        return -chance(child, depth, -beta, -alpha);
    }

    /// Value for p.turn of the decision that spends p's remainder (Piccione): the best of the
    /// positions in which the throw is spent, each valued `depth` throws deep.
    double remainder(const Position& p, int depth, double alpha, double beta) {
        ++nodes_;
        const PoolMark mark(pool_);
        Children c;
        expand(p, kNoThrow, depth + 1, c);
        return decision(p, c, depth, alpha, beta, kLow, 0);
    }

    /// The children of the decision for throw `v` in `p` (a pass when no move exists; in
    /// Piccione every distinct position in which the throw is spent), appended to the pool and
    /// ordered by static value when the subtrees below are deep enough for the order to matter.
    void expand(const Position& p, int v, int depth, Children& c) {
        c.begin = static_cast<int>(pool_.size());
        if (p.rules().turnModel == TurnModel::SplitSteps) {
            detail::spentThrowPositions(p, v, pool_);
        } else {
            MoveList moves;
            generateMoves(p, v, moves);
            if (moves.empty()) pool_.push_back(applyMove(p, v, Move::pass()));
            for (const Move& m : moves) pool_.push_back(applyMove(p, v, m));
        }
        c.count = static_cast<int>(pool_.size()) - c.begin;
        if (depth >= 2 && c.count > 1) order(p, c);
    }

    /// Sorts children best-first for the mover by one static evaluation each.
    void order(const Position& p, const Children& c) {
        keys_.clear();
        for (int k = 0; k < c.count; ++k) {
            const Position& q = pool_[c.begin + k];
            const Outcome o = outcome(q);
            double key;
            if (o != Outcome::Ongoing) key = terminalValue(o, p.turn) * 2;
            else key = q.turn == p.turn ? evaluate(q, limits_.evaluation) : -evaluate(q, limits_.evaluation);
            keys_.push_back({key, q});
        }
        std::stable_sort(keys_.begin(), keys_.end(), [](const Keyed& x, const Keyed& y) { return x.key > y.key; });
        for (int k = 0; k < c.count; ++k) pool_[c.begin + k] = keys_[k].position;
    }

    /// Max over the children of one outcome with window (alpha, beta), each valued
    /// `childDepth` throws deep. Children before `firstUnsearched` are already known to have the
    /// value `known` (exact).
    double decision(const Position& p, const Children& c, int childDepth, double alpha, double beta, double known,
                    int firstUnsearched) {
        double best = known;
        if (firstUnsearched > 0 && best >= beta) return best;
        if (alpha >= kHigh) return kHigh;  // nothing can exceed alpha: an upper bound
        for (int k = firstUnsearched; k < c.count; ++k) {
            const double a = std::max({alpha, best, kLow});
            const Position kid = pool_[c.begin + k];  // the pool may grow below
            const double v = childValue(p, kid, childDepth, a, std::min(beta, kHigh));
            if (stopped_) return 0;
            if (k == 0 || v > best) best = v;
            if (best >= beta) break;
        }
        return best;
    }

    /// A chance node one decision above the leaves: every child is evaluated, no window needed.
    double chanceAtHorizon(const Position& p, const detail::ThrowTable& t, const std::array<Children, 8>& branch) {
        double sum = 0;
        for (int i = 0; i < t.count; ++i) {
            double best = kLow;
            for (int k = 0; k < branch[i].count; ++k) {
                const Position kid = pool_[branch[i].begin + k];
                best = std::max(best, childValue(p, kid, 0, kLow, kHigh));
            }
            sum += t.prob[i] * best;
        }
        return sum;
    }

    void checkLimits() {
        if (limits_.nodeBudget && nodes_ >= limits_.nodeBudget) stopped_ = true;
        if (limits_.time.count() > 0 && Clock::now() - start_ >= limits_.time) stopped_ = true;
        if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) stopped_ = true;
    }

    bool stopped() const { return stopped_; }
    std::uint64_t nodes() const { return nodes_; }

private:
    /// Restores the pool's size when a node's children are no longer needed.
    struct PoolMark {
        explicit PoolMark(std::vector<Position>& pool) : pool(pool), size(pool.size()) {}
        ~PoolMark() { pool.resize(size); }
        std::vector<Position>& pool;
        std::size_t size;
    };
    struct Keyed {
        double key;
        Position position;
    };

    SearchLimits limits_;
    Clock::time_point start_;
    std::vector<Position>& pool_;  ///< every expanded node's children, a stack
    std::vector<Keyed> keys_;
    std::uint64_t nodes_ = 0;
    std::uint64_t nextCheck_ = 256;
    bool stopped_ = false;
};

}  // namespace

SearchResult searchMove(const Position& p, int throwValue, const SearchLimits& limits) {
    assert(p.throwDue() ? p.rules().canThrow(throwValue) : throwValue == kNoThrow);
    const auto start = Clock::now();
    SearchResult result;
    MoveList moves;
    generateMoves(p, throwValue, moves);
    if (moves.empty()) return result;
    result.move = moves[0];

    Searcher s(limits, start);
    // Root moves in the order of the last iteration's values (ties keep generation order).
    std::array<Move, MoveList::kCapacity> order{};
    const int n = moves.size();
    for (int k = 0; k < n; ++k) order[k] = moves[k];
    // A forced move needs only its value, and so do moves that all lead to exact values (the
    // endgame tables) or end the game: one iteration at the first depth.
    bool allKnown = limits.exact != nullptr;
    for (int k = 0; allKnown && k < n; ++k) {
        const Position child = applyMove(p, throwValue, moves[k]);
        allKnown = outcome(child) != Outcome::Ongoing || (child.throwDue() && limits.exact->winChance(child));
    }
    const int maxDepth = n == 1 || allKnown ? std::max(1, limits.minDepth) : std::max(1, limits.maxDepth);
    for (int depth = std::max(1, limits.minDepth); depth <= maxDepth; ++depth) {
        double best = kLow - 1;
        Move bestMove = order[0];
        std::array<double, MoveList::kCapacity> value{};
        int searched = 0;
        for (int k = 0; k < n; ++k) {
            const Position child = applyMove(p, throwValue, order[k]);
            // Later moves only need to prove they beat the best so far.
            const double alpha = limits.pruning && k > 0 ? best : kLow;
            const double v = s.childValue(p, child, depth - 1, alpha, kHigh);
            if (s.stopped()) break;
            value[k] = v;
            ++searched;
            if (v > best) {
                best = v;
                bestMove = order[k];
            }
        }
        if (searched > 0) {
            // A partial iteration still answers: the moves it finished are exact or bounded
            // below the best, and the previous best was searched first.
            result.move = bestMove;
            result.value = best;
        }
        if (s.stopped()) break;
        result.depth = depth;
        if (limits.onIteration) {
            result.nodes = s.nodes();
            limits.onIteration(result);
        }
        // Stable re-order by this iteration's values; a move that failed low keeps its bound.
        std::array<int, MoveList::kCapacity> idx{};
        for (int k = 0; k < n; ++k) idx[k] = k;
        std::stable_sort(idx.begin(), idx.begin() + n, [&](int x, int y) { return value[x] > value[y]; });
        std::array<Move, MoveList::kCapacity> next{};
        for (int k = 0; k < n; ++k) next[k] = order[idx[k]];
        order = next;
        // Stop early when the next iteration could not finish in the time left (each costs
        // several times the previous one).
        if (limits.time.count() > 0 && Clock::now() - start > limits.time * 3 / 10) break;
    }
    result.nodes = s.nodes();
    return result;
}

double prunedExpectimaxWithin(const Position& p, int depth, Evaluation kind, const ExactValues* exact, double alpha,
                              double beta) {
    assert(depth >= 0 && alpha < beta);
    const Outcome o = outcome(p);
    if (o != Outcome::Ongoing) return terminalValue(o, p.turn);
    SearchLimits limits;
    limits.evaluation = kind;
    limits.exact = exact;
    Searcher s(limits, Clock::now());
    return p.throwDue() ? s.chance(p, depth, alpha, beta) : s.remainder(p, depth, alpha, beta);
}

double prunedExpectimax(const Position& p, int depth, Evaluation kind, const ExactValues* exact) {
    return prunedExpectimaxWithin(p, depth, kind, exact, kLow, kHigh);
}

namespace {
double bruteForce(const Position& p, int depth, Evaluation kind);

/// Value for `parent.turn` of `q`, reached from `parent` by one step.
double bruteChild(const Position& parent, const Position& q, int depth, Evaluation kind) {
    const Outcome o = outcome(q);
    if (o != Outcome::Ongoing) return terminalValue(o, parent.turn);
    return q.turn == parent.turn ? bruteForce(q, depth, kind) : -bruteForce(q, depth, kind);
}

/// The best step for throw `v` (kNoThrow: the remainder), its children valued `depth` deep.
double bruteDecision(const Position& p, int v, int depth, Evaluation kind) {
    if (p.rules().turnModel == TurnModel::SplitSteps) {
        // Every distinct position that spends the throw: the same maximum as over every
        // sequence of steps, without walking the transpositions again below each one.
        std::vector<Position> spent;
        detail::spentThrowPositions(p, v, spent);
        double best = kLow - 1;
        for (const Position& q : spent) best = std::max(best, bruteChild(p, q, depth, kind));
        return best;
    }
    MoveList moves;
    generateMoves(p, v, moves);
    if (moves.empty()) return bruteChild(p, applyMove(p, v, Move::pass()), depth, kind);
    double best = kLow - 1;
    for (const Move& m : moves) best = std::max(best, bruteChild(p, applyMove(p, v, m), depth, kind));
    return best;
}

double bruteForce(const Position& p, int depth, Evaluation kind) {
    // A remainder is spent within the same throw: its steps do not count against the depth.
    if (!p.throwDue()) return bruteDecision(p, kNoThrow, depth, kind);
    if (depth == 0) return evaluate(p, kind);
    const detail::ThrowTable& t = detail::throwTable(p.rulesetId);
    double sum = 0;
    for (int i = 0; i < t.count; ++i) sum += t.prob[i] * bruteDecision(p, t.values[i], depth - 1, kind);
    return sum;
}
}  // namespace

double bruteForceExpectimax(const Position& p, int depth, Evaluation kind) {
    assert(depth >= 0);
    const Outcome o = outcome(p);
    if (o != Outcome::Ongoing) return terminalValue(o, p.turn);
    return bruteForce(p, depth, kind);
}

}  // namespace senet::ai
