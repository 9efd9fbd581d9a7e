// A game in progress: the position plus the flow of throws and moves, Jéquier's opening, and
// the record of everything thrown and played. RULES.md, each ruleset's rules 1, 2, 9/10 and 11.
#pragma once

#include <optional>
#include <vector>

#include "senet/core.hpp"
#include "senet/movegen.hpp"
#include "senet/position.hpp"
#include "senet/result.hpp"

namespace senet {

/// What the game waits for.
enum class Phase : std::uint8_t {
    Opening,  ///< Jéquier's throwing round: the seat `seatToAct()` throws
    Throw,    ///< the player to move throws
    Move,     ///< the player to move picks one of `legalMoves()`
    Over,     ///< decided; see `outcome()`
};

/// One ply, a decision step: a throw and the move made with it (a pass when there was none). In
/// Piccione a step that spends the remainder of a throw makes no throw: `throw_` is then
/// Throw{} (value 0, `spendsRemainder()`).
struct Ply {
    Player player = Player::One;
    Throw throw_{};
    Move move{};
    /// Whether this step spends a remainder instead of a new throw (Piccione).
    bool spendsRemainder() const { return throw_.value == 0; }
};

/// A whole game: the ruleset and the ordered list of throws and moves. Replays to the same position.
struct Record {
    RulesetId rulesetId = RulesetId::Standard;
    /// Jéquier's opening throws, the first seat's first, seats alternating; the last is the 1.
    std::vector<Throw> opening;
    std::vector<Ply> plies;
};

/// What a throw led to.
struct ThrowEvent {
    Throw throw_{};
    int seat = 0;                ///< the seat (0 first, 1 second) that threw
    bool openingThrow = false;   ///< thrown in Jéquier's opening
    bool openingDecided = false; ///< this opening throw was the 1: `seat` is player 2 and moved 10→11
    bool noMove = false;         ///< no legal move: passed (or, in Jéquier, the turn is lost)
    bool keepsTurn = false;      ///< the same player throws next
};

/// A game of one ruleset from its start. Value type; copying copies the record.
class Game {
public:
    explicit Game(RulesetId id);

    Phase phase() const { return phase_; }
    const Position& position() const { return position_; }
    const Ruleset& rules() const { return position_.rules(); }
    Outcome outcome() const { return outcome_; }
    const Record& record() const { return record_; }
    /// The legal moves for the pending throw (non-empty in Phase::Move, empty otherwise).
    const MoveList& legalMoves() const { return moves_; }
    /// The throw waiting for a move (Phase::Move only); in Piccione also while its remainder
    /// is spent.
    std::optional<Throw> pendingThrow() const;
    /// The throw argument of the pending move for generateMoves / parseMove / applyMove: the
    /// pending throw's value, or kNoThrow while a remainder is spent (Phase::Move only).
    int moveThrowValue() const;
    /// Piccione's extra throws owed and not yet made, counting the throw made and waiting for its
    /// first step: the position's BONUS takes that throw into account only with the step
    /// (RULES.md `apply` step 1), so while it waits an owed throw it spends is no longer owed and
    /// a 5 already owes one more. 0 in the other rulesets.
    int owedThrows() const;
    /// Whether the last applyMove left a remainder with no legal step, so that a pass was made
    /// at once and recorded as its own ply (Piccione rule 9).
    bool passedAfterLastMove() const { return passedAfterMove_; }
    /// The last throw made, opening throws included.
    std::optional<Throw> lastThrow() const { return lastThrow_; }

    /// The seat (0 = first, 1 = second) that plays `p`. Seat 0 is player 1 unless Jéquier's
    /// opening gave seat 0 the first 1.
    int seatOf(Player p) const { return index(p) ^ (seatZeroIsPlayerTwo_ ? 1 : 0); }
    /// The player a seat plays, or nullopt while Jéquier's opening is thrown.
    std::optional<Player> playerOf(int seat) const;
    /// The seat whose action the game waits for (throw or move); meaningless in Phase::Over.
    int seatToAct() const;

    /// Applies a throw in Phase::Opening or Phase::Throw. When no move is legal the pass is
    /// made at once (and recorded). Errors: wrong phase, a throw the ruleset cannot produce or
    /// whose sticks do not count its value.
    Result<ThrowEvent> applyThrow(Throw t);
    /// Applies one of `legalMoves()` (matched by from, to and the entry flag) in Phase::Move.
    /// In Piccione the game stays in Phase::Move while the throw's remainder is spent (and
    /// passes at once when no step is left for it). Errors: wrong phase, a move that is not legal.
    Result<Ply> applyMove(Move m);

private:
    void finishPly(Move m);

    Position position_;
    Record record_;
    MoveList moves_;
    Phase phase_ = Phase::Throw;
    Outcome outcome_ = Outcome::Ongoing;
    std::optional<Throw> lastThrow_;
    bool seatZeroIsPlayerTwo_ = false;
    bool passedAfterMove_ = false;
};

/// The chance outcome `index` of a ruleset as a throw; `index` must be 0..outcomeCount-1
/// (asserted in debug builds). RULES.md "Throws".
Throw throwOfOutcome(const Ruleset& rules, int index);
/// Whether `t` is an outcome the ruleset can produce (value and sticks agree). RULES.md "Throws".
bool isValidThrow(const Ruleset& rules, Throw t);

}  // namespace senet
