// Raw-socket clients for tests that need what the Beast client cannot do: a chosen source
// address (127.0.0.x), malformed or partial requests, WebSocket clients that never read, and
// the server process's resource figures from /proc.
#pragma once

#include <chrono>
#include <map>
#include <string>

namespace senet::testing {

/// A connected TCP socket to 127.0.0.1:`port` from `from` (any 127.0.0.x). `rcvbuf` > 0 sets
/// SO_RCVBUF before connecting. Returns the descriptor, or -1.
int rawConnect(unsigned short port, const std::string& from = "127.0.0.1", int rcvbuf = 0);

/// One parsed HTTP answer read from a raw socket.
struct RawReply {
    int status = 0;                               ///< 0 when nothing (or no status line) arrived
    std::map<std::string, std::string> headers;   ///< lower-case names
    std::string body;
    std::string header(const std::string& name) const;
};

/// Writes `request` (bytes as given) on a new connection from `from`, reads one answer (the
/// head, then Content-Length bytes of body) within `timeout`, and closes.
RawReply rawExchange(unsigned short port, const std::string& request, const std::string& from = "127.0.0.1",
                     std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

/// Reads one answer from an open socket (see rawExchange).
RawReply readReply(int fd, std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

/// A WebSocket upgrade request for `path` with `extra` header lines (each "Name: value").
std::string upgradeRequest(unsigned short port, const std::string& path, const std::string& extra = "");

/// A masked client frame carrying `payload` (opcode 1 = text, 2 = binary).
std::string clientFrame(const std::string& payload, int opcode = 1);

/// Writes all of `data`; false when the connection failed (closed by the peer).
bool writeAll(int fd, const std::string& data);

/// A field of /proc/PID/status in kB (VmRSS, VmHWM, ...), or -1.
long procStatusKb(int pid, const std::string& field);
/// Open descriptors of `pid` (entries of /proc/PID/fd), or -1.
int openDescriptors(int pid);
/// CPU time (user + system) used by `pid` so far, in seconds.
double cpuSeconds(int pid);

/// Whether the server answers GET /healthz with 200 within `timeout` (retrying).
bool healthy(unsigned short port, std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

}  // namespace senet::testing
