// The shared state of the server: every game room by id, creation of games and rematches,
// restoring unfinished games at start. Thread-safe.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "room.hpp"

namespace senet::server {

/// What POST /api/games asks for (already validated).
struct CreateRequest {
    RulesetId ruleset = RulesetId::Standard;
    Opponent opponent = Opponent::Friend;
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

/// Thrown by Registry::find when another instance holds the game's live lease (server/README.md
/// "Several instances"): the request is to be tried again in a moment (HTTP 503 `moved` with
/// Retry-After), by when the lease has expired or the owner has handed the game on.
struct GameElsewhere : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// What one round of Registry::renewLeases did.
struct LeaseRound {
    int held = 0;      ///< rooms in memory whose lease was renewed
    int lost = 0;      ///< rooms dropped: another instance took their game over
    int released = 0;  ///< rooms nobody was connected to, handed on (shared store only)
};

/// What a game id lookup found.
enum class LookupStatus { Found, Unknown, Expired };

/// A game id lookup.
struct Lookup {
    LookupStatus status = LookupStatus::Unknown;
    std::shared_ptr<Room> room;  ///< the room (Found only)
};

/// What one sweep of the rooms in memory did.
struct SweepResult {
    int unloaded = 0;  ///< rooms dropped from memory (still in storage)
    int expired = 0;   ///< unfinished games idle longer than the configured days, marked expired
};

/// All rooms. Holds the services every room uses.
///
/// Lock order: a room's lock may be held while the registry's mutex is taken (a room's write
/// that met LeaseLost drops it, a rematch registers the new room), never the reverse: under
/// its mutex the registry takes no room's lock. What it does to rooms it finds under the mutex
/// (evict, the sweep's checks, kick) it does after releasing it.
class Registry {
public:
    /// `services.createRematch` is set by the registry itself. Every room reads the time of its
    /// limits (grace period, idle and unload times) from `clock`: the steady clock unless a test
    /// injects its own.
    /// `sharedStore`: other instances use the same storage (PostgreSQL), so a game is served only
    /// under its lease (config.instance, config.leaseTtl): created games are handed on at once
    /// (nginx routes their players by game id), unused rooms are handed on after a lease ttl,
    /// and restoreAll loads nothing. Lease times are Unix ms advanced by `clock`.
    Registry(Storage& storage, Metrics& metrics, Scheduler& scheduler, const Config& config, Clock& clock = steadyClock(),
             bool sharedStore = false);

