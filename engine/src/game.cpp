#include "senet/game.hpp"

#include <cassert>
#include <string>

namespace senet {

Throw throwOfOutcome(const Ruleset& rules, int index) {
    assert(index >= 0 && index < rules.outcomeCount);
    return rules.outcomes[index].throw_;
}

bool isValidThrow(const Ruleset& rules, Throw t) {
    for (const ChanceOutcome& o : rules.chanceOutcomes())
        if (o.throw_ == t) return true;
    return false;
}

Game::Game(RulesetId id) {
    const Ruleset& r = ruleset(id);
    record_.rulesetId = id;
    position_ = startPosition(id);
    if (r.opening == OpeningRule::ThrowForOne) {
        position_.board = r.openingSetup;
        phase_ = Phase::Opening;
    }
}

std::optional<Throw> Game::pendingThrow() const {
    if (phase_ != Phase::Move) return std::nullopt;
    return lastThrow_;
}

int Game::moveThrowValue() const {
    if (phase_ != Phase::Move || !lastThrow_) return kNoThrow;
    return position_.throwDue() ? lastThrow_->value : kNoThrow;
}

int Game::owedThrows() const {
    const Position& p = position_;
    int owed = p.owedThrows;
    if (phase_ == Phase::Move && p.throwDue() && lastThrow_) {
        if (!p.entryThrowDue && p.direction != TurnDirection::Unset) --owed;
        if (p.rules().turnModel == TurnModel::SplitSteps && rules().givesExtraThrow(lastThrow_->value)) ++owed;
    }
    return owed;
}

std::optional<Player> Game::playerOf(int seat) const {
    if (phase_ == Phase::Opening) return std::nullopt;
    return static_cast<Player>((seat & 1) ^ (seatZeroIsPlayerTwo_ ? 1 : 0));
}

int Game::seatToAct() const {
    if (phase_ == Phase::Opening) return static_cast<int>(record_.opening.size() % 2);
    return seatOf(position_.turn);
}

Result<ThrowEvent> Game::applyThrow(Throw t) {
    const Ruleset& r = rules();
    if (phase_ != Phase::Opening && phase_ != Phase::Throw)
        return fail(phase_ == Phase::Over ? "the game is over" : "a move is due, not a throw");
    if (!isValidThrow(r, t)) return fail("throw " + std::to_string(t.value) + " is not an outcome of " + std::string(r.key));

    ThrowEvent ev;
    ev.throw_ = t;
    ev.seat = seatToAct();
    lastThrow_ = t;

    if (phase_ == Phase::Opening) {
        // Jéquier rule 1: the seat that throws the first 1 takes the even squares and moves 10→11.
        ev.openingThrow = true;
        record_.opening.push_back(t);
        if (t.value == 1) {
            ev.openingDecided = true;
            ev.keepsTurn = true;
            seatZeroIsPlayerTwo_ = ev.seat == 0;
            position_ = startPosition(r.id);
            phase_ = Phase::Throw;
        }
        return ev;
    }

    generateMoves(position_, t.value, moves_);
    if (moves_.empty()) {
        ev.noMove = true;
        ev.keepsTurn = keepsTurn(r, t.value, Move::pass());
        finishPly(Move::pass());
    } else {
        phase_ = Phase::Move;
    }
    return ev;
}

Result<Ply> Game::applyMove(Move m) {
    if (phase_ != Phase::Move)
        return fail(phase_ == Phase::Over ? "the game is over" : "a throw is due, not a move");
    for (const Move& legal : moves_) {
        if (legal.sameAs(m) && legal.has(kEnter) == m.has(kEnter)) {
            const std::size_t ply = record_.plies.size();
            finishPly(legal);
            return record_.plies[ply];
        }
    }
    if (!position_.throwDue())
        return fail("move " + formatMove(m) + " is not legal with the remainder " + std::to_string(position_.remainder));
    return fail("move " + formatMove(m) + " is not legal with a throw of " + std::to_string(lastThrow_->value));
}

void Game::finishPly(Move m) {
    // A step that spends a remainder (Piccione) is recorded without a throw.
    const bool fresh = position_.throwDue();
    const int v = fresh ? lastThrow_->value : kNoThrow;
    record_.plies.push_back(Ply{position_.turn, fresh ? *lastThrow_ : Throw{}, m});
    position_ = senet::applyMove(position_, v, m);
    moves_.clear();
    passedAfterMove_ = false;
    outcome_ = senet::outcome(position_);
    if (outcome_ != Outcome::Ongoing) {
        phase_ = Phase::Over;
        return;
    }
    phase_ = Phase::Throw;
    if (position_.throwDue()) return;
    // Piccione 8 and 9: the remainder must be spent while a step exists; else the turn passes.
    generateMoves(position_, kNoThrow, moves_);
    if (!moves_.empty()) {
        phase_ = Phase::Move;
        return;
    }
    record_.plies.push_back(Ply{position_.turn, Throw{}, Move::pass()});
    position_ = senet::applyMove(position_, kNoThrow, Move::pass());
    passedAfterMove_ = true;
}

}  // namespace senet
