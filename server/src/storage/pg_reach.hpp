// Whether a PostgreSQL server answers within a deadline: connections opened with libpq's
// asynchronous connect (PQconnectStart/PQconnectPoll), waited for with poll(), then closed.
// libpqxx 6.4 has no connect with a deadline of its own (its blocking connect waits up to the
// URL's connect_timeout, 10 s, for a server that never answers), so the health check asks this
// first and opens its pqxx connection only when a connection was answered. Internal to pg_*.cpp.
#pragma once

#include <chrono>
#include <string>

namespace senet::server::pg {

/// How long the health check waits in all for a new connection to be answered (below the
/// monitor's 2 s after which a check counts as unfinished).
inline constexpr std::chrono::milliseconds kReachDeadline{1500};
/// How often it starts one more attempt meanwhile: an attempt that went to a server that did
/// not answer then (a frozen server, a network dropping packets) may never be answered, while
/// one started after the recovery is; a slow server answers the first.
inline constexpr std::chrono::milliseconds kReachEvery{250};

/// "" once one of the connections to `url` (a new one every `every`) was established (startup
/// and authentication done) within `deadline`, else why not (libpq's words, or "no answer
/// within N ms"). Never throws. The name lookup of a host name is not bounded (libpq resolves
/// it when an attempt starts).
std::string reachWithin(const std::string& url, std::chrono::milliseconds deadline = kReachDeadline,
                        std::chrono::milliseconds every = kReachEvery);

}  // namespace senet::server::pg
