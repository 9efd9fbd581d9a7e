// Static evaluation for the five rulesets. Everything is first scored in the ruleset's own
// unit (squares still to travel for standard, Jéquier, Kendall and Piccione, pieces for Bell), for player 1 minus
// player 2, then turned into a win expectation in (-1, 1) by a tanh whose scale grows with the
// distance left, as a race's spread grows with the number of throws still to come.
#include <cassert>
#include <cmath>

#include "senet/ai_search.hpp"
#include "features.hpp"
#include "throws.hpp"
#include "value_net.hpp"

namespace senet::ai {

namespace detail {

const ThrowTable& throwTable(RulesetId id) {
    static const std::array<ThrowTable, kRulesetCount> tables = [] {
        std::array<ThrowTable, kRulesetCount> t{};
        for (const Ruleset* r : allRulesets()) {
            ThrowTable& tt = t[static_cast<int>(r->id)];
            for (int v = 1; v < 16; ++v) {
                if (!r->canThrow(v)) continue;
                const double p = static_cast<double>(r->weightOfValue(v)) / r->outcomeWeightTotal;
                tt.values[tt.count] = v;
                tt.prob[tt.count] = p;
                tt.probOf[v] = p;
                ++tt.count;
            }
        }
        return t;
    }();
    return tables[static_cast<int>(id)];
}

}  // namespace detail

namespace {

using detail::blockadeHold;
using detail::movers;
using detail::swapThreat;
using detail::ThrowTable;
using detail::waterDanger;

/// How much of a threat counts: the side to throw next can often answer a threat against it
/// (move the piece, cover it) before the opponent throws; the other side cannot.
constexpr double kThreatWhenToThrow = 0.35;
constexpr double kThreatWhenWaiting = 0.85;

/// Piccione: squares still to travel for a piece in the hand: the 31 of its path, so that
/// entering gains what a step of 1 gains. Measured (engine/ai/README.md "Kendall and Piccione"):
/// counting the wait for a whole 1 on top (34 or 37) makes the expert enter too eagerly and lose
/// to the plain pip count (53.7% and 53.4% against the intermediate at depth 2, against 59.7%);
/// less (28, 25) makes it hold pieces back (47.4%, 12.5%).
constexpr double kPiccioneHandDistance = 31;

/// Squares still to travel for a piece on each square: the race distance. Houses that need a
/// particular throw to bear off count a little more than their plain distance.
struct DistanceTable {
    std::array<double, kSquareCount + 1> sq{};
};

/// The plain distance: the squares from each square to `bearOffAt`, where a piece leaves the board.
DistanceTable plainDistance(const Ruleset& r) {
    DistanceTable d;
    for (int s = 1; s <= kSquareCount; ++s) d.sq[s] = r.bearOffAt - s;
    return d;
}

/// Standard (`r`): the plain distance to 31, the houses at their cost (RULES.md "Standard" 7, 8, 12).
DistanceTable standardDistance(const Ruleset& r) {
    DistanceTable d = plainDistance(r);
    const int beauty = r.houseSquare("beauty");
    d.sq[beauty - 1] = 5.5;                      // every throw but 1 (to the House of Beauty) or 2 (the water) is awkward
    d.sq[beauty] = 4.0;                          // bears off with 4 or 5 only; 1 falls into the water if forced
    d.sq[r.waterSquare] = 17;                    // never stands here (the water returns to 15)
    d.sq[r.houseSquare("three-truths")] = 2.6;  // bears off with a 3 only (4/16)
    d.sq[r.houseSquare("re-atoum")] = 2.2;      // bears off with a 2 only (6/16)
    return d;
}
static_assert(rulesets::kStandard.houseSquare("beauty") > 1 && rulesets::kStandard.houseSquare("three-truths") > 0 &&
                  rulesets::kStandard.houseSquare("re-atoum") > 0 && rulesets::kStandard.waterSquare > 0,
              "standardDistance needs standard's houses");

/// Jéquier (`r`): the plain distance to 30 (rule 8), the House of Water apart (rule 5).
DistanceTable jequierDistance(const Ruleset& r) {
    DistanceTable d = plainDistance(r);
    d.sq[r.waterSquare] = 26;  // never stands here (the water returns to the lowest empty square)
    return d;
}

/// Kendall (`r`): the plain distance to 31 with its houses at their cost (RULES.md "Kendall" 5-8):
/// every piece must reach the House of Beauty by an exact throw, from there a 1 falls into the
/// water (back to 15), and each final house bears off with one throw value only.
DistanceTable kendallDistance(const Ruleset& r) {
    DistanceTable d = plainDistance(r);
    const int beauty = r.stopSquare;
    for (int s = beauty - 5; s < beauty; ++s) d.sq[s] += 0.6;  // only the exact throw reaches 26
    d.sq[beauty] = 5.8;                          // 2/3/4 to a final house, 5 off (1/16), 1 into the water
    d.sq[r.waterSquare] = 17;                    // never stands here (the water returns to 15)
    d.sq[r.houseSquare("three-truths")] = 3.2;  // bears off with a 3 only (4/16)
    d.sq[r.houseSquare("re-atoum")] = 2.6;      // bears off with a 2 only (6/16)
    d.sq[r.houseSquare("horus")] = 2.9;         // bears off with a 1 only (4/16)
    return d;
}
static_assert(rulesets::kKendall.stopSquare > 5 && rulesets::kKendall.houseSquare("three-truths") > 0 &&
                  rulesets::kKendall.houseSquare("re-atoum") > 0 && rulesets::kKendall.houseSquare("horus") > 0,
              "kendallDistance needs Kendall's houses");

/// Piccione (`r`): the plain distance to 31 (RULES.md "Piccione" 12: 28-30 bear off only by the
/// exact amount, but a throw can be split). Counting 28-30 as 0.4 squares further, as an earlier
/// version did, kept the expert's pieces out of them: it won 34.8% against the intermediate at
/// depth 1, against 49.8% without.
DistanceTable piccioneDistance(const Ruleset& r) {
    DistanceTable d = plainDistance(r);
    d.sq[r.waterSquare] = kPiccioneHandDistance;  // never stands here (back to the hand, rule 11)
    return d;
}

/// Where the evaluation takes a piece sent back by the House of Water to land when the ruleset
/// sends it to the lowest empty square (Jéquier 5): a fixed estimate, not read from the board.
constexpr double kLowestEmptySquareEstimate = 3.0;

/// The mean squares a turn advances: the expected throw, stretched by the extra throws.
double tempoOf(const Ruleset& r) {
    const ThrowTable& t = detail::throwTable(r.id);
    double mean = 0, again = 0;
    for (int i = 0; i < t.count; ++i) {
        mean += t.prob[i] * t.values[i];
        if (r.givesExtraThrow(t.values[i])) again += t.prob[i];
    }
    return mean / (1.0 - again);
}


double sumDistance(const DistanceTable& d, Bitboard pieces) {
    double sum = 0;
    for (Bitboard b = pieces; b; b &= b - 1) sum += d.sq[lowestSquare(b)];
    return sum;
}

/// Standard and Jéquier, one throw ahead: the expected squares each side stands to lose on the
/// opponent's next throw (swaps, being forced onto the House of Water), weighted by whether that
/// side can answer first, for player 1 minus player 2.
double oneThrowThreats(const Position& p) {
    const Ruleset& r = p.rules();
    const Bitboard b1 = p.board[0], b2 = p.board[1];
    const bool oneToThrow = p.turn == Player::One;
    const double w1 = oneToThrow ? kThreatWhenToThrow : kThreatWhenWaiting;  // threats against player 1
    const double w2 = oneToThrow ? kThreatWhenWaiting : kThreatWhenToThrow;
    // Where the House of Water sends the piece back to: standard's return square (15), or an
    // estimate of Jéquier's lowest empty square.
    const double back = r.waterReturn == WaterReturn::LowestEmpty ? kLowestEmptySquareEstimate
                                                                  : static_cast<double>(r.waterReturnSquare);
    double score = 0;
    score -= w1 * swapThreat(r, b2, b1);
    score += w2 * swapThreat(r, b1, b2);
    score -= w1 * waterDanger(r, b1, b2, back);
    score += w2 * waterDanger(r, b2, b1, back);
    return score;
}

/// The distance table of a race ruleset (standard, Jéquier, Kendall, Piccione).
const DistanceTable& distanceTable(RulesetId id) {
    static const std::array<DistanceTable, kRulesetCount> tables = [] {
        std::array<DistanceTable, kRulesetCount> t{};
        for (const Ruleset* r : allRulesets()) {
            DistanceTable& d = t[static_cast<int>(r->id)];
            switch (r->id) {
                case RulesetId::Standard: d = standardDistance(*r); break;
                case RulesetId::Jequier: d = jequierDistance(*r); break;
                case RulesetId::Kendall: d = kendallDistance(*r); break;
                case RulesetId::Piccione: d = piccioneDistance(*r); break;
                case RulesetId::Bell: d = plainDistance(*r); break;  // unused: Bell scores pieces
            }
        }
        return t;
    }();
    return tables[static_cast<int>(id)];
}

/// The mean squares a turn advances, per ruleset.
double tempoFor(RulesetId id) {
    static const std::array<double, kRulesetCount> tempo = [] {
        std::array<double, kRulesetCount> t{};
        for (const Ruleset* r : allRulesets()) t[static_cast<int>(r->id)] = tempoOf(*r);
        return t;
    }();
    return tempo[static_cast<int>(id)];
}

/// Standard, Jéquier, Kendall and Piccione: a race in squares, for player 1 minus player 2.
double raceValue(const Position& p, Evaluation kind) {
    const Ruleset& r = p.rules();
    const bool piccione = r.turnModel == TurnModel::SplitSteps;
    const DistanceTable& d = distanceTable(r.id);
    const Bitboard b1 = p.board[0], b2 = p.board[1];
    double dist1 = sumDistance(d, b1), dist2 = sumDistance(d, b2);
    if (piccione) {
        dist1 += kPiccioneHandDistance * p.inHand(Player::One);
        dist2 += kPiccioneHandDistance * p.inHand(Player::Two);
    }
    const double tempo = tempoFor(r.id);
    double score = dist2 - dist1;  // positive: player 1 is ahead
    // The side to move has the next throw: half a turn ahead. Not in Piccione: there the search
    // reaches its leaves at different points of a turn (a remainder, owed throws, an entry throw),
    // and crediting them (what is left of the turn at the mean throw, and the half turn) made the
    // expert worse at depth 2 (46.8% and 47.4% against the intermediate, against 59.7% without).
    const double mine = piccione ? 0 : (p.throwDue() ? tempo / 2 : 0);
    score += p.turn == Player::One ? mine : -mine;
    if (kind == Evaluation::Full) {
        if (!piccione) score += oneThrowThreats(p);
        if (r.blockadeLength > 0) score += 1.5 * (blockadeHold(b1, b2) - blockadeHold(b2, b1));
    }
    const double spread = 1.3 * std::sqrt(dist1 + dist2 + 10.0);
    return std::tanh(score / spread);
}

/// Bell: expected pieces scored, for player 1 minus player 2. A piece on the board is worth
/// more the further it stands and less when it can be captured on the opponent's next throw.
double bellValue(const Position& p, Evaluation kind) {
    const Ruleset& r = p.rules();
    // A piece on a safe square (26-30, rule 4) can no longer be captured; before the first safe
    // square it is worth more the further it stands.
    const int firstSafe = lowestSquare(r.safeSquares);
    auto pieceValue = [&](int s) { return r.isSafe(s) ? 0.9 : 0.55 + 0.1 * s / (firstSafe - 1.0); };
    double score = 0;
    double value[2] = {0, 0};
    for (int side = 0; side < 2; ++side) {
        value[side] = p.off[side];
        for (Bitboard b = p.board[side]; b; b &= b - 1) value[side] += pieceValue(lowestSquare(b));
    }
    score = value[0] - value[1];
    score += p.turn == Player::One ? 0.1 : -0.1;
    if (kind == Evaluation::Full) {
        const ThrowTable& t = detail::throwTable(r.id);
        const bool oneToThrow = p.turn == Player::One;
        for (int victim = 0; victim < 2; ++victim) {
            const Bitboard own = p.board[victim], opp = p.board[victim ^ 1];
            const bool victimThrows = oneToThrow == (victim == 0);
            double loss = 0;
            for (int i = 0; i < t.count; ++i) {
                const int v = t.values[i];
                const Bitboard hits = (movers(r, opp, own, v) << v) & own & kAllSquares;
                double best = 0;
                for (Bitboard h = hits; h; h &= h - 1) best = std::max(best, pieceValue(lowestSquare(h)));
                loss += t.prob[i] * best;
            }
            // A capture costs more than the piece: the capturer also gains the squares and the
            // initiative, so Bell's threats weigh double (measured at one throw of look-ahead).
            loss *= 2.0 * (victimThrows ? kThreatWhenToThrow : kThreatWhenWaiting);
            score += victim == 0 ? -loss : loss;
        }
    }
    const int left = p.onBoard(Player::One) + p.onBoard(Player::Two);
    return std::tanh(score * 1.6 / std::sqrt(left + 2.0));
}

/// The plainest sound measure: squares travelled (standard, Jéquier) or pieces kept plus a
/// little for their progress (Bell), for player 1 minus player 2.
double pipValue(const Position& p) {
    if (p.rulesetId == RulesetId::Bell) {
        double score = 0;
        for (int side = 0; side < 2; ++side) {
            double v = p.off[side] * 1.2;
            for (Bitboard b = p.board[side]; b; b &= b - 1) v += 1.0 + lowestSquare(b) / 150.0;
            score += side == 0 ? v : -v;
        }
        const int left = p.onBoard(Player::One) + p.onBoard(Player::Two);
        return std::tanh(score * 1.6 / std::sqrt(left + 2.0));
    }
    const int end = p.rules().bearOffAt;
    double dist[2] = {0, 0};
    for (int side = 0; side < 2; ++side) {
        for (Bitboard b = p.board[side]; b; b &= b - 1) dist[side] += end - lowestSquare(b);
        // Piccione's hand: the whole path still to go (0 in the other rulesets).
        if (p.rules().turnModel == TurnModel::SplitSteps) dist[side] += end * p.inHand(side == 0 ? Player::One : Player::Two);
    }
    return std::tanh((dist[1] - dist[0]) / (1.3 * std::sqrt(dist[0] + dist[1] + 10.0)));
}

}  // namespace

double evaluate(const Position& p, Evaluation kind) {
    assert(outcome(p) == Outcome::Ongoing);
    if (kind == Evaluation::Learned) {
        if (const detail::NetWeights* w = detail::learnedWeights(p.rulesetId)) {
            // The network's chance of winning for the player to throw, mapped onto the value scale.
            const double chance = detail::netForward(*w, detail::netInputs(p)).out;
            return (2.0 * chance - 1.0) * kEvalBound;
        }
        kind = Evaluation::Full;
    }
    const double v1 = kind == Evaluation::Pips              ? pipValue(p)
                      : p.rulesetId == RulesetId::Bell ? bellValue(p, kind)
                                                       : raceValue(p, kind);
    const double v = p.turn == Player::One ? v1 : -v1;
    return v * kEvalBound;
}

double terminalValue(Outcome o, Player viewer) {
    if (o == Outcome::Draw || o == Outcome::Ongoing) return 0;
    const bool oneWon = o == Outcome::WinOne;
    return oneWon == (viewer == Player::One) ? 1.0 : -1.0;
}

}  // namespace senet::ai
