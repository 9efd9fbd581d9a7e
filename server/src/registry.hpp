// The shared state of the server: every game room by id, creation of games and rematches,
// restoring unfinished games at start. Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "room.hpp"

namespace senet::server {

/// What POST /api/games asks for (already validated).
struct CreateRequest {
    RulesetId ruleset = RulesetId::Standard;
    std::string opponent = "friend";  ///< "friend" | "computer" | "local"
    int creatorSeat = 0;              ///< 0 or 1 (already resolved from "random")
    std::string level;                ///< computer level name, "" otherwise
};

/// A created game's credentials (shown once, never stored in the clear).
struct Created {
    std::string id;
    std::string secret;       ///< the creator's seat secret
    std::string inviteToken;  ///< friend games only, "" otherwise
    std::vector<int> seats;   ///< the creator's seats
    std::string commitment;   ///< SHA-256 of the server seed, hex: published before any client seed
};

/// Thrown by Registry::create when the computer's queue is full (API: 503 `busy`).
struct BusyError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A game id lookup.
struct Lookup {
    enum Status { Found, Unknown, Expired } status = Unknown;
    std::shared_ptr<Room> room;
};

/// What one sweep of the rooms in memory did.
struct SweepResult {
    int unloaded = 0;  ///< rooms dropped from memory (still in storage)
    int expired = 0;   ///< unfinished games idle longer than the configured days, marked expired
};

/// All rooms. Holds the services every room uses.
class Registry {
public:
    /// `services.createRematch` is set by the registry itself. Every room reads the time of its
    /// limits (grace period, idle and unload times) from `clock`: the steady clock unless a test
    /// injects its own.
    Registry(Storage& storage, Metrics& metrics, Scheduler& scheduler, const Config& config, Clock& clock = steadyClock());

    /// Restores every unfinished game from storage (expiring those idle longer than the
    /// configured days). Returns how many were restored; problems are printed to stderr.
    int restoreAll();
    /// Routes the rooms' throws and moves through `queue` (group commit); null: written at once.
    /// Set before serving; the queue must outlive every room.
    void setCommitQueue(CommitQueue* queue) { services_.commits = queue; }
    /// Creates and stores a game. Throws StorageError (nothing stored or registered), or
    /// BusyError for a computer game while --ai-queue computer decisions are queued.
    Created create(const CreateRequest& request);
    /// Finds a game in memory or storage.
    Lookup find(const std::string& id);
    /// Drops from memory the rooms nobody uses (no connection, nothing pending, no action for
    /// `unloadAfter`); a later lookup restores them from storage. Unfinished games among them
    /// idle longer than the configured days are marked expired instead. Throws StorageError.
    SweepResult sweep(std::chrono::milliseconds unloadAfter);
    /// Whether `id` has the shape of a game id (22 base64url characters).
    static bool plausibleId(std::string_view id);

private:
    std::shared_ptr<Room> add(GameRow row);
    std::string rematchOf(const GameRow& finished);
    GameRow newRow(RulesetId ruleset, const std::string& opponent, const std::string& level);
    /// Publishes the number of rooms in memory; the caller holds mutex_.
    void countRooms();

    Services services_;
    std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
};

}  // namespace senet::server
