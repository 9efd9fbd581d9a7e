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
#include <algorithm>
#include <cassert>
#include <chrono>

#include "senet/ai_search.hpp"
#include "throws.hpp"

namespace senet::ai {

namespace {

constexpr double kLow = -1.0;
constexpr double kHigh = 1.0;

using Clock = std::chrono::steady_clock;

/// One decision's children, best-first by static evaluation.
struct Children {
    std::array<Position, MoveList::kCapacity> kids;
    std::array<Move, MoveList::kCapacity> moves;
    int count = 0;
};

class Searcher {
public:
    Searcher(const SearchLimits& limits, Clock::time_point start) : limits_(limits), start_(start) {}

    /// Value for p.turn of the chance node p, `depth` decisions deep, window (alpha, beta).
    double chance(const Position& p, int depth, double alpha, double beta) {
        ++nodes_;
        if (depth == 0) return evaluate(p, limits_.evaluation);
        if (nodes_ >= nextCheck_) {
            nextCheck_ = nodes_ + 256;
            checkLimits();
        }
        if (stopped_) return 0;
        const detail::ThrowTable& t = detail::throwTable(p.rulesetId);
        std::array<Children, 8> branch;
        for (int i = 0; i < t.count; ++i) expand(p, t.values[i], depth, branch[i]);
        if (depth == 1) return chanceAtHorizon(p, t, branch);
        if (!limits_.pruning) {
            double sum = 0;
            for (int i = 0; i < t.count; ++i) sum += t.prob[i] * decision(p, branch[i], depth, kLow, kHigh, kLow, 0);
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
            lower[i] = childValue(p, branch[i].kids[0], depth - 1, kLow, std::min(b, kHigh));
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
            const double d = decision(p, branch[i], depth, a, b, lower[i], 1);
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
        if (child.turn == parent.turn) return chance(child, depth, alpha, beta);
        return -chance(child, depth, -beta, -alpha);
    }

    /// The children of the decision for throw `v` in `p`, ordered by static value when the
    /// subtrees below are deep enough for the order to matter.
    void expand(const Position& p, int v, int depth, Children& c) {
        MoveList moves;
        generateMoves(p, v, moves);
        if (moves.empty()) {
            c.count = 1;
            c.moves[0] = Move::pass();
            c.kids[0] = applyMove(p, v, Move::pass());
            return;
        }
        c.count = moves.size();
        for (int k = 0; k < c.count; ++k) {
            c.moves[k] = moves[k];
            c.kids[k] = applyMove(p, v, moves[k]);
        }
        if (depth >= 2 && c.count > 1) order(p, c);
    }

    /// Sorts children best-first for the mover by one static evaluation each.
    void order(const Position& p, Children& c) {
        std::array<double, MoveList::kCapacity> key{};
        std::array<int, MoveList::kCapacity> idx{};
        for (int k = 0; k < c.count; ++k) {
            idx[k] = k;
            const Position& q = c.kids[k];
            const Outcome o = outcome(q);
            if (o != Outcome::Ongoing) key[k] = terminalValue(o, p.turn) * 2;
            else key[k] = q.turn == p.turn ? evaluate(q, limits_.evaluation) : -evaluate(q, limits_.evaluation);
        }
        std::stable_sort(idx.begin(), idx.begin() + c.count, [&](int x, int y) { return key[x] > key[y]; });
        Children sorted;
        sorted.count = c.count;
        for (int k = 0; k < c.count; ++k) {
            sorted.kids[k] = c.kids[idx[k]];
            sorted.moves[k] = c.moves[idx[k]];
        }
        c = sorted;
    }

    /// Max over the children of one outcome with window (alpha, beta). Children before
    /// `firstUnsearched` are already known to have the value `known` (exact).
    double decision(const Position& p, const Children& c, int depth, double alpha, double beta, double known,
                    int firstUnsearched) {
        double best = known;
        if (firstUnsearched > 0 && best >= beta) return best;
        if (alpha >= kHigh) return kHigh;  // nothing can exceed alpha: an upper bound
        for (int k = firstUnsearched; k < c.count; ++k) {
            const double a = std::max({alpha, best, kLow});
            const double v = childValue(p, c.kids[k], depth - 1, a, std::min(beta, kHigh));
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
            for (int k = 0; k < branch[i].count; ++k) best = std::max(best, childValue(p, branch[i].kids[k], 0, kLow, kHigh));
            sum += t.prob[i] * best;
        }
        return sum;
    }

    void checkLimits() {
        if (limits_.nodeBudget && nodes_ >= limits_.nodeBudget) stopped_ = true;
        if (limits_.time.count() > 0 && Clock::now() - start_ >= limits_.time) stopped_ = true;
    }

    bool stopped() const { return stopped_; }
    std::uint64_t nodes() const { return nodes_; }

private:
    SearchLimits limits_;
    Clock::time_point start_;
    std::uint64_t nodes_ = 0;
    std::uint64_t nextCheck_ = 256;
    bool stopped_ = false;
};

}  // namespace

SearchResult searchMove(const Position& p, int throwValue, const SearchLimits& limits) {
    assert(p.rules().canThrow(throwValue));
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
    // A forced move needs only its value: one iteration at the first depth.
    const int maxDepth = n == 1 ? std::max(1, limits.minDepth) : std::max(1, limits.maxDepth);
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

double prunedExpectimax(const Position& p, int depth, Evaluation kind) {
    assert(depth >= 0);
    const Outcome o = outcome(p);
    if (o != Outcome::Ongoing) return terminalValue(o, p.turn);
    SearchLimits limits;
    limits.evaluation = kind;
    Searcher s(limits, Clock::now());
    return s.chance(p, depth, kLow, kHigh);
}

namespace {
double bruteForce(const Position& p, int depth, Evaluation kind) {
    if (depth == 0) return evaluate(p, kind);
    const detail::ThrowTable& t = detail::throwTable(p.rulesetId);
    double sum = 0;
    MoveList moves;
    for (int i = 0; i < t.count; ++i) {
        generateMoves(p, t.values[i], moves);
        double best = kLow - 1;
        const int n = moves.empty() ? 1 : moves.size();
        for (int k = 0; k < n; ++k) {
            const Position q = applyMove(p, t.values[i], moves.empty() ? Move::pass() : moves[k]);
            const Outcome o = outcome(q);
            double v;
            if (o != Outcome::Ongoing) v = terminalValue(o, p.turn);
            else v = q.turn == p.turn ? bruteForce(q, depth - 1, kind) : -bruteForce(q, depth - 1, kind);
            best = std::max(best, v);
        }
        sum += t.prob[i] * best;
    }
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
