#include "pg_pool.hpp"

#include <regex>

namespace senet::server::pg {

namespace {

/// The URL without its password (postgresql://user:secret@host → postgresql://user@host, and
/// a password=... parameter dropped), for messages and logs.
std::string withoutPassword(const std::string& url) {
    std::string out = std::regex_replace(url, std::regex(R"(^(postgres(?:ql)?://[^:/@?]*):[^@/?]*@)"), "$1@");
    return std::regex_replace(out, std::regex(R"(([?&])password=[^&]*&?)"), "$1");
}

}  // namespace

std::string withoutPasswordIn(std::string message, const std::string& url) {
    std::smatch m;
    for (const std::regex& r : {std::regex(R"(^postgres(?:ql)?://[^:/@?]*:([^@/?]*)@)"), std::regex(R"([?&]password=([^&]*))")}) {
        if (!std::regex_search(url, m, r) || m[1].length() == 0) continue;
        const std::string secret = m[1].str();
        for (std::size_t at = message.find(secret); at != std::string::npos; at = message.find(secret, at + 3))
            message.replace(at, secret.size(), "***");
    }
    return message;
}

Pool::Pool(std::string url, int size, std::atomic<std::int64_t>* roundTrips)
    : url_(std::move(url)), where_(withoutPassword(url_)), roundTrips_(roundTrips ? roundTrips : &ownRoundTrips_) {
    if (size < 1) throw StorageError("postgresql: the pool needs at least one connection");
    for (int i = 0; i < size; ++i) free_.push_back(connect());
}

Pool::~Pool() = default;

std::unique_ptr<pqxx::connection> Pool::connect() {
    try {
        auto c = std::make_unique<pqxx::connection>(url_);
        // A connection that broke is dropped, never silently reopened: a reopened connection
        // in the middle of a BEGIN ... COMMIT block would run the rest outside the transaction.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        c->inhibit_reactivation(true);
#pragma GCC diagnostic pop
        for (const Statement& s : statements()) {
            c->prepare(s.name, s.sql);
            c->prepare_now(s.name);
        }
        return c;
    } catch (const pqxx::failure& e) {
        std::string msg = e.what();
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
        throw StorageError("postgresql " + where_ + ": cannot connect: " + withoutPasswordIn(msg, url_));
    } catch (const pqxx::usage_error& e) {
        throw StorageError("postgresql " + where_ + ": " + withoutPasswordIn(e.what(), url_));
    } catch (const std::invalid_argument& e) {
        throw StorageError("postgresql " + where_ + ": bad URL: " + withoutPasswordIn(e.what(), url_));
    }
}

Pool::Lease Pool::take() {
    std::unique_lock lock(mutex_);
    if (!freed_.wait_for(lock, std::chrono::seconds(10), [&] { return !free_.empty() || missing_ > 0; }))
        throw StorageError("postgresql " + where_ + ": no free connection for 10 s");
    if (!free_.empty()) {
        auto c = std::move(free_.back());
        free_.pop_back();
        return Lease(*this, std::move(c));
    }
    --missing_;
    lock.unlock();
    try {
        return Lease(*this, connect());
    } catch (...) {
        std::lock_guard again(mutex_);
        ++missing_;
        freed_.notify_one();
        throw;
    }
}

void Pool::dropIdle() {
    std::vector<std::unique_ptr<pqxx::connection>> dropped;
    {
        std::lock_guard lock(mutex_);
        missing_ += static_cast<int>(free_.size());
        dropped.swap(free_);
    }
    freed_.notify_all();
}  // closed here, outside the lock

void Pool::giveBack(std::unique_ptr<pqxx::connection> c, bool broken) {
    {
        std::lock_guard lock(mutex_);
        if (broken || !c->is_open()) ++missing_;
        else free_.push_back(std::move(c));
    }
    freed_.notify_one();
}

Pool::Lease::~Lease() {
    if (c_) pool_->giveBack(std::move(c_), broken_);
}

Session::Session(Pool& pool) : pool_(pool), lease_(pool.take()) {
    try {
        tx_ = std::make_unique<pqxx::nontransaction>(lease_.connection());
    } catch (const std::exception& e) {
        lease_.markBroken();
        throw StorageError("postgresql " + where() + ": " + e.what());
    }
}

void Session::commit() {
    try {
        sql("COMMIT");
    } catch (...) {
        // A COMMIT that failed outright ended the transaction too (rolled back), unless the
        // connection broke: then nobody knows, and the connection is dropped.
        open_ = false;
        throw;
    }
    open_ = false;
}

Session::~Session() {
    if (open_) {
        try {
            ++roundTrips_;
            pool_.roundTrips().fetch_add(1, std::memory_order_relaxed);
            tx_->exec("ROLLBACK");
        } catch (...) {
            lease_.markBroken();  // whatever state it is in, it is not reused
        }
    }
    try {
        tx_.reset();
    } catch (...) {
        lease_.markBroken();
    }
}

}  // namespace senet::server::pg
