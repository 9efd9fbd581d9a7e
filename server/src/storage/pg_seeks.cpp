// The lobby's seeks shared over PostgreSQL (seek_exchange.hpp; server/README.md, "The lobby across
// instances"). A seek is a row of lobby_seeks; a claim deletes the oldest matching row of another
// live instance, locked with FOR UPDATE SKIP LOCKED so that two instances claiming at once never
// take the same seek; a frame for a seek of another instance is a row of lobby_deliveries and a
// NOTIFY on channel senet_lobby naming that instance, whose thread LISTENs, collects its rows and
// hands the frames to its lobby. The thread also renews the instance's row every second, reads
// the board and clears what dead instances left.
//
// libpq directly, asynchronously: every call has a deadline (a database behind a network that
// swallows packets never answers, and the lobby calls under its lock), after which the
// connection is dropped and the call fails. libpqxx 6.4 has no such deadline.
#include <poll.h>

#include <libpq-fe.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "log_limit.hpp"
#include "pg_instance.hpp"
#include "seek_exchange.hpp"
#include "storage.hpp"

namespace senet::server {

namespace {

using nlohmann::json;
using Ms = std::chrono::milliseconds;

constexpr const char* kChannel = "senet_lobby";
/// How often the thread renews this instance's row and reads the board.
constexpr Ms kBeat{1000};
/// The longest a call waits for the database (a pairing waits for it under the lobby's lock).
constexpr Ms kCallDeadline{2000};
/// A dead instance's seeks and frames are deleted after this long (a restart with the same name clears them at once).
constexpr std::int64_t kForgetMs = 60000;
/// The board's open list: at most this many seeks.
constexpr int kBoardList = 200;

// "Live" for an instance row i: renewed within the last 5 s and its name's advisory lock held
// (a killed process's lock goes with its connection, within moments). $1 in each statement is this
// instance's name, $2 the time now (Unix ms).
#define SENET_LIVE                                                                                                     \
    "(i.alive_ms > $2::bigint - 5000 AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND "         \
    "l.granted AND l.objsubid = 1 AND l.classid = i.lock_hi::bigint::oid AND l.objid = i.lock_lo::bigint::oid AND "     \
    "l.database = (SELECT oid FROM pg_database WHERE datname = current_database())))"

#define SENET_SEEK_COLUMNS "s.id, s.instance, s.ruleset, s.name, s.browser, s.since_ms, s.bot, s.bots"

std::int64_t unixMs() {
    return std::chrono::duration_cast<Ms>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string firstLine(const char* s) {
    std::string t = s ? s : "";
    t = t.substr(0, t.find('\n'));
    return t;
}

/// A query's rows as text (libpq's text format: booleans are "t"/"f").
using Rows = std::vector<std::vector<std::string>>;

/// One libpq connection whose every call ends within a deadline. Not thread-safe.
class Link {
public:
    explicit Link(std::string url) : url_(std::move(url)) {}
    ~Link() { close(); }
    Link(const Link&) = delete;
    Link& operator=(const Link&) = delete;

    bool open() const { return c_ != nullptr; }
    void close() {
        if (c_) PQfinish(c_);
        c_ = nullptr;
    }
    /// Runs `sql` with text parameters `params`; its rows. Connects first when closed. Throws
    /// StorageError (and closes the connection) on a failure or after `deadline`.
    Rows exec(const std::string& sql, const std::vector<std::string>& params, Ms deadline = kCallDeadline) {
        const auto until = std::chrono::steady_clock::now() + deadline;
        // A connection the server has ended meanwhile (a restart: its backends are told to go)
        // is seen before anything is sent on it, and replaced: the statement runs once.
        if (c_ && (!PQconsumeInput(c_) || PQstatus(c_) != CONNECTION_OK)) close();
        if (!c_) connect(until);
        std::vector<const char*> values;
        for (const auto& p : params) values.push_back(p.c_str());
        if (!PQsendQueryParams(c_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0))
            fail("cannot send");
        while (PQflush(c_) == 1) wait(POLLOUT | POLLIN, until);
        Rows rows;
        std::string error;
        while (true) {
            while (PQisBusy(c_)) {
                wait(POLLIN, until);
                if (!PQconsumeInput(c_)) fail("connection lost");
            }
            PGresult* r = PQgetResult(c_);
            if (!r) break;
            const auto status = PQresultStatus(r);
            if (status == PGRES_TUPLES_OK) {
                for (int i = 0; i < PQntuples(r); ++i) {
                    auto& row = rows.emplace_back();
                    for (int j = 0; j < PQnfields(r); ++j) row.emplace_back(PQgetvalue(r, i, j));
                }
            } else if (status != PGRES_COMMAND_OK) {
                error = firstLine(PQresultErrorMessage(r));
            }
            PQclear(r);
        }
        if (PQstatus(c_) != CONNECTION_OK) fail("connection lost");
        if (!error.empty()) throw StorageError("postgresql: lobby: " + error);
        return rows;
    }
    /// Waits up to `timeout` for a notification; the payloads that came (consumed).
    std::vector<std::string> notifications(Ms timeout) {
        std::vector<std::string> out;
        if (!c_) return out;
        pollfd p{PQsocket(c_), POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(timeout.count())) > 0 && !PQconsumeInput(c_)) fail("connection lost");
        while (PGnotify* n = PQnotifies(c_)) {
            out.emplace_back(n->extra ? n->extra : "");
            PQfreemem(n);
        }
        return out;
    }

private:
    void connect(std::chrono::steady_clock::time_point until) {
        c_ = PQconnectStart(url_.c_str());
        if (!c_) throw StorageError("postgresql: lobby: out of memory");
        if (PQstatus(c_) == CONNECTION_BAD) fail("cannot connect");
        for (auto state = PGRES_POLLING_WRITING;;) {
            if (state == PGRES_POLLING_OK) break;
            if (state == PGRES_POLLING_FAILED) fail("cannot connect");
            wait(state == PGRES_POLLING_READING ? POLLIN : POLLOUT, until);
            state = PQconnectPoll(c_);
        }
        if (PQsetnonblocking(c_, 1) != 0) fail("cannot connect");
    }
    void wait(short events, std::chrono::steady_clock::time_point until) {
        const auto left = std::chrono::duration_cast<Ms>(until - std::chrono::steady_clock::now()).count();
        pollfd p{PQsocket(c_), events, 0};
        if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) {
            close();
            throw StorageError("postgresql: lobby: no answer within the deadline");
        }
    }
    [[noreturn]] void fail(const char* what) {
        std::string detail = c_ ? firstLine(PQerrorMessage(c_)) : "";
        close();
        throw StorageError(std::string("postgresql: lobby: ") + what + (detail.empty() ? "" : ": " + detail));
    }

