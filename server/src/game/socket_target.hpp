// What a WebSocket session talks to: a game room (room.hpp) or a lobby connection
// (lobby/lobby.hpp). The session owns the socket, its limits and its write queue; the target
// parses the frames (through protocol.hpp) and answers them. No networking types here.
#pragma once

#include <chrono>
#include <memory>
#include <string_view>

#include "protocol.hpp"
#include "services.hpp"

namespace senet::server {

/// The far end of WebSocket sessions. Every call is thread-safe and never throws for a
/// visitor's input (an answer is an `error` frame to `key`).
class SocketTarget {
public:
    virtual ~SocketTarget() = default;
    /// Registers a connection; `key` identifies it in the other calls.
    virtual void attach(Peer* key, std::weak_ptr<Peer> peer) = 0;
    /// Forgets a connection (it closed).
    virtual void detach(Peer* key) = 0;
    /// Parses and handles one text frame from `key`; `received` is when it arrived.
    virtual void receive(Peer* key, std::string_view frame, std::chrono::steady_clock::time_point received) = 0;
    /// Answers a frame refused before parsing (rate limit, binary frame, a handler that threw).
    virtual void reject(Peer* key, const protocol::ParseError& error) = 0;
};

}  // namespace senet::server
