// The PostgreSQL Storage: games' rows and actions. Every write to a game is one fenced
// statement (one round trip, its own transaction) unless noted.
#include "pg_storage.hpp"

#include <algorithm>

#include "log_limit.hpp"
#include "metrics.hpp"

namespace senet::server::pg {

namespace {

/// Applies the migrations on a connection of its own, before the pool prepares statements
/// that need the tables. Returns `url`.
const std::string& migrated(const std::string& url) {
    std::unique_ptr<pqxx::connection> c;
    try {
        c = std::make_unique<pqxx::connection>(url);
    } catch (const std::exception& e) {
        std::string msg = e.what();
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
        throw StorageError("postgresql: cannot connect to the database: " + withoutPasswordIn(msg, url));
    }
    migrate(*c);
    return url;
}

std::string hex(const std::vector<std::uint8_t>& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (auto b : bytes) out += digits[b >> 4], out += digits[b & 15];
    return out;
}

std::vector<std::uint8_t> unhex(const std::string& text) {
    auto value = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i + 1 < text.size(); i += 2)
        out.push_back(static_cast<std::uint8_t>(value(text[i]) << 4 | value(text[i + 1])));
    return out;
}

const char* orNull(const std::optional<std::string>& v) { return v ? v->c_str() : static_cast<const char*>(nullptr); }

std::optional<std::string> optText(const pqxx::field& f) {
    if (f.is_null()) return std::nullopt;
    return f.as<std::string>();
}

void checkSeat(int seat) {
    if (seat < 0 || seat > 1) throw StorageError("postgresql: bad seat " + std::to_string(seat));
}

}  // namespace

PgStorage::PgStorage(const std::string& url, const PostgresOptions& options)
    : options_(options),
      pool_(migrated(url), options.poolSize, options.metrics ? &options.metrics->pgRoundTrips : nullptr) {
    if (options_.instance.empty()) throw StorageError("postgresql: the instance name must not be empty");
    if (options_.leaseTtlMs <= 0) throw StorageError("postgresql: the lease time must be positive");
    if (options_.lockInstance)
        instanceLock_ = std::make_unique<InstanceLock>(url, pool_.where(), options_.instance,
                                                       std::chrono::milliseconds(std::max<std::int64_t>(0, options_.instanceWaitMs)));
}

std::string PgStorage::health() {
    if (instanceLock_) {
        bool reconnected = false;
        std::string reason = instanceLock_->check(&reconnected);
        if (reconnected) pool_.dropIdle();
        return reason;
    }
    try {
        Session s(pool_);
        s.sql("SELECT 1");
        return "";
    } catch (const std::exception& e) {
        logLimited("health", std::string("storage check: ") + e.what());
        return "postgresql unreachable";
    }
}

PgStorage::Timed::~Timed() {
    if (!metrics_) return;
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_).count();
    metrics_->observeStorageCall(us);
}

std::optional<std::int64_t> PgStorage::heldEpoch(const std::string& id) {
    std::lock_guard lock(epochsMutex_);
    auto it = epochs_.find(id);
    if (it == epochs_.end()) return std::nullopt;
    return it->second;
}

std::int64_t PgStorage::requireEpoch(const std::string& id) {
    requireName<LeaseLost>();
    if (auto e = heldEpoch(id)) return *e;
    throw LeaseLost("postgresql: instance " + options_.instance + " holds no lease of game " + id);
}

void PgStorage::remember(const std::string& id, std::int64_t epoch) {
    std::lock_guard lock(epochsMutex_);
    epochs_[id] = epoch;
}

void PgStorage::forget(const std::string& id) {
    std::lock_guard lock(epochsMutex_);
    epochs_.erase(id);
}

void PgStorage::diagnose(Session& s, const std::string& id, std::int64_t epoch) {
    const pqxx::result r = s.run("lease_of", id);
    if (r.empty()) throw StorageError("postgresql: no game " + id);
    const auto now = r[0][0].as<std::int64_t>();
    if (now == epoch) return;
    forget(id);
    throw LeaseLost("postgresql: game " + id + " was taken over by instance '" + r[0][1].as<std::string>() + "' (epoch " +
                    std::to_string(now) + ", this instance held " + std::to_string(epoch) + ")");
}

