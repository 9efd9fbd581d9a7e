#include "pg_instance.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <random>
#include <iostream>
#include <thread>

#include "log_limit.hpp"
#include "pg_reach.hpp"
#include "storage.hpp"

namespace senet::server::pg {

namespace {

std::string firstLine(std::string s) {
    s = s.substr(0, s.find('\n'));
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
    return s;
}

/// "senet-server pid N on HOST #TOKEN": what pg_stat_activity shows of this lock's connections
/// (the token tells this lock's own connections from another store's in the same process).
std::string connectionName() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || !*host) std::snprintf(host, sizeof host, "?");
    static std::atomic<unsigned> counter{0};
    char token[16];
    std::snprintf(token, sizeof token, "%06x", (std::random_device{}() ^ (counter++ << 20)) & 0xffffffu);
    return "senet-server pid " + std::to_string(::getpid()) + " on " + std::string(host).substr(0, 24) + " #" + token;
}

}  // namespace

std::int64_t lockKey(const std::string& instance) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : "senet-instance:" + instance) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return static_cast<std::int64_t>(h);
}

std::unique_ptr<pqxx::connection> InstanceLock::connect() {
    std::unique_ptr<pqxx::connection> c;
    try {
        c = std::make_unique<pqxx::connection>(url_);
    } catch (const std::exception& e) {
        throw StorageError("postgresql " + where_ + ": cannot connect: " + firstLine(e.what()));
    }
    // Reopened silently, the connection would no longer hold the lock.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    c->inhibit_reactivation(true);
#pragma GCC diagnostic pop
    try {
        pqxx::nontransaction tx(*c);
        tx.exec("SET application_name = " + tx.quote(name_));
        // A client machine that vanished (no FIN) frees the name after ~25 s, not TCP's 2 hours.
        tx.exec("SET tcp_keepalives_idle = 10");
        tx.exec("SET tcp_keepalives_interval = 5");
        tx.exec("SET tcp_keepalives_count = 3");
    } catch (const std::exception& e) {
        throw StorageError("postgresql " + where_ + ": " + firstLine(e.what()));
    }
    return c;
}

