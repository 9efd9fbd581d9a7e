#include "registry.hpp"

#include <iostream>

#include "senet/fairness.hpp"

#include "config.hpp"
#include "invite.hpp"
#include "metrics.hpp"

namespace senet::server {

namespace {

std::int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

Registry::Registry(Storage& storage, Metrics& metrics, Scheduler& scheduler, const Config& config, Clock& clock, bool sharedStore)
    : services_{storage, metrics, scheduler, config, nullptr, clock},
      shared_(sharedStore),
      wallBaseMs_(nowMs()),
      steadyBase_(clock.now()) {
    services_.createRematch = [this](const GameRow& finished) { return rematchOf(finished); };
    services_.leaseLost = [this](const std::string& id, const Room* room) { dropMoved(id, room); };
}

bool Registry::plausibleId(std::string_view id) {
    if (id.size() != 22) return false;
    for (char c : id)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_')) return false;
    return true;
}

GameRow Registry::newRow(RulesetId ruleset, Opponent opponent, const std::string& level) {
    GameRow row;
    row.id = fairness::randomToken(16);  // 128 bits
    row.ruleset = std::string(senet::ruleset(ruleset).key);
    row.opponent = opponent;
    row.level = level;
    row.serverSeed = services_.config.testSeed ? *services_.config.testSeed : fairness::randomBytes(fairness::kServerSeedBytes);
    row.createdMs = row.updatedMs = nowMs();
    return row;
}

std::shared_ptr<Room> Registry::add(GameRow row) {
    Game game(*rulesetByKey(row.ruleset));
    auto room = std::make_shared<Room>(services_, std::move(row), std::move(game), 0, 0);
    {
        std::lock_guard lock(mutex_);
        rooms_[room->id()] = room;
        countRooms();
    }
    services_.metrics.gamesCreated.fetch_add(1);
    room->kick();
    return room;
}

Created Registry::create(const CreateRequest& req) {
    if (req.opponent == Opponent::Computer && services_.scheduler.pending() >= static_cast<std::size_t>(services_.config.aiQueue))
        throw BusyError("the computer player is busy: " + std::to_string(services_.scheduler.pending()) +
                        " decisions are queued; try again in a few seconds");
    GameRow row = newRow(req.ruleset, req.opponent, req.opponent == Opponent::Computer ? req.level : "");
    Created out;
    out.id = row.id;
    out.secret = fairness::randomToken(32);
    const std::string hash = fairness::sha256Hex(out.secret);
    if (req.opponent == Opponent::Local) {
        row.seatHashes = {hash, hash};
        out.seats = {0, 1};
    } else {
        row.seatHashes[req.creatorSeat] = hash;
        out.seats = {req.creatorSeat};
        if (req.opponent == Opponent::Computer) {
            row.seatHashes[1 - req.creatorSeat] = kComputerSeatHash;
            // The computer's seed is fixed and published now, before the human's is known.
            row.clientSeeds[1 - req.creatorSeat] = services_.config.testSeed ? std::string("computer")
                                                                               : fairness::toHex(fairness::randomBytes(16));
        } else {
            // Derived from the creator's secret: that seat can ask for it again (Room::invite).
            out.inviteToken = deriveInviteToken(out.secret, row.id);
            row.inviteHash = fairness::sha256Hex(out.inviteToken);
        }
    }
    out.commitment = fairness::commitment(row.serverSeed);
    services_.storage.createGame(row);
    if (shared_) {
        // Its players reach it through nginx by game id, most likely at another instance:
        // hand it on at once instead of holding it here.
        services_.metrics.gamesCreated.fetch_add(1);
        release(row.id);
        return out;
    }
    add(std::move(row));
    return out;
}

std::string Registry::rematchOf(const GameRow& finished) {
    GameRow row = newRow(*rulesetByKey(finished.ruleset), finished.opponent, finished.level);
    row.seatHashes = {finished.seatHashes[1], finished.seatHashes[0]};  // sides swapped, same secrets
    row.rematchOf = finished.id;  // createGame links the finished game to it in the same write
    for (const int seat : {0, 1})
        if (seatKindOf(row.seatHashes[seat]) == SeatKind::Computer)
            row.clientSeeds[seat] = services_.config.testSeed ? std::string("computer") : fairness::toHex(fairness::randomBytes(16));
    services_.storage.createGame(row);
    const std::string id = row.id;
    if (shared_) {
        services_.metrics.gamesCreated.fetch_add(1);
        release(id);  // as in create(): its players come through nginx by its id
        return id;
    }
    // Registered from inside the old room's lock: add() takes only the registry's mutex and
    // the new room's, never the old room's.
    add(std::move(row));
    return id;
}

Lookup Registry::find(const std::string& id) {
    Lookup out;
    if (!plausibleId(id)) return out;
    {
        std::lock_guard lock(mutex_);
        if (auto it = rooms_.find(id); it != rooms_.end()) out.room = it->second;
        else if (releasing_.count(id)) throw GameElsewhere("game " + id + " is being handed on; try again in a moment");
    }
    const auto expiry = std::chrono::hours(24) * services_.config.expireDays;
    if (out.room) {
        if (out.room->idleFor(std::chrono::duration_cast<std::chrono::milliseconds>(expiry))) {
            try {
                services_.storage.expireGame(id);
            } catch (const LeaseLost& e) {
                dropMoved(id, out.room.get());
                out.room->evict();
                throw GameElsewhere("game " + id + " is held by another instance");
            } catch (const StorageError& e) {
                // Not stored: the game stays as it was (served), and expires at a later lookup.
                std::cerr << "senet-server: game " << id << ": expiry could not be saved: " << e.what() << '\n';
                out.status = LookupStatus::Found;
                return out;
            }
            std::lock_guard lock(mutex_);
            rooms_.erase(id);
            countRooms();
            out.room.reset();
            out.status = LookupStatus::Expired;
            return out;
        }
        out.status = LookupStatus::Found;
        return out;
    }
    auto row = services_.storage.loadGame(id);
    if (!row) return out;
    if (row->status == GameStatus::Expired) {
        out.status = LookupStatus::Expired;
        return out;
    }
    bool elsewhere = false;
    out.room = acquireAndRestore(id, elsewhere);
    if (elsewhere) throw GameElsewhere("game " + id + " is held by another instance; try again in a moment");
    if (out.room) out.status = LookupStatus::Found;
    return out;
}

std::optional<GameRow> Registry::peek(const std::string& id) {
    if (!plausibleId(id)) return std::nullopt;
    return services_.storage.loadGame(id);
}

int Registry::restoreAll() {
    int restored = 0;
    if (shared_) return 0;  // other instances hold games too: each is loaded when asked for, under its lease
    const std::int64_t cutoff = nowMs() - std::int64_t{services_.config.expireDays} * 86'400'000;
    for (const std::string& id : services_.storage.unfinishedGames()) {
        auto row = services_.storage.loadGame(id);
        if (!row) continue;
        if (row->updatedMs < cutoff) {
            try {
                services_.storage.expireGame(id);
                continue;
            } catch (const StorageError& e) {
                std::cerr << "senet-server: game " << id << ": expiry could not be saved: " << e.what() << '\n';
            }
        }
        auto room = Room::restore(services_, *row, services_.storage.loadActions(id));
        if (auto* err = std::get_if<std::string>(&room)) {
            std::cerr << "senet-server: game " << id << " does not replay: " << *err << '\n';
            continue;
        }
        auto r = std::get<std::shared_ptr<Room>>(room);
        {
            std::lock_guard lock(mutex_);
            rooms_[id] = r;
            countRooms();
        }
        r->kick();
        ++restored;
    }
    return restored;
}

void Registry::countRooms() { services_.metrics.roomsLoaded.store(static_cast<std::int64_t>(rooms_.size())); }

std::vector<Registry::Idle> Registry::idleRooms(std::chrono::milliseconds quiet,
                                                std::optional<std::chrono::milliseconds> expiry) {
    std::vector<Idle> candidates, found;
    {
        std::lock_guard lock(mutex_);
        // Held by the map alone: no session, task or lookup has it now.
        for (const auto& [id, room] : rooms_)
            if (room.use_count() == 1) candidates.push_back(Idle{id, room, 0, false});
    }
    // Each room's lock without the registry's (the lock order above).
    for (Idle& idle : candidates) {
        idle.uses = idle.room->uses();  // before the check: a later use makes stillIdle false
        if (!idle.room->unloadable(quiet)) continue;
        idle.expired = expiry && idle.room->idleFor(*expiry);
        found.push_back(std::move(idle));
    }
    return found;
}

bool Registry::stillIdle(const Idle& idle) const {
    const auto it = rooms_.find(idle.id);
    return it != rooms_.end() && it->second == idle.room && idle.room.use_count() == 2 && idle.room->uses() == idle.uses;
}

SweepResult Registry::sweep(std::chrono::milliseconds unloadAfter) {
    SweepResult out;
    const auto expiry = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::hours(24) * services_.config.expireDays);
    std::vector<std::string> unloaded;
    // The rooms dropped are destroyed after the loop, when the last reference (Idle's) goes:
    // outside the mutex.
    for (const Idle& idle : idleRooms(unloadAfter, expiry)) {
        std::lock_guard lock(mutex_);
        if (!stillIdle(idle)) continue;  // taken into use meanwhile: the next sweep looks again
        if (idle.expired) {
            // Under the mutex, before the room leaves: no lookup loads the game meanwhile.
            try {
                services_.storage.expireGame(idle.id);
            } catch (const StorageError& e) {
                std::cerr << "senet-server: game " << idle.id << ": expiry could not be saved: " << e.what() << '\n';
                continue;  // stays in memory, unchanged; the next sweep tries again
            }
            ++out.expired;
        } else {
            ++out.unloaded;
        }
        unloaded.push_back(idle.id);
        rooms_.erase(idle.id);
    }
    {
        std::lock_guard lock(mutex_);
        countRooms();
    }
    if (shared_)
        for (const auto& id : unloaded) release(id);
    return out;
}

}  // namespace senet::server