void PgStorage::createGame(const GameRow& g) {
    Timed t(options_.metrics);
    requireName<StorageError>();
    const std::int64_t now = unixMs();
    // The game being rematched must be ours before anything is written.
    const std::int64_t oldEpoch = g.rematchOf.empty() ? 0 : requireEpoch(g.rematchOf);
    Session s(pool_);
    auto insert = [&] {
        s.run("insert_game", g.id, g.ruleset, std::string(toString(g.opponent)), g.level, hex(g.serverSeed), orNull(g.clientSeeds[0]),
              orNull(g.clientSeeds[1]), g.seatHashes[0], g.seatHashes[1], g.inviteHash, g.createdMs, g.updatedMs, std::string(toString(g.status)),
              g.result, g.rematchOf, g.rematch, options_.instance, now + options_.leaseTtlMs);
    };
    if (g.rematchOf.empty()) {
        insert();  // one statement: one round trip
    } else {
        // The rematch and its link, both or neither: BEGIN, insert, link, COMMIT.
        s.begin();
        insert();
        if (s.run("set_rematch", g.rematchOf, g.id, oldEpoch).affected_rows() != 1) {
            diagnose(s, g.rematchOf, oldEpoch);  // throws: the Session rolls the insert back
            throw StorageError("postgresql: game " + g.rematchOf + " was not linked to its rematch");
        }
        s.commit();
    }
    remember(g.id, 1);
}

bool PgStorage::takeSeat(const std::string& id, int seat, const std::string& hash) {
    Timed t(options_.metrics);
    checkSeat(seat);
    const std::int64_t epoch = requireEpoch(id);
    Session s(pool_);
    if (s.run(seat == 0 ? "take_seat0" : "take_seat1", id, hash, unixMs(), epoch).affected_rows() == 1) return true;
    const pqxx::result r = s.run("lease_of", id);
    if (r.empty()) return false;  // like SQLite: no such game, no seat taken
    if (r[0][0].as<std::int64_t>() != epoch) diagnose(s, id, epoch);
    return false;
}

void PgStorage::setClientSeed(const std::string& id, int seat, const std::string& seed) {
    Timed t(options_.metrics);
    checkSeat(seat);
    const std::int64_t epoch = requireEpoch(id);
    Session s(pool_);
    if (s.run(seat == 0 ? "client_seed0" : "client_seed1", id, seed, epoch).affected_rows() != 1) diagnose(s, id, epoch);
}

void PgStorage::setGuests(const std::string& id, const std::string& guests) {
    Timed t(options_.metrics);
    const std::int64_t epoch = requireEpoch(id);
    Session s(pool_);
    if (s.run("set_guests", id, guests, epoch).affected_rows() != 1) diagnose(s, id, epoch);
}

void PgStorage::writeAction(Session& s, const std::string& id, std::int64_t epoch, const ActionRow& a,
                            const std::string& resultJson) {
    const std::string kind(1, a.kind);
    if (resultJson.empty()) {
        if (s.run("append_action", id, epoch, a.seq, kind, a.outcome, a.move, unixMs()).affected_rows() == 1) return;
    } else {
        if (s.run("append_final", id, epoch, a.seq, kind, a.outcome, a.move, unixMs(), resultJson)[0][0].as<int>() == 1)
            return;
    }
    diagnose(s, id, epoch);
    throw StorageError("postgresql: action " + std::to_string(a.seq) + " of game " + id + " was not stored");
}

void PgStorage::appendAction(const std::string& id, const ActionRow& a) {
    Timed t(options_.metrics);
    const std::int64_t epoch = requireEpoch(id);
    Session s(pool_);
    writeAction(s, id, epoch, a, "");
}

void PgStorage::appendFinalAction(const std::string& id, const ActionRow& a, const std::string& resultJson) {
    Timed t(options_.metrics);
    if (resultJson.empty()) throw StorageError("postgresql: a final action needs its result");
    const std::int64_t epoch = requireEpoch(id);
    Session s(pool_);
    writeAction(s, id, epoch, a, resultJson);
}

