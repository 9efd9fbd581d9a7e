#include "commit_queue.hpp"

#include <algorithm>
#include <iostream>

namespace senet::server {

CommitQueue::CommitQueue(Storage& storage, std::size_t maxBatch)
    : storage_(storage), maxBatch_(std::max<std::size_t>(1, maxBatch)), thread_([this] { run(); }) {}

CommitQueue::~CommitQueue() { stop(); }

void CommitQueue::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && !thread_.joinable()) return;
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void CommitQueue::submit(BatchedAction write, Done done) {
    {
        std::lock_guard lock(mutex_);
        if (!stopping_) {
            queue_.push_back(Item{std::move(write), std::move(done)});
            if (queue_.size() == 1) wake_.notify_one();
            return;
        }
    }
    done(std::make_exception_ptr(StorageError("the server is stopping; the action was not stored")));
}

CommitQueue::Stats CommitQueue::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

void CommitQueue::run() {
    std::vector<Item> items;
    std::vector<BatchedAction> batch;
    while (true) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping and drained
            if (queue_.size() <= maxBatch_) {
                items.swap(queue_);
            } else {
                items.assign(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.begin() + static_cast<std::ptrdiff_t>(maxBatch_)));
                queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(maxBatch_));
            }
        }
        batch.clear();
        batch.reserve(items.size());
        for (Item& i : items) batch.push_back(std::move(i.write));
        std::vector<std::exception_ptr> errors;
        try {
            errors = storage_.appendBatch(batch);
        } catch (...) {
            // appendBatch reports per item; anything thrown fails the whole batch.
            errors.assign(batch.size(), std::current_exception());
        }
        errors.resize(batch.size());
        {
            std::lock_guard lock(mutex_);
            ++stats_.batches;
            stats_.items += items.size();
            stats_.largest = std::max<std::uint64_t>(stats_.largest, items.size());
        }
        for (std::size_t k = 0; k < items.size(); ++k) {
            try {
                items[k].done(errors[k]);
            } catch (const std::exception& e) {
                std::cerr << "senet-server: commit completion failed: " << e.what() << std::endl;
            } catch (...) {
                std::cerr << "senet-server: commit completion failed" << std::endl;
            }
        }
        items.clear();
        storage_.maintain();  // after the replies: a fold delays the next batch, not this one
    }
}

}  // namespace senet::server
