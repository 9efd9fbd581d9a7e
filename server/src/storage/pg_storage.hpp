// The PostgreSQL backend of Storage (internal; openPostgresStorage in storage.hpp makes one).
// Games' rows and actions in pg_storage.cpp, leases and batches in pg_leases.cpp.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "pg_instance.hpp"
#include "pg_pool.hpp"
#include "storage.hpp"

namespace senet::server::pg {

class PgStorage final : public Storage {
public:
    PgStorage(const std::string& url, const PostgresOptions& options);

    void createGame(const GameRow& game) override;
    bool takeSeat(const std::string& id, int seat, const std::string& hash) override;
    void setClientSeed(const std::string& id, int seat, const std::string& seed) override;
    void setGuests(const std::string& id, const std::string& guests) override;
    void appendAction(const std::string& id, const ActionRow& action) override;
    void appendFinalAction(const std::string& id, const ActionRow& action, const std::string& resultJson) override;
    std::vector<std::exception_ptr> appendBatch(const std::vector<BatchedAction>& batch) override;
    void finishGame(const std::string& id, const std::string& resultJson) override;
    void setRematch(const std::string& id, const std::string& rematchId) override;
    void expireGame(const std::string& id) override;
    std::optional<GameRow> loadGame(const std::string& id) override;
    std::vector<ActionRow> loadActions(const std::string& id) override;
    std::vector<std::string> unfinishedGames() override;

    std::optional<std::int64_t> acquireLease(const std::string& id, const std::string& instance, std::int64_t nowMs,
                                             std::int64_t ttlMs) override;
    std::vector<std::string> renewLeases(const std::string& instance, const std::vector<std::string>& held,
                                         std::int64_t nowMs, std::int64_t ttlMs) override;
    void releaseLease(const std::string& id, const std::string& instance) override;
    std::vector<std::string> orphanedGames(std::int64_t nowMs, std::size_t limit) override;
    /// One round trip: on the instance name's own connection (retaking the name after a lost
    /// connection), or on a pooled one without it.
    std::string health() override;

private:
    /// Times one Storage call into the metrics (when given).
    class Timed {
    public:
        explicit Timed(Metrics* m) : metrics_(m), start_(std::chrono::steady_clock::now()) {}
        ~Timed();

    private:
        Metrics* metrics_;
        std::chrono::steady_clock::time_point start_;
    };

    /// The epoch this store holds for `id`, if any.
    std::optional<std::int64_t> heldEpoch(const std::string& id);
    /// The epoch held for `id`; throws LeaseLost (nothing written) when none is.
    std::int64_t requireEpoch(const std::string& id);
    void remember(const std::string& id, std::int64_t epoch);
    void forget(const std::string& id);
    /// After a fenced write matched no row: throws StorageError when the game does not exist,
    /// LeaseLost (forgetting the epoch) when its epoch is no longer `epoch`; returns otherwise
    /// (the write's other condition did not hold).
    void diagnose(Session& s, const std::string& id, std::int64_t epoch);
    /// The acquire statement: the new epoch, or nullopt when the lease is another's (or the game unknown).
    std::optional<std::int64_t> tryAcquire(Session& s, const std::string& id, const std::string& instance, std::int64_t nowMs,
                                           std::int64_t ttlMs);
    /// One action written by one statement, fenced: throws LeaseLost / StorageError.
    void writeAction(Session& s, const std::string& id, std::int64_t epoch, const ActionRow& a, const std::string& resultJson);

    /// Throws `E` when another process took this instance's name (lockInstance): this store
    /// must write nothing more, its leases may be the other's.
    template <class E>
    void requireName() const {
        if (instanceLock_ && instanceLock_->lost())
            throw E("postgresql: instance " + options_.instance + " lost its name to another process; writes refused");
    }

    PostgresOptions options_;
    Pool pool_;
    std::unique_ptr<InstanceLock> instanceLock_;
    std::mutex epochsMutex_;
    std::unordered_map<std::string, std::int64_t> epochs_;
};

}  // namespace senet::server::pg
