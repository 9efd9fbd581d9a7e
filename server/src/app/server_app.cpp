#include "server_app.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <functional>
#include <iostream>
#include <memory>
#include <thread>

#include "analysis_service.hpp"
#include "commit_queue.hpp"
#include "health_monitor.hpp"
#include "listener.hpp"
#include "log_limit.hpp"
#include "memory_storage.hpp"
#include "pool_scheduler.hpp"
#include "senet/ai_tables.hpp"
#include "senet/site.hpp"
#include "sqlite_backup.hpp"
#include "storage.hpp"
#include "seek_exchange.hpp"
#include "websocket_session.hpp"

namespace senet::server {

namespace {

std::string sqlitePath(const Config& config) { return (config.dataDir / "senet.sqlite3").string(); }

/// PostgreSQL (server/README.md, "PostgreSQL"); the SQLite flags do not apply.
std::unique_ptr<Storage> openPostgres(const Config& config, Metrics& metrics) {
    if (!config.backupDir.empty()) throw UsageError("--backup-dir backs up SQLite only; back up PostgreSQL with its own tools");
    PostgresOptions pgOptions;
    pgOptions.instance = config.instance;  // parseConfig's default: host:port
    pgOptions.leaseTtlMs = config.leaseTtl.count();
    pgOptions.poolSize = config.databasePool;
    // The registry takes every lease itself (Registry::find, server/README.md "Several instances").
    pgOptions.acquireOnLoad = false;
    pgOptions.metrics = &metrics;
    auto database = openPostgresStorage(config.database, pgOptions);
    std::cout << "senet-server: PostgreSQL storage, instance " << pgOptions.instance << std::endl;
    return database;
}

/// The database the flags name: PostgreSQL with --database, else SQLite in --data-dir.
std::unique_ptr<Storage> openDatabase(const Config& config, Metrics& metrics) {
    if (!config.database.empty()) return openPostgres(config, metrics);
    SqliteOptions dbOptions;
    dbOptions.syncFull = config.syncFull;
    dbOptions.acceptDamagedWal = config.acceptDamagedWal;
    dbOptions.acceptLostGames = config.acceptLostGames;
    dbOptions.quickCheck = config.quickCheck;
    return openSqliteStorage(sqlitePath(config), dbOptions);
}

/// The record signing key, made on the first start. After the storage: a start refused there
/// (an instance name in use) makes no key.
fairness::Signer loadSigner(const Config& config) {
    auto signer = fairness::Signer::loadOrCreate(config.dataDir / "signing-key.pem");
    if (signer.created())
        std::cout << "senet-server: made a new record signing key in " << (config.dataDir / "signing-key.pem").string() << std::endl;
    return signer;
}

/// Online backups on their own thread and connection (server/README.md), or none.
std::unique_ptr<BackupTimer> startBackups(const Config& config) {
    if (!config.backupDir.empty() &&
        std::filesystem::weakly_canonical(config.backupDir) == std::filesystem::weakly_canonical(config.dataDir / "recovery"))
        throw UsageError("--backup-dir must not be the recovery directory " + (config.dataDir / "recovery").string());
    if (config.backupDir.empty()) return nullptr;
    return std::make_unique<BackupTimer>(sqlitePath(config), config.backupDir, config.backupInterval, config.backupKeep);
}

/// Tests only (--test-fail-writes): a full disk on demand, while the file exists; else none.
std::unique_ptr<FaultyStorage> failingWrites(const Config& config, Storage& database) {
    if (config.testFailWrites.empty()) return nullptr;
    std::cerr << "senet-server: WARNING: --test-fail-writes: every write fails while " << config.testFailWrites
              << " exists (tests only)\n";
    auto faulty = std::make_unique<FaultyStorage>(database);
    faulty->setFault([path = config.testFailWrites](WriteKind kind, std::int64_t) {
        std::error_code ec;  // leases: SQLite writes none (its lease calls only answer)
        return kind != WriteKind::Lease && std::filesystem::exists(path, ec);
    });
    return faulty;
}

const std::filesystem::path& webRoot(const Config& config) {
    if (config.webRoot.empty()) throw UsageError("no web/ directory found; pass --web-root");
    return config.webRoot;
}

/// The endgame tables of --tables (every "<ruleset>.sntb" of the folder); none for "none".
/// Throws UsageError for a folder that is missing or holds no table, and for a table file that is
/// not a regular file, too large, unreadable, damaged or another ruleset's.
std::unique_ptr<ai::TableValues> loadTables(const Config& config) {
    namespace fs = std::filesystem;
    auto tables = std::make_unique<ai::TableValues>();
    if (config.tables == "none") return tables;
    std::error_code ec;
    if (!fs::is_directory(config.tables, ec)) throw UsageError("--tables: " + config.tables.string() + " is not a folder");
    for (const Ruleset* r : allRulesets()) {
        const fs::path path = config.tables / ai::tableFileName(r->id);
        if (!fs::exists(path, ec)) continue;
        // A regular file of a sane size only (the default tables are 13-16 MB): not a folder,
        // a device, a pipe or a huge file. Every problem is a bad --tables (exit 2).
        constexpr std::uintmax_t kMaxBytes = 256u << 20;
        if (!fs::is_regular_file(path, ec)) throw UsageError("--tables: " + path.string() + " is not a regular file");
        const auto size = fs::file_size(path, ec);
        if (ec || size > kMaxBytes) throw UsageError("--tables: " + path.string() + " is larger than a table can be");
        std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
        std::ifstream in(path, std::ios::binary);
        if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
            throw UsageError("--tables: cannot read " + path.string());
        const auto id = tables->addBytes(bytes);
        if (!id) throw UsageError("--tables: bad endgame table " + path.string() + ": " + id.error().message);
        if (*id != r->id) throw UsageError("--tables: " + path.string() + " holds the " + std::string(ruleset(*id).key) + " table");
        std::cout << "senet-server: endgame table " << r->key << ": " << tables->table(*id)->entryCount() << " positions"
                  << std::endl;
    }
    if (tables->empty()) throw UsageError("--tables: " + config.tables.string() + " holds no table (<ruleset>.sntb)");
    return tables;
}

AnalysisService::Options analysisOptions(const Config& config, const ai::ExactValues* exact) {
    AnalysisService::Options options;
    options.exact = exact;
    options.threads = config.analysisThreads;
    options.cacheEntries = static_cast<std::size_t>(config.analysisCache);
    return options;
}

lobby::Options lobbyOptions(const Config& config) {
    lobby::Options options;
    options.seeksPerAddress = config.lobbySeeksPerAddress;
    options.abortAfter = config.lobbyAbort;
    options.createRate = config.createRate;
    options.createBurst = config.createBurst;
    return options;
}

/// Everything that plays and answers, made in this order (and so stopped and unmade in reverse).
struct AppServices {
    AppServices(const Config& config, Storage& database, Storage& storage, Metrics& metrics, const fairness::Signer& signer)
        // GET /healthz: the database checked every second on a thread of its own (API.md).
        // SQLite: the file the store opened, not one put in its place; PostgreSQL: SELECT 1.
        : tables(loadTables(config)),
          health([&db = database] { return db.health(); }),
          site(webRoot(config), config.version, ""),
          scheduler(config.aiThreads),
          commits(storage),
          // With a store that other instances share, every game is served under its lease.
          // (PostgreSQL: any number of instances may use the database.)
          sharedStore(!config.database.empty()),
          registry(storage, metrics, scheduler, config, steadyClock(), sharedStore),
          restored(restore(registry, commits, tables->empty() ? nullptr : tables.get())),
          router(registry, site, metrics, config, &signer),
          analysis(analysisOptions(config, tables->empty() ? nullptr : tables.get())),
          lobby(std::make_shared<lobby::Lobby>(registry, scheduler, steadyClock(), lobbyOptions(config))),
          context{registry, router, metrics, config, {}} {
        router.setAnalysis(&analysis);
        router.setLobby(lobby.get());
        context.lobby = lobby.get();
        // Sharing a database, seekers of every instance are paired with each other.
        if (sharedStore) lobby->share(openPostgresSeekExchange(config.database, config.instance));
        router.setHealth(&health);
        context.connections.publishTo(&metrics.openConnections);
    }

