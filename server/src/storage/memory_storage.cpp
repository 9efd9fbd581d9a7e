#include "memory_storage.hpp"

namespace senet::server {

GameRow& MemoryStorage::row(const std::string& id) {
    auto it = games_.find(id);
    if (it == games_.end()) throw StorageError("memory storage: no game " + id);
    return it->second;
}

void MemoryStorage::createGame(const GameRow& game) {
    std::lock_guard lock(mutex_);
    if (games_.count(game.id)) throw StorageError("memory storage: duplicate game id " + game.id);
    GameRow* old = game.rematchOf.empty() ? nullptr : &row(game.rematchOf);  // checked before anything changes
    games_[game.id] = game;
    actions_[game.id];
    if (old) old->rematch = game.id;
}

bool MemoryStorage::takeSeat(const std::string& id, int seat, const std::string& hash) {
    std::lock_guard lock(mutex_);
    GameRow& g = row(id);
    if (seat < 0 || seat > 1) throw StorageError("memory storage: bad seat");
    if (!g.seatHashes[seat].empty()) return false;
    g.seatHashes[seat] = hash;
    return true;
}

void MemoryStorage::setClientSeed(const std::string& id, int seat, const std::string& seed) {
    std::lock_guard lock(mutex_);
    GameRow& g = row(id);
    if (seat < 0 || seat > 1) throw StorageError("memory storage: bad seat");
    g.clientSeeds[seat] = seed;
}

std::vector<ActionRow>& MemoryStorage::nextActions(const std::string& id, const ActionRow& action) {
    row(id);
    auto& list = actions_[id];
    if (action.seq != static_cast<std::int64_t>(list.size()))
        throw StorageError("memory storage: action " + std::to_string(action.seq) + " is not the next one");
    return list;
}

void MemoryStorage::appendAction(const std::string& id, const ActionRow& action) {
    std::lock_guard lock(mutex_);
    nextActions(id, action).push_back(action);
}

void MemoryStorage::appendFinalAction(const std::string& id, const ActionRow& action, const std::string& resultJson) {
    std::lock_guard lock(mutex_);
    nextActions(id, action).push_back(action);
    GameRow& g = row(id);
    g.status = GameStatus::Over;
    g.result = resultJson;
}

void MemoryStorage::finishGame(const std::string& id, const std::string& resultJson) {
    std::lock_guard lock(mutex_);
    GameRow& g = row(id);
    g.status = GameStatus::Over;
    g.result = resultJson;
}

void MemoryStorage::setRematch(const std::string& id, const std::string& rematchId) {
    std::lock_guard lock(mutex_);
    row(id).rematch = rematchId;
}

void MemoryStorage::expireGame(const std::string& id) {
    std::lock_guard lock(mutex_);
    GameRow& g = row(id);
    if (g.status == GameStatus::Playing) g.status = GameStatus::Expired;
}

std::optional<GameRow> MemoryStorage::loadGame(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = games_.find(id);
    if (it == games_.end()) return std::nullopt;
    return it->second;
}

std::vector<ActionRow> MemoryStorage::loadActions(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = actions_.find(id);
    return it == actions_.end() ? std::vector<ActionRow>{} : it->second;
}

std::vector<std::string> MemoryStorage::unfinishedGames() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [id, g] : games_)
        if (g.status == GameStatus::Playing) out.push_back(id);
    return out;
}

void FaultyStorage::setFault(std::function<bool(WriteKind, std::int64_t)> fail) {
    std::lock_guard lock(mutex_);
    fail_ = std::move(fail);
}

void FaultyStorage::failNth(std::int64_t k) {
    const std::int64_t target = writes_.load() + k;
    setFault([target](WriteKind, std::int64_t n) { return n == target; });
}

void FaultyStorage::failAll() {
    setFault([](WriteKind, std::int64_t) { return true; });
}

void FaultyStorage::check(WriteKind kind) {
    const std::int64_t n = ++writes_;
    std::lock_guard lock(mutex_);
    if (fail_ && fail_(kind, n)) throw StorageError("injected fault: write " + std::to_string(n) + " failed (disk full)");
}

void FaultyStorage::createGame(const GameRow& game) {
    check(WriteKind::Create);
    inner().createGame(game);
}
bool FaultyStorage::takeSeat(const std::string& id, int seat, const std::string& hash) {
    check(WriteKind::TakeSeat);
    return inner().takeSeat(id, seat, hash);
}
void FaultyStorage::setClientSeed(const std::string& id, int seat, const std::string& seed) {
    check(WriteKind::ClientSeed);
    inner().setClientSeed(id, seat, seed);
}
void FaultyStorage::appendAction(const std::string& id, const ActionRow& action) {
    check(WriteKind::Action);
    inner().appendAction(id, action);
}
void FaultyStorage::appendFinalAction(const std::string& id, const ActionRow& action, const std::string& resultJson) {
    check(WriteKind::FinalAction);
    inner().appendFinalAction(id, action, resultJson);
}
void FaultyStorage::finishGame(const std::string& id, const std::string& resultJson) {
    check(WriteKind::Finish);
    inner().finishGame(id, resultJson);
}
void FaultyStorage::setRematch(const std::string& id, const std::string& rematchId) {
    check(WriteKind::Rematch);
    inner().setRematch(id, rematchId);
}
void FaultyStorage::expireGame(const std::string& id) {
    check(WriteKind::Expire);
    inner().expireGame(id);
}
std::vector<std::exception_ptr> FaultyStorage::appendBatch(const std::vector<BatchedAction>& batch) {
    try {
        check(WriteKind::Batch);
    } catch (const StorageError&) {
        return std::vector<std::exception_ptr>(batch.size(), std::current_exception());
    }
    return inner().appendBatch(batch);
}
std::optional<std::int64_t> FaultyStorage::acquireLease(const std::string& id, const std::string& instance, std::int64_t nowMs,
                                                        std::int64_t ttlMs) {
    check(WriteKind::Lease);
    return inner().acquireLease(id, instance, nowMs, ttlMs);
}
std::vector<std::string> FaultyStorage::renewLeases(const std::string& instance, const std::vector<std::string>& held,
                                                    std::int64_t nowMs, std::int64_t ttlMs) {
    check(WriteKind::Lease);
    return inner().renewLeases(instance, held, nowMs, ttlMs);
}
void FaultyStorage::releaseLease(const std::string& id, const std::string& instance) {
    check(WriteKind::Lease);
    inner().releaseLease(id, instance);
}

}  // namespace senet::server

