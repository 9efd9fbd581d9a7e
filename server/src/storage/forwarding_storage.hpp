// A Storage that forwards every call to another one: the base of decorators (fault injection,
// one instance's view of a shared store) that change a few calls and pass the rest through.
#pragma once

#include "storage.hpp"

namespace senet::server {

/// Forwards every Storage method to `inner` unchanged (appendBatch to the inner store's own,
/// so that its group commit is kept). A derived class overrides what it changes. A method
/// added to Storage must be forwarded here too. Thread-safe when `inner` is.
class ForwardingStorage : public Storage {
public:
    explicit ForwardingStorage(Storage& inner) : inner_(inner) {}

    void createGame(const GameRow& game) override { inner_.createGame(game); }
    bool takeSeat(const std::string& id, int seat, const std::string& hash) override { return inner_.takeSeat(id, seat, hash); }
    void setClientSeed(const std::string& id, int seat, const std::string& seed) override {
        inner_.setClientSeed(id, seat, seed);
    }
    void setGuests(const std::string& id, const std::string& guests) override { inner_.setGuests(id, guests); }
    void appendAction(const std::string& id, const ActionRow& action) override { inner_.appendAction(id, action); }
    void appendFinalAction(const std::string& id, const ActionRow& action, const std::string& resultJson) override {
        inner_.appendFinalAction(id, action, resultJson);
    }
    std::vector<std::exception_ptr> appendBatch(const std::vector<BatchedAction>& batch) override {
        return inner_.appendBatch(batch);
    }
    void finishGame(const std::string& id, const std::string& resultJson) override { inner_.finishGame(id, resultJson); }
    void setRematch(const std::string& id, const std::string& rematchId) override { inner_.setRematch(id, rematchId); }
    void expireGame(const std::string& id) override { inner_.expireGame(id); }
    std::optional<GameRow> loadGame(const std::string& id) override { return inner_.loadGame(id); }
    std::vector<ActionRow> loadActions(const std::string& id) override { return inner_.loadActions(id); }
    std::vector<std::string> unfinishedGames() override { return inner_.unfinishedGames(); }
    void maintain() override { inner_.maintain(); }
    std::optional<std::int64_t> acquireLease(const std::string& id, const std::string& instance, std::int64_t nowMs,
                                             std::int64_t ttlMs) override {
        return inner_.acquireLease(id, instance, nowMs, ttlMs);
    }
    std::vector<std::string> renewLeases(const std::string& instance, const std::vector<std::string>& held, std::int64_t nowMs,
                                         std::int64_t ttlMs) override {
        return inner_.renewLeases(instance, held, nowMs, ttlMs);
    }
    void releaseLease(const std::string& id, const std::string& instance) override { inner_.releaseLease(id, instance); }
    std::vector<std::string> orphanedGames(std::int64_t nowMs, std::size_t limit) override {
        return inner_.orphanedGames(nowMs, limit);
    }
    std::string health() override { return inner_.health(); }

protected:
    Storage& inner() { return inner_; }

private:
    Storage& inner_;
};

}  // namespace senet::server
