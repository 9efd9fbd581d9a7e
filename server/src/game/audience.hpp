// The connections of one room, kept apart from its game: which connections are attached, the
// seats each holds, whether each seat is online (and since when it is not), the spectators and
// their count, and the delivery of frames. The room (room.hpp) judges the game and decides what
// goes out; the audience knows who it goes to.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "clock.hpp"
#include "events.hpp"
#include "services.hpp"

namespace senet::server {

/// The least time between two `watchers` frames of one room to the connections already there
/// (PROTOCOL.md `watchers`): the changes within it go out together at its end.
inline constexpr std::chrono::milliseconds kWatchersInterval{1000};

/// The connections of one room. Not thread-safe: the room calls it under its lock only, so the
/// frames of every connection go out in the order of those calls.
class Audience {
public:
    /// One attached connection.
    struct PeerState {
        Peer* key = nullptr;  ///< its key in attach/find/detach
        std::weak_ptr<Peer> peer;  ///< the connection, while it lives
        unsigned seats = 0;        ///< bit s: holds seat s
        bool hello = false;        ///< said hello (gets `watchers` frames)
        /// Holds the game state: received the snapshot answering its last hello. Only such a
        /// connection gets events frames (they carry what changed since its last frame).
        bool synced = false;
        /// The client seed this connection offers for its seats (its hello's, or one drawn for
        /// it): kept to fix the seed again if its write failed.
        std::optional<std::string> seed;
        int watchersSeen = -1;  ///< the count of the last `watchers` frame it was sent (-1: none)
    };

    /// An audience with nobody in it; its seats are offline since `clock`'s now. When the
    /// spectator count changes within kWatchersInterval of the last `watchers` frame, it calls
    /// `requestFlush(delay)` (once until the flush): the owner is to call flushWatchers(), under
    /// its lock, after `delay`.
    Audience(Clock& clock, std::function<void(std::chrono::milliseconds delay)> requestFlush);

    /// Registers a connection `peer` as `key`; it holds no seat until its hello.
    void attach(Peer* key, std::weak_ptr<Peer> peer);
    /// The connection registered as `key`, or null.
    PeerState* find(Peer* key);
    /// Forgets the connection `key`: a spectator leaves the count (announced to the others),
    /// a seat's last connection makes the seat offline (its `presence` event is added
    /// to `events`). False when no such connection was attached.
    bool detach(Peer* key, Events& events);
    /// Whether no connection is attached.
    bool empty() const { return peers_.empty(); }

    /// `p` said hello and holds `seats` now (bit s: seat s): the seats it gains or loses change
    /// presence (events added to `events`) and the spectator count follows (announced to the
    /// others when it changed). `p` gets no events frame until its snapshot (sendSnapshot).
    void hello(PeerState& p, unsigned seats, Events& events);
    /// Sends `p` its snapshot `frame`; from then on `p` gets events frames.
    void sendSnapshot(PeerState& p, std::shared_ptr<const std::string> frame);
    /// Sends `p` the `watchers` message with the current count (before the snapshot of a hello).
    void sendWatchers(PeerState& p);
    /// How many spectators (connections that said hello and hold no seat) there are now.
    int watchers() const { return watchers_; }
    /// The flush requested by requestFlush: sends the `watchers` message with the current count
    /// to every connection that said hello and was last told another count.
    void flushWatchers();

    /// Whether some connection holds `seat`.
    bool connected(int seat) const { return connections_[seat] > 0; }
    /// Since when `seat` has had no connection (meaningful while !connected(seat)).
    Clock::time_point offlineSince(int seat) const { return offlineSince_[seat]; }
    /// `seat` was taken just now by a friend who has not connected yet: offline from now.
    void seatTaken(int seat) { offlineSince_[seat] = clock_.now(); }

    /// Sends `frame` to `p` if it is still connected.
    void deliver(const PeerState& p, std::shared_ptr<const std::string> frame) const;
    /// Sends the text `frame` to `p` if it is still connected.
    void send(const PeerState& p, std::string frame) const;
    /// Sends `frame` to every connection that holds the game state (synced).
    void sendToSynced(const std::shared_ptr<const std::string>& frame) const;
    /// Runs `fn` for every connection that holds the game state (synced).
    void forEachSynced(const std::function<void(PeerState&)>& fn);
    /// Sends `frame` to every connection that said hello holding a seat (not to spectators).
    void sendToSeated(const std::shared_ptr<const std::string>& frame) const;
    /// Closes every attached connection with `code` and `reason`; returns how many were still open.
    int closeAll(std::uint16_t code, const std::string& reason) const;
    /// Closes `peer`, which the room does not take; returns whether it was still open.
    bool refuse(const std::weak_ptr<Peer>& peer, std::uint16_t code, const std::string& reason) const;
    /// The connections referenced while sending or closing since the last call. The caller lets
    /// go of them after unlocking the room: a connection's last reference may be one of them,
    /// and its destructor detaches from the room (which takes the lock).
    std::vector<std::shared_ptr<Peer>> takeHeld() const { return std::exchange(held_, {}); }

private:
    void setSeats(PeerState& p, unsigned seats, Events& events);
    /// Adds `delta` to the spectator count. When it changed, announces it to every connection
    /// that said hello but `except`: at once, or by the flush when a `watchers` frame went out
    /// less than kWatchersInterval ago (at most one flush requested at a time).
    void countWatchers(int delta, const PeerState* except);
    /// Sends the current count to every connection that said hello but `except` and was last
    /// told another count; notes the time when it sent any.
    void announceWatchers(const PeerState* except);
    /// The `watchers` message with the current count (built once per count).
    std::shared_ptr<const std::string> watchersFrame() const;
    /// Keeps `peer` referenced until takeHeld (see there).
    void hold(std::shared_ptr<Peer> peer) const { held_.push_back(std::move(peer)); }

    Clock& clock_;
    std::function<void(std::chrono::milliseconds)> requestFlush_;
    std::unordered_map<Peer*, PeerState> peers_;
    std::array<int, 2> connections_{};  ///< connections holding each seat
    std::array<Clock::time_point, 2> offlineSince_{};
    int watchers_ = 0;  ///< connections that said hello and hold no seat (spectators)
    mutable std::shared_ptr<const std::string> watchersFrame_;  ///< {"t":"watchers",...} for watchers_
    std::optional<Clock::time_point> watchersSent_;  ///< when the last count change went out (nullopt: never)
    bool flushRequested_ = false;                    ///< requestFlush_ was called and flushWatchers not yet
    mutable std::vector<std::shared_ptr<Peer>> held_;           ///< see takeHeld
};

}  // namespace senet::server
