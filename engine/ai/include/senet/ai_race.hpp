// Piccione's one-sided race table: how many turns one player needs to bear off all five pieces
// when playing alone, the opponent ignored (no landings blocked by the other colour), under the
// play that needs the fewest turns on average. Piccione is almost a pure race (RULES.md
// "Piccione", rule 3: no captures, swaps or blockades), so the two players' tables give the
// candidate for the expert's leaf evaluation (engine/ai/README.md "Kendall and Piccione", where
// its measured effect is given). Solved in memory, no I/O.
#pragma once

#include <cstddef>
#include <vector>

#include "senet/senet.hpp"

namespace senet::ai {

/// The number of turns a player alone still needs, as its first two moments.
struct RaceTurns {
    double mean = 0;        ///< expected turns
    double meanSquare = 0;  ///< expected square of the turns
    /// meanSquare - mean², never below 0.
    double variance() const;
};

/// The size of a table: the one-sided states at a turn's start it solved, the bytes of memory its
/// values take, the wall-clock seconds its build took and the policy-iteration sweeps it made.
struct RaceTableFacts {
    int states = 0;
    std::size_t bytes = 0;
    double buildSeconds = 0;
    int sweeps = 0;
};

/// The solved one-sided race table of Piccione.
class PiccioneRaceTable {
public:
    /// Solves the table for every state with at most `mostPiecesLeft` (1-5) pieces not borne
    /// off (no step ever brings a borne-off piece back, so these states form a closed table):
    /// 5, the whole game, takes minutes (engine/ai/README.md "Kendall and Piccione"); 2 takes
    /// milliseconds.
    explicit PiccioneRaceTable(int mostPiecesLeft = 5);

    /// The turns one player alone needs from the start of a turn (the throw due, no direction
    /// fixed, nothing owed) with `pieces` on the board (squares 1-26 and 28-30; 27 is never
    /// occupied, rule 11) and `hand` pieces in hand (at most `mostPiecesLeft` in all, the rest
    /// borne off), the turn starting now counted: 0 when all five are off. The play minimises the
    /// mean over every way of spending each throw (rules 4-12, the engine's own steps).
    RaceTurns turns(Bitboard pieces, int hand) const;

    /// The turns `side` of the Piccione position `p` still needs after the turn now under way,
    /// the other player's pieces ignored. When `side` is `p.turn` and `p` is inside a turn (an
    /// owed or entry throw due, or a remainder to spend), what is left of that turn is played out
    /// first; otherwise (`side` waits, or `p` starts a turn) it is `turns` of its pieces, minus
    /// one for the turn of `p.turn` that is starting. `p` must be unfinished.
    RaceTurns rest(const Position& p, Player side) const;

    /// The chance, in (0, 1), that `p.turn` wins the race from the unfinished position `p`: the
    /// mover wins when their turns still needed after this one are fewer than the opponent's
    /// turns from their next turn, each side's count taken as a normal distribution with its
    /// table's mean and variance, the two independent.
    double winChance(const Position& p) const;

    RaceTableFacts facts() const;

private:
    RaceTurns restAlone(const Position& x, int depth) const;
    RaceTurns spendAlone(const Position& x, int v, int depth) const;

    int mostPiecesLeft_ = 5;
    int states_ = 0;
    int sweeps_ = 0;
    double buildSeconds_ = 0;
    std::vector<float> mean_, square_;  ///< T per state
    /// R inside a forward turn: one throw owed, or the entry throw due (NaN where never met)
    std::vector<float> owedMean_, owedSquare_, entryMean_, entrySquare_;
};

/// The whole table (five pieces), built once on first use (thread-safe, a function-local static).
const PiccioneRaceTable& piccioneRaceTable();

}  // namespace senet::ai
