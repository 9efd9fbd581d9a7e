// The lobby (PROTOCOL.md "Lobby"): strangers' seeks, first come first served per ruleset, paired
// into ordinary friend games made by the registry; the counts and open seeks every lobby
// connection sees; the 30 s abort of a paired game nobody starts, and its ladder. Alone, an
// instance's seeks pair with each other in process; sharing a database, with the seeks of the
// other instances through a SeekExchange (server/README.md, "The lobby across instances").
// Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <array>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "abort_ladder.hpp"
#include "registry.hpp"
#include "seek_exchange.hpp"
#include "socket_target.hpp"

namespace senet::server::lobby {

/// The lobby's limits.
struct Options {
    int seeksPerAddress = 20;                        ///< --lobby-seeks-per-address
    std::chrono::milliseconds abortAfter{30000};     ///< a paired game with no throw by then is aborted
    std::chrono::milliseconds tick{1000};            ///< the counts' frame at most this often; abort checks
    std::size_t openListMax = 100;                   ///< entries of `open` in the lobby frame
    bool selfTick = true;                            ///< schedule tick() on the scheduler (tests call it themselves)
    /// Games the lobby makes for seekers of one address: a token bucket as --create-rate and
    /// --create-burst for POST /api/games (two sockets of one address pairing each other over
    /// and over must not store games faster than the API would).
    double createRate = 1, createBurst = 20;
};

/// What the lobby has done, for tests, metrics and the benchmark.
struct Stats {
    std::size_t connections = 0;
    std::size_t openSeeks = 0;
    std::uint64_t paired = 0;    ///< games made
    std::uint64_t aborted = 0;   ///< games aborted unstarted
    std::size_t watched = 0;     ///< lobby games whose start or end the lobby still watches
};

/// The seeks and the lobby games of one server process.
class Lobby : public std::enable_shared_from_this<Lobby> {
public:
    /// Games are made through `registry` (as POST /api/games and /join make a friend game); the
    /// ticks run on `scheduler`; every limit's time is read from `clock`.
    Lobby(Registry& registry, Scheduler& scheduler, Clock& clock, Options options);

    /// A new lobby connection from client `address` (per-address limits): the target of its
    /// WebSocket session. The first frame it gets, at attach, is the `lobby` frame.
    std::shared_ptr<SocketTarget> connect(std::string address);
    /// Pairs this lobby's seekers with those of the other instances on `exchange` too (and
    /// starts it): a seeker here is paired with a waiting seek here first, else with the
    /// oldest matching seek of another instance, else its seek is shared. Call once, before
    /// the first connection.
    void share(std::shared_ptr<SeekExchange> exchange);
    /// Stops sharing (the exchange's thread ends and this instance's seeks are withdrawn);
    /// pairing goes on in process. For a stop of the server.
    void stopSharing();
    /// The `lobby` frame's data (and GET /api/lobby's body): counts and open seeks, no secret.
    std::string countsJson();
    /// Sends the counts frame to every connection if they changed since the last one, then
    /// aborts the paired games that had no throw for Options::abortAfter, or notes those that
    /// started or ended. Scheduled every Options::tick while anything is to watch.
    void tick();
    /// Counters now.
    Stats stats() const;
    /// Aborts in a row of `browser` (tests).
    int abortStreak(const std::string& browser) const;

private:
    class Connection;
    friend class Connection;
    /// An open seek.
    struct SeekEntry {
        std::string id;            ///< the handle in `open` (16 base64url characters)
        std::string ruleset;       ///< a ruleset key or "any"
        std::string name;          ///< the guest name
        std::string browser;       ///< "" : none
        std::int64_t sinceMs = 0;  ///< Unix ms
        bool bot = false;          ///< a program's seek (seek `bot`)
        bool bots = false;         ///< may be paired with a bot (seek `bots`)
        Connection* conn = nullptr;
        std::string address;
        bool shared = false;   ///< published on the exchange (and not taken back)
        bool claimed = false;  ///< another instance paired it: its `paired` frame is on the way
    };
    using SeekList = std::list<SeekEntry>;
    /// A lobby connection.
    struct Conn {
        Connection* key = nullptr;
        std::weak_ptr<Peer> peer;
        std::string address;
        std::optional<SeekList::iterator> seek;  ///< its open seek
    };
    /// A lobby game not yet over: its start is awaited until abortAfter, its end for `playing`.
    struct Watched {
        std::string id;
        std::string ruleset;
        std::weak_ptr<Room> room;
        Clock::time_point pairedAt;
        std::array<std::string, 2> browsers;  ///< by seat
        bool started = false;
        /// Handed on (a shared store): its room is wherever its players are; watched through
        /// the stored row (checkAway) from abortAfter on.
        bool away = false;
        Clock::time_point nextCheck{};
    };
    /// What a tick found of a watched game.
    enum class Seen { Playing, Started, Ended, Aborted, Later };
    struct Finding {
        std::string id;
        Seen seen;
        std::array<bool, 2> blamed{};  ///< Aborted: the seats the ladder counts it against
    };
    /// A handed-on game after its abort time: read from storage, loaded and aborted here when no
    /// instance holds it and nobody started it. Without the lobby's lock.
    Finding checkAway(const Watched& g);
    /// A handed-on game is first looked at this long after its abort time (its holder's own
    /// timer aborts it), then every kAwayEvery until it ends.
    static constexpr std::chrono::milliseconds kAwayMargin{3000}, kAwayEvery{5000};
    /// Frames to send once the lock is released (a session's destructor may take the lock).
    struct Outbox {
        std::vector<std::pair<std::shared_ptr<Peer>, std::shared_ptr<const std::string>>> frames;
        void add(const std::weak_ptr<Peer>& peer, std::shared_ptr<const std::string> frame);
        void add(const std::weak_ptr<Peer>& peer, std::string frame) { add(peer, std::make_shared<const std::string>(std::move(frame))); }
        void send();
    };