    /// Restores every unfinished game from storage (expiring those idle longer than the
    /// configured days). Returns how many were restored; problems are printed to stderr.
    int restoreAll();
    /// Routes the rooms' throws and moves through `queue` (group commit); null: written at once.
    /// Set before serving; the queue must outlive every room.
    void setCommitQueue(CommitQueue* queue) { services_.commits = queue; }
    /// The exact values (endgame tables) the computer's expert uses; null: none. Set before
    /// serving; they must outlive every room.
    void setExactValues(const ai::ExactValues* exact) { services_.exact = exact; }
    /// Creates and stores a game. Throws StorageError (nothing stored or registered), or
    /// BusyError for a computer game while --ai-queue computer decisions are queued.
    Created create(const CreateRequest& request);
    /// Finds a game in memory or storage. A game not in memory is loaded under its lease: throws
    /// GameElsewhere when another instance holds it (and notes the id for takeOver), StorageError
    /// when the store fails.
    Lookup find(const std::string& id);
    /// With a shared store: drops the room of `id` from memory and releases its lease, so that
    /// the instance nginx sends its players to takes it at once (the lobby's games, made where
    /// the second seeker was connected). Nothing with a store of one instance. Throws nothing.
    void handOn(const std::string& id);
    /// The stored row of `id`, read without loading or leasing the game; nullopt for an unknown id.
    /// Throws StorageError.
    std::optional<GameRow> peek(const std::string& id);
    /// Renews the lease of every room in memory in one Storage::renewLeases call (run every
    /// third of the lease ttl); drops the rooms whose game another instance took over, closing
    /// their connections with the "moved" code. With a shared store, also hands on the rooms
    /// nobody has used for a lease ttl (releases their lease). Throws StorageError (then nothing
    /// was renewed and nothing dropped).
    LeaseRound renewLeases();
    /// Takes over the games clients asked this instance for while another instance held them,
    /// as soon as their lease is free or expired (Storage::orphanedGames, then acquireLease), and
    /// restores them into memory. Returns how many. Throws StorageError.
    int takeOver();
    /// At a clean stop, after the last write (the I/O threads, the computer and the commit
    /// queue stopped): gives up the lease of every room in memory, so that the instance nginx
    /// sends the games to next takes them at once instead of after a lease ttl. Stops trying at
    /// `deadline` (the remaining leases simply expire). Returns how many rooms' leases it gave up
    /// (one this instance had already lost counts too); 0 without a shared store. Never throws (a failure is logged).
    int releaseAll(std::chrono::steady_clock::time_point deadline);
    /// Unix ms on the lease clock (the wall clock at construction, advanced by the registry's clock).
    std::int64_t leaseNowMs() const;
    /// Drops from memory the rooms nobody uses (no connection, nothing pending, no action for
    /// `unloadAfter`); a later lookup restores them from storage. Unfinished games among them
    /// idle longer than the configured days are marked expired instead. Throws StorageError.
    SweepResult sweep(std::chrono::milliseconds unloadAfter);
    /// Whether `id` has the shape of a game id (22 base64url characters).
    static bool plausibleId(std::string_view id);

private:
    std::shared_ptr<Room> add(GameRow row);
    std::string rematchOf(const GameRow& finished);
    GameRow newRow(RulesetId ruleset, Opponent opponent, const std::string& level);
    /// A room found able to leave memory (idleRooms).
    struct Idle {
        std::string id;               ///< its game's id
        std::shared_ptr<Room> room;   ///< the room (a reference besides the map's)
        std::uint64_t uses = 0;  ///< room->uses() before it was found unloadable
        bool expired = false;    ///< unfinished and idle for the expiry time too
    };
    /// The rooms that only the map holds and that are unloadable after `quiet` (Room::unloadable),
    /// each with whether it is idle for `expiry` (when given). Takes mutex_ only to copy the
    /// rooms held by the map alone, then asks each room under its own lock, without mutex_.
    std::vector<Idle> idleRooms(std::chrono::milliseconds quiet, std::optional<std::chrono::milliseconds> expiry);
    /// With mutex_ held (and no room's lock): whether `idle` may still leave: the map holds that
    /// very room, nobody else holds it (only `idle` itself), and it was not taken into use since
    /// it was found. Nobody can take it while mutex_ is held, so this stays true until it is erased.
    bool stillIdle(const Idle& idle) const;
    /// Publishes the number of rooms in memory; the caller holds mutex_.
    void countRooms();
    /// Takes the lease of `id` and restores the game into memory. nullptr (and `elsewhere` set)
    /// when another instance holds it; nullptr when it is gone or does not replay.
    std::shared_ptr<Room> acquireAndRestore(const std::string& id, bool& elsewhere);
    /// Forgets `room` (the room of `id`) after its lease was lost. Takes only mutex_.
    void dropMoved(const std::string& id, const Room* room);
    /// Gives up the lease of `id`, logging a failure (the lease then simply expires).
    void release(const std::string& id);

    Services services_;
    std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
    const bool shared_;
    const std::int64_t wallBaseMs_;
    const Clock::time_point steadyBase_;
    /// Games asked for while another instance held them: id → lease time of the last ask (under mutex_).
    std::unordered_map<std::string, std::int64_t> wanted_;
    /// Games whose idle room was dropped and whose lease is being released (renewLeases): a
    /// lookup meanwhile is told to try again, rather than load the game under that very lease.
    std::unordered_set<std::string> releasing_;
};

}  // namespace senet::server
