// One game in play: the engine's Game (the only judge of the rules), its seats and secrets,
// its fair throws, its writes and the order of its messages, and the rules of the conversation
// in PROTOCOL.md. Its connections are its Audience (audience.hpp), the frames of its state are
// built by StateFrames (state_frames.hpp). Thread-safe: every public method locks the room's
// mutex. No networking types here.
#pragma once

#include <atomic>
#include <deque>
#include <mutex>
#include <set>
#include <variant>

#include <nlohmann/json_fwd.hpp>

#include "audience.hpp"
#include "phrases.hpp"
#include "protocol.hpp"
#include "senet/game.hpp"
#include "senet/rng.hpp"
#include "services.hpp"
#include "socket_target.hpp"
#include "state_frames.hpp"
#include "storage.hpp"

namespace senet::server {

/// How POST /api/games/{id}/join went.
enum class JoinStatus { Joined, BadInvite, Full, Over };

/// The answer to POST /api/games/{id}/join.
struct JoinOutcome {
    JoinStatus status = JoinStatus::Full;
    int seat = 1;        ///< the seat taken: whichever the creator left free (Joined only)
    std::string secret;  ///< the new seat secret (Joined only)
    std::string commitment;  ///< SHA-256 of the server seed, hex (Joined only)
};

/// How POST /api/games/{id}/invite went.
enum class InviteStatus {
    Found,      ///< `token` is the unused invite
    BadSecret,  ///< the secret holds no seat of this game
    NoInvite,   ///< not a friend game, or one whose invite cannot be derived again (older games)
    Full,       ///< both seats are taken
    Over        ///< the game ended before the friend joined
};

/// The answer to POST /api/games/{id}/invite.
struct InviteOutcome {
    InviteStatus status = InviteStatus::BadSecret;
    std::string token;  ///< the invite token (Found only)
};

/// A game with its seats and connections.
class Room : public SocketTarget, public std::enable_shared_from_this<Room> {
public:
    /// A room for `row` whose game has already replayed `actions` (see restore). Use restore/create.
    Room(Services& services, GameRow row, Game game, std::int64_t ply, std::int64_t throwIndex);

    /// Rebuilds a room from storage by replaying its actions through the engine. An error
    /// message when the stored actions do not replay (the game is then not served).
    static std::variant<std::shared_ptr<Room>, std::string> restore(Services& services, GameRow row,
                                                                      const std::vector<ActionRow>& actions);

    /// The game's id.
    const std::string& id() const { return row_.id; }
    /// The game's ruleset.
    RulesetId rulesetId() const { return game_.rules().id; }
    /// SHA-256 of the server seed, hex: fixed at creation, so read without the room's lock.
    const std::string& commitment() const { return commitment_; }
    /// Whether the game has ended (any way).
    bool over() const;
    /// Whether the game is unfinished and has had no action for `idle`.
    bool idleFor(std::chrono::milliseconds idle) const;
    /// Whether the room may leave memory: no connection attached, no computer decision pending
    /// and no action for `quiet`. Its game stays in storage; the next lookup restores it.
    bool unloadable(std::chrono::milliseconds quiet) const;
    /// How many times the room was taken into use (a connection attached, its computer's turn
    /// kicked). Read without the room's lock: the registry checks, under its own lock, that a
    /// room it found unloadable was not taken into use since (Registry::sweep).
    std::uint64_t uses() const { return uses_.load(); }
    /// Counts the game out of the running games if it leaves memory unfinished.
    ~Room();

    /// Registers a connection (it holds no seat until its hello). `key` identifies it in detach/handle.
    void attach(Peer* key, std::weak_ptr<Peer> peer) override;
    /// Forgets a connection; updates presence.
    void detach(Peer* key) override;
    /// Parses one frame (protocol::parse) and handles it, or answers its parse error.
    void receive(Peer* key, std::string_view frame, std::chrono::steady_clock::time_point received) override;
    /// Applies one parsed client message from `key`; `received` is when its frame arrived.
    void handle(Peer* key, const protocol::ClientMessage& message, std::chrono::steady_clock::time_point received);
    /// Answers a message that failed to parse (counts it, sends the error).
    void reject(Peer* key, const protocol::ParseError& error) override;

