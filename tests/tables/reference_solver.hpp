// A second solver for the endgames of the standard, Jéquier and Kendall rulesets, written apart
// from engine/tables and deliberately simple: every position kept in a std::map keyed by its
// notation string, both players to throw kept as separate positions (no colour symmetry
// assumed), successors straight from generateMoves / applyMove / outcome, the throws and their
// probabilities from the ruleset's chanceOutcomes, and plain Jacobi value iteration. No ranking
// or square-numbering code of the table is used: which boards are positions is parsePosition's
// answer. RULES.md "Standard", "Jéquier", "Kendall", "Throws".
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "senet/senet.hpp"

namespace senet::test {

/// Every valid position of ruleset `id` with `a` pieces of player 1 and `b` of player 2 on the
/// board (the rest borne off), either player to throw, as notation: every way of placing them on
/// squares 1..30 that parsePosition accepts.
inline std::vector<std::string> positionsWith(RulesetId id, int a, int b) {
    std::vector<std::string> out;
    const std::string prefix = std::string(ruleset(id).key) + ":";
    const std::string off = ":" + std::to_string(5 - a) + ":" + std::to_string(5 - b);
    std::string board(30, '.');
    auto place = [&](auto&& self, int square, int left1, int left2) -> void {
        if (left1 == 0 && left2 == 0) {
            for (const char* turn : {":1", ":2"}) {
                const std::string key = prefix + board + turn + off;
                if (parsePosition(key)) out.push_back(key);
            }
            return;
        }
        if (square > 30) return;
        self(self, square + 1, left1, left2);
        if (left1 > 0) {
            board[square - 1] = '1';
            self(self, square + 1, left1 - 1, left2);
        }
        if (left2 > 0) {
            board[square - 1] = '2';
            self(self, square + 1, left1, left2 - 1);
        }
        board[square - 1] = '.';
    };
    place(place, 1, a, b);
    return out;
}

class ReferenceSolver {
public:
    /// Every valid position of ruleset `id` with 1..maxOnBoard pieces of each side on the board,
    /// either player to throw; solved until no value changes by more than `tolerance` in a sweep.
    explicit ReferenceSolver(RulesetId id, int maxOnBoard, double tolerance = 1e-13) : id_(id) {
        for (int a = 1; a <= maxOnBoard; ++a)
            for (int b = 1; b <= maxOnBoard; ++b)
                for (const std::string& key : positionsWith(id, a, b)) index_.emplace(key, static_cast<int>(index_.size()));
        const Ruleset& r = ruleset(id);
        for (const ChanceOutcome& c : r.chanceOutcomes()) {
            auto it = std::find_if(throws_.begin(), throws_.end(), [&](const auto& t) { return t.first == c.throw_.value; });
            if (it == throws_.end()) throws_.emplace_back(c.throw_.value, 0.0);
            it = std::find_if(throws_.begin(), throws_.end(), [&](const auto& t) { return t.first == c.throw_.value; });
            it->second += static_cast<double>(c.weight) / r.outcomeWeightTotal;
        }
        // The choices of node n and throw k are edges_[first_[n * throws + k] .. first_[n * throws + k + 1]).
        std::vector<std::vector<std::vector<Edge>>> choices(index_.size());
        for (const auto& [key, node] : index_) choices[node] = build(key);
        for (const auto& node : choices)
            for (const auto& choice : node) {
                first_.push_back(edges_.size());
                edges_.insert(edges_.end(), choice.begin(), choice.end());
            }
        first_.push_back(edges_.size());
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
    RulesetId rulesetId() const { return id_; }

private:
    struct Edge {
        int node;   // the successor, or -1 for a finished game
        bool same;  // the same player throws next
        double fixed;  // a finished game's value for the player who threw
    };

    // For each throw, the choices of the position written `key`.
    std::vector<std::vector<Edge>> build(const std::string& key) {
        std::vector<std::vector<Edge>> out;
        const Position p = parsePosition(key).value();
        for (const auto& [t, weight] : throws_) {
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
            out.push_back(std::move(choice));
        }
        return out;
    }

    void iterate(double tolerance) {
        values_.assign(index_.size(), 0.5);
        for (double change = 1; change > tolerance && sweeps_ < 100000; ++sweeps_) {
            std::vector<double> next(values_.size());
            change = 0;
            for (std::size_t n = 0; n < values_.size(); ++n) {
                double v = 0;
                for (std::size_t k = 0; k < throws_.size(); ++k) {
                    double best = 0;
                    const std::size_t at = n * throws_.size() + k;
                    for (std::size_t i = first_[at]; i < first_[at + 1]; ++i) {
                        const Edge& e = edges_[i];
                        best = std::max(best, e.node < 0 ? e.fixed : e.same ? values_[e.node] : 1 - values_[e.node]);
                    }
                    v += throws_[k].second * best;
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
    RulesetId id_;
    std::map<std::string, int> index_;
    std::vector<std::pair<int, double>> throws_;  // (value, probability), in outcome order
    std::vector<Edge> edges_;          // every choice of every node and throw, in that order
    std::vector<std::size_t> first_;   // where each (node, throw)'s choices start in edges_
    std::vector<double> values_;
    int sweeps_ = 0;
};

}  // namespace senet::test
