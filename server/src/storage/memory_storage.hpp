// Two Storage implementations that tests and fuzzers build on: an in-memory store (no file,
// same contract as SQLite: each write either happens whole or throws StorageError), and a
// decorator that makes chosen writes fail, to test that a failed write changes nothing.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>

#include "forwarding_storage.hpp"
#include "storage.hpp"

namespace senet::server {

/// Games and actions in memory. Thread-safe. Used by the fuzzers and in-process tests; the
/// server itself always runs on a database.
class MemoryStorage final : public Storage {
public:
    void createGame(const GameRow& game) override;
    bool takeSeat(const std::string& id, int seat, const std::string& hash) override;
    void setClientSeed(const std::string& id, int seat, const std::string& seed) override;
    void appendAction(const std::string& id, const ActionRow& action) override;
    void appendFinalAction(const std::string& id, const ActionRow& action, const std::string& resultJson) override;
    void finishGame(const std::string& id, const std::string& resultJson) override;
    void setRematch(const std::string& id, const std::string& rematchId) override;
    void expireGame(const std::string& id) override;
    std::optional<GameRow> loadGame(const std::string& id) override;
    std::vector<ActionRow> loadActions(const std::string& id) override;
    std::vector<std::string> unfinishedGames() override;

    // Leases, kept for real so that tests can run several registries on one store (through a
    // MemoryInstance each). Writes made on the MemoryStorage itself are not fenced. A game nobody
    // has leased yet counts as held by whoever renews it (a single instance's created games).
    std::optional<std::int64_t> acquireLease(const std::string& id, const std::string& instance, std::int64_t nowMs,
                                             std::int64_t ttlMs) override;
    std::vector<std::string> renewLeases(const std::string& instance, const std::vector<std::string>& held, std::int64_t nowMs,
                                         std::int64_t ttlMs) override;
    void releaseLease(const std::string& id, const std::string& instance) override;
    std::vector<std::string> orphanedGames(std::int64_t nowMs, std::size_t limit) override;
    /// Runs `write` (which may call this store's methods) atomically with the check that `epoch`
    /// is still the epoch of `id`'s lease (0: never leased); throws LeaseLost, writing nothing, otherwise.
    void fenced(const std::string& id, std::int64_t epoch, const std::function<void()>& write);

private:
    struct Lease {
        std::string owner;  ///< "" when free
        std::int64_t epoch = 0;
        std::int64_t expiresMs = 0;
    };
    GameRow& row(const std::string& id);  ///< throws StorageError for an unknown id
    /// Checks that `action` is the next of `id`; throws StorageError otherwise. Caller holds mutex_.
    std::vector<ActionRow>& nextActions(const std::string& id, const ActionRow& action);
    std::recursive_mutex mutex_;  ///< recursive: fenced() holds it around a write that takes it again
    std::map<std::string, GameRow> games_;
    std::map<std::string, std::vector<ActionRow>> actions_;
    std::map<std::string, Lease> leases_;
};

/// One instance's connection to a MemoryStorage that several registries share in one process
/// (tests of several instances), as a PostgreSQL connection would be: it keeps the epoch of each
/// lease it acquired and fences every write with it, so a write to a game another instance took
/// over throws LeaseLost and changes nothing. Reads and the other lease calls pass through.
/// Thread-safe.
class MemoryInstance final : public ForwardingStorage {
public:
    explicit MemoryInstance(MemoryStorage& shared) : ForwardingStorage(shared), shared_(shared) {}

    void createGame(const GameRow& game) override;
    bool takeSeat(const std::string& id, int seat, const std::string& hash) override;
    void setClientSeed(const std::string& id, int seat, const std::string& seed) override;
    void appendAction(const std::string& id, const ActionRow& action) override;
    void appendFinalAction(const std::string& id, const ActionRow& action, const std::string& resultJson) override;
    /// Item by item through the fenced appendAction / appendFinalAction (never unfenced to the shared store).
    std::vector<std::exception_ptr> appendBatch(const std::vector<BatchedAction>& batch) override {
        return Storage::appendBatch(batch);
    }
    void finishGame(const std::string& id, const std::string& resultJson) override;
    void setRematch(const std::string& id, const std::string& rematchId) override;
    void expireGame(const std::string& id) override;
    std::optional<std::int64_t> acquireLease(const std::string& id, const std::string& instance, std::int64_t nowMs,
                                             std::int64_t ttlMs) override;

private:
    /// The epoch this connection acquired for `id` (0: none).
    std::int64_t epoch(const std::string& id);
    MemoryStorage& shared_;
    std::mutex mutex_;
    std::map<std::string, std::int64_t> epochs_;
};

/// The kinds of write, for fault injection. Batch: one appendBatch (one transaction); Lease:
/// acquireLease, renewLeases or releaseLease.
enum class WriteKind { Create, TakeSeat, ClientSeed, Action, FinalAction, Finish, Rematch, Expire, Batch, Lease };

/// Wraps a Storage and fails writes on demand: a failing write throws StorageError before it
/// reaches the wrapped storage, so nothing of it is stored; a failing appendBatch reports that
/// error for every item (as a failed commit would) and stores none. Reads always pass through.
/// Thread-safe.
class FaultyStorage final : public ForwardingStorage {
public:
    explicit FaultyStorage(Storage& inner) : ForwardingStorage(inner) {}
    /// Fails every write for which `fail(kind, n)` is true; `n` counts writes from 1 (all kinds;
    /// a batch counts one). An empty function lets every write through.
    void setFault(std::function<bool(WriteKind, std::int64_t)> fail);
    /// Fails the `k`-th write from now on (1 = the next one), then lets writes through again.
    void failNth(std::int64_t k);
    /// Fails every write until setFault({}) (a full disk).
    void failAll();
    /// Writes attempted so far (failed ones included).
    std::int64_t writes() const { return writes_.load(); }

    void createGame(const GameRow& game) override;
    bool takeSeat(const std::string& id, int seat, const std::string& hash) override;
    void setClientSeed(const std::string& id, int seat, const std::string& seed) override;
    void appendAction(const std::string& id, const ActionRow& action) override;
    void appendFinalAction(const std::string& id, const ActionRow& action, const std::string& resultJson) override;
    std::vector<std::exception_ptr> appendBatch(const std::vector<BatchedAction>& batch) override;
    void finishGame(const std::string& id, const std::string& resultJson) override;
    void setRematch(const std::string& id, const std::string& rematchId) override;
    void expireGame(const std::string& id) override;
    std::optional<std::int64_t> acquireLease(const std::string& id, const std::string& instance, std::int64_t nowMs,
                                             std::int64_t ttlMs) override;
    std::vector<std::string> renewLeases(const std::string& instance, const std::vector<std::string>& held, std::int64_t nowMs,
                                         std::int64_t ttlMs) override;
    void releaseLease(const std::string& id, const std::string& instance) override;

private:
    void check(WriteKind kind);
    std::mutex mutex_;
    std::function<bool(WriteKind, std::int64_t)> fail_;
    std::atomic<std::int64_t> writes_{0};
};

}  // namespace senet::server
