// The PostgreSQL schema as numbered migrations (server/README.md, "PostgreSQL"). A migration
// is never edited once released: a change of the schema is a new migration at the end.
#include <string>

#include "pg_pool.hpp"

namespace senet::server::pg {

namespace {

struct Migration {
    int version;
    const char* description;
    const char* sql;
};

// Every table is keyed by the game id first, so that it can be partitioned by game id (hash
// partitioning of games and actions on id / game_id) without changing a statement: no
// sequence or key is shared across games.
const Migration kMigrations[] = {
    {1, "games and their actions", R"sql(
CREATE TABLE games (
  id TEXT PRIMARY KEY,
  ruleset TEXT NOT NULL,
  opponent TEXT NOT NULL,
  level TEXT NOT NULL,
  server_seed BYTEA NOT NULL,
  client_seed0 TEXT,
  client_seed1 TEXT,
  seat_hash0 TEXT NOT NULL,
  seat_hash1 TEXT NOT NULL,
  invite_hash TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  updated_ms BIGINT NOT NULL,
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  rematch_of TEXT NOT NULL,
  rematch TEXT NOT NULL
);
CREATE INDEX games_playing ON games (id) WHERE status = 'playing';
CREATE TABLE actions (
  game_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  kind TEXT NOT NULL,
  outcome INTEGER NOT NULL,
  move TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  PRIMARY KEY (game_id, seq)
);
)sql"},
    {2, "leases: the owning instance, its fencing epoch and the lease's expiry", R"sql(
ALTER TABLE games ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN lease_expires_ms BIGINT NOT NULL DEFAULT 0;
CREATE INDEX games_orphans ON games (lease_expires_ms) WHERE status = 'playing';
CREATE INDEX games_owner ON games (owner) WHERE owner <> '';
)sql"},
    // The lobby across instances (pg_seeks.cpp): not a game's, so not keyed by a game id.
    {3, "the lobby's shared seeks, the instances that hold them, the frames handed between them, a lobby game's guests", R"sql(
CREATE TABLE lobby_instances (
  instance TEXT PRIMARY KEY,
  alive_ms BIGINT NOT NULL,
  lock_hi BIGINT NOT NULL,
  lock_lo BIGINT NOT NULL,
  playing TEXT NOT NULL
);
CREATE TABLE lobby_seeks (
  id TEXT PRIMARY KEY,
  instance TEXT NOT NULL,
  ruleset TEXT NOT NULL,
  name TEXT NOT NULL,
  browser TEXT NOT NULL,
  since_ms BIGINT NOT NULL,
  bot BOOLEAN NOT NULL,
  bots BOOLEAN NOT NULL
);
CREATE INDEX lobby_seeks_since ON lobby_seeks (since_ms, id);
CREATE INDEX lobby_seeks_instance ON lobby_seeks (instance);
ALTER TABLE games ADD COLUMN guests TEXT NOT NULL DEFAULT '';
CREATE TABLE lobby_deliveries (
  instance TEXT NOT NULL,
  seek_id TEXT NOT NULL,
  frame TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  PRIMARY KEY (instance, seek_id)
);
)sql"},
};

/// The key of the advisory lock that serialises migrations (any fixed number: "senet-sc").
constexpr const char* kLockKey = "7308604913213637475";

}  // namespace

int latestSchemaVersion() { return kMigrations[std::size(kMigrations) - 1].version; }

int migrate(pqxx::connection& connection) {
    try {
        pqxx::work tx(connection);
        // Instances starting at once wait here for each other; the lock ends with the transaction.
        tx.exec(std::string("SELECT pg_advisory_xact_lock(") + kLockKey + ")");
        tx.exec(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, "
            "applied_ms BIGINT NOT NULL)");
        const int current = tx.exec1("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")[0].as<int>();
        if (current > latestSchemaVersion())
            throw StorageError("postgresql: the database's schema is version " + std::to_string(current) +
                               ", newer than this server's " + std::to_string(latestSchemaVersion()) +
                               " (a newer senet-server made it)");
        for (const Migration& m : kMigrations) {
            if (m.version <= current) continue;
            tx.exec(m.sql);
            tx.exec_params("INSERT INTO schema_migrations (version, description, applied_ms) VALUES ($1, $2, $3)", m.version,
                           m.description, unixMs());
        }
        tx.commit();
        return latestSchemaVersion();
    } catch (const StorageError&) {
        throw;
    } catch (const std::exception& e) {
        std::string msg = e.what();
        throw StorageError("postgresql: migrating the schema failed: " + msg.substr(0, msg.find('\n')));
    }
}

}  // namespace senet::server::pg