std::string InstanceLock::holder(pqxx::connection& c, bool* self) {
    if (self) *self = false;
    try {
        pqxx::nontransaction tx(c);
        const auto key = static_cast<std::uint64_t>(key_);
        // A bigint advisory key shows in pg_locks as classid (high half) and objid (low half), objsubid 1.
        const pqxx::result r = tx.exec_params(
            "SELECT COALESCE(NULLIF(a.application_name, ''), 'pid ' || a.pid), COALESCE(host(a.client_addr), 'a local socket'), "
            "COALESCE(to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), '?') "
            "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.classid = $1::bigint::oid "
            "AND l.objid = $2::bigint::oid AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            static_cast<std::int64_t>(key >> 32), static_cast<std::int64_t>(key & 0xffffffffu));
        if (r.empty()) return "another process";
        if (self) *self = r[0][0].as<std::string>() == name_;
        return r[0][0].as<std::string>() + ", connected from " + r[0][1].as<std::string>() + " since " +
               r[0][2].as<std::string>() + " UTC";
    } catch (const std::exception&) {
        return "another process";
    }
}

InstanceLock::InstanceLock(const std::string& url, const std::string& where, const std::string& instance,
                           std::chrono::milliseconds wait)
    : url_(url), where_(where), instance_(instance), name_(connectionName()), key_(lockKey(instance)) {
    c_ = connect();
    bool held = false;
    try {
        pqxx::nontransaction tx(*c_);
        held = tx.exec_params("SELECT pg_try_advisory_lock($1)", key_)[0][0].as<bool>();
        if (!held && wait.count() > 0) {
            // Wait for a holder that is going away; lock_timeout ends the wait (SQLSTATE 55P03).
            tx.exec("SET lock_timeout = " + std::to_string(wait.count()));
            try {
                tx.exec_params("SELECT pg_advisory_lock($1)", key_);
                held = true;
            } catch (const pqxx::sql_error& e) {
                if (e.sqlstate() != "55P03") throw;
            }
            tx.exec("SET lock_timeout = 0");
        }
    } catch (const std::exception& e) {
        throw StorageError("postgresql " + where_ + ": taking the instance name failed: " + firstLine(e.what()));
    }
    backendPid_ = c_->backendpid();
    if (!held)
        throw InstanceNameInUse("instance \"" + instance_ + "\" is already running on this database (" + holder(*c_) +
                           "): two processes with one instance name would each take the other's games. Stop that "
                           "process, or give this one a name of its own with --instance NAME (deploy/README.md, "
                           "\"Adding an instance\")");
}

InstanceLock::~InstanceLock() = default;  // closing the connection frees the name

bool InstanceLock::lost() const { return lost_.load(); }

std::string InstanceLock::check(bool* reconnected) {
    std::lock_guard lock(mutex_);
    if (lost_) return "postgresql: another process took this instance's name";
    try {
        if (c_ && c_->is_open()) {
            pqxx::nontransaction tx(*c_);
            tx.exec("SELECT 1");
            return "";
        }
    } catch (const pqxx::broken_connection&) {
        // The connection broke (PostgreSQL restarted or unreachable): the name is no longer
        // held. Take it again below on a new connection.
    } catch (const std::exception& e) {
        if (c_ && c_->is_open()) {  // an error on a live connection: the name is still held
            logLimited("health", std::string("storage check: ") + firstLine(e.what()));
            return "postgresql check failed";
        }
    }
    c_.reset();
    // A server that does not answer (frozen, or a network that drops packets) would hold the
    // pqxx connect below for the URL's connect_timeout: ask with a deadline of its own first.
    if (const std::string why = reachWithin(url_); !why.empty()) {
        logLimited("health", "storage check: " + why);
        return "postgresql unreachable";
    }
    try {
        auto c = connect();
        if (!tryLock(*c)) {
            bool self = false;
            const std::string who = holder(*c, &self);
            // This process's own former connection, whose backend has not noticed the loss yet
            // (a network cut): ended here; when that fails, it ends within the keepalive time.
            if (self && !takeFromFormer(*c)) return "postgresql: this instance's name is still held by its former connection";
            if (!self) {
                lost_ = true;
                std::cerr << "senet-server: instance \"" << instance_ << "\" is held by " << who << " now (taken while this process's connection was lost); this process writes nothing more\n";
                return "postgresql: another process took this instance's name";
            }
        }
        c_ = std::move(c);
        backendPid_ = c_->backendpid();
        if (reconnected) *reconnected = true;
        std::cerr << "senet-server: instance \"" << instance_ << "\" holds its name again on a new connection\n";
        return "";
    } catch (const std::exception& e) {
        // The detail (server, socket, libpq's words) goes to the log; /healthz says it short.
        logLimited("health", std::string("storage check: ") + firstLine(e.what()));
        return "postgresql unreachable";
    }
}

bool InstanceLock::tryLock(pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    return tx.exec_params("SELECT pg_try_advisory_lock($1)", key_)[0][0].as<bool>();
}

bool InstanceLock::takeFromFormer(pqxx::connection& c) {
    try {
        {
            pqxx::nontransaction tx(c);
            // The application_name makes sure it is this lock's own (a pid may have been reused);
            // from PostgreSQL 14 on, pg_terminate_backend waits (up to 500 ms) until it has ended.
            const std::string timeout = c.server_version() >= 140000 ? ", 500" : "";
            const pqxx::result r = tx.exec_params("SELECT pg_terminate_backend(pid" + timeout + ") FROM pg_stat_activity "
                                                  "WHERE pid = $1 AND application_name = $2", backendPid_, name_);
            if (r.empty()) return false;
        }
        std::cerr << "senet-server: instance \"" << instance_ << "\" ended its former connection (backend pid " << backendPid_
                  << "), which still held its name\n";
        // Its locks are released as it ends: wait for that, at most half a second.
        const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
        while (!tryLock(c)) {
            if (std::chrono::steady_clock::now() > end) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return true;
    } catch (const std::exception& e) {
        logLimited("health", std::string("storage check: ending the former connection: ") + firstLine(e.what()));
        return false;
    }
}

}  // namespace senet::server::pg
