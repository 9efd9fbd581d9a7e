// A second solver for the standard endgame, written apart from engine/tables and deliberately
// simple: every position kept in a std::map keyed by its notation string, both players to throw
// kept as separate positions (no colour symmetry assumed), successors straight from
// generateMoves / applyMove / outcome, and plain Jacobi value iteration. No ranking code of the
// table is used. RULES.md "Standard", "Throws".
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "senet/senet.hpp"

namespace senet::test {

class ReferenceSolver {
public:
    /// Every valid standard position with 1..maxOnBoard pieces of each side on the board, either
    /// player to throw; solved until no value changes by more than `tolerance` in a sweep.
    explicit ReferenceSolver(int maxOnBoard, double tolerance = 1e-13) {
        for (int a = 1; a <= maxOnBoard; ++a)
            for (int b = 1; b <= maxOnBoard; ++b) place(std::string(30, '.'), 1, a, b);
        for (const auto& [key, node] : index_) build(key, node);
        iterate(tolerance);
    }

    /// The value for the player to throw of the position written `key`; -1 when unknown.
    double value(const std::string& key) const {
        const auto it = index_.find(key);
        return it == index_.end() ? -1 : values_[it->second];
    }
    /// Every position solved, by notation.
    std::vector<std::string> keys() const {
        std::vector<std::string> out;
        for (const auto& [key, node] : index_) out.push_back(key);
        return out;
    }
    int sweeps() const { return sweeps_; }

private:
    struct Edge {
        int node;   // the successor, or -1 for a finished game
        bool same;  // the same player throws next
        double fixed;  // a finished game's value for the player who threw
    };

    // Puts `a` pieces of player 1 and `b` of player 2 on `board` from `square` on, every way.
    void place(std::string board, int square, int a, int b) {
        if (a == 0 && b == 0) {
            for (const char* turn : {"1", "2"}) {
                const int on1 = static_cast<int>(std::count(board.begin(), board.end(), '1'));
                const int on2 = static_cast<int>(std::count(board.begin(), board.end(), '2'));
                const std::string key = "standard:" + board + ":" + turn + ":" + std::to_string(5 - on1) + ":" +
                                        std::to_string(5 - on2);
                if (parsePosition(key)) index_.emplace(key, static_cast<int>(index_.size()));
            }
            return;
        }
        if (square > 30) return;
        place(board, square + 1, a, b);
        if (a > 0) {
            board[square - 1] = '1';
            place(board, square + 1, a - 1, b);
        }
        if (b > 0) {
            board[square - 1] = '2';
            place(board, square + 1, a, b - 1);
        }
    }

    void build(const std::string& key, int node) {
        if (static_cast<int>(edges_.size()) <= node) edges_.resize(node + 1);
        const Position p = parsePosition(key).value();
        for (int t = 1; t <= 5; ++t) {
            MoveList moves;
            generateMoves(p, t, moves);
            std::vector<Move> options(moves.begin(), moves.end());
            if (options.empty()) options.push_back(Move{});
            std::vector<Edge> choice;
            for (const Move& m : options) {
                const Position q = applyMove(p, t, m);
                const Outcome o = outcome(q);
                if (o != Outcome::Ongoing) {
                    const bool moverWon = (o == Outcome::WinOne) == (p.turn == Player::One);
                    choice.push_back({-1, false, moverWon ? 1.0 : 0.0});
                    continue;
                }
                const auto it = index_.find(formatPosition(q));
                if (it == index_.end()) {
                    missing_ = true;
                    continue;
                }
                choice.push_back({it->second, q.turn == p.turn, 0});
            }
            edges_[node][t] = std::move(choice);
        }
    }

    void iterate(double tolerance) {
        values_.assign(index_.size(), 0.5);
        const Ruleset& r = ruleset(RulesetId::Standard);
        double weight[6] = {};
        for (const ChanceOutcome& c : r.chanceOutcomes()) weight[c.throw_.value] += c.weight / 16.0;
        for (double change = 1; change > tolerance && sweeps_ < 100000; ++sweeps_) {
            std::vector<double> next(values_.size());
            change = 0;
            for (std::size_t n = 0; n < values_.size(); ++n) {
                double v = 0;
                for (int t = 1; t <= 5; ++t) {
                    double best = 0;
                    for (const Edge& e : edges_[n][t])
                        best = std::max(best, e.node < 0 ? e.fixed : e.same ? values_[e.node] : 1 - values_[e.node]);
                    v += weight[t] * best;
                }
                next[n] = v;
                change = std::max(change, std::abs(v - values_[n]));
            }
            values_ = std::move(next);
        }
    }

public:
    bool missing_ = false;  // a successor outside the solved set (it would be a bug in the set)

private:
    std::map<std::string, int> index_;
    std::vector<std::array<std::vector<Edge>, 6>> edges_;
    std::vector<double> values_;
    int sweeps_ = 0;
};

}  // namespace senet::test
