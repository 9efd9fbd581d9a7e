// One game in play: the engine's Game (the only judge of the rules), its seats and secrets,
// its fair throws, its connected peers, and the rules of the conversation in PROTOCOL.md.
// Thread-safe: every public method locks the room's mutex. No networking types here.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "state_json.hpp"
#include "clock.hpp"
#include "commit_queue.hpp"
#include "config.hpp"
#include "json_out.hpp"
#include "metrics.hpp"
#include "protocol.hpp"
#include "senet/game.hpp"
#include "senet/rng.hpp"
#include "storage.hpp"

namespace senet::server {

/// A connection that receives text frames (a WebSocket session). `send` is thread-safe and
/// never blocks: it queues the frame.
class Peer {
public:
    virtual ~Peer() = default;
    /// Queues one text frame for the client.
    virtual void send(std::shared_ptr<const std::string> frame) = 0;
    /// Closes the connection with a WebSocket close `code` and `reason` (thread-safe, never
    /// blocks); frames queued before it still go out first. The default does nothing.
    virtual void closeWith(std::uint16_t code, const std::string& reason) { (void)code, (void)reason; }
};

/// The close code of a connection whose game moved to another instance (PROTOCOL.md): the
/// client reconnects at once and says hello again; nothing it was told is lost.
inline constexpr std::uint16_t kMovedCloseCode = 4001;

/// Runs work later on a thread that may block (the computer's decisions).
class Scheduler {
public:
    virtual ~Scheduler() = default;
    /// Calls `fn` once after `delay` (0 = as soon as possible), on a worker thread.
    virtual void after(std::chrono::milliseconds delay, std::function<void()> fn) = 0;
    /// Tasks queued and not yet started (0 when unknown).
    virtual std::size_t pending() const { return 0; }
};

class Room;

/// A log line let through at most once per interval, counting the occurrences in between (the
/// computer's "queue busy" line, room_computer.cpp). Times are milliseconds of Services::clock.
struct LogLimit {
    std::atomic<std::int64_t> count{0};  ///< occurrences not yet reported in a line
    std::atomic<std::int64_t> lastMs{std::numeric_limits<std::int64_t>::min() / 2};  ///< when the last line went out
};

/// What every room uses. Outlives every room.
struct Services {
    Storage& storage;
    Metrics& metrics;
    Scheduler& scheduler;
    const Config& config;
    /// Creates, stores and registers the rematch of a finished game (sides swapped) and returns its id.
    /// Throws StorageError.
    std::function<std::string(const GameRow& finished)> createRematch;
    /// The time of the room's limits (claim grace period, idle and unload times); the steady
    /// clock unless a test injects another (manual_clock.hpp).
    Clock& clock = steadyClock();
    /// The "computer queue busy" line's limit: once per 10 s of `clock`, per registry.
    LogLimit busyLog{};
    /// Group commit of throws and moves (commit_queue.hpp); null: each is written at once on
    /// the calling thread. Must outlive every room's pending write.
    CommitQueue* commits = nullptr;
    /// Called (under the room's lock) when a write of `room` met LeaseLost: the registry drops
    /// it from memory. Takes only the registry's mutex. Empty: nothing is called.
    std::function<void(const std::string& id, const Room* room)> leaseLost{};
};

/// The answer to POST /api/games/{id}/join.
struct JoinOutcome {
    enum Status { Joined, BadInvite, Full, Over } status = Full;
    int seat = 1;        ///< the seat taken: whichever the creator left free (Joined only)
    std::string secret;  ///< the new seat secret (Joined only)
    std::string commitment;  ///< SHA-256 of the server seed, hex (Joined only)
};

/// The answer to POST /api/games/{id}/invite.
struct InviteOutcome {
    enum Status {
        Found,      ///< `token` is the unused invite
        BadSecret,  ///< the secret holds no seat of this game
        NoInvite,   ///< not a friend game, or one whose invite cannot be derived again (older games)
        Full,       ///< both seats are taken
        Over        ///< the game ended before the friend joined
    } status = BadSecret;
    std::string token;
};

/// A game with its seats and connections.
class Room : public std::enable_shared_from_this<Room> {
public:
    /// A room for `row` whose game has already replayed `actions` (see restore). Use restore/create.
    Room(Services& services, GameRow row, Game game, std::int64_t ply, std::int64_t throwIndex);

    /// Rebuilds a room from storage by replaying its actions through the engine. An error
    /// message when the stored actions do not replay (the game is then not served).
    static std::variant<std::shared_ptr<Room>, std::string> restore(Services& services, GameRow row,
                                                                      const std::vector<ActionRow>& actions);

    const std::string& id() const { return row_.id; }
    RulesetId rulesetId() const { return game_.rules().id; }
    /// Whether the game has ended (any way).
    bool over() const;
    /// Whether the game is unfinished and has had no action for `idle`.
    bool idleFor(std::chrono::milliseconds idle) const;
    /// Whether the room may leave memory: no connection attached, no computer decision pending
    /// and no action for `quiet`. Its game stays in storage; the next lookup restores it.
    bool unloadable(std::chrono::milliseconds quiet) const;
    ~Room();