    /// Group commit: the throws and moves of many games in one transaction (server/README.md).
    static int restore(Registry& registry, CommitQueue& commits, const ai::ExactValues* exact) {
        registry.setCommitQueue(&commits);
        registry.setExactValues(exact);
        return registry.restoreAll();
    }

    /// After the I/O threads: the worker threads stop and the last writes are made.
    void stop() {
        health.stop();
        lobby->stopSharing();  // this instance's seeks leave the other instances' boards
        analysis.stop();  // before the io_context goes: queued answers hold its sessions
        scheduler.stop();
        commits.stop();  // the last batch is committed (its rooms reply to closed connections)
        // Nothing more is written: the games' leases are handed on, so that the instances the
        // pages reconnect to take the games at once, not after a lease ttl (deploy/README.md,
        // "Rolling upgrade"). At most 3 s of the unit's 10 s stop timeout; the rest expire.
        if (sharedStore)
            if (const int n = registry.releaseAll(std::chrono::steady_clock::now() + std::chrono::seconds(3)); n > 0)
                std::cout << "senet-server: handed on " << n << " games" << std::endl;
        if (const auto c = commits.stats(); c.batches > 0)
            std::cout << "senet-server: " << c.items << " actions stored in " << c.batches << " commits (largest " << c.largest << ")"
                      << std::endl;
    }