    /// Lobby games (PROTOCOL.md "Lobby"): the guest names of seat 0 and 1, kept in memory
    /// and shown in the state's `seats[i].name` as text; `bots`: which seats a program holds
    /// (PROTOCOL.md "Bots"), shown as `seats[i].bot` and kept in the record's `bots`.
    /// `abortAtMs` (Unix ms, 0 none): the room aborts itself then unless it has started, at
    /// whichever instance holds it. All three are kept with the game by a shared store
    /// (Storage::setGuests) for the instance that loads it next. Throws StorageError.
    void setGuestNames(std::array<std::string, 2> names, std::array<bool, 2> bots = {}, std::int64_t abortAtMs = 0);
    /// Whether the game has had its first throw.
    bool started() const;
    /// Whether seat `seat` has said hello with its secret (its client seed is fixed).
    bool seatCame(int seat) const;
    /// Ends a game that has had no throw yet with no winner, reason "aborted", stored and
    /// broadcast like any ending. False (nothing changed) when it has started or is over, or
    /// when the result could not be stored. Throws nothing.
    bool abortUnstarted();

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
    /// Sends the spectator count changes of the last interval (Audience::flushWatchers); run on
    /// the scheduler when the audience asks for it.
    void flushWatchers();

private:
    using PeerState = Audience::PeerState;
    /// How a game ends: the result JSON and its parts.
    struct Ending {
        std::optional<int> winner;
        std::optional<std::int64_t> player;
        std::string reason;
        std::string json;    ///< the result as the state shows it
        std::string stored;  ///< as stored: `json` with the phrase counts of a friend game
    };

    /// over() with the lock held.
    bool overLocked() const { return !resultText_.empty(); }
    /// A friend game one of whose seats is free.
    bool waiting() const;
    /// Before the first throw, while a seat's client seed is not fixed.
    bool seedsPending() const;
    /// Whether the computer holds `seat`.
    bool isComputer(int seat) const { return seatKindOf(row_.seatHashes[seat]) == SeatKind::Computer; }
    /// Whether `seat` is the computer's or has a connection.
    bool online(int seat) const;
    /// What the state (PROTOCOL.md "Snapshot" without record and you) is written from.
    StateFields fields() const;
    /// The state object as a JSON tree (for summary).
    nlohmann::json state() const;
    /// The player number of `seat`, nullopt during Jéquier's opening.
    std::optional<std::int64_t> playerOfSeat(int seat) const;
    /// Sends `p` its snapshot; from then on it gets events frames (p.synced).
    void sendSnapshot(PeerState& p);
    /// Sends the events frame of `events` to every connection that holds the state (synced).
    void broadcast(const Events& events);
    /// Sends `p` the `error` message `code` (PROTOCOL.md "Error codes") and counts it.
    void error(PeerState& p, std::string_view code, std::string_view message);
    /// The seat `p` acts for: its seat, or in a local game (both seats) the seat to act.
    int actingSeat(const PeerState& p) const;

    /// hello: takes the seats its secret holds (or watches), fixes their seeds, answers the
    /// snapshot (after the `watchers` count).
    void onHello(PeerState& p, const protocol::Hello& h);
    /// Fixes the client seed of each of `p`'s seats that has none (p.seed), storing each first.
    /// False (and `storage` sent to `p`) when a write failed.
    bool fixSeeds(PeerState& p, Events& events);
    /// A message of a connection that said hello: throw, move, resign, claim or rematch.
    void onAction(PeerState& p, const protocol::ClientMessage& message, std::chrono::steady_clock::time_point received);
    /// After a connection left: withdraws the rematch offer of each seat that has no connection
    /// now (the `rematch-withdrawn` event added to `events`).
    void withdrawOffersOfAbsent(Events& events);
    /// Whether `seat` of a rematch has not said hello in it yet (its client seed is not fixed):
    /// it accepted nothing of this game, so no claim runs against it.
    bool neverCameToRematch(int seat) const;
    /// rematch from `p` (acting for seat `mine`): offers it, or creates the rematch once both seats asked.
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
    /// One action of the game as it stands (take-backs removed): a throw ('t', its outcome) or
    /// a move ('m', its text), and the seat that made it.
    struct Played {
        char kind = 't';
        int outcome = 0;
        std::string move;
        int seat = 0;
    };
    /// A take-back as the record shows it: the plies left, and how many it undid.
    struct TakeBackMark {
        std::int64_t plies = 0;
        std::int64_t undone = 0;
    };
    /// The game of `id` after `played`, replayed from the start; why not, when it does not replay.
    static std::variant<Game, std::string> replayPlayed(RulesetId id, const std::vector<Played>& played);
    /// How many of played_ a take-back undoes now (from the last move of a human seat on); 0: none.
    std::size_t takeBackCount() const;
    /// Whether the seat to act may take back now (state member `takeback`).
    bool canTakeBack() const;
    /// takeback from `p`: refuses it, or stores it and replays the game without the undone actions.
    void onTakeBack(PeerState& p, const protocol::TakeBack& request, std::chrono::steady_clock::time_point received);
    /// hint from `p` (room_hint.cpp): refuses it, answers the cached list of this ply, or starts
    /// its computation on the scheduler (one per ply) and answers once it is done.
    void onHint(PeerState& p, const protocol::HintRequest& request);
    /// The hint computed for `ply` off the lock: caches it, marks the decision hinted and
    /// answers every connection that asked, unless the game moved on meanwhile.
    void hintComputed(std::int64_t ply, std::optional<std::string> moves, std::string failure);
    /// Whether the move about to be made (the record's next ply) was hinted.
    bool nextPlyHinted() const { return hinted_.count(static_cast<std::int64_t>(game_.record().plies.size())) > 0; }
    /// Drops the hint marks of plies a take-back undid (those beyond the record's `plies`).
    /// throwIndex_ and lastThrowSeat_ from played_.
    void noteReplayed();
    /// phrase from `p`: relays it to both players' connections (PROTOCOL.md "Quick phrases") or refuses it.
    void onPhrase(PeerState& p, const protocol::PhraseRequest& request);
    /// The ending of `game` (its board result when reason is "bear-off"); `stored` carries the
    /// phrase counts of a friend game.
    Ending endingOf(const Game& game, std::optional<int> winner, std::string reason) const;
    /// Ends the game by resignation or claim once the result is stored. False when the write failed.
    bool endGame(std::optional<int> winner, std::string reason, Events& events, PeerState* p);
    /// Marks the stored ending in memory and adds the `result` event (the server seed revealed).
    void commitEnding(const Ending& ending, Events& events);
    /// After a stored throw or move was applied: broadcasts `events`, counts it and its latency
    /// since `received`, and schedules the computer if its turn is next.
    void afterAction(const Events& events, std::chrono::steady_clock::time_point received);
    /// Queues the computer's decision on the scheduler if it is due and none is queued.
    void scheduleComputer();
    /// Runs flushWatchers on the scheduler after `delay` (the audience's request).
    void scheduleWatchersFlush(std::chrono::milliseconds delay);
    /// evict() with the lock held.
    void evictLocked();
    /// A write of `what` met LeaseLost: logs it, evicts the room and tells the registry
    /// (Services::leaseLost). Called with the lock held; every write path that catches LeaseLost calls it.
    void onLeaseLost(std::string_view what, const std::exception& e);
    /// The computer's decision at `expectedPly` (room_computer.cpp): the search outside the lock.
    void computerAct(std::int64_t expectedPly);
    /// Whether `p` may throw or move at `ply` now; else the error (and for a stale ply a snapshot) went to `p`.
    bool checkAction(PeerState& p, std::int64_t ply);