namespace senet::server {

std::optional<std::int64_t> MemoryStorage::acquireLease(const std::string& id, const std::string& instance, std::int64_t nowMs,
                                                        std::int64_t ttlMs) {
    std::lock_guard lock(mutex_);
    Lease& l = leases_[id];
    if (!l.owner.empty() && l.owner != instance && l.expiresMs > nowMs) return std::nullopt;
    if (l.owner != instance) ++l.epoch;  // a new holder: the previous one's writes are fenced off
    l.owner = instance;
    l.expiresMs = nowMs + ttlMs;
    return l.epoch;
}

std::vector<std::string> MemoryStorage::renewLeases(const std::string& instance, const std::vector<std::string>& held,
                                                    std::int64_t nowMs, std::int64_t ttlMs) {
    std::lock_guard lock(mutex_);
    std::vector<std::string> lost;
    for (const auto& id : held) {
        auto it = leases_.find(id);
        if (it == leases_.end()) it = leases_.emplace(id, Lease{instance, 0, 0}).first;  // never leased: the renewer's
        if (it->second.owner != instance) {
            lost.push_back(id);
            continue;
        }
        it->second.expiresMs = nowMs + ttlMs;
    }
    return lost;
}

void MemoryStorage::releaseLease(const std::string& id, const std::string& instance) {
    std::lock_guard lock(mutex_);
    auto it = leases_.find(id);
    if (it == leases_.end() || it->second.owner != instance) return;
    it->second.owner.clear();
    it->second.expiresMs = 0;
}

std::vector<std::string> MemoryStorage::orphanedGames(std::int64_t nowMs, std::size_t limit) {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [id, g] : games_) {
        if (out.size() >= limit) break;
        if (g.status != GameStatus::Playing) continue;
        auto it = leases_.find(id);
        if (it == leases_.end() || it->second.owner.empty() || it->second.expiresMs <= nowMs) out.push_back(id);
    }
    return out;
}

void MemoryStorage::fenced(const std::string& id, std::int64_t epoch, const std::function<void()>& write) {
    std::lock_guard lock(mutex_);
    auto it = leases_.find(id);
    const std::int64_t current = it == leases_.end() ? 0 : it->second.epoch;
    if (current != epoch)
        throw LeaseLost("memory storage: game " + id + " is leased at epoch " + std::to_string(current) + ", not " +
                        std::to_string(epoch));
    write();
}

std::int64_t MemoryInstance::epoch(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = epochs_.find(id);
    return it == epochs_.end() ? 0 : it->second;
}

std::optional<std::int64_t> MemoryInstance::acquireLease(const std::string& id, const std::string& instance, std::int64_t nowMs,
                                                         std::int64_t ttlMs) {
    auto e = shared_.acquireLease(id, instance, nowMs, ttlMs);
    if (e) {
        std::lock_guard lock(mutex_);
        epochs_[id] = *e;
    }
    return e;
}

void MemoryInstance::createGame(const GameRow& game) {
    if (game.rematchOf.empty()) return shared_.createGame(game);
    shared_.fenced(game.rematchOf, epoch(game.rematchOf), [&] { shared_.createGame(game); });
}
bool MemoryInstance::takeSeat(const std::string& id, int seat, const std::string& hash) {
    bool taken = false;
    shared_.fenced(id, epoch(id), [&] { taken = shared_.takeSeat(id, seat, hash); });
    return taken;
}
void MemoryInstance::setClientSeed(const std::string& id, int seat, const std::string& seed) {
    shared_.fenced(id, epoch(id), [&] { shared_.setClientSeed(id, seat, seed); });
}
void MemoryInstance::appendAction(const std::string& id, const ActionRow& action) {
    shared_.fenced(id, epoch(id), [&] { shared_.appendAction(id, action); });
}
void MemoryInstance::appendFinalAction(const std::string& id, const ActionRow& action, const std::string& resultJson) {
    shared_.fenced(id, epoch(id), [&] { shared_.appendFinalAction(id, action, resultJson); });
}
void MemoryInstance::finishGame(const std::string& id, const std::string& resultJson) {
    shared_.fenced(id, epoch(id), [&] { shared_.finishGame(id, resultJson); });
}
void MemoryInstance::setRematch(const std::string& id, const std::string& rematchId) {
    shared_.fenced(id, epoch(id), [&] { shared_.setRematch(id, rematchId); });
}
void MemoryInstance::expireGame(const std::string& id) {
    shared_.fenced(id, epoch(id), [&] { shared_.expireGame(id); });
}

}  // namespace senet::server