    /// Registers a connection (it holds no seat until its hello). `key` identifies it in detach/handle.
    void attach(Peer* key, std::weak_ptr<Peer> peer);
    /// Forgets a connection; updates presence.
    void detach(Peer* key);
    /// Applies one parsed client message from `key`; `received` is when its frame arrived.
    void handle(Peer* key, const protocol::ClientMessage& message, std::chrono::steady_clock::time_point received);
    /// Answers a message that failed to parse (counts it, sends the error).
    void reject(Peer* key, const protocol::ParseError& error);

    /// Takes the free seat of a friend game (seat 0 or 1, whichever the creator left) with the
    /// invite token. The seat is taken only once its write is stored: a StorageError leaves
    /// it free and is thrown to the caller.
    JoinOutcome join(const std::string& inviteToken);
    /// The unused invite token for the holder of `seatSecret`, while the other seat is free
    /// (derived again from the secret: invite.hpp). Changes nothing.
    InviteOutcome invite(const std::string& seatSecret) const;
    /// The public summary served by GET /api/games/{id}.
    nlohmann::json summary() const;
    /// The verifiable record (PROTOCOL.md) of a finished game; nullopt while it is being played.
    std::optional<std::string> verifiableRecord() const;
    /// Starts the computer's turn if it is due (after creation or restore).
    void kick();
    /// The game moved to another instance (its lease was lost): closes every connection with
    /// kMovedCloseCode; the room ignores later messages and closes later connections at once.
    void evict();
    /// Whether evict() ran (or a write met LeaseLost).
    bool moved() const;

private:
    struct PeerState {
        std::weak_ptr<Peer> peer;
        unsigned seats = 0;  ///< bit s: holds seat s
        bool hello = false;
        /// Holds the game state: received the snapshot answering its last hello. Only such a
        /// connection gets events frames (they carry what changed since its last frame).
        bool synced = false;
        /// The client seed this connection offers for its seats (its hello's, or one drawn for
        /// it): kept to fix the seed again if its write failed.
        std::optional<std::string> seed;
    };
    /// How a game ends: the result JSON and its parts.
    struct Ending {
        std::optional<int> winner;
        std::optional<std::int64_t> player;
        std::string reason;
        std::string json;
    };
    /// The events of one message (PROTOCOL.md "Events"), serialised in order as they happen.
    class Events {
    public:
        /// Starts the next event object; it is closed when the returned writer is destroyed.
        jsonout::Object add() {
            if (!text_.empty()) text_ += ',';
            return jsonout::Object(text_);
        }
        bool empty() const { return text_.empty(); }
        /// The events joined by commas (the inside of the JSON array).
        const std::string& text() const { return text_; }

    private:
        std::string text_;
    };

    bool overLocked() const { return result_.has_value(); }
    /// A friend game one of whose seats is free.
    bool waiting() const;
    /// Before the first throw, while a seat's client seed is not fixed.
    bool seedsPending() const;
    bool isComputer(int seat) const { return row_.seatHashes[seat] == "computer"; }
    bool online(int seat) const;
    /// Appends the state (PROTOCOL.md: the snapshot without `record` and `you`) as JSON.
    /// Appends the state object (PROTOCOL.md "Snapshot" without record and you); with `marks`,
    /// records where its members start.
    void writeState(std::string& out, StateMarks* marks = nullptr) const;
    nlohmann::json state() const;
    /// The snapshot frame for `p`, shared by every connection holding the same seats until the
    /// state changes (a broadcast clears the cache).
    std::shared_ptr<const std::string> snapshotFor(const PeerState& p) const;
    /// The player number of `seat`, nullopt during Jéquier's opening.
    std::optional<std::int64_t> playerOfSeat(int seat) const;
    /// Sends a frame to `p` if it is still connected (the reference taken is released by Guard).
    void deliver(const PeerState& p, std::shared_ptr<const std::string> frame) const;
    void sendTo(const PeerState& p, std::string frame) const;
    /// Sends `p` its snapshot; from then on it gets events frames (p.synced).
    void sendSnapshot(PeerState& p);
    /// Sends the events frame of `events` to every connection that holds the state (synced).
    void broadcast(const Events& events);
    void error(PeerState& p, std::string_view code, std::string_view message);
    void setSeats(PeerState& p, unsigned seats, Events& events);
    /// Adds `delta` to the spectator count; when it changed, sends the `watchers` message to
    /// every connection that said hello but `except`.
    void countWatchers(int delta, const PeerState* except);
    /// The `watchers` message with the current count (built once per count).
    std::shared_ptr<const std::string> watchersFrame() const;
    int actingSeat(const PeerState& p) const;

