// Group commit: rooms hand their action writes to one queue; a writer thread takes every write
// waiting and stores them with one Storage::appendBatch (one transaction), then tells each room
// whether its write is durable. A room applies and broadcasts an action only after that.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "storage.hpp"

namespace senet::server {

/// A writer thread committing the queued actions of many games in one transaction.
/// Thread-safe. Per game, writes are committed in the order they were submitted (a room submits
/// its next action only after the previous one's completion).
class CommitQueue {
public:
    /// Called once per submitted write on the writer thread after its batch: a null pointer when
    /// the write is durable, else the StorageError (or LeaseLost) that left it unwritten.
    using Done = std::function<void(std::exception_ptr)>;

    /// Counters for /metrics and tests.
    struct Stats {
        std::uint64_t batches = 0;   ///< appendBatch calls
        std::uint64_t items = 0;     ///< writes committed or failed
        std::uint64_t largest = 0;   ///< the largest batch
    };

    /// Starts the writer thread over `storage` (which must outlive this queue). `maxBatch` caps
    /// one transaction's writes.
    explicit CommitQueue(Storage& storage, std::size_t maxBatch = 1024);
    /// Commits what is queued, runs its completions, and stops the thread.
    ~CommitQueue();
    CommitQueue(const CommitQueue&) = delete;
    CommitQueue& operator=(const CommitQueue&) = delete;

    /// Queues one write; `done` runs on the writer thread after the batch holding it. Never
    /// blocks on storage. After stop() the write is refused: `done` gets a StorageError at once.
    void submit(BatchedAction write, Done done);
    /// Commits what is queued and stops the thread (idempotent).
    void stop();
    /// A copy of the counters.
    Stats stats() const;

private:
    void run();

    struct Item {
        BatchedAction write;
        Done done;
    };
    Storage& storage_;
    const std::size_t maxBatch_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<Item> queue_;
    bool stopping_ = false;
    Stats stats_;
    std::thread thread_;
};

}  // namespace senet::server
