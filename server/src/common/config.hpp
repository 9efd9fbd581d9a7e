// The server's settings, one value shared by every part (app/config_flags.hpp reads them from
// the command line and the environment).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace senet::server {

/// Everything `senet-server` can be told at start. Defaults in the member initialisers.
struct Config {
    std::string address = "127.0.0.1";          ///< --address / SENET_ADDRESS
    std::uint16_t port = 8080;                  ///< --port / SENET_PORT; 0 picks a free port
    std::filesystem::path dataDir = "data";     ///< --data-dir / SENET_DATA_DIR: holds senet.sqlite3
    std::filesystem::path webRoot;              ///< --web-root / SENET_WEB_ROOT: the web/ directory
    int threads = 2;                            ///< --threads: I/O threads
    int aiThreads = 1;                          ///< --ai-threads: threads for the computer's decisions
    std::chrono::seconds grace{300};            ///< --grace-seconds: offline time before `claim` is allowed
    std::chrono::milliseconds computerDelay{400};  ///< --computer-delay-ms: pause before each computer action
    std::chrono::milliseconds aiBudget{100};    ///< --ai-budget-ms: wall-clock cap per computer decision
    double rate = 20;                           ///< --rate: messages per second per connection
    double burst = 40;                          ///< --burst: bucket size of the rate limit
    int maxDropped = 200;                       ///< --max-dropped: rate-limited messages before closing
    std::size_t maxMessage = 4096;              ///< --max-message: bytes per WebSocket message
    std::chrono::seconds idle{60};              ///< --idle-seconds: WebSocket idle timeout
    std::chrono::seconds httpTimeout{30};       ///< --http-timeout-seconds: time to read one HTTP request
    bool syncFull = false;                      ///< --sync full|normal: SQLite synchronous mode
    bool acceptDamagedWal = false;              ///< --accept-damaged-wal: serve what SQLite recovers from a damaged WAL
    bool acceptLostGames = false;               ///< --accept-lost-games: start though the database or WAL with the games is gone
    bool quickCheck = true;                     ///< off with --skip-quick-check: PRAGMA quick_check at start
    std::filesystem::path backupDir;            ///< --backup-dir: online backups go here ("" = none)
    std::chrono::milliseconds backupInterval{60 * 60 * 1000};  ///< --backup-minutes (fractions allowed)
    int backupKeep = 24;                        ///< --backup-keep: newest backups kept
    int expireDays = 30;                        ///< --expire-days: unfinished games idle this long expire
    std::chrono::seconds sweep{60};             ///< --sweep-seconds: how often rooms nobody uses leave memory
    std::chrono::seconds unloadAfter{600};      ///< --unload-seconds: quiet time before an unused room leaves memory
    double createRate = 1;                      ///< --create-rate: POST /api/games per second per address (refill)
    double createBurst = 20;                    ///< --create-burst: creations per address at once
    double joinRate = 1;                        ///< --join-rate: joins per second per address (refill)
    double joinBurst = 20;                      ///< --join-burst: joins per address at once
    int maxWaitingGames = 20;                   ///< --max-waiting-games: friend games not yet joined, per address
    int lobbySeeksPerAddress = 20;              ///< --lobby-seeks-per-address: open lobby seeks per client address
    std::chrono::seconds lobbyAbort{30};        ///< --lobby-abort-seconds: a paired game with no throw by then is aborted
    std::vector<std::string> trustedProxies;    ///< --trusted-proxy A[,B]: peers whose X-Forwarded-For is believed (canonical)
    std::vector<std::string> allowOrigins;      ///< --allow-origin O[,O]: extra origins allowed to open WebSockets
    std::size_t maxQueueBytes = 1 << 20;        ///< --max-queue-bytes: unsent bytes per WebSocket before it is closed
    int maxConnections = 10000;                 ///< --max-connections: open connections in total
    int maxConnectionsPerAddress = 64;          ///< --max-connections-per-address: open connections per client address
    std::optional<std::vector<std::uint8_t>> testSeed;  ///< --test-seed HEX (tests only): fixed server seed
    std::filesystem::path testFailWrites;       ///< --test-fail-writes PATH (tests only): every write fails while PATH exists
    std::chrono::milliseconds aiLate{250};      ///< --ai-late-ms: an expert decision starting later than this plays at intermediate
    int aiQueue = 1000;                         ///< --ai-queue: computer decisions queued before new computer games get 503 busy
    int analysisThreads = 1;                    ///< --analysis-threads: threads for GET /api/games/{id}/analysis
    double analysisRate = 0.5;                  ///< --analysis-rate: analysis requests per second per address (refill)
    double analysisBurst = 10;                  ///< --analysis-burst: analysis requests per address at once
    int analysisCache = 256;                    ///< --analysis-cache: analyses kept in memory (LRU)
    std::string database;                       ///< --database / SENET_DATABASE: postgresql://… ("" = SQLite in --data-dir)
    int databasePool = 4;                       ///< --database-pool: PostgreSQL connections
    std::string instance;                       ///< --instance NAME / SENET_INSTANCE: this instance's name in game leases (default hostname:port)
    std::chrono::milliseconds leaseTtl{5000};   ///< --lease-ttl MS (alias --lease-ms): a game lease's lifetime, renewed every third of it
    /// --tables DIR|none / SENET_TABLES: the folder of the endgame tables ("<ruleset>.sntb", as the
    /// build writes them into build/tables); "" = build/tables found near the binary, if any;
    /// "none" = no tables.
    std::filesystem::path tables;
    std::string version = "0.1.0";
};

}  // namespace senet::server
