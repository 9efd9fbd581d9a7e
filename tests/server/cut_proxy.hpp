// A TCP proxy for tests of a database outage: the server connects to 127.0.0.1:port() and the
// proxy forwards each connection to a unix socket (a PostgreSQL of scripts/pg-temp.sh). It can
// cut the connections it carries (the database side too, or only the server's side, as a
// network cut that the database does not notice) and black-hole new ones (accepted, never
// answered, kept open: a server that does not answer), and come back.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace senet::testing {

class CutProxy {
public:
    /// Listens on a free port of 127.0.0.1, forwarding to the unix socket `upstream`.
    explicit CutProxy(std::string upstream);
    ~CutProxy();
    CutProxy(const CutProxy&) = delete;
    CutProxy& operator=(const CutProxy&) = delete;

    unsigned short port() const { return port_; }
    /// Closes every connection carried now: both sides, or, with `keepDatabaseSide`, only the
    /// server's side (the database's side stays open, unanswered, until the database closes it).
    void cut(bool keepDatabaseSide);
    /// From now on new connections are accepted and held open without a byte forwarded.
    void blackHole();
    /// New connections are forwarded again (those held so far stay held).
    void pass();
    /// How many connections are held by the black hole so far.
    int held();
    /// How many database sides kept by cut(true) the database has closed since.
    int databaseSidesEnded();

private:
    struct Pair {
        int client, database;
    };
    void run();
    void accept();
    /// Reads what `from` sent and writes it to `to` (-1: discard); false on end or error.
    static bool forward(int from, int to);
    /// Runs `f` in the proxy's thread, under its lock, and waits for it.
    void inLoop(std::function<void()> f);

    std::string upstream_;
    int listener_ = -1, wake_[2] = {-1, -1};
    unsigned short port_ = 0;
    std::mutex mutex_;
    std::condition_variable done_;
    std::vector<std::function<void()>> pending_;
    bool stopping_ = false, blackHole_ = false;
    std::vector<Pair> pairs_;
    std::vector<int> held_, orphans_;
    int heldCount_ = 0, orphansEnded_ = 0;
    std::thread thread_;
};

}  // namespace senet::testing