void PgStorage::finishGame(const std::string& id, const std::string& resultJson) {
    Timed t(options_.metrics);
    const std::int64_t epoch = requireEpoch(id);
    Session s(pool_);
    if (s.run("finish", id, resultJson, unixMs(), epoch).affected_rows() != 1) diagnose(s, id, epoch);
}

void PgStorage::setRematch(const std::string& id, const std::string& rematchId) {
    Timed t(options_.metrics);
    const std::int64_t epoch = requireEpoch(id);
    Session s(pool_);
    if (s.run("set_rematch", id, rematchId, epoch).affected_rows() != 1) diagnose(s, id, epoch);
}

void PgStorage::expireGame(const std::string& id) {
    Timed t(options_.metrics);
    const std::int64_t epoch = requireEpoch(id);
    Session s(pool_);
    if (s.run("expire", id, epoch).affected_rows() != 1) diagnose(s, id, epoch);  // or it was not playing: fine
}

std::optional<GameRow> PgStorage::loadGame(const std::string& id) {
    Timed t(options_.metrics);
    Session s(pool_);
    if (options_.acquireOnLoad && !heldEpoch(id)) {
        // Sole owner: take the lease before reading, so that the row read is the one we own.
        if (auto epoch = tryAcquire(s, id, options_.instance, unixMs(), options_.leaseTtlMs)) remember(id, *epoch);
    }
    const pqxx::result r = s.run("select_game", id);
    if (r.empty()) return std::nullopt;
    const pqxx::row row = r[0];
    GameRow g;
    g.id = row[0].as<std::string>();
    g.ruleset = row[1].as<std::string>();
    g.opponent = storedOpponent(id, row[2].as<std::string>());
    g.level = row[3].as<std::string>();
    g.serverSeed = unhex(row[4].as<std::string>());
    g.clientSeeds = {optText(row[5]), optText(row[6])};
    g.seatHashes = {row[7].as<std::string>(), row[8].as<std::string>()};
    g.inviteHash = row[9].as<std::string>();
    g.createdMs = row[10].as<std::int64_t>();
    g.updatedMs = row[11].as<std::int64_t>();
    g.status = storedStatus(id, row[12].as<std::string>());
    g.result = row[13].as<std::string>();
    g.rematchOf = row[14].as<std::string>();
    g.rematch = row[15].as<std::string>();
    g.guests = row[16].as<std::string>();
    return g;
}

std::vector<ActionRow> PgStorage::loadActions(const std::string& id) {
    Timed t(options_.metrics);
    Session s(pool_);
    std::vector<ActionRow> out;
    for (const auto& row : s.run("select_actions", id)) {
        const std::string kind = row[1].as<std::string>();
        out.push_back(ActionRow{row[0].as<std::int64_t>(), kind.empty() ? '?' : kind[0], row[2].as<int>(),
                                row[3].as<std::string>()});
    }
    return out;
}

std::vector<std::string> PgStorage::unfinishedGames() {
    Timed t(options_.metrics);
    Session s(pool_);
    std::vector<std::string> out;
    for (const auto& row : s.run("unfinished")) out.push_back(row[0].as<std::string>());
    return out;
}

}  // namespace senet::server::pg

namespace senet::server {

std::unique_ptr<Storage> openPostgresStorage(const std::string& url, const PostgresOptions& options) {
    if (url.rfind("postgresql://", 0) != 0 && url.rfind("postgres://", 0) != 0)
        throw StorageError("postgresql: the database URL must start with postgresql:// or postgres://");
    // An unreachable server is a clear error within seconds, not a hang (unless the URL says otherwise).
    std::string withTimeout = url;
    if (url.find("connect_timeout=") == std::string::npos)
        withTimeout += (url.find('?') == std::string::npos ? "?" : "&") + std::string("connect_timeout=10");
    return std::make_unique<pg::PgStorage>(withTimeout, options);
}

}  // namespace senet::server