    std::string url_;
    PGconn* c_ = nullptr;
};

std::string b(bool v) { return v ? "true" : "false"; }

SharedSeek seekOf(const std::vector<std::string>& r) {
    SharedSeek s;
    s.id = r.at(0);
    s.instance = r.at(1);
    s.ruleset = r.at(2);
    s.name = r.at(3);
    s.browser = r.at(4);
    s.sinceMs = std::stoll(r.at(5));
    s.bot = r.at(6) == "t";
    s.bots = r.at(7) == "t";
    return s;
}

class PgSeekExchange final : public SeekExchange {
public:
    PgSeekExchange(const std::string& url, std::string instance) : instance_(std::move(instance)), ops_(url), listen_(url) {
        const auto key = static_cast<std::uint64_t>(pg::lockKey(instance_));
        lockHi_ = std::to_string(key >> 32);
        lockLo_ = std::to_string(key & 0xffffffffu);
        // What an earlier life of this name left is of no use: its connections are gone.
        std::lock_guard lock(opsMutex_);
        ops_.exec("DELETE FROM lobby_seeks WHERE instance = $1", {instance_});
        ops_.exec("DELETE FROM lobby_deliveries WHERE instance = $1", {instance_});
        renew(ops_);
    }

    ~PgSeekExchange() override {
        {
            std::lock_guard lock(beatMutex_);
            stopping_ = true;
        }
        beatWake_.notify_all();
        if (thread_.joinable()) thread_.join();
        try {
            std::lock_guard lock(opsMutex_);
            ops_.exec("DELETE FROM lobby_seeks WHERE instance = $1", {instance_});
            ops_.exec("DELETE FROM lobby_instances WHERE instance = $1", {instance_});
        } catch (const std::exception&) {
            // Dead rows are ignored by everyone and cleared after kForgetMs.
        }
    }