    void attach(Connection* c, std::weak_ptr<Peer> peer, const std::string& address);
    void detach(Connection* c);
    void receive(Connection* c, std::string_view frame);
    void reject(Connection* c, const protocol::ParseError& error);

    // Under mutex_:
    void onSeek(Conn& c, const protocol::lobby::Seek& s, Outbox& out);
    void onTake(Conn& c, const protocol::lobby::Take& t, Outbox& out);
    /// Withdraws c's seek (also from the exchange). False when another instance claimed it a
    /// moment before: its `paired` frame is on the way, and the seek stays (claimed) for
    /// delivered() to find; that pairing stands.
    bool withdraw(Conn& c);
    /// Forgets c's seek here, shared or not (its row is gone or withdrawn).
    void eraseSeek(Conn& c);
    /// Under the lock, at each tick: withdraws the rows whose withdrawal failed (orphans_) and
    /// shares the seeks not shared yet (the database was away when they came).
    void retryShared();
    /// Under the lock, at each tick: a shared seek here for which an older matching seek of
    /// another instance waits is paired with it, as a newcomer would be.
    void matchShared(Outbox& out);
    /// Refuses a seeker that must wait (the ladder) or whose name is bad; else its checked name.
    std::optional<std::string> admit(Conn& c, const std::optional<std::string>& name, const std::optional<std::string>& browser,
                                     Outbox& out);
    /// The older side of a pairing: a seek waiting here (`conn` its connection) or one claimed
    /// from another instance (`conn` null; `seek.instance` names it).
    struct Older {
        SharedSeek seek;
        Connection* conn = nullptr;
    };
    /// Makes the game of the waiting seek `older` and the newcomer `c`; false (error `storage`
    /// or `rate-limited` sent to `c`, nothing changed) when it could not be made.
    /// `wanted`: the newcomer's ruleset (or "any"): the game's when the waiting seek is "any".
    /// `bot`: the newcomer is a program.
    bool pair(const Older& older, Conn& c, const std::string& name, const std::string& browser, const std::string& wanted, bool bot,
              Outbox& out);
    /// Takes a waiting seek here back from the exchange before pairing it here: false when
    /// another instance claimed it first (it is marked `claimed`).
    bool takeBack(SeekEntry& e);
    /// Shares `e` (when made, or again after a pairing of it failed after takeBack); false
    /// when the database did not take it (retryShared tries again).
    bool reshare(SeekEntry& e);
    /// Take of seek t.seek, not waiting here: claimed from another instance when it waits there.
    void takeRemote(Conn& c, const protocol::lobby::Take& t, const std::string& name, const std::string& browser, Outbox& out);
    /// A seek here as the exchange holds it (its instance: this one).
    static SharedSeek sharedOf(const SeekEntry& e);
    /// exchange_->claim for `newcomer`; nullopt also when the database failed (logged).
    std::optional<SharedSeek> claimFor(const SharedSeek& newcomer);
    /// Shares a seek claimed from another instance again (its pairing failed or was refused).
    void restoreRemote(const SharedSeek& seek);
    /// A frame another instance handed to seek `seekId` (on the exchange's thread).
    void delivered(const std::string& seekId, const std::string& frame);
    void scheduleTick();
    /// Takes one game from `address`'s bucket; false when it is empty.
    bool takeCreateToken(const std::string& address);
    std::string countsJsonLocked();
    /// The lobby games not yet over, by ruleset.
    std::map<std::string, int> playingLocked() const;

    Registry& registry_;
    std::shared_ptr<SeekExchange> exchange_;  ///< null: this instance alone
    std::vector<std::string> orphans_;        ///< ids of rows whose withdrawal failed, withdrawn again at each tick
    Scheduler& scheduler_;
    Clock& clock_;
    const Options options_;
    mutable std::mutex mutex_;
    std::unordered_map<Connection*, std::unique_ptr<Conn>> conns_;
    SeekList seeks_;  ///< open seeks, oldest first
    std::unordered_map<std::string, std::size_t> seeksByAddress_;
    std::vector<Watched> games_;  ///< lobby games not yet over
    AbortLadder ladder_;
    struct Bucket {
        double tokens = 0;
        Clock::time_point refilled{};
    };
    std::unordered_map<std::string, Bucket> buckets_;  ///< by client address
    std::string lastCounts_;
    bool tickScheduled_ = false;
    std::uint64_t paired_ = 0, aborted_ = 0;
};

}  // namespace senet::server::lobby
