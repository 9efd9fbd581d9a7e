// Connections to PostgreSQL for the PostgreSQL Storage: a fixed pool of pqxx connections (one
// per concurrent caller), each with every statement prepared, and a Session that runs
// statements on one of them, counting the round trips. Internal to pg_*.cpp.
#pragma once

#include <pqxx/pqxx>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "storage.hpp"

namespace senet::server::pg {

/// One prepared statement: its name and SQL.
struct Statement {
    const char* name;
    const char* sql;
};

/// The statements every pooled connection prepares (pg_statements.cpp).
const std::vector<Statement>& statements();

/// Applies the schema migrations not yet applied (pg_schema.cpp), once, in one transaction,
/// under an advisory lock (several instances may start at once). Returns the schema version.
/// Throws StorageError when the database's schema is newer than this server knows.
int migrate(pqxx::connection& connection);

/// The latest schema version this server knows.
int latestSchemaVersion();

/// `message` with the password of `url` (postgresql://user:PASSWORD@… or password=…) replaced
/// by ***: driver errors quote the URL they could not parse.
std::string withoutPasswordIn(std::string message, const std::string& url);

/// The pool. Thread-safe. Connections broken by a failure are replaced on the next take().
class Pool {
public:
    /// Opens `size` connections to `url` (throws StorageError when it cannot).
    Pool(std::string url, int size, std::atomic<std::int64_t>* roundTrips);
    ~Pool();
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;

    /// A connection taken from the pool; given back on destruction (dropped when broken).
    class Lease {
    public:
        Lease(Pool& pool, std::unique_ptr<pqxx::connection> c) : pool_(&pool), c_(std::move(c)) {}
        Lease(Lease&& o) noexcept : pool_(o.pool_), c_(std::move(o.c_)), broken_(o.broken_) {}
        Lease& operator=(Lease&&) = delete;
        ~Lease();
        pqxx::connection& connection() { return *c_; }
        /// The connection failed (or a transaction on it ended in doubt): close it, do not reuse.
        void markBroken() { broken_ = true; }

    private:
        Pool* pool_;
        std::unique_ptr<pqxx::connection> c_;
        bool broken_ = false;
    };

    /// Takes a free connection, waiting up to 10 s; reconnects a broken one. Throws StorageError.
    Lease take();
    /// Closes every idle connection (they are opened anew on take()): after the server
    /// restarted, they are all broken, and each would fail one call before being replaced.
    void dropIdle();
    /// The server's URL with any password removed, for messages.
    const std::string& where() const { return where_; }
    /// Round trips counted by Sessions on this pool.
    std::atomic<std::int64_t>& roundTrips() { return *roundTrips_; }

private:
    std::unique_ptr<pqxx::connection> connect();
    void giveBack(std::unique_ptr<pqxx::connection> c, bool broken);

    std::string url_, where_;
    std::mutex mutex_;
    std::condition_variable freed_;
    std::vector<std::unique_ptr<pqxx::connection>> free_;
    int missing_ = 0;  ///< connections to open again (broken ones dropped)
    std::atomic<std::int64_t> ownRoundTrips_{0};
    std::atomic<std::int64_t>* roundTrips_;
};

/// Runs statements on one pooled connection for one Storage call. Every statement is one
/// round trip; BEGIN, COMMIT, SAVEPOINT and ROLLBACK are too. Errors become StorageError
/// (the connection is dropped after a broken connection). A transaction still open when the
/// Session ends is rolled back.
class Session {
public:
    explicit Session(Pool& pool);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Executes prepared statement `name` with `args` (a `const char*` nullptr is NULL).
    template <class... Args>
    pqxx::result run(const char* name, Args&&... args) {
        return guarded([&] { return tx_->exec_prepared(name, std::forward<Args>(args)...); });
    }
    /// Executes plain SQL (no parameters).
    pqxx::result sql(const std::string& text) {
        return guarded([&] { return tx_->exec(text); });
    }
    void begin() { sql("BEGIN"), open_ = true; }
    void commit();
    void savepoint() { sql("SAVEPOINT item"); }
    /// Undoes everything since the last savepoint(); the transaction goes on.
    void rollbackToSavepoint() { sql("ROLLBACK TO SAVEPOINT item"); }
    /// Round trips this session made.
    int roundTrips() const { return roundTrips_; }
    const std::string& where() const { return pool_.where(); }

private:
    template <class F>
    pqxx::result guarded(F&& f) {
        ++roundTrips_;
        pool_.roundTrips().fetch_add(1, std::memory_order_relaxed);
        try {
            return f();
        } catch (const pqxx::broken_connection& e) {
            lease_.markBroken();
            throw StorageError("postgresql " + where() + ": connection lost: " + e.what());
        } catch (const pqxx::in_doubt_error& e) {
            lease_.markBroken();
            throw StorageError("postgresql " + where() + ": commit in doubt: " + e.what());
        } catch (const pqxx::unique_violation& e) {
            throw DuplicateKey("postgresql " + where() + ": duplicate: " + firstLine(e.what()));
        } catch (const pqxx::failure& e) {
            throw StorageError("postgresql " + where() + ": " + firstLine(e.what()));
        } catch (const pqxx::usage_error& e) {
            throw StorageError("postgresql " + where() + ": " + firstLine(e.what()));
        }
    }
    static std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

public:
    /// A unique-key violation (duplicate id or seq): a StorageError.
    struct DuplicateKey : StorageError {
        using StorageError::StorageError;
    };

private:
    Pool& pool_;
    Pool::Lease lease_;
    std::unique_ptr<pqxx::nontransaction> tx_;
    bool open_ = false;
    int roundTrips_ = 0;
};

/// Unix time in ms.
inline std::int64_t unixMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace senet::server::pg
