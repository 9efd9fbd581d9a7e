#include "config_flags.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "connections.hpp"
#include "senet/fairness.hpp"

namespace senet::server {

namespace {

constexpr const char* kUsage =
    "usage: senet-server [flags]\n"
    "  --address A            bind address (SENET_ADDRESS, default 127.0.0.1)\n"
    "  --port N               port, 0 for any free one (SENET_PORT, default 8080)\n"
    "  --data-dir DIR         SQLite database directory (SENET_DATA_DIR, default ./data)\n"
    "  --web-root DIR         the web/ directory (SENET_WEB_ROOT, default: found near the binary or cwd)\n"
    "  --threads N            I/O threads (default 2)\n"
    "  --ai-threads N         computer player threads (default 1)\n"
    "  --grace-seconds N      offline seconds before the opponent may claim the win (default 300)\n"
    "  --computer-delay-ms N  pause before each computer action (default 400)\n"
    "  --ai-budget-ms N       time cap per computer decision (default 100)\n"
    "  --rate R --burst B     messages per second per connection and burst (default 20, 40)\n"
    "  --max-dropped N        rate-limited messages before the connection is closed (default 200)\n"
    "  --max-message BYTES    largest WebSocket message (default 4096)\n"
    "  --idle-seconds N       WebSocket idle timeout (default 60)\n"
    "  --http-timeout-seconds N  time allowed to send one HTTP request (default 30)\n"
    "  --sync full|normal     SQLite synchronous mode (default normal, see README)\n"
    "  --accept-damaged-wal   start even when the WAL left by a crash is damaged, serving what SQLite\n"
    "                         recovers (the files are copied to DATA/recovery first; default: refuse)\n"
    "  --skip-quick-check     do not run PRAGMA quick_check at start (for very large databases)\n"
    "  --backup-dir DIR       write online backups of the database to DIR (default: none)\n"
    "  --backup-minutes M     minutes between backups, fractions allowed (default 60)\n"
    "  --backup-keep K        newest backups kept (default 24)\n"
    "  --expire-days N        unfinished games idle this long expire (default 30)\n"
    "  --sweep-seconds N      how often unused games leave memory (default 60)\n"
    "  --unload-seconds N     quiet time, with nobody connected, before a game leaves memory (default 600)\n"
    "  --create-rate R --create-burst B  game creations per second per address, and burst (default 1, 20)\n"
    "  --join-rate R --join-burst B      joins per second per address, and burst (default 1, 20)\n"
    "  --max-waiting-games N  friend games not yet joined, per address (default 20)\n"
    "  --trusted-proxy A[,B]  proxies whose X-Forwarded-For names the client (default none)\n"
    "  --allow-origin O[,O]   origins besides the server's own that may open WebSockets (default none)\n"
    "  --max-queue-bytes N    unsent bytes per WebSocket before it is closed (default 1048576)\n"
    "  --max-connections N    open connections in total (default 10000)\n"
    "  --max-connections-per-address N  open connections per client address (default 64)\n"
    "  --ai-late-ms N         an expert decision starting this late plays at intermediate (default 250)\n"
    "  --ai-queue N           computer decisions queued before new computer games get 503 busy (default 1000)\n"
    "  --analysis-threads N   threads analysing finished games (default 1)\n"
    "  --analysis-rate R --analysis-burst B  analysis requests per second per address, and burst (default 0.5, 10)\n"
    "  --analysis-cache N     analyses kept in memory, least recently used dropped (default 256)\n"
    "  --database URL         PostgreSQL instead of SQLite: postgresql://user@host:port/db or\n"
    "                         postgresql:///db?host=/socket/dir; postgres:// is the same (SENET_DATABASE;\n"
    "                         default: SQLite in --data-dir)\n"
    "  --database-pool N      PostgreSQL connections, the most storage calls at once (default 4)\n"
    "  --instance NAME        this instance's name in the games' leases (SENET_INSTANCE; default: the host\n"
    "                         name and port); unique among the instances sharing one database (a second\n"
    "                         live process with a name in use refuses to start)\n"
    "  --lease-ttl MS         lifetime of a game lease, renewed every third of it (300..600000, default 5000;\n"
    "                         alias --lease-ms)\n"
    "  --test-seed HEX        TESTS ONLY: fixed 32-byte server seed for every game\n"
    "  --test-fail-writes PATH  TESTS ONLY: every storage write fails while the file PATH exists\n"
    "exit status: 0 after SIGTERM/SIGINT (or --help); 2 a bad flag, value or combination of flags;\n"
    "  3 the --instance name is held by another live process on the database; 1 any other error\n"
    "  (e.g. the database unreachable). deploy/senet-server@.service restarts on 1, not on 2 or 3\n";

/// Splits a comma-separated list, dropping empty items and surrounding spaces.
std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        std::size_t end = s.find(',', start);
        if (end == std::string::npos) end = s.size();
        std::string item = s.substr(start, end - start);
        while (!item.empty() && item.front() == ' ') item.erase(0, 1);
        while (!item.empty() && item.back() == ' ') item.pop_back();
        if (!item.empty()) out.push_back(item);
        start = end + 1;
    }
    return out;
}