    void start(Receiver receiver) override {
        receiver_ = std::move(receiver);
        thread_ = std::thread([this] { loop(); });
    }

    void publish(const SharedSeek& s) override {
        call("INSERT INTO lobby_seeks (id, instance, ruleset, name, browser, since_ms, bot, bots) VALUES ($1, $2, $3, $4, $5, $6, "
             "$7, $8) ON CONFLICT (id) DO NOTHING",
             {s.id, s.instance.empty() ? instance_ : s.instance, s.ruleset, s.name, s.browser, std::to_string(s.sinceMs), b(s.bot),
              b(s.bots)});
    }

    bool withdraw(const std::string& id) override {
        return !call("DELETE FROM lobby_seeks WHERE id = $1 AND instance = $2 RETURNING id", {id, instance_}).empty();
    }

    std::optional<SharedSeek> claim(const SharedSeek& n) override {
        const Rows r = call(
            "DELETE FROM lobby_seeks WHERE id = (SELECT s.id FROM lobby_seeks s JOIN lobby_instances i ON i.instance = s.instance "
            "WHERE s.instance <> $1 AND " SENET_LIVE
            " AND (s.ruleset = $3 OR s.ruleset = 'any' OR $3 = 'any') AND ($4 = '' OR s.browser <> $4) "
            "AND (NOT $5::boolean OR s.bots) AND (NOT s.bot OR $6::boolean) "
            "ORDER BY s.since_ms, s.id FOR UPDATE OF s SKIP LOCKED LIMIT 1) "
            "RETURNING id, instance, ruleset, name, browser, since_ms, bot, bots",
            {instance_, std::to_string(unixMs()), n.ruleset, n.browser, b(n.bot), b(n.bots)});
        if (r.empty()) return std::nullopt;
        return seekOf(r[0]);
    }

    std::optional<SharedSeek> claimId(const std::string& id) override {
        const Rows r = call(
            "DELETE FROM lobby_seeks WHERE id = (SELECT s.id FROM lobby_seeks s JOIN lobby_instances i ON i.instance = s.instance "
            "WHERE s.id = $3 AND s.instance <> $1 AND " SENET_LIVE " FOR UPDATE OF s SKIP LOCKED) "
            "RETURNING id, instance, ruleset, name, browser, since_ms, bot, bots",
            {instance_, std::to_string(unixMs()), id});
        if (r.empty()) return std::nullopt;
        return seekOf(r[0]);
    }

    void deliver(const SharedSeek& s, const std::string& frame) override {
        // One statement: the row and its notification (sent at commit) or neither.
        call("WITH d AS (INSERT INTO lobby_deliveries (instance, seek_id, frame, at_ms) VALUES ($1, $2, $3, $4) "
             "ON CONFLICT (instance, seek_id) DO UPDATE SET frame = EXCLUDED.frame, at_ms = EXCLUDED.at_ms RETURNING instance) "
             "SELECT pg_notify($5, instance) FROM d",
             {s.instance, s.id, frame, std::to_string(unixMs()), kChannel});
    }

    void setPlaying(std::map<std::string, int> playing) override {
        std::lock_guard lock(boardMutex_);
        playing_ = std::move(playing);
    }

    SeekBoard board() override {
        std::lock_guard lock(boardMutex_);
        return board_;
    }

private:
    Rows call(const std::string& sql, const std::vector<std::string>& params) {
        std::lock_guard lock(opsMutex_);
        return ops_.exec(sql, params);
    }

    /// This instance's row: alive now, its lock key, its games.
    void renew(Link& link) {
        std::string playing;
        {
            std::lock_guard lock(boardMutex_);
            playing = json(playing_).dump();
        }
        link.exec(
            "INSERT INTO lobby_instances (instance, alive_ms, lock_hi, lock_lo, playing) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (instance) DO UPDATE SET alive_ms = EXCLUDED.alive_ms, lock_hi = EXCLUDED.lock_hi, "
            "lock_lo = EXCLUDED.lock_lo, playing = EXCLUDED.playing",
            {instance_, std::to_string(unixMs()), lockHi_, lockLo_, playing});
    }