    void onHello(PeerState& p, const protocol::Hello& h);
    /// Fixes the client seed of each of `p`'s seats that has none (p.seed), storing each first.
    /// False (and `storage` sent to `p`) when a write failed.
    bool fixSeeds(PeerState& p, Events& events);
    void onAction(PeerState& p, const protocol::ClientMessage& message, std::chrono::steady_clock::time_point received);
    void onRematch(PeerState& p, int mine);
    /// Runs one storage write. False (and `storage` sent to `p`, or logged for the computer)
    /// when it failed: the caller then changes nothing. Every write of a room goes through here.
    bool stored(PeerState* p, std::string_view what, const std::function<void()>& write);
    /// Draws a throw for `seat`, stores it (with the result when it ends the game) and once
    /// stored applies and broadcasts it (afterAction). False when refused at once (nothing
    /// changed); on a failed write `failed` runs (under the lock) and nothing changes.
    bool doThrow(int seat, PeerState* p, std::chrono::steady_clock::time_point received, std::function<void()> failed = {});
    /// The same for a move; also false when the move is not legal.
    bool doMove(int seat, Move move, PeerState* p, std::chrono::steady_clock::time_point received,
                std::function<void()> failed = {});
    /// Stores one action and then runs `apply`, or `failed` (after `storage` went to `p`) when
    /// the write failed. Without a commit queue both happen before it returns; with one, the
    /// room is `pending_` until the batch committed and its messages wait (deferred_).
    void commitAction(PeerState* p, const char* what, BatchedAction write, std::function<void()> apply,
                      std::function<void()> failed);
    /// The handling of one message under the lock (handle, or a deferred one).
    void handleLocked(Peer* key, const protocol::ClientMessage& message, std::chrono::steady_clock::time_point received);
    /// Handles the messages deferred while a write was pending, until the next write is pending.
    void runDeferred();
    /// The ending of `game` (its board result when reason is "bear-off").
    static Ending endingOf(const Game& game, std::optional<int> winner, std::string reason);
    /// Ends the game by resignation or claim once the result is stored. False when the write failed.
    bool endGame(std::optional<int> winner, std::string reason, Events& events, PeerState* p);
    /// Marks the stored ending in memory and adds the `result` event (the server seed revealed).
    void commitEnding(const Ending& ending, Events& events);
    void afterAction(const Events& events, std::chrono::steady_clock::time_point received);
    void scheduleComputer();
    /// evict() with the lock held.
    void evictLocked();
    /// A write of `what` met LeaseLost: logs it, evicts the room and tells the registry
    /// (Services::leaseLost). Called with the lock held; every write path that catches LeaseLost calls it.
    void onLeaseLost(std::string_view what, const std::exception& e);
    void computerAct(std::int64_t expectedPly);
    bool checkAction(PeerState& p, std::int64_t ply);

    /// The room's lock. On release it lets go of the connections the room referenced while
    /// sending, after unlocking: a connection's last reference may be one of them, and its
    /// destructor detaches from this room (which takes the lock).
    class Guard {
    public:
        explicit Guard(const Room& room) : room_(room), lock_(room.mutex_) {}
        ~Guard() {
            std::vector<std::shared_ptr<Peer>> released;
            released.swap(room_.held_);
            lock_.unlock();
        }
        Guard(const Guard&) = delete;
        Guard& operator=(const Guard&) = delete;

    private:
        const Room& room_;
        std::unique_lock<std::mutex> lock_;
    };

    Services& services_;
    mutable std::mutex mutex_;
    mutable std::vector<std::shared_ptr<Peer>> held_;  ///< connections sent to under the lock (see Guard)
    GameRow row_;
    Game game_;
    std::int64_t ply_ = 0;
    std::int64_t throwIndex_ = 0;
    std::optional<nlohmann::json> result_;
    std::string resultText_;  ///< result_ serialised
    std::unordered_map<Peer*, PeerState> peers_;
    std::array<int, 2> connections_{};
    int watchers_ = 0;  ///< connections that said hello and hold no seat (spectators)
    mutable std::shared_ptr<const std::string> watchersFrame_;  ///< {"t":"watchers",...} for watchers_
    std::array<std::chrono::steady_clock::time_point, 2> offlineSince_{};
    std::array<bool, 2> rematchOffered_{};
    std::chrono::steady_clock::time_point lastAction_;
    bool computerScheduled_ = false;
    /// An action is waiting in the commit queue: nothing else is handled until it is stored.
    bool pending_ = false;
    /// A message that arrived while an action was pending, handled in order after it.
    struct Deferred {
        Peer* key;
        protocol::ClientMessage message;
        std::chrono::steady_clock::time_point received;
    };
    std::deque<Deferred> deferred_;
    bool moved_ = false;  ///< the game's lease was lost: see evict()
    std::chrono::steady_clock::time_point computerDue_;  ///< when the scheduled decision should start
    int lastThrowSeat_ = 0;
    Rng rng_;
    std::string commitment_;        ///< SHA-256 of the server seed, hex (fixed at creation)
    std::size_t frameSize_ = 2048;  ///< capacity to reserve for the next events frame
    // The state every connection that said hello holds: the last events frame's full state.
    // The next events frame sends only the members that differ from it (PROTOCOL.md "events").
    std::string sentState_, spareState_;
    StateMarks sentMarks_;
    mutable bool sendAllMembers_ = true;  ///< a snapshot went out at a state no events frame sent
    mutable std::array<std::shared_ptr<const std::string>, 4> snapshots_;  ///< by seats bitmask; cleared on change
};

}  // namespace senet::server
