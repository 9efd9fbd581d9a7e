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
    g.status = "over";
    g.result = resultJson;
}

void MemoryStorage::finishGame(const std::string& id, const std::string& resultJson) {
    std::lock_guard lock(mutex_);
    GameRow& g = row(id);
    g.status = "over";
    g.result = resultJson;
}

void MemoryStorage::setRematch(const std::string& id, const std::string& rematchId) {
    std::lock_guard lock(mutex_);
    row(id).rematch = rematchId;
}

void MemoryStorage::expireGame(const std::string& id) {
    std::lock_guard lock(mutex_);
    GameRow& g = row(id);
    if (g.status == "playing") g.status = "expired";
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
        if (g.status == "playing") out.push_back(id);
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
    inner_.createGame(game);
}
bool FaultyStorage::takeSeat(const std::string& id, int seat, const std::string& hash) {
    check(WriteKind::TakeSeat);
    return inner_.takeSeat(id, seat, hash);
}
void FaultyStorage::setClientSeed(const std::string& id, int seat, const std::string& seed) {
    check(WriteKind::ClientSeed);
    inner_.setClientSeed(id, seat, seed);
}
void FaultyStorage::appendAction(const std::string& id, const ActionRow& action) {
    check(WriteKind::Action);
    inner_.appendAction(id, action);
}
void FaultyStorage::appendFinalAction(const std::string& id, const ActionRow& action, const std::string& resultJson) {
    check(WriteKind::FinalAction);
    inner_.appendFinalAction(id, action, resultJson);
}
void FaultyStorage::finishGame(const std::string& id, const std::string& resultJson) {
    check(WriteKind::Finish);
    inner_.finishGame(id, resultJson);
}
void FaultyStorage::setRematch(const std::string& id, const std::string& rematchId) {
    check(WriteKind::Rematch);
    inner_.setRematch(id, rematchId);
}
void FaultyStorage::expireGame(const std::string& id) {
    check(WriteKind::Expire);
    inner_.expireGame(id);
}

}  // namespace senet::server
