// The registry's part in running several instances on one shared store (server/README.md,
// "Several instances"): a game is loaded only under its lease, leases are renewed in one call,
// rooms whose lease was lost leave, unused rooms are handed on, and games clients asked for
// while another instance held them are taken over once that lease has expired.
#include <iostream>
#include <unordered_set>

#include "config.hpp"
#include "log_limit.hpp"
#include "metrics.hpp"
#include "registry.hpp"

namespace senet::server {

namespace {

/// How long a game asked for stays on the takeover list without being asked for again.
constexpr std::int64_t kWantedForMs = 60'000;

}  // namespace

std::int64_t Registry::leaseNowMs() const {
    return wallBaseMs_ + std::chrono::duration_cast<std::chrono::milliseconds>(services_.clock.now() - steadyBase_).count();
}

std::shared_ptr<Room> Registry::acquireAndRestore(const std::string& id, bool& elsewhere) {
    elsewhere = false;
    const std::int64_t now = leaseNowMs();
    const auto epoch = services_.storage.acquireLease(id, services_.config.instance, now, services_.config.leaseTtl.count());
    if (!epoch) {
        elsewhere = true;
        services_.metrics.leaseRefusals.fetch_add(1, std::memory_order_relaxed);
        std::lock_guard lock(mutex_);
        wanted_[id] = now;
        return nullptr;
    }
    services_.metrics.leaseAcquisitions.fetch_add(1, std::memory_order_relaxed);
    {
        std::lock_guard lock(mutex_);
        if (wanted_.erase(id)) services_.metrics.leaseTakeovers.fetch_add(1, std::memory_order_relaxed);
    }
    // Read after the lease is ours: every write of the previous owner is in, and no later one
    // of it can be (its epoch is stale).
    auto row = services_.storage.loadGame(id);
    if (!row) {
        release(id);
        return nullptr;
    }
    auto restored = Room::restore(services_, *row, services_.storage.loadActions(id));
    if (auto* err = std::get_if<std::string>(&restored)) {
        std::cerr << "senet-server: game " << id << " does not replay: " << *err << '\n';
        if (shared_) release(id);
        return nullptr;
    }
    std::shared_ptr<Room> room;
    bool inserted = false;
    {
        std::lock_guard lock(mutex_);
        auto [it, fresh] = rooms_.emplace(id, std::get<std::shared_ptr<Room>>(restored));
        countRooms();
        room = it->second;
        inserted = fresh;
    }
    if (inserted) room->kick();  // a computer's turn that was due when it was unloaded or taken over
    return room;
}

void Registry::dropMoved(const std::string& id, const Room* room) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end() || it->second.get() != room) return;
    rooms_.erase(it);
    countRooms();
    services_.metrics.leasesLost.fetch_add(1, std::memory_order_relaxed);
}

void Registry::handOn(const std::string& id) {
    if (!shared_) return;
    std::shared_ptr<Room> room;  // destroyed outside the registry's mutex
    {
        std::lock_guard lock(mutex_);
        const auto it = rooms_.find(id);
        if (it == rooms_.end()) return;
        room = std::move(it->second);
        rooms_.erase(it);
        releasing_.insert(id);
        countRooms();
    }
    release(id);
    std::lock_guard lock(mutex_);
    releasing_.erase(id);
}

void Registry::release(const std::string& id) {
    try {
        services_.storage.releaseLease(id, services_.config.instance);
    } catch (const StorageError& e) {
        logLimited("lease", "game " + id + ": the lease could not be released (it will expire): " + e.what());
    }
}

LeaseRound Registry::renewLeases() {
    LeaseRound out;
    std::vector<std::string> held;
    {
        std::lock_guard lock(mutex_);
        held.reserve(rooms_.size());
        for (const auto& [id, room] : rooms_) held.push_back(id);
    }
    out.held = static_cast<int>(held.size());
    const auto lost = services_.storage.renewLeases(services_.config.instance, held, leaseNowMs(),
                                                    services_.config.leaseTtl.count());
    for (const std::string& id : lost) {
        std::shared_ptr<Room> room;
        {
            std::lock_guard lock(mutex_);
            if (auto it = rooms_.find(id); it != rooms_.end()) {
                room = std::move(it->second);
                rooms_.erase(it);
                countRooms();
            }
        }
        if (!room) continue;
        // Outside the registry's mutex: evict takes the room's lock.
        room->evict();
        services_.metrics.leasesLost.fetch_add(1, std::memory_order_relaxed);
        ++out.lost;
    }
    if (!shared_) return out;
    // Hand on what nobody uses: nginx may send this game's players to another instance (the
    // creator's, after a failover, after this instance came back), which waits for the lease.
    std::vector<std::string> idle;
    for (const Idle& room : idleRooms(services_.config.leaseTtl, std::nullopt)) {
        std::lock_guard lock(mutex_);
        if (!stillIdle(room)) continue;  // taken into use meanwhile (see sweep)
        idle.push_back(room.id);
        releasing_.insert(room.id);
        rooms_.erase(room.id);
    }
    {
        std::lock_guard lock(mutex_);
        countRooms();
        const std::int64_t cutoff = leaseNowMs() - kWantedForMs;
        std::erase_if(wanted_, [&](const auto& w) { return w.second < cutoff; });
    }
    for (const auto& id : idle) {
        release(id);
        std::lock_guard lock(mutex_);
        releasing_.erase(id);
    }
    out.released = static_cast<int>(idle.size());
    return out;
}

int Registry::releaseAll(std::chrono::steady_clock::time_point deadline) {
    if (!shared_) return 0;
    std::vector<std::string> held;
    {
        std::lock_guard lock(mutex_);
        held.reserve(rooms_.size());
        for (const auto& [id, room] : rooms_) held.push_back(id);
    }
    int released = 0;
    for (const std::string& id : held) {
        if (std::chrono::steady_clock::now() >= deadline) break;
        try {
            services_.storage.releaseLease(id, services_.config.instance);
            ++released;
        } catch (const std::exception& e) {
            logLimited("lease", "game " + id + ": the lease could not be released (it will expire): " + e.what());
        }
    }
    return released;
}

int Registry::takeOver() {
    std::unordered_set<std::string> wanted;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, at] : wanted_)
            if (!rooms_.count(id)) wanted.insert(id);
    }
    if (wanted.empty()) return 0;
    int taken = 0;
    for (const std::string& id : services_.storage.orphanedGames(leaseNowMs(), 10'000)) {
        if (!wanted.count(id)) continue;
        {
            std::lock_guard lock(mutex_);
            if (rooms_.count(id) || releasing_.count(id)) continue;  // a lookup loaded it meanwhile, or it is being handed on
        }
        bool elsewhere = false;
        if (acquireAndRestore(id, elsewhere)) ++taken;
    }
    return taken;
}

}  // namespace senet::server
