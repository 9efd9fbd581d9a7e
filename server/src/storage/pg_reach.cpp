#include "pg_reach.hpp"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <vector>

namespace senet::server::pg {

namespace {

using Clock = std::chrono::steady_clock;

/// libpq's message of `c`, its first line.
std::string messageOf(const PGconn* c) {
    std::string s = c ? PQerrorMessage(c) : "out of memory";
    s = s.substr(0, s.find('\n'));
    return s.empty() ? "cannot connect" : s;
}

/// One connection attempt under way.
struct Attempt {
    std::unique_ptr<PGconn, void (*)(PGconn*)> c;
    PostgresPollingStatusType state = PGRES_POLLING_WRITING;  // libpq: first wait until writable
};

int millisUntil(Clock::time_point t) {
    return static_cast<int>(std::max<long long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now()).count()));
}

}  // namespace

std::string reachWithin(const std::string& url, std::chrono::milliseconds deadline, std::chrono::milliseconds every) {
    const auto end = Clock::now() + deadline;
    auto next = Clock::now();
    std::vector<Attempt> attempts;
    for (;;) {
        if (Clock::now() >= next && Clock::now() < end) {
            Attempt a{{PQconnectStart(url.c_str()), PQfinish}};
            if (!a.c || PQstatus(a.c.get()) == CONNECTION_BAD) return messageOf(a.c.get());
            attempts.push_back(std::move(a));
            next += every;
        }
        std::vector<pollfd> fds;
        for (const Attempt& a : attempts)
            fds.push_back({PQsocket(a.c.get()), static_cast<short>(a.state == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0});
        const int ready = ::poll(fds.data(), fds.size(), millisUntil(std::min(next, end)));
        if (ready < 0 && errno != EINTR) return "poll failed";
        for (std::size_t i = 0; ready > 0 && i < fds.size(); ++i) {
            if (!fds[i].revents) continue;
            attempts[i].state = PQconnectPoll(attempts[i].c.get());
            if (attempts[i].state == PGRES_POLLING_OK) return "";
            if (attempts[i].state == PGRES_POLLING_FAILED) return messageOf(attempts[i].c.get());  // an answer: refused
        }
        if (Clock::now() >= end) return "no answer within " + std::to_string(deadline.count()) + " ms";
    }
}

}  // namespace senet::server::pg
