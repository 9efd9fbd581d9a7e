// Where the lobby's seeks of several instances on one database meet (server/README.md, "The
// lobby across instances"): each instance shares its open seeks, claims another instance's seek
// to pair with a seeker of its own, and hands that instance the `paired` frame for its seeker's
// connection. One instance alone needs none: its lobby pairs in process.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace senet::server {

/// An open seek as the instances share it. The lobby checked every field before.
struct SharedSeek {
    std::string id;            ///< the seek's handle: 16 base64url characters, random, so unique over the instances
    std::string instance;      ///< the instance whose lobby connection made it
    std::string ruleset;       ///< a ruleset key or "any"
    std::string name;          ///< the guest name, checked (lobby/guest_name.hpp)
    std::string browser;       ///< the browser token; "" when none was given
    std::int64_t sinceMs = 0;  ///< when it was made, Unix ms
    bool bot = false;          ///< a program's seek
    bool bots = false;         ///< may be paired with a program
};

/// What the other live instances' lobbies hold now (refreshed about once a second).
struct SeekBoard {
    std::vector<SharedSeek> open;        ///< their open seeks, oldest first, at most the exchange's list limit
    std::map<std::string, int> seeking;  ///< their open seeks by ruleset key or "any", all of them
    std::map<std::string, int> playing;  ///< their lobby games not yet over, by ruleset key
};

/// The seeks of the instances of one shared database. Every call is thread-safe; the calls that
/// talk to the database throw StorageError when it fails (and then change nothing there).
class SeekExchange {
public:
    /// Called on the exchange's own thread with the frame that another instance handed to
    /// this instance's seek `seekId` (its seeker was paired there).
    using Receiver = std::function<void(const std::string& seekId, const std::string& frame)>;
    virtual ~SeekExchange() = default;

    /// Starts listening for frames handed to this instance's seeks; `receiver` gets them.
    virtual void start(Receiver receiver) = 0;
    /// Shares a seek of this instance (`seek.instance` empty), so that other instances may
    /// claim it; or gives back a seek claimed from instance `seek.instance` whose game could
    /// not be made. A seek already shared stays as it is.
    virtual void publish(const SharedSeek& seek) = 0;
    /// Takes a shared seek of this instance back (paired here, cancelled, its connection
    /// closed). True when it was still shared; false when another instance claimed it first
    /// (its `paired` frame is on the way to the receiver).
    virtual bool withdraw(const std::string& id) = 0;
    /// Claims for `newcomer` (a seeker of this instance) the oldest seek of another live
    /// instance that it may play: the same ruleset or "any" on either side, another browser
    /// token (when both have one), and a program only with a seeker that accepts programs.
    /// The claimed seek is no longer shared; nullopt when none matches.
    virtual std::optional<SharedSeek> claim(const SharedSeek& newcomer) = 0;
    /// Claims the seek `id` of another live instance (a take from the open list); nullopt when
    /// it is not shared (gone, or claimed by someone else).
    virtual std::optional<SharedSeek> claimId(const std::string& id) = 0;
    /// Hands `frame` to the connection of `seek` (claimed before) on its instance.
    virtual void deliver(const SharedSeek& seek, const std::string& frame) = 0;
    /// This instance's lobby games not yet over, by ruleset key, for the other instances' counts.
    virtual void setPlaying(std::map<std::string, int> playing) = 0;
    /// The other live instances' seeks and games as last read (never waits for the database).
    virtual SeekBoard board() = 0;
};

/// The PostgreSQL exchange (pg_seeks.cpp): the tables lobby_instances, lobby_seeks and
/// lobby_deliveries, LISTEN/NOTIFY on channel senet_lobby, two connections of its own and a
/// thread that renews this instance's liveness every second. An instance is live while it
/// renewed within 5 s and holds its name's advisory lock (pg_instance.hpp), so the seeks of a
/// killed instance are never claimed. `instance` must be held by this process's store. Throws
/// StorageError when `url` cannot be reached.
std::shared_ptr<SeekExchange> openPostgresSeekExchange(const std::string& url, const std::string& instance);

}  // namespace senet::server
