// One live process per instance name on a PostgreSQL database (server/README.md, "Several
// instances"). Leases are keyed by the instance name, so two processes with one name would
// each write to the other's games: the name is held by a session advisory lock on a
// connection of its own for the whole life of the process. PostgreSQL frees it when that
// connection ends, so a process killed or crashed gives its name up within moments, and a
// restarted one starts at once. Internal to pg_*.cpp.
#pragma once

#include <pqxx/pqxx>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

namespace senet::server::pg {

/// The advisory lock key of an instance name: 64-bit FNV-1a of "senet-instance:NAME" (the same
/// in every process and version; the migrations' lock key is another number). In pg_locks a
/// held key shows as classid (its high 32 bits) and objid (its low 32 bits), objsubid 1.
std::int64_t lockKey(const std::string& instance);

class InstanceLock {
public:
    /// Connects to `url` and takes the lock of `instance`, waiting up to `wait` for a holder
    /// that is going away (a killed process's connection is closed by its kernel, and its
    /// PostgreSQL backend ends moments later). Throws StorageError when the server cannot be
    /// reached, and InstanceNameInUse naming the instance, the process that holds the name and
    /// how to fix it when another live process does.
    InstanceLock(const std::string& url, const std::string& where, const std::string& instance, std::chrono::milliseconds wait);
    ~InstanceLock();
    InstanceLock(const InstanceLock&) = delete;
    InstanceLock& operator=(const InstanceLock&) = delete;

    /// One round trip on the lock's connection: "" when PostgreSQL answers and the name is
    /// held, else a short reason for the public ("postgresql unreachable"; the detail is logged).
    /// After a lost connection it reconnects (only once a new connection was answered within
    /// kReachDeadline, pg_reach.hpp) and takes the name again (without waiting), setting
    /// `*reconnected` (the server restarted: other connections to it are broken too); when its
    /// own former connection still holds the name, it ends that one's backend first; when
    /// another process took the name meanwhile, it stays lost and every later check says so.
    /// Never throws. Thread-safe.
    std::string check(bool* reconnected = nullptr);
    /// Whether another process took the name after this one lost its connection (then this
    /// process must not write: its leases may be the other's).
    bool lost() const;

private:
    /// A new connection named after this process (application_name), with TCP keepalives so
    /// that a vanished client's backend ends (and frees the name) within about half a minute.
    std::unique_ptr<pqxx::connection> connect();
    /// Who holds the name (pid, host, since), for the refusal's message; `*self` (when given)
    /// tells whether it is this very process (a former connection of its own).
    std::string holder(pqxx::connection& c, bool* self = nullptr);
    /// pg_try_advisory_lock of the name on `c`.
    bool tryLock(pqxx::connection& c);
    /// After a cut that PostgreSQL has not noticed, this lock's former connection (backend
    /// backendPid_) still holds the name: ends that backend (a role may end its own) and takes
    /// the name on `c`. True when `c` holds it; false (logged) when that failed.
    bool takeFromFormer(pqxx::connection& c);

    std::string url_, where_, instance_;
    std::string name_;  ///< application_name of its connections: "senet-server pid N on HOST #TOKEN"
    std::int64_t key_;
    std::mutex mutex_;  ///< one check at a time
    std::unique_ptr<pqxx::connection> c_;
    int backendPid_ = 0;  ///< PostgreSQL's pid of the backend of the last connection that held the name
    std::atomic<bool> lost_{false};
};

}  // namespace senet::server::pg