    /// The room's lock. On release it lets go of the connections the room referenced while
    /// sending, after unlocking: a connection's last reference may be one of them, and its
    /// destructor detaches from this room (which takes the lock).
    class Guard {
    public:
        explicit Guard(const Room& room) : room_(room), lock_(room.mutex_) {}
        ~Guard() {
            auto released = room_.audience_.takeHeld();
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
    std::atomic<std::uint64_t> uses_{0};  ///< see uses(); counted under mutex_
    GameRow row_;
    Game game_;
    std::int64_t ply_ = 0;
    std::int64_t throwIndex_ = 0;
    std::string resultText_;  ///< the result JSON once over (row_.result as stored), "" while playing
    Audience audience_;       ///< the connections
    StateFrames frames_;      ///< the events and snapshot frames of the state
    std::array<bool, 2> rematchOffered_{};
    std::array<std::string, 2> guestNames_{};  ///< lobby games only; "" otherwise
    std::array<bool, 2> bots_{};               ///< lobby games: the seats a program holds
    std::int64_t abortAtMs_ = 0;               ///< lobby games of a shared store: the unstarted abort's time (Unix ms)
    bool abortArmed_ = false;                  ///< its timer is set
    /// Sets the timer of the unstarted abort (abortAtMs_), unless set, started or over. Under the lock.
    void armAbort();
    std::vector<Played> played_;          ///< the game's actions as it stands (take-backs removed)
    std::vector<TakeBackMark> takebacks_;  ///< the take-backs, in order (the record's `takebacks`)
    /// The record's plies (0-based) whose decision was shown a hint: the index of the next ply
    /// once a hint went out, kept with its move (a stored move's outcome 1), dropped when a
    /// take-back undoes that ply. The record's `hints` are those below its ply count.
    std::set<std::int64_t> hinted_;
    /// The hint of one ply (room_hint.cpp): computed once, answered to every request at that ply.
    struct HintCache {
        std::int64_t ply = -1;       ///< the action number it is for; -1 none
        bool computing = false;      ///< queued on the scheduler, not yet done
        std::string frame;           ///< the `hint` frame once computed
        std::vector<Peer*> waiting;  ///< the connections that asked while it was computed
    };
    HintCache hint_;
    PhraseLimiter phraseLimiter_;                ///< the phrases' rate limit per seat
    std::array<std::int64_t, 2> phraseCounts_{};  ///< phrases each seat sent before the end (since loaded; stored with the result)
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
    std::string commitment_;  ///< SHA-256 of the server seed, hex (fixed at creation)
};

}  // namespace senet::server
