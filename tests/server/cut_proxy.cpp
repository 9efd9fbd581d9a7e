#include "cut_proxy.hpp"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <fcntl.h>

#include <cstring>
#include <stdexcept>

namespace senet::testing {

CutProxy::CutProxy(std::string upstream) : upstream_(std::move(upstream)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener_, 64) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0 || ::pipe2(wake_, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cut proxy: ") + std::strerror(errno));
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { run(); });
}

CutProxy::~CutProxy() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    (void)!::write(wake_[1], "x", 1);
    thread_.join();
    for (const Pair& p : pairs_) ::close(p.client), ::close(p.database);
    for (int fd : held_) ::close(fd);
    for (int fd : orphans_) ::close(fd);
    ::close(listener_), ::close(wake_[0]), ::close(wake_[1]);
}

void CutProxy::inLoop(std::function<void()> f) {
    std::unique_lock lock(mutex_);
    pending_.push_back(std::move(f));
    (void)!::write(wake_[1], "x", 1);
    done_.wait(lock, [&] { return pending_.empty(); });
}

void CutProxy::cut(bool keepDatabaseSide) {
    inLoop([this, keepDatabaseSide] {
        for (const Pair& p : pairs_) {
            ::shutdown(p.client, SHUT_RDWR);
            ::close(p.client);
            if (keepDatabaseSide) orphans_.push_back(p.database);
            else ::close(p.database);
        }
        pairs_.clear();
    });
}

void CutProxy::blackHole() {
    inLoop([this] { blackHole_ = true; });
}

void CutProxy::pass() {
    inLoop([this] { blackHole_ = false; });
}

int CutProxy::held() {
    std::lock_guard lock(mutex_);
    return heldCount_;
}

int CutProxy::databaseSidesEnded() {
    std::lock_guard lock(mutex_);
    return orphansEnded_;
}

bool CutProxy::forward(int from, int to) {
    char buf[65536];
    const ssize_t n = ::read(from, buf, sizeof buf);
    if (n <= 0) return false;
    for (ssize_t done = 0; to >= 0 && done < n;) {
        const ssize_t w = ::send(to, buf + done, static_cast<std::size_t>(n - done), MSG_NOSIGNAL);
        if (w <= 0) return false;
        done += w;
    }
    return true;
}

void CutProxy::accept() {
    const int c = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) return;
    if (blackHole_) {
        held_.push_back(c);
        ++heldCount_;
        return;
    }
    const int d = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un u{};
    u.sun_family = AF_UNIX;
    std::strncpy(u.sun_path, upstream_.c_str(), sizeof u.sun_path - 1);
    if (d < 0 || ::connect(d, reinterpret_cast<sockaddr*>(&u), sizeof u) != 0) {
        ::close(c);
        if (d >= 0) ::close(d);
        return;
    }
    pairs_.push_back({c, d});
}

void CutProxy::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        for (auto& f : pending_) f();
        pending_.clear();
        done_.notify_all();
        // Watched: the wake pipe, the listener, both sides of each pair, the kept database sides.
        std::vector<pollfd> fds{{wake_[0], POLLIN, 0}, {listener_, POLLIN, 0}};
        for (const Pair& p : pairs_) fds.push_back({p.client, POLLIN, 0}), fds.push_back({p.database, POLLIN, 0});
        for (int fd : orphans_) fds.push_back({fd, POLLIN, 0});
        lock.unlock();
        ::poll(fds.data(), fds.size(), 1000);
        lock.lock();
        if (fds[0].revents) {
            char buf[64];
            (void)!::read(wake_[0], buf, sizeof buf);
        }
        if (!pending_.empty() || stopping_) continue;  // the lists may change first: events read again
        std::size_t i = 2;
        std::vector<Pair> pairs;
        for (const Pair& p : pairs_) {
            const bool ok = (!fds[i].revents || forward(p.client, p.database)) && (!fds[i + 1].revents || forward(p.database, p.client));
            i += 2;
            if (ok) pairs.push_back(p);
            else ::close(p.client), ::close(p.database);
        }
        std::vector<int> orphans;
        for (int fd : orphans_) {
            if (fds[i++].revents && !forward(fd, -1)) ::close(fd), ++orphansEnded_;
            else orphans.push_back(fd);
        }
        pairs_.swap(pairs);
        orphans_.swap(orphans);
        if (fds[1].revents) accept();
    }
    done_.notify_all();
}

}  // namespace senet::testing
