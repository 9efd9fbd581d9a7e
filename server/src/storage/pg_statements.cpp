// Every SQL statement of the PostgreSQL Storage, prepared on each pooled connection. Each
// write to a game names the fencing epoch this instance holds ($epoch): a row whose epoch
// moved on (another instance took the game over) matches nothing, and the caller throws
// LeaseLost. Parameters that PostgreSQL cannot type from a column are cast.
#include "pg_pool.hpp"

namespace senet::server::pg {

const std::vector<Statement>& statements() {
    static const std::vector<Statement> all = {
        {"insert_game",
         "INSERT INTO games (id, ruleset, opponent, level, server_seed, client_seed0, client_seed1, seat_hash0, seat_hash1, "
         "invite_hash, created_ms, updated_ms, status, result, rematch_of, rematch, owner, epoch, lease_expires_ms) VALUES "
         "($1, $2, $3, $4, decode($5, 'hex'), $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, 1, $18)"},
        // The rematch link (createGame) and setRematch.
        {"set_rematch", "UPDATE games SET rematch = $2 WHERE id = $1 AND epoch = $3"},
        {"take_seat0", "UPDATE games SET seat_hash0 = $2, updated_ms = $3 WHERE id = $1 AND epoch = $4 AND seat_hash0 = ''"},
        {"take_seat1", "UPDATE games SET seat_hash1 = $2, updated_ms = $3 WHERE id = $1 AND epoch = $4 AND seat_hash1 = ''"},
        {"client_seed0", "UPDATE games SET client_seed0 = $2 WHERE id = $1 AND epoch = $3"},
        {"client_seed1", "UPDATE games SET client_seed1 = $2 WHERE id = $1 AND epoch = $3"},
        // One statement, so one round trip and its own transaction. FOR SHARE holds the game's
        // row until the insert commits: a takeover (an UPDATE of the row) waits for it, and an
        // append after a takeover sees the new epoch and inserts nothing.
        {"append_action",
         "WITH g AS (SELECT id FROM games WHERE id = $1 AND epoch = $2 FOR SHARE) "
         "INSERT INTO actions (game_id, seq, kind, outcome, move, at_ms) "
         "SELECT g.id, $3::bigint, $4::text, $5::integer, $6::text, $7::bigint FROM g"},
        // The last action and the game's end in one statement: both or neither. Returns 1 row
        // with the number of games finished (0: the epoch did not match).
        {"append_final",
         "WITH g AS (SELECT id FROM games WHERE id = $1 AND epoch = $2 FOR UPDATE), "
         "a AS (INSERT INTO actions (game_id, seq, kind, outcome, move, at_ms) "
         "SELECT g.id, $3::bigint, $4::text, $5::integer, $6::text, $7::bigint FROM g RETURNING game_id), "
         "u AS (UPDATE games SET status = 'over', result = $8::text, updated_ms = $7::bigint, guests = '' FROM a "
         "WHERE games.id = a.game_id RETURNING games.id) "
         "SELECT count(*) FROM u"},
        // A game's end forgets its guests (their names are kept no longer than the game).
        {"finish", "UPDATE games SET status = 'over', result = $2, updated_ms = $3, guests = '' WHERE id = $1 AND epoch = $4"},
        {"expire", "UPDATE games SET status = 'expired' WHERE id = $1 AND epoch = $2 AND status = 'playing'"},
        {"lease_of", "SELECT epoch, owner, lease_expires_ms FROM games WHERE id = $1"},
        {"select_game",
         "SELECT id, ruleset, opponent, level, encode(server_seed, 'hex'), client_seed0, client_seed1, seat_hash0, "
         "seat_hash1, invite_hash, created_ms, "
         // The last activity: the row's own last change or the game's last action.
         "GREATEST(updated_ms, COALESCE((SELECT at_ms FROM actions WHERE game_id = $1 ORDER BY seq DESC LIMIT 1), 0)), "
         "status, result, rematch_of, rematch, guests FROM games WHERE id = $1"},
        {"set_guests", "UPDATE games SET guests = $2 WHERE id = $1 AND epoch = $3"},
        {"select_actions", "SELECT seq, kind, outcome, move FROM actions WHERE game_id = $1 ORDER BY seq"},
        {"unfinished", "SELECT id FROM games WHERE status = 'playing'"},
        // Takes the lease when it is free, expired or already ours. The epoch moves on unless
        // this store already holds the current one ($5; -1 when it holds none).
        {"acquire",
         "UPDATE games SET epoch = CASE WHEN owner = $2 AND epoch = $5 THEN epoch ELSE epoch + 1 END, owner = $2, "
         "lease_expires_ms = $3::bigint + $4::bigint "
         "WHERE id = $1 AND (owner = $2 OR owner = '' OR lease_expires_ms <= $3::bigint) RETURNING epoch"},
        // The rows are locked in the order of their ids (then updated), as appendBatch writes:
        // a renewal and a batch in flight never wait for each other in a circle.
        {"renew",
         "WITH l AS (SELECT g.id FROM games AS g JOIN unnest($3::text[], $4::bigint[]) AS h(id, epoch) "
         "ON g.id = h.id AND g.epoch = h.epoch WHERE g.owner = $1 ORDER BY g.id FOR NO KEY UPDATE OF g) "
         "UPDATE games SET lease_expires_ms = $2 FROM l WHERE games.id = l.id RETURNING games.id"},
        {"release", "UPDATE games SET owner = '', lease_expires_ms = 0 WHERE id = $1 AND owner = $2 AND epoch = $3"},
        {"orphaned",
         "SELECT id FROM games WHERE status = 'playing' AND (owner = '' OR lease_expires_ms <= $1) "
         "ORDER BY lease_expires_ms, id LIMIT $2"},
    };
    return all;
}

}  // namespace senet::server::pg