    std::unique_ptr<ai::TableValues> tables;  ///< --tables: the endgame tables (may hold none)
    HealthMonitor health;
    senet::site::Site site;
    PoolScheduler scheduler;
    CommitQueue commits;
    const bool sharedStore;
    Registry registry;
    const int restored;
    Router router;
    AnalysisService analysis;
    std::shared_ptr<lobby::Lobby> lobby;  ///< /ws/lobby and GET /api/lobby
    ServerContext context;
};

/// The sockets and timers on the I/O threads: the listener, the sweep and lease timers, and the
/// signals that stop them.
class IoLoop {
public:
    IoLoop(const Config& config, AppServices& services)
        : config_(config),
          services_(services),
          ioc_(config.threads),
          listener_(std::make_shared<Listener>(ioc_, tcp::endpoint(net::ip::make_address(config.address), config.port),
                                               services.context)) {
        listener_->run();
        scheduleSweep();
        scheduleLeases();
        onSignals();
    }

    /// Serves on config.threads threads until a signal has stopped the io_context.
    void run() {
        std::cout << "senet-server listening on http://" << config_.address << ':' << listener_->port() << " (restored "
                  << services_.restored << " games)" << (services_.sharedStore ? " as instance " + config_.instance : std::string())
                  << std::endl;
        std::vector<std::thread> threads;
        for (int i = 1; i < config_.threads; ++i) threads.emplace_back([this] { runIo(); });
        runIo();
        for (auto& t : threads) t.join();
    }

private:
    /// Rooms nobody uses leave memory now and then (they stay in storage; a lookup restores
    /// them), so a long-running server holds only the games being played.
    void scheduleSweep() {
        sweepTimer_.expires_after(config_.sweep);
        sweepTimer_.async_wait([this](beast::error_code ec) {
            if (ec) return;
            try {
                const SweepResult r = services_.registry.sweep(config_.unloadAfter);
                if (r.expired > 0) std::cout << "senet-server: " << r.expired << " idle games expired" << std::endl;
            } catch (const std::exception& e) {
                logLimited("sweep", std::string("sweep: ") + e.what());
            }
            flushSuppressedLogs();
            scheduleSweep();
        });
    }

    /// Game leases (server/README.md "Several instances"): one renewal of every lease held,
    /// every third of the lease ttl; rooms whose game was taken over leave; games asked for
    /// while another instance held them are taken over once that lease expires.
    void scheduleLeases() {
        leaseTimer_.expires_after(config_.leaseTtl / 3);
        leaseTimer_.async_wait([this](beast::error_code ec) {
            if (ec) return;
            try {
                services_.registry.renewLeases();
                const int taken = services_.registry.takeOver();
                if (taken > 0) std::cout << "senet-server: took over " << taken << " games" << std::endl;
            } catch (const std::exception& e) {
                logLimited("lease", std::string("lease renewal: ") + e.what());
            }
            scheduleLeases();
        });
    }

    /// Graceful shutdown: stop accepting, close every WebSocket with "going away", give the
    /// close handshakes a moment, then stop.
    void onSignals() {
        signals_.async_wait([this](beast::error_code ec, int sig) {
            if (ec) return;
            std::cout << "senet-server: signal " << sig << ", shutting down" << std::endl;
            listener_->stop();
            sweepTimer_.cancel();
            leaseTimer_.cancel();
            services_.context.sessions.closeAll();
            stopTimer_.expires_after(std::chrono::milliseconds(500));
            stopTimer_.async_wait([this](beast::error_code) { ioc_.stop(); });
        });
    }

    /// Every handler catches its own exceptions; should one escape anyway, it ends only the
    /// connection it belonged to (its handler chain is dropped) and the thread runs on.
    void runIo() {
        while (true) {
            try {
                ioc_.run();
                return;
            } catch (const std::exception& e) {
                logLimited("internal error", std::string("escaped a handler: ") + e.what());
            } catch (...) {
                logLimited("internal error", "escaped a handler: unknown exception");
            }
        }
    }

    const Config& config_;
    AppServices& services_;
    net::io_context ioc_;
    std::shared_ptr<Listener> listener_;
    net::steady_timer sweepTimer_{ioc_};
    net::steady_timer leaseTimer_{ioc_};
    net::signal_set signals_{ioc_, SIGINT, SIGTERM};
    net::steady_timer stopTimer_{ioc_};
};

}  // namespace

void runServer(const Config& config) {
    std::filesystem::create_directories(config.dataDir);
    Metrics metrics;
    const std::unique_ptr<Storage> database = openDatabase(config, metrics);
    const fairness::Signer signer = loadSigner(config);
    const std::unique_ptr<BackupTimer> backups = startBackups(config);
    const std::unique_ptr<FaultyStorage> faulty = failingWrites(config, *database);
    AppServices services(config, *database, faulty ? static_cast<Storage&>(*faulty) : *database, metrics, signer);
    IoLoop io(config, services);  // unmade last of all: stopped services still hold its sessions
    io.run();
    services.stop();
    // One last backup after the last write: a restart or upgrade always has a fresh one.
    if (backups) backups->stop(true);
    std::cout << "senet-server: stopped" << std::endl;
}

}  // namespace senet::server
