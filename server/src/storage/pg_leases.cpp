// The PostgreSQL Storage: games' leases (owner instance, fencing epoch, expiry) and batches of
// actions in one transaction (group commit).
#include <algorithm>

#include "pg_storage.hpp"

namespace senet::server::pg {

namespace {

/// A PostgreSQL array literal of `items` ({"a","b"}), each quoted and escaped.
template <class T>
std::string arrayLiteral(const std::vector<T>& items) {
    std::string out = "{";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ',';
        if constexpr (std::is_same_v<T, std::string>) {
            out += '"';
            for (char c : items[i]) {
                if (c == '"' || c == '\\') out += '\\';
                out += c;
            }
            out += '"';
        } else {
            out += std::to_string(items[i]);
        }
    }
    return out + "}";
}

}  // namespace

std::optional<std::int64_t> PgStorage::tryAcquire(Session& s, const std::string& id, const std::string& instance,
                                                  std::int64_t nowMs, std::int64_t ttlMs) {
    const std::int64_t known = instance == options_.instance ? heldEpoch(id).value_or(-1) : -1;
    const pqxx::result r = s.run("acquire", id, instance, nowMs, ttlMs, known);
    if (r.empty()) return std::nullopt;
    return r[0][0].as<std::int64_t>();
}

std::optional<std::int64_t> PgStorage::acquireLease(const std::string& id, const std::string& instance, std::int64_t nowMs,
                                                    std::int64_t ttlMs) {
    Timed t(options_.metrics);
    if (ttlMs <= 0) throw StorageError("postgresql: a lease needs a positive time");
    requireName<StorageError>();
    Session s(pool_);
    if (auto epoch = tryAcquire(s, id, instance, nowMs, ttlMs)) {
        if (instance == options_.instance) remember(id, *epoch);
        return epoch;
    }
    if (s.run("lease_of", id).empty()) throw StorageError("postgresql: no game " + id);
    if (instance == options_.instance) forget(id);
    return std::nullopt;
}

std::vector<std::string> PgStorage::renewLeases(const std::string& instance, const std::vector<std::string>& held,
                                                std::int64_t nowMs, std::int64_t ttlMs) {
    Timed t(options_.metrics);
    if (ttlMs <= 0) throw StorageError("postgresql: a lease needs a positive time");
    if (instanceLock_ && instanceLock_->lost() && instance == options_.instance) {
        // Another process has this instance's name now: none of these leases is this one's.
        for (const std::string& id : held) forget(id);
        return held;
    }
    std::vector<std::string> lost, ids;
    std::vector<std::int64_t> epochs;
    for (const std::string& id : held) {
        const auto epoch = instance == options_.instance ? heldEpoch(id) : std::nullopt;
        if (!epoch) {
            lost.push_back(id);  // never acquired here (or already lost)
            continue;
        }
        ids.push_back(id);
        epochs.push_back(*epoch);
    }
    if (!ids.empty()) {
        Session s(pool_);
        std::vector<std::string> renewed;
        for (const auto& row : s.run("renew", instance, nowMs + ttlMs, arrayLiteral(ids), arrayLiteral(epochs)))
            renewed.push_back(row[0].as<std::string>());
        std::sort(renewed.begin(), renewed.end());
        for (const std::string& id : ids)
            if (!std::binary_search(renewed.begin(), renewed.end(), id)) {
                forget(id);
                lost.push_back(id);
            }
    }
    return lost;
}

void PgStorage::releaseLease(const std::string& id, const std::string& instance) {
    Timed t(options_.metrics);
    const auto epoch = instance == options_.instance ? heldEpoch(id) : std::nullopt;
    if (instance == options_.instance) forget(id);
    if (!epoch) return;  // nothing held: nothing to give up
    Session s(pool_);
    s.run("release", id, instance, *epoch);
}

std::vector<std::string> PgStorage::orphanedGames(std::int64_t nowMs, std::size_t limit) {
    Timed t(options_.metrics);
    Session s(pool_);
    std::vector<std::string> out;
    const auto capped = static_cast<std::int64_t>(std::min<std::size_t>(limit, 1u << 30));
    for (const auto& row : s.run("orphaned", nowMs, capped)) out.push_back(row[0].as<std::string>());
    return out;
}

std::vector<std::exception_ptr> PgStorage::appendBatch(const std::vector<BatchedAction>& batch) {
    Timed t(options_.metrics);
    std::vector<std::exception_ptr> errors(batch.size());
    if (batch.empty()) return errors;
    // Round trips: one item is one statement (1). More: BEGIN, then per item SAVEPOINT and the
    // statement (and ROLLBACK TO SAVEPOINT when it fails), then COMMIT: 2 + 2/N per action.
    std::vector<std::int64_t> epochs(batch.size(), -1);
    for (std::size_t i = 0; i < batch.size(); ++i) {
        try {
            epochs[i] = requireEpoch(batch[i].gameId);
        } catch (const StorageError&) {
            errors[i] = std::current_exception();
        }
    }
    const auto refused = static_cast<std::size_t>(std::count(epochs.begin(), epochs.end(), -1));
    if (refused == batch.size()) return errors;
    std::vector<bool> written(batch.size(), false);
    // Written in the order of the games' ids (a game's own writes in their order): each write
    // locks its game's row until COMMIT, and renewLeases locks rows in that order too, so the
    // two never deadlock (PostgreSQL would abort one after deadlock_timeout).
    std::vector<std::size_t> order(batch.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return batch[x].gameId < batch[y].gameId; });
    try {
        Session s(pool_);
        const bool single = batch.size() - refused == 1;
        if (!single) s.begin();
        for (const std::size_t i : order) {
            if (errors[i]) continue;
            if (!single) s.savepoint();
            try {
                writeAction(s, batch[i].gameId, epochs[i], batch[i].action, batch[i].resultJson);
                written[i] = true;
            } catch (const StorageError&) {
                errors[i] = std::current_exception();
                if (!single) s.rollbackToSavepoint();  // this item only; the transaction goes on
            }
        }
        if (!single) s.commit();
    } catch (const StorageError&) {
        // The transaction itself failed (connection, COMMIT): none of its items is durable.
        for (std::size_t i = 0; i < batch.size(); ++i)
            if (written[i] || !errors[i]) errors[i] = std::current_exception();
    }
    return errors;
}

}  // namespace senet::server::pg
