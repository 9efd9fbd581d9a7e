// The computer's seat: its decisions run on the Scheduler, one at a time per room, the search
// outside the room's lock. A decision that starts late (the queue is long: a flood of computer
// games) is made at a cheaper level, so that every computer game keeps answering quickly.
#include "room.hpp"

#include <iostream>

#include "senet/ai.hpp"
#include "senet/record.hpp"

#include "config.hpp"

namespace senet::server {

using SteadyTime = std::chrono::steady_clock;

namespace {

/// Counts decisions made at a cheaper level and logs them at most once per 10 s of the rooms'
/// clock, with the number made since the last line.
void noteDegraded(Services& services, const std::string& game, std::chrono::milliseconds late) {
    LogLimit& limit = services.busyLog;
    const std::int64_t n = ++limit.count;
    const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(services.clock.now().time_since_epoch()).count();
    std::int64_t last = limit.lastMs.load();
    if (now - last < 10'000 || !limit.lastMs.compare_exchange_strong(last, now)) return;
    limit.count.fetch_sub(n);
    std::cerr << "senet-server: computer queue busy: " << n << " decision(s) made at the intermediate level instead of"
              << " expert (latest: game " << game << ", " << late.count() << " ms late)\n";
}

}  // namespace

void Room::kick() {
    Guard lock(*this);
    ++uses_;
    scheduleComputer();
    armAbort();  // a lobby game loaded at this instance: its unstarted abort is kept here now
}

void Room::scheduleComputer() {
    if (overLocked() || computerScheduled_ || waiting() || seedsPending()) return;
    if (!isComputer(game_.seatToAct())) return;
    computerScheduled_ = true;
    computerDue_ = SteadyTime::now() + services_.config.computerDelay;
    std::weak_ptr<Room> weak = weak_from_this();
    const std::int64_t ply = ply_;
    services_.scheduler.after(services_.config.computerDelay, [weak, ply] {
        if (auto room = weak.lock()) room->computerAct(ply);
    });
}

void Room::computerAct(std::int64_t expectedPly) {
    // 1. Under the lock: is it still the computer's turn at this ply? Copy what the search needs.
    std::optional<Position> position;
    int throwValue = 0;
    ai::Options options;
    {
        // computerScheduled_ stays set until step 3, so no second decision can start meanwhile
        // (rng_ is used by this one only).
        Guard lock(*this);
        if (overLocked() || ply_ != expectedPly || !isComputer(game_.seatToAct())) {
            computerScheduled_ = false;
            return scheduleComputer();
        }
        if (game_.phase() == Phase::Move) {
            position = game_.position();
            throwValue = game_.moveThrowValue();  // kNoThrow while a Piccione remainder is spent
            options.level = ai::levelByName(row_.level).value_or(ai::Level::Intermediate);
            options.budget = services_.config.aiBudget;
            options.exact = services_.exact;
            // Late by more than the allowance: the queue ahead was long. A full search now would
            // delay every game behind this one too; decide at the cheap level instead.
            const auto late = std::chrono::duration_cast<std::chrono::milliseconds>(SteadyTime::now() - computerDue_);
            if (options.level == ai::Level::Expert && late > services_.config.aiLate) {
                options.level = ai::Level::Intermediate;
                noteDegraded(services_, row_.id, late);
            }
        }
    }
    // 2. Without the lock, so that the room's players and spectators are served meanwhile:
    //    the decision, bounded by its budget. A failure or an overrun is logged; a failure
    //    falls back to a legal move so that the game never stalls.
    std::optional<Move> decided;
    if (position) {
        const auto started = SteadyTime::now();
        try {
            decided = ai::chooseMove(*position, throwValue, options, rng_);
        } catch (const std::exception& e) {
            std::cerr << "senet-server: game " << row_.id << ": computer player failed (" << e.what()
                      << "); playing a fallback move\n";
        }
        const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(SteadyTime::now() - started);
        if (took > 2 * options.budget + std::chrono::milliseconds(50))
            std::cerr << "senet-server: game " << row_.id << ": computer decision took " << took.count()
                      << " ms (budget " << options.budget.count() << " ms)\n";
    }
    // 3. Under the lock again: play it, unless the game moved on meanwhile (a resignation).
    Guard lock(*this);
    computerScheduled_ = false;
    if (moved_) return;  // the game's new owner plays it
    if (overLocked() || ply_ != expectedPly) return scheduleComputer();
    const int seat = game_.seatToAct();
    if (!isComputer(seat)) return;
    if (pending_) return;  // an action is being stored; its completion schedules the computer again
    const auto received = SteadyTime::now();
    // Storage failed (logged, nothing changed): try again later.
    auto retry = [this, expectedPly] {
        computerScheduled_ = true;
        computerDue_ = SteadyTime::now() + std::chrono::milliseconds(1000);
        std::weak_ptr<Room> weak = weak_from_this();
        services_.scheduler.after(std::chrono::milliseconds(1000), [weak, expectedPly] {
            if (auto room = weak.lock()) room->computerAct(expectedPly);
        });
    };
    if (game_.phase() == Phase::Move) {
        // The legal list's own move (with its flags: Piccione's in-1 is matched by from and to),
        // so that applyMove cannot refuse it and the game never stalls.
        Move m = game_.legalMoves()[0];
        bool legal = false;
        if (decided)
            for (const Move& l : game_.legalMoves())
                if (!legal && l.sameAs(*decided)) m = l, legal = true;
        // A pass for a remainder step is a search that does not spend remainders: no news.
        if (!legal && decided && !(decided->isPass() && game_.moveThrowValue() == kNoThrow))
            std::cerr << "senet-server: game " << row_.id << ": computer chose an illegal move " << formatMove(*decided)
                      << "; playing a fallback move\n";
        doMove(seat, m, nullptr, received, retry);
    } else {
        doThrow(seat, nullptr, received, retry);
    }
}

}  // namespace senet::server
