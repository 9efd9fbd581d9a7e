// Who is connecting: connection caps per address and in total (counted with RAII slots), the
// client address behind a trusted proxy (X-Forwarded-For), and the WebSocket Origin check.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace senet::server {

class ConnectionCounter;

/// One counted connection; releases its place when destroyed. Movable, not copyable.
class ConnectionSlot {
public:
    ConnectionSlot() = default;
    ConnectionSlot(ConnectionSlot&& other) noexcept { *this = std::move(other); }
    ConnectionSlot& operator=(ConnectionSlot&& other) noexcept;
    ConnectionSlot(const ConnectionSlot&) = delete;
    ConnectionSlot& operator=(const ConnectionSlot&) = delete;
    ~ConnectionSlot() { release(); }
    /// Whether this slot holds a place.
    explicit operator bool() const { return counter_ != nullptr; }

private:
    friend class ConnectionCounter;
    ConnectionSlot(ConnectionCounter* counter, std::string address, bool total)
        : counter_(counter), address_(std::move(address)), total_(total) {}
    void release();

    ConnectionCounter* counter_ = nullptr;
    std::string address_;  ///< empty: not counted per address
    bool total_ = false;
};

/// Counts open connections per address and in total. Thread-safe. Outlives every slot.
class ConnectionCounter {
public:
    /// Takes a place for a connection from `address` (counted per addressGroup; empty: not counted per address) unless
    /// `address` already holds `perAddress` places (0: no per-address cap) or, when
    /// `countTotal`, all `total` places are taken. An empty slot when refused.
    ConnectionSlot acquire(const std::string& address, int perAddress, bool countTotal, int total);
    /// Connections counted in total now.
    int total() const;
    /// Keeps `gauge` equal to total() from now on (for /metrics); set once before use.
    void publishTo(std::atomic<std::int64_t>* gauge) { gauge_ = gauge; }

private:
    friend class ConnectionSlot;
    void release(const std::string& address, bool total);

    mutable std::mutex mutex_;
    std::unordered_map<std::string, int> perAddress_;  ///< only addresses with open connections
    int total_ = 0;
    std::atomic<std::int64_t>* gauge_ = nullptr;
};

/// The client's address: `peer`, or, when `peer` is one of `trustedProxies`, the right-most
/// address of `forwardedFor` (X-Forwarded-For) that is not a trusted proxy. Addresses are
/// compared in canonical form; an unparsable entry stops the walk at the last trusted hop.
std::string clientAddress(const std::string& peer, std::string_view forwardedFor, const std::vector<std::string>& trustedProxies);

/// The key under which an address is limited: an IPv4 address itself, an IPv6 address's /64
/// network ("2001:db8:1:2::/64": one subscriber usually holds a whole /64), anything else as given.
std::string addressGroup(const std::string& address);

/// Whether `address` (any textual form) is one of `list` (canonical forms).
bool isListed(const std::string& address, const std::vector<std::string>& list);

/// The canonical text of an IP address ("::ffff:1.2.3.4" becomes "1.2.3.4"), or "" when `text` is not one.
std::string canonicalAddress(std::string_view text);

/// Whether a WebSocket upgrade with this Origin header may proceed: no Origin (not a browser),
/// an Origin whose host and port equal the request's Host, or one of `allowed` (exact origins
/// such as "https://play.example.org", compared case-insensitively).
bool originAllowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed);

}  // namespace senet::server
