// senet-server: HTTP pages, the JSON API and WebSocket play on one port. server/README.md.
#include <csignal>
#include <filesystem>
#include <functional>
#include <iostream>
#include <thread>

#include "analysis_service.hpp"
#include "config_flags.hpp"
#include "commit_queue.hpp"
#include "health_monitor.hpp"
#include "listener.hpp"
#include "memory_storage.hpp"
#include "pool_scheduler.hpp"
#include "log_limit.hpp"
#include "senet/site.hpp"
#include "sqlite_backup.hpp"
#include "storage.hpp"
#include "websocket_session.hpp"

using namespace senet::server;

namespace {

/// Exit statuses (server/README.md, "Exit status"; --help). A supervisor restarts on kError
/// (the database may come back, a port be freed) but not on kUsage or kInstanceInUse, which a
/// restart with the same flags cannot cure (deploy/senet-server@.service,
/// RestartPreventExitStatus=).
constexpr int kStopped = 0;
constexpr int kError = 1;
constexpr int kUsage = 2;
constexpr int kInstanceInUse = 3;

/// A combination of flags found unusable after parsing (the same case as a bad flag: kUsage).
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace

int main(int argc, char** argv) {
    std::string error;
    bool help = false;
    auto config = parseConfig(argc, argv, error, help);
    if (!config) {
        (help ? std::cout : std::cerr) << (help ? "" : "senet-server: ") << error << (help ? "" : "\n");
        return help ? kStopped : kUsage;
    }
    if (config->testSeed) std::cerr << "senet-server: WARNING: --test-seed: every game uses the same server seed (tests only)\n";
    try {
        std::filesystem::create_directories(config->dataDir);
        const std::string dbPath = (config->dataDir / "senet.sqlite3").string();
        Metrics metrics;
        std::unique_ptr<Storage> database;
        if (!config->database.empty()) {
            // PostgreSQL (server/README.md, "PostgreSQL"); the SQLite flags do not apply.
            if (!config->backupDir.empty()) throw UsageError("--backup-dir backs up SQLite only; back up PostgreSQL with its own tools");
            PostgresOptions pgOptions;
            pgOptions.instance = config->instance;  // parseConfig's default: host:port
            pgOptions.leaseTtlMs = config->leaseTtl.count();
            pgOptions.poolSize = config->databasePool;
            // The registry takes every lease itself (Registry::find, server/README.md "Several instances").
            pgOptions.acquireOnLoad = false;
            pgOptions.metrics = &metrics;
            database = openPostgresStorage(config->database, pgOptions);
            std::cout << "senet-server: PostgreSQL storage, instance " << pgOptions.instance << std::endl;
        } else {
            SqliteOptions dbOptions;
            dbOptions.syncFull = config->syncFull;
            dbOptions.acceptDamagedWal = config->acceptDamagedWal;
            dbOptions.quickCheck = config->quickCheck;
            database = openSqliteStorage(dbPath, dbOptions);
        }
        // After the storage: a start refused there (an instance name in use) makes no key.
        const auto signer = senet::fairness::Signer::loadOrCreate(config->dataDir / "signing-key.pem");
        if (signer.created()) std::cout << "senet-server: made a new record signing key in " << (config->dataDir / "signing-key.pem").string() << std::endl;
        // Online backups on their own thread and connection (server/README.md).
        std::unique_ptr<BackupTimer> backups;
        if (!config->backupDir.empty() && std::filesystem::weakly_canonical(config->backupDir) ==
                                              std::filesystem::weakly_canonical(config->dataDir / "recovery"))
            throw UsageError("--backup-dir must not be the recovery directory " + (config->dataDir / "recovery").string());
        if (!config->backupDir.empty())
            backups = std::make_unique<BackupTimer>(dbPath, config->backupDir, config->backupInterval, config->backupKeep);
        std::unique_ptr<FaultyStorage> faulty;
        if (!config->testFailWrites.empty()) {
            // Tests only: a full disk on demand, while the file exists.
            std::cerr << "senet-server: WARNING: --test-fail-writes: every write fails while " << config->testFailWrites
                      << " exists (tests only)\n";
            faulty = std::make_unique<FaultyStorage>(*database);
            faulty->setFault([path = config->testFailWrites](WriteKind kind, std::int64_t) {
                std::error_code ec;  // leases: SQLite writes none (its lease calls only answer)
                return kind != WriteKind::Lease && std::filesystem::exists(path, ec);
            });
        }
        Storage& storage = faulty ? static_cast<Storage&>(*faulty) : *database;
        // GET /healthz: the database checked every second on a thread of its own (API.md).
        // SQLite: the file the store opened, not one put in its place; PostgreSQL: SELECT 1.
        HealthMonitor health([&db = *database] { return db.health(); });
        if (config->webRoot.empty()) throw UsageError("no web/ directory found; pass --web-root");
        senet::site::Site site(config->webRoot, config->version, "");
        PoolScheduler scheduler(config->aiThreads);
        // Group commit: the throws and moves of many games in one transaction (server/README.md).
        CommitQueue commits(storage);
        // With a store that other instances share, every game is served under its lease.
        // (PostgreSQL: any number of instances may use the database.)
        const bool sharedStore = !config->database.empty();
        Registry registry(storage, metrics, scheduler, *config, steadyClock(), sharedStore);
        registry.setCommitQueue(&commits);
        const int restored = registry.restoreAll();
        Router router(registry, site, metrics, *config, &signer);
        AnalysisService::Options analysisOptions;
        analysisOptions.threads = config->analysisThreads;
        analysisOptions.cacheEntries = static_cast<std::size_t>(config->analysisCache);
        AnalysisService analysis(analysisOptions);
        router.setAnalysis(&analysis);
        router.setHealth(&health);
        ServerContext context{registry, router, metrics, *config, {}};
        context.connections.publishTo(&metrics.openConnections);

        net::io_context ioc(config->threads);
        auto listener = std::make_shared<Listener>(ioc, tcp::endpoint(net::ip::make_address(config->address), config->port), context);
        listener->run();

        // Rooms nobody uses leave memory now and then (they stay in storage; a lookup restores
        // them), so a long-running server holds only the games being played.
        net::steady_timer sweepTimer(ioc);
        std::function<void()> scheduleSweep = [&] {
            sweepTimer.expires_after(config->sweep);
            sweepTimer.async_wait([&](beast::error_code ec) {
                if (ec) return;
                try {
                    const SweepResult r = registry.sweep(config->unloadAfter);
                    if (r.expired > 0) std::cout << "senet-server: " << r.expired << " idle games expired" << std::endl;
                } catch (const std::exception& e) {
                    logLimited("sweep", std::string("sweep: ") + e.what());
                }
                flushSuppressedLogs();
                scheduleSweep();
            });
        };
        scheduleSweep();

        // Game leases (server/README.md "Several instances"): one renewal of every lease held,
        // every third of the lease ttl; rooms whose game was taken over leave; games asked for
        // while another instance held them are taken over once that lease expires.
        net::steady_timer leaseTimer(ioc);
        std::function<void()> scheduleLeases = [&] {
            leaseTimer.expires_after(config->leaseTtl / 3);
            leaseTimer.async_wait([&](beast::error_code ec) {
                if (ec) return;
                try {
                    registry.renewLeases();
                    const int taken = registry.takeOver();
                    if (taken > 0) std::cout << "senet-server: took over " << taken << " games" << std::endl;
                } catch (const std::exception& e) {
                    logLimited("lease", std::string("lease renewal: ") + e.what());
                }
                scheduleLeases();
            });
        };
        scheduleLeases();

        // Graceful shutdown: stop accepting, close every WebSocket with "going away", give the
        // close handshakes a moment, then stop.
        net::signal_set signals(ioc, SIGINT, SIGTERM);
        net::steady_timer stopTimer(ioc);
        signals.async_wait([&](beast::error_code ec, int sig) {
            if (ec) return;
            std::cout << "senet-server: signal " << sig << ", shutting down" << std::endl;
            listener->stop();
            sweepTimer.cancel();
            leaseTimer.cancel();
            context.sessions.closeAll();
            stopTimer.expires_after(std::chrono::milliseconds(500));
            stopTimer.async_wait([&](beast::error_code) { ioc.stop(); });
        });

        std::cout << "senet-server listening on http://" << config->address << ':' << listener->port() << " (restored "
                  << restored << " games)" << (sharedStore ? " as instance " + config->instance : std::string()) << std::endl;
        // Every handler catches its own exceptions; should one escape anyway, it ends only the
        // connection it belonged to (its handler chain is dropped) and the thread runs on.
        auto runIo = [&ioc] {
            while (true) {
                try {
                    ioc.run();
                    return;
                } catch (const std::exception& e) {
                    logLimited("internal error", std::string("escaped a handler: ") + e.what());
                } catch (...) {
                    logLimited("internal error", "escaped a handler: unknown exception");
                }
            }
        };
        std::vector<std::thread> threads;
        for (int i = 1; i < config->threads; ++i) threads.emplace_back(runIo);
        runIo();
        for (auto& t : threads) t.join();
        health.stop();
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
            std::cout << "senet-server: " << c.items << " actions stored in " << c.batches << " commits (largest "
                      << c.largest << ")" << std::endl;
        // One last backup after the last write: a restart or upgrade always has a fresh one.
        if (backups) backups->stop(true);
        std::cout << "senet-server: stopped" << std::endl;
    } catch (const InstanceNameInUse& e) {
        std::cerr << "senet-server: " << e.what() << '\n';
        return kInstanceInUse;
    } catch (const UsageError& e) {
        std::cerr << "senet-server: " << e.what() << '\n';
        return kUsage;
    } catch (const std::exception& e) {
        std::cerr << "senet-server: " << e.what() << '\n';
        return kError;
    }
    return kStopped;
}
