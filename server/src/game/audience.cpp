#include "audience.hpp"

#include "protocol.hpp"

namespace senet::server {

Audience::Audience(Clock& clock, std::function<void(std::chrono::milliseconds)> requestFlush)
    : clock_(clock), requestFlush_(std::move(requestFlush)) {
    offlineSince_.fill(clock_.now());
}

void Audience::attach(Peer* key, std::weak_ptr<Peer> peer) {
    peers_[key] = PeerState{key, std::move(peer), 0, false, false, std::nullopt, -1};
}

Audience::PeerState* Audience::find(Peer* key) {
    auto it = peers_.find(key);
    return it == peers_.end() ? nullptr : &it->second;
}

bool Audience::detach(Peer* key, Events& events) {
    auto it = peers_.find(key);
    if (it == peers_.end()) return false;
    if (it->second.hello && !it->second.seats) countWatchers(-1, &it->second);
    setSeats(it->second, 0, events);
    peers_.erase(it);
    return true;
}

void Audience::hello(PeerState& p, unsigned seats, Events& events) {
    const bool watched = p.hello && !p.seats;
    p.hello = true;
    // Its answer is the snapshot, which holds this hello's events: until it goes out, the
    // connection gets no events frame (a second hello's too: PROTOCOL.md "events").
    p.synced = false;
    setSeats(p, seats, events);
    countWatchers(int(seats == 0) - int(watched), &p);
}

void Audience::sendSnapshot(PeerState& p, std::shared_ptr<const std::string> frame) {
    deliver(p, std::move(frame));
    p.synced = true;
}

void Audience::setSeats(PeerState& p, unsigned seats, Events& events) {
    for (int seat = 0; seat < 2; ++seat) {
        const bool had = p.seats & (1u << seat), has = seats & (1u << seat);
        if (had == has) continue;
        if (has) {
            if (connections_[seat]++ == 0) events.add().str("e", "presence").boolean("online", true).num("seat", seat);
        } else if (--connections_[seat] == 0) {
            offlineSince_[seat] = clock_.now();
            events.add().str("e", "presence").boolean("online", false).num("seat", seat);
        }
    }
    p.seats = seats;
}

std::shared_ptr<const std::string> Audience::watchersFrame() const {
    if (!watchersFrame_) {
        std::string d;
        jsonout::Object(d).num("count", watchers_);
        watchersFrame_ = std::make_shared<const std::string>(protocol::envelope("watchers", d));
    }
    return watchersFrame_;
}

void Audience::countWatchers(int delta, const PeerState* except) {
    if (delta == 0) return;
    watchers_ += delta;
    watchersFrame_.reset();
    if (flushRequested_) return;  // the flush carries this change too
    const auto now = clock_.now();
    if (requestFlush_ && watchersSent_ && now - *watchersSent_ < kWatchersInterval) {
        // A crowd coming or going: one frame at the end of the interval instead of one each.
        flushRequested_ = true;
        requestFlush_(std::chrono::ceil<std::chrono::milliseconds>(*watchersSent_ + kWatchersInterval - now));
        return;
    }
    announceWatchers(except);
}

void Audience::flushWatchers() {
    flushRequested_ = false;
    announceWatchers(nullptr);
}

void Audience::announceWatchers(const PeerState* except) {
    // One shared frame for everybody; the game's state and its shared snapshots are untouched.
    const auto frame = watchersFrame();
    bool sent = false;
    for (auto& [key, p] : peers_) {
        if (!p.hello || &p == except || p.watchersSeen == watchers_) continue;
        deliver(p, frame);
        p.watchersSeen = watchers_;
        sent = true;
    }
    if (sent) watchersSent_ = clock_.now();
}

void Audience::sendWatchers(PeerState& p) {
    deliver(p, watchersFrame());
    p.watchersSeen = watchers_;
}

void Audience::deliver(const PeerState& p, std::shared_ptr<const std::string> frame) const {
    auto peer = p.peer.lock();
    if (!peer) return;
    peer->send(std::move(frame));
    // Not released here: if this was the last reference, the connection's destructor would
    // detach from the room while its lock is held. The room releases it after unlocking.
    hold(std::move(peer));
}

void Audience::send(const PeerState& p, std::string frame) const {
    deliver(p, std::make_shared<const std::string>(std::move(frame)));
}

void Audience::sendToSynced(const std::shared_ptr<const std::string>& frame) const {
    for (const auto& [key, p] : peers_)
        if (p.synced) deliver(p, frame);
}

void Audience::forEachSynced(const std::function<void(PeerState&)>& fn) {
    for (auto& [key, p] : peers_)
        if (p.synced) fn(p);
}

void Audience::sendToSeated(const std::shared_ptr<const std::string>& frame) const {
    for (const auto& [key, p] : peers_)
        if (p.hello && p.seats) deliver(p, frame);
}

int Audience::closeAll(std::uint16_t code, const std::string& reason) const {
    int closed = 0;
    for (const auto& [key, p] : peers_)
        if (refuse(p.peer, code, reason)) ++closed;
    return closed;
}

bool Audience::refuse(const std::weak_ptr<Peer>& peer, std::uint16_t code, const std::string& reason) const {
    auto p = peer.lock();
    if (!p) return false;
    p->closeWith(code, reason);
    hold(std::move(p));  // released after unlocking, as in deliver
    return true;
}

}  // namespace senet::server