bool toInt(const std::string& s, long long min, long long max, long long& out) {
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && p == end && out >= min && out <= max;
}

}  // namespace

std::filesystem::path findWebRoot(const char* argv0) {
    namespace fs = std::filesystem;
    std::error_code ec;
    std::vector<fs::path> starts;
    if (argv0) {
        fs::path exe = fs::weakly_canonical(fs::absolute(argv0, ec), ec);
        if (!ec) starts.push_back(exe.parent_path());
    }
    starts.push_back(fs::current_path(ec));
    for (fs::path dir : starts) {
        for (int up = 0; up < 4 && !dir.empty(); ++up) {
            if (fs::is_directory(dir / "web", ec)) return dir / "web";
            if (dir == dir.parent_path()) break;
            dir = dir.parent_path();
        }
    }
    return {};
}

std::optional<Config> parseConfig(int argc, char** argv, std::string& error, bool& help) {
    Config c;
    help = false;
    std::map<std::string, std::string> values;
    auto env = [&](const char* var, const char* flag) {
        if (const char* v = std::getenv(var); v && *v) values[flag] = v;
    };
    env("SENET_ADDRESS", "address");
    env("SENET_PORT", "port");
    env("SENET_DATA_DIR", "data-dir");
    env("SENET_WEB_ROOT", "web-root");
    env("SENET_DATABASE", "database");
    env("SENET_INSTANCE", "instance");
    static const char* kFlags[] = {"address", "port", "data-dir", "web-root", "threads", "ai-threads", "grace-seconds",
                                   "computer-delay-ms", "ai-budget-ms", "rate", "burst", "max-dropped", "max-message",
                                   "idle-seconds", "http-timeout-seconds", "sync", "expire-days", "sweep-seconds",
                                   "unload-seconds", "test-seed", "backup-dir", "backup-minutes", "backup-keep",
                                   "accept-damaged-wal", "skip-quick-check", "test-fail-writes", "ai-late-ms", "ai-queue",
                                   "create-rate", "create-burst", "join-rate", "join-burst",
                                   "max-waiting-games", "trusted-proxy", "allow-origin", "max-queue-bytes",
                                   "max-connections", "max-connections-per-address",
                                   "analysis-threads", "analysis-rate", "analysis-burst", "analysis-cache",
                                   "database", "database-pool", "instance", "lease-ttl"};
    // Flags that take no value.
    static const char* kSwitches[] = {"accept-damaged-wal", "skip-quick-check"};
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            help = true;
            error = kUsage;
            return std::nullopt;
        }
        if (a.rfind("--", 0) != 0) {
            error = "unexpected argument '" + a + "'\n" + kUsage;
            return std::nullopt;
        }
        std::string name = a.substr(2), value;
        bool isSwitch = false;
        for (const char* f : kSwitches) isSwitch = isSwitch || name == f;
        if (isSwitch) {
            value = "1";
        } else if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            error = "flag --" + name + " needs a value";
            return std::nullopt;
        }
        if (name == "lease-ms") name = "lease-ttl";  // one option, two spellings: the last one given counts
        bool known = false;
        for (const char* f : kFlags) known = known || name == f;
        if (!known) {
            error = "unknown flag --" + name + "\n" + kUsage;
            return std::nullopt;
        }
        values[name] = value;
    }
    auto number = [&](const char* flag, long long min, long long max, auto& out) -> bool {
        auto it = values.find(flag);
        if (it == values.end()) return true;
        long long v = 0;
        if (!toInt(it->second, min, max, v)) {
            error = "--" + std::string(flag) + " must be a whole number in " + std::to_string(min) + ".." + std::to_string(max);
            return false;
        }
        out = static_cast<std::remove_reference_t<decltype(out)>>(v);
        return true;
    };
    long long port = c.port, grace = 300, delay = 400, budget = 100, idle = 60, httpTimeout = 30, rate = 20, burst = 40,
              maxMessage = 4096, sweep = 60, unload = 600, aiLate = 250;
    if (!number("port", 0, 65535, port) || !number("threads", 1, 64, c.threads) ||
        !number("ai-threads", 1, 64, c.aiThreads) || !number("grace-seconds", 0, 86400 * 30, grace) ||
        !number("computer-delay-ms", 0, 60000, delay) || !number("ai-budget-ms", 1, 60000, budget) ||
        !number("rate", 1, 1000000, rate) || !number("burst", 1, 1000000, burst) ||
        !number("max-dropped", 1, 1000000000, c.maxDropped) || !number("max-message", 64, 1 << 20, maxMessage) ||
        !number("idle-seconds", 1, 86400, idle) || !number("http-timeout-seconds", 1, 3600, httpTimeout) ||
        !number("expire-days", 1, 36500, c.expireDays) || !number("sweep-seconds", 1, 86400, sweep) ||
        !number("unload-seconds", 1, 86400 * 30, unload) || !number("ai-late-ms", 0, 60000, aiLate) ||
        !number("ai-queue", 1, 10000000, c.aiQueue))
        return std::nullopt;
    if (values.find("instance") == values.end()) {
        char host[256] = {};
        if (gethostname(host, sizeof host - 1) != 0 || !host[0]) std::snprintf(host, sizeof host, "senet");
        // host:port: unique on a host, and the same after a restart, which so takes its own leases
        // back at once. Instances on --port 0 sharing a database need --instance.
        c.instance = std::string(host).substr(0, 40) + ":" + std::to_string(port);
    }
    auto decimal = [&](const char* flag, double min, double max, double& out) -> bool {
        auto it = values.find(flag);
        if (it == values.end()) return true;
        char* end = nullptr;
        const double v = std::strtod(it->second.c_str(), &end);
        if (it->second.empty() || end != it->second.c_str() + it->second.size() || !(v >= min && v <= max)) {
            error = "--" + std::string(flag) + " must be a number in " + std::to_string(min) + ".." + std::to_string(max);
            return false;
        }
        out = v;
        return true;
    };
    long long maxQueueBytes = static_cast<long long>(c.maxQueueBytes);
    if (!decimal("create-rate", 0.001, 1e6, c.createRate) || !decimal("create-burst", 1, 1e9, c.createBurst) ||
        !decimal("join-rate", 0.001, 1e6, c.joinRate) || !decimal("join-burst", 1, 1e9, c.joinBurst) ||
        !number("max-waiting-games", 1, 1000000000, c.maxWaitingGames) ||
        !number("max-queue-bytes", 65536, 1LL << 32, maxQueueBytes) || !number("max-connections", 1, 10000000, c.maxConnections) ||
        !number("max-connections-per-address", 1, 10000000, c.maxConnectionsPerAddress))
        return std::nullopt;
    c.maxQueueBytes = static_cast<std::size_t>(maxQueueBytes);
    if (!number("analysis-threads", 1, 64, c.analysisThreads) || !decimal("analysis-rate", 0.001, 1e6, c.analysisRate) ||
        !decimal("analysis-burst", 1, 1e9, c.analysisBurst) || !number("analysis-cache", 1, 1000000, c.analysisCache))
        return std::nullopt;
    long long leaseMs = c.leaseTtl.count();
    if (!number("database-pool", 1, 256, c.databasePool)) return std::nullopt;
    if (!number("lease-ttl", 300, 600000, leaseMs)) {
        error = "--lease-ttl (alias --lease-ms) must be a whole number in 300..600000";
        return std::nullopt;
    }
    c.leaseTtl = std::chrono::milliseconds(leaseMs);
    if (auto it = values.find("database"); it != values.end()) {
        if (!it->second.starts_with("postgresql://") && !it->second.starts_with("postgres://")) {
            error = "--database must be a postgresql:// or postgres:// URL (SQLite is the default: leave --database out)";
            return std::nullopt;
        }
        c.database = it->second;
    }
    if (auto it = values.find("instance"); it != values.end()) {
        const std::string& name = it->second;
        bool ok = !name.empty() && name.size() <= 64;
        for (char ch : name) ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.' || ch == ':');
        if (!ok) {
            error = "--instance must be 1 to 64 letters, digits, '-', '_', '.' or ':'";
            return std::nullopt;
        }
        c.instance = name;
    }
    if (auto it = values.find("trusted-proxy"); it != values.end()) {
        for (const auto& a : splitList(it->second)) {
            const std::string canonical = canonicalAddress(a);
            if (canonical.empty()) {
                error = "--trusted-proxy: '" + a + "' is not an IP address";
                return std::nullopt;
            }
            c.trustedProxies.push_back(canonical);
        }
    }
    if (auto it = values.find("allow-origin"); it != values.end()) {
        for (const auto& o : splitList(it->second)) {
            if (!(o.starts_with("http://") || o.starts_with("https://")) || o.find('/', o.find("://") + 3) != std::string::npos) {
                error = "--allow-origin: '" + o + "' is not an origin like https://example.org";
                return std::nullopt;
            }
            c.allowOrigins.push_back(o);
        }
    }
    c.port = static_cast<std::uint16_t>(port);
    c.grace = std::chrono::seconds(grace);
    c.computerDelay = std::chrono::milliseconds(delay);
    c.aiBudget = std::chrono::milliseconds(budget);
    c.idle = std::chrono::seconds(idle);
    c.httpTimeout = std::chrono::seconds(httpTimeout);
    c.rate = static_cast<double>(rate);
    c.burst = static_cast<double>(burst);
    c.maxMessage = static_cast<std::size_t>(maxMessage);
    c.sweep = std::chrono::seconds(sweep);
    c.unloadAfter = std::chrono::seconds(unload);
    c.aiLate = std::chrono::milliseconds(aiLate);
    if (auto it = values.find("address"); it != values.end()) c.address = it->second;
    if (auto it = values.find("data-dir"); it != values.end()) c.dataDir = it->second;
    if (auto it = values.find("web-root"); it != values.end()) c.webRoot = it->second;
    if (auto it = values.find("test-fail-writes"); it != values.end()) c.testFailWrites = it->second;
    if (c.webRoot.empty()) c.webRoot = findWebRoot(argc > 0 ? argv[0] : nullptr);
    if (auto it = values.find("sync"); it != values.end()) {
        if (it->second != "full" && it->second != "normal") {
            error = "--sync must be full or normal";
            return std::nullopt;
        }
        c.syncFull = it->second == "full";
    }
    c.acceptDamagedWal = values.count("accept-damaged-wal") > 0;
    c.quickCheck = values.count("skip-quick-check") == 0;
    if (auto it = values.find("backup-dir"); it != values.end()) c.backupDir = it->second;
    if (!number("backup-keep", 1, 100000, c.backupKeep)) return std::nullopt;
    if (auto it = values.find("backup-minutes"); it != values.end()) {
        // Fractions allowed (tests use seconds); at least one second, at most a week.
        char* end = nullptr;
        const double minutes = std::strtod(it->second.c_str(), &end);
        if (it->second.empty() || end != it->second.c_str() + it->second.size() || !(minutes * 60 >= 1) || minutes > 7 * 24 * 60) {
            error = "--backup-minutes must be a number of minutes from 0.0167 (one second) to 10080";
            return std::nullopt;
        }
        c.backupInterval = std::chrono::milliseconds(static_cast<long long>(minutes * 60000 + 0.5));
    }
    if (auto it = values.find("test-seed"); it != values.end()) {
        auto bytes = fairness::fromHex(it->second);
        if (!bytes || bytes->size() != fairness::kServerSeedBytes) {
            error = "--test-seed must be 64 hex digits";
            return std::nullopt;
        }
        c.testSeed = std::move(*bytes);
    }
    return c;
}

}  // namespace senet::server