    /// LISTENs on its own connection and beats: hands over the frames for this instance at each
    /// notification naming it, and at least every kBeat (a notification may be missed while reconnecting).
    void loop() {
        auto lastBeat = std::chrono::steady_clock::now() - kBeat;
        bool mine = true;
        while (true) {
            {
                std::lock_guard lock(beatMutex_);
                if (stopping_) break;
            }
            try {
                if (!listen_.open()) {
                    listen_.exec(std::string("LISTEN ") + kChannel, {});
                    mine = true;  // frames that came while this connection was down
                }
                if (std::chrono::steady_clock::now() - lastBeat >= kBeat) {
                    beat();
                    lastBeat = std::chrono::steady_clock::now();
                    mine = true;
                }
                if (mine) collect();
                mine = false;
                for (const auto& payload : listen_.notifications(Ms(200)))  // a stop is seen within 0.2 s
                    if (payload == instance_) mine = true;
            } catch (const std::exception& e) {
                logLimited("storage", std::string("lobby exchange: ") + e.what());
                listen_.close();
                std::unique_lock lock(beatMutex_);
                beatWake_.wait_for(lock, kBeat, [&] { return stopping_; });
            }
        }
    }

    /// Renews this instance, reads the board, clears what dead instances left.
    void beat() {
        renew(listen_);
        const std::string now = std::to_string(unixMs());
        SeekBoard next;
        for (const auto& r : listen_.exec("SELECT " SENET_SEEK_COLUMNS " FROM lobby_seeks s JOIN lobby_instances i ON "
                                          "i.instance = s.instance WHERE s.instance <> $1 AND " SENET_LIVE
                                          " ORDER BY s.since_ms, s.id LIMIT $3",
                                          {instance_, now, std::to_string(kBoardList)}))
            next.open.push_back(seekOf(r));
        for (const auto& r : listen_.exec("SELECT s.ruleset, count(*) FROM lobby_seeks s JOIN lobby_instances i ON i.instance = "
                                          "s.instance WHERE s.instance <> $1 AND " SENET_LIVE " GROUP BY s.ruleset",
                                          {instance_, now}))
            next.seeking[r.at(0)] = std::stoi(r.at(1));
        for (const auto& r :
             listen_.exec("SELECT i.playing FROM lobby_instances i WHERE i.instance <> $1 AND " SENET_LIVE, {instance_, now})) {
            const json p = json::parse(r.at(0), nullptr, false);
            if (!p.is_object()) continue;
            for (const auto& [ruleset, n] : p.items())
                if (n.is_number_integer()) next.playing[ruleset] += n.get<int>();
        }
        const std::string forget = std::to_string(unixMs() - kForgetMs);
        listen_.exec("DELETE FROM lobby_seeks s USING lobby_instances i WHERE i.instance = s.instance AND i.alive_ms < $1", {forget});
        listen_.exec("DELETE FROM lobby_deliveries d USING lobby_instances i WHERE i.instance = d.instance AND i.alive_ms < $1",
                     {forget});
        listen_.exec("DELETE FROM lobby_instances WHERE alive_ms < $1", {forget});
        std::lock_guard lock(boardMutex_);
        board_ = std::move(next);
    }

    /// Takes the frames handed to this instance's seeks and gives them to the receiver.
    void collect() {
        for (const auto& r : listen_.exec("DELETE FROM lobby_deliveries WHERE instance = $1 RETURNING seek_id, frame", {instance_})) {
            try {
                receiver_(r.at(0), r.at(1));
            } catch (const std::exception& e) {
                logLimited("internal", std::string("lobby exchange: a handed frame: ") + e.what());
            }
        }
    }

    const std::string instance_;
    std::string lockHi_, lockLo_;
    Receiver receiver_;
    std::mutex opsMutex_;
    Link ops_;     ///< the calls' connection, under opsMutex_
    Link listen_;  ///< the thread's: LISTEN, the beat, the frames handed here
    std::mutex boardMutex_;
    SeekBoard board_;
    std::map<std::string, int> playing_;
    std::mutex beatMutex_;
    std::condition_variable beatWake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace

std::shared_ptr<SeekExchange> openPostgresSeekExchange(const std::string& url, const std::string& instance) {
    return std::make_shared<PgSeekExchange>(url, instance);
}

}  // namespace senet::server
