#include "config_flags.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string_view>
#include <type_traits>
#include <variant>

#include "connections.hpp"
#include "senet/fairness.hpp"

namespace senet::server {

namespace {

/// What a flag's value is and how it is checked.
enum class Kind {
    Text,     ///< any text, kept as given
    Whole,    ///< a whole number in min..max
    Decimal,  ///< a number in min..max, fractions allowed
    On,       ///< takes no value; sets its bool member
    Off,      ///< takes no value; clears its bool member
    Custom,   ///< checked and applied by its own function (`apply`)
};

/// The Config member a flag sets (none for Custom flags, whose function sets it).
using Member = std::variant<std::monostate, std::string Config::*, std::filesystem::path Config::*, bool Config::*, int Config::*,
                            double Config::*, std::size_t Config::*, std::uint16_t Config::*, std::chrono::seconds Config::*,
                            std::chrono::milliseconds Config::*>;

/// A Custom flag's check: sets its part of the Config or writes `error` and returns false.
using Apply = bool (*)(const std::string& value, Config& c, std::string& error);

/// One flag. The usage text, the unknown-flag check and the parsing all come from kFlags.
struct Flag {
    const char* name;     ///< spelled --name
    const char* metavar;  ///< the value's placeholder in the usage text ("" for On/Off)
    const char* help;     ///< its usage line ("\n" starts an indented one); nullptr: on the line of the flag before
    Kind kind;
    Member member{};
    double min = 0, max = 0;      ///< Whole, Decimal: the range allowed
    const char* env = nullptr;    ///< the environment variable that sets it too (a flag given wins)
    Apply apply = nullptr;        ///< Custom
    const char* alias = nullptr;  ///< another spelling: the last of the two given counts
    /// The order values are checked in (the first bad one is reported), that of the parser this
    /// table replaced; 0 for flags whose value is never refused.
    int check = 0;
};

bool applySync(const std::string& v, Config& c, std::string& error);
bool applyBackupMinutes(const std::string& v, Config& c, std::string& error);
bool applyTrustedProxy(const std::string& v, Config& c, std::string& error);
bool applyAllowOrigin(const std::string& v, Config& c, std::string& error);
bool applyDatabase(const std::string& v, Config& c, std::string& error);
bool applyInstance(const std::string& v, Config& c, std::string& error);
bool applyTestSeed(const std::string& v, Config& c, std::string& error);

using K = Kind;
using C = Config;

// clang-format off
const Flag kFlags[] = {
    {"address", "A", "bind address (SENET_ADDRESS, default 127.0.0.1)", K::Text, &C::address, 0, 0, "SENET_ADDRESS"},
    {"port", "N", "port, 0 for any free one (SENET_PORT, default 8080)", K::Whole, &C::port, 0, 65535, "SENET_PORT", nullptr, nullptr, 1},
    {"data-dir", "DIR", "SQLite database directory (SENET_DATA_DIR, default ./data)", K::Text, &C::dataDir, 0, 0, "SENET_DATA_DIR"},
    {"web-root", "DIR", "the web/ directory (SENET_WEB_ROOT, default: found near the binary or cwd)", K::Text, &C::webRoot, 0, 0,
     "SENET_WEB_ROOT"},
    {"tables", "DIR", "endgame tables folder, or none (SENET_TABLES, default: the build's tables/\n"
                      "found near the binary)", K::Text, &C::tables, 0, 0, "SENET_TABLES"},
    {"threads", "N", "I/O threads (default 2)", K::Whole, &C::threads, 1, 64, nullptr, nullptr, nullptr, 2},
    {"ai-threads", "N", "computer player threads (default 1)", K::Whole, &C::aiThreads, 1, 64, nullptr, nullptr, nullptr, 3},
    {"grace-seconds", "N", "offline seconds before the opponent may claim the win (default 300)", K::Whole, &C::grace, 0, 86400 * 30,
     nullptr, nullptr, nullptr, 4},
    {"computer-delay-ms", "N", "pause before each computer action (default 400)", K::Whole, &C::computerDelay, 0, 60000, nullptr,
     nullptr, nullptr, 5},
    {"ai-budget-ms", "N", "time cap per computer decision (default 100)", K::Whole, &C::aiBudget, 1, 60000, nullptr, nullptr, nullptr, 6},
    {"rate", "R", "messages per second per connection and burst (default 20, 40)", K::Whole, &C::rate, 1, 1000000, nullptr, nullptr,
     nullptr, 7},
    {"burst", "B", nullptr, K::Whole, &C::burst, 1, 1000000, nullptr, nullptr, nullptr, 8},
    {"max-dropped", "N", "rate-limited messages before the connection is closed (default 200)", K::Whole, &C::maxDropped, 1, 1000000000,
     nullptr, nullptr, nullptr, 9},
    {"max-message", "BYTES", "largest WebSocket message (default 4096)", K::Whole, &C::maxMessage, 64, 1 << 20, nullptr, nullptr, nullptr,
     10},
    {"idle-seconds", "N", "WebSocket idle timeout (default 60)", K::Whole, &C::idle, 1, 86400, nullptr, nullptr, nullptr, 11},
    {"http-timeout-seconds", "N", "time allowed to send one HTTP request (default 30)", K::Whole, &C::httpTimeout, 1, 3600, nullptr,
     nullptr, nullptr, 12},
    {"sync", "full|normal", "SQLite synchronous mode (default normal, see README)", K::Custom, {}, 0, 0, nullptr, applySync, nullptr, 36},
    {"accept-damaged-wal", "", "start even when the WAL left by a crash is damaged, serving what SQLite\n"
                               "recovers (the files are copied to DATA/recovery first; default: refuse)", K::On, &C::acceptDamagedWal},
    {"accept-lost-games", "", "start even when the database that has held games is missing, empty or another\n"
                              "one, or its WAL is missing or empty after an unclean stop; logs what is lost\n"
                              "(default: refuse, see server/README.md Recovery)", K::On, &C::acceptLostGames},
    {"skip-quick-check", "", "do not run PRAGMA quick_check at start (for very large databases)", K::Off, &C::quickCheck},
    {"backup-dir", "DIR", "write online backups of the database to DIR (default: none)", K::Text, &C::backupDir},
    {"backup-minutes", "M", "minutes between backups, fractions allowed (default 60)", K::Custom, {}, 0, 0, nullptr, applyBackupMinutes,
     nullptr, 38},
    {"backup-keep", "K", "newest backups kept (default 24)", K::Whole, &C::backupKeep, 1, 100000, nullptr, nullptr, nullptr, 37},
    {"expire-days", "N", "unfinished games idle this long expire (default 30)", K::Whole, &C::expireDays, 1, 36500, nullptr, nullptr,
     nullptr, 13},
    {"sweep-seconds", "N", "how often unused games leave memory (default 60)", K::Whole, &C::sweep, 1, 86400, nullptr, nullptr, nullptr, 14},
    {"unload-seconds", "N", "quiet time, with nobody connected, before a game leaves memory (default 600)", K::Whole, &C::unloadAfter, 1,
     86400 * 30, nullptr, nullptr, nullptr, 15},
    {"create-rate", "R", "game creations per second per address, and burst (default 1, 20)", K::Decimal, &C::createRate, 0.001, 1e6,
     nullptr, nullptr, nullptr, 18},
    {"create-burst", "B", nullptr, K::Decimal, &C::createBurst, 1, 1e9, nullptr, nullptr, nullptr, 19},
    // (Four spaces more: aligned with the line above.)
    {"join-rate", "R", "    joins per second per address, and burst (default 1, 20)", K::Decimal, &C::joinRate, 0.001, 1e6, nullptr, nullptr,
     nullptr, 20},
    {"join-burst", "B", nullptr, K::Decimal, &C::joinBurst, 1, 1e9, nullptr, nullptr, nullptr, 21},
    {"max-waiting-games", "N", "friend games not yet joined, per address (default 20)", K::Whole, &C::maxWaitingGames, 1, 1000000000,
     nullptr, nullptr, nullptr, 22},
    {"lobby-seeks-per-address", "N", "open lobby seeks per address (default 20)", K::Whole, &C::lobbySeeksPerAddress, 1, 1000000000,
     nullptr, nullptr, nullptr, 40},
    {"lobby-abort-seconds", "N", "seconds a paired lobby game may wait for its first throw (default 30)", K::Whole, &C::lobbyAbort,
     1, 3600, nullptr, nullptr, nullptr, 41},
    {"trusted-proxy", "A[,B]", "proxies whose X-Forwarded-For names the client (default none)", K::Custom, {}, 0, 0, nullptr,
     applyTrustedProxy, nullptr, 34},
    {"allow-origin", "O[,O]", "origins besides the server's own that may open WebSockets (default none)", K::Custom, {}, 0, 0, nullptr,
     applyAllowOrigin, nullptr, 35},
    {"max-queue-bytes", "N", "unsent bytes per WebSocket before it is closed (default 1048576)", K::Whole, &C::maxQueueBytes, 65536,
     1LL << 32, nullptr, nullptr, nullptr, 23},
    {"max-connections", "N", "open connections in total (default 10000)", K::Whole, &C::maxConnections, 1, 10000000, nullptr, nullptr,
     nullptr, 24},
    {"max-connections-per-address", "N", "open connections per client address (default 64)", K::Whole, &C::maxConnectionsPerAddress, 1,
     10000000, nullptr, nullptr, nullptr, 25},
    {"ai-late-ms", "N", "an expert decision starting this late plays at intermediate (default 250)", K::Whole, &C::aiLate, 0, 60000,
     nullptr, nullptr, nullptr, 16},
    {"ai-queue", "N", "computer decisions queued before new computer games get 503 busy (default 1000)", K::Whole, &C::aiQueue, 1,
     10000000, nullptr, nullptr, nullptr, 17},
    {"analysis-threads", "N", "threads analysing finished games (default 1)", K::Whole, &C::analysisThreads, 1, 64, nullptr, nullptr,
     nullptr, 26},
    {"analysis-rate", "R", "analysis requests per second per address, and burst (default 0.5, 10)", K::Decimal, &C::analysisRate, 0.001,
     1e6, nullptr, nullptr, nullptr, 27},
    {"analysis-burst", "B", nullptr, K::Decimal, &C::analysisBurst, 1, 1e9, nullptr, nullptr, nullptr, 28},
    {"analysis-cache", "N", "analyses kept in memory, least recently used dropped (default 256)", K::Whole, &C::analysisCache, 1, 1000000,
     nullptr, nullptr, nullptr, 29},
    {"database", "URL", "PostgreSQL instead of SQLite: postgresql://user@host:port/db or\n"
                        "postgresql:///db?host=/socket/dir; postgres:// is the same (SENET_DATABASE;\n"
                        "default: SQLite in --data-dir)", K::Custom, {}, 0, 0, "SENET_DATABASE", applyDatabase, nullptr, 32},
    {"database-pool", "N", "PostgreSQL connections, the most storage calls at once (default 4)", K::Whole, &C::databasePool, 1, 256,
     nullptr, nullptr, nullptr, 30},
    {"instance", "NAME", "this instance's name in the games' leases (SENET_INSTANCE; default: the host\n"
                         "name and port); unique among the instances sharing one database (a second\n"
                         "live process with a name in use refuses to start)", K::Custom, {}, 0, 0, "SENET_INSTANCE", applyInstance,
     nullptr, 33},
    {"lease-ttl", "MS", "lifetime of a game lease, renewed every third of it (300..600000, default 5000;\n"
                        "alias --lease-ms)", K::Whole, &C::leaseTtl, 300, 600000, nullptr, nullptr, "lease-ms", 31},
    {"test-seed", "HEX", "TESTS ONLY: fixed 32-byte server seed for every game", K::Custom, {}, 0, 0, nullptr, applyTestSeed, nullptr, 39},
    {"test-fail-writes", "PATH", "TESTS ONLY: every storage write fails while the file PATH exists", K::Text, &C::testFailWrites},
};
// clang-format on

constexpr const char* kExitStatus =
    "exit status: 0 after SIGTERM/SIGINT (or --help); 2 a bad flag, value or combination of flags;\n"
    "  3 the --instance name is held by another live process on the database; 1 any other error\n"
    "  (e.g. the database unreachable). deploy/senet-server@.service restarts on 1, not on 2 or 3\n";

/// Where a flag's description starts in the usage text, and the indent of its further lines.
constexpr std::size_t kHelpColumn = 25;

/// "--name METAVAR", as the usage text spells a flag.
std::string spelling(const Flag& f) {
    std::string s = "--";
    s += f.name;
    if (*f.metavar) (s += ' ') += f.metavar;
    return s;
}

std::string buildUsage() {
    std::string out = "usage: senet-server [flags]\n";
    const std::size_t n = std::size(kFlags);
    for (std::size_t i = 0; i < n; ++i) {
        if (!kFlags[i].help) continue;  // written on the line of the flag before
        std::string line = "  ";
        line += spelling(kFlags[i]);
        for (std::size_t j = i + 1; j < n && !kFlags[j].help; ++j) (line += ' ') += spelling(kFlags[j]);
        line.resize(std::max(line.size() + 2, kHelpColumn), ' ');
        for (const char* p = kFlags[i].help; *p; ++p) {
            line += *p;
            if (*p == '\n') line.append(kHelpColumn, ' ');
        }
        out += line + "\n";
    }
    return out + kExitStatus;
}

const std::string& usage() {
    static const std::string text = buildUsage();
    return text;
}

/// The flag spelled `name` (or, with `aliases`, one of its other spellings), or nullptr.
const Flag* findFlag(std::string_view name, bool aliases) {
    for (const Flag& f : kFlags)
        if (name == f.name || (aliases && f.alias && name == f.alias)) return &f;
    return nullptr;
}

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

/// A number with nothing after it ("" is none).
bool toDouble(const std::string& s, double& out) {
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return !s.empty() && end == s.c_str() + s.size();
}

bool applySync(const std::string& v, Config& c, std::string& error) {
    if (v != "full" && v != "normal") {
        error = "--sync must be full or normal";
        return false;
    }
    c.syncFull = v == "full";
    return true;
}

bool applyBackupMinutes(const std::string& v, Config& c, std::string& error) {
    // Fractions allowed (tests use seconds); at least one second, at most a week.
    double minutes = 0;
    if (!toDouble(v, minutes) || !(minutes * 60 >= 1) || minutes > 7 * 24 * 60) {
        error = "--backup-minutes must be a number of minutes from 0.0167 (one second) to 10080";
        return false;
    }
    c.backupInterval = std::chrono::milliseconds(static_cast<long long>(minutes * 60000 + 0.5));
    return true;
}

bool applyTrustedProxy(const std::string& v, Config& c, std::string& error) {
    for (const auto& a : splitList(v)) {
        const std::string canonical = canonicalAddress(a);
        if (canonical.empty()) {
            error = "--trusted-proxy: '" + a + "' is not an IP address";
            return false;
        }
        c.trustedProxies.push_back(canonical);
    }
    return true;
}

bool applyAllowOrigin(const std::string& v, Config& c, std::string& error) {
    for (const auto& o : splitList(v)) {
        if (!(o.starts_with("http://") || o.starts_with("https://")) || o.find('/', o.find("://") + 3) != std::string::npos) {
            error = "--allow-origin: '" + o + "' is not an origin like https://example.org";
            return false;
        }
        c.allowOrigins.push_back(o);
    }
    return true;
}

bool applyDatabase(const std::string& v, Config& c, std::string& error) {
    if (!v.starts_with("postgresql://") && !v.starts_with("postgres://")) {
        error = "--database must be a postgresql:// or postgres:// URL (SQLite is the default: leave --database out)";
        return false;
    }
    c.database = v;
    return true;
}

bool applyInstance(const std::string& v, Config& c, std::string& error) {
    bool ok = !v.empty() && v.size() <= 64;
    for (char ch : v) ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.' || ch == ':');
    if (!ok) {
        error = "--instance must be 1 to 64 letters, digits, '-', '_', '.' or ':'";
        return false;
    }
    c.instance = v;
    return true;
}

bool applyTestSeed(const std::string& v, Config& c, std::string& error) {
    auto bytes = fairness::fromHex(v);
    if (!bytes || bytes->size() != fairness::kServerSeedBytes) {
        error = "--test-seed must be 64 hex digits";
        return false;
    }
    c.testSeed = std::move(*bytes);
    return true;
}

/// Stores a checked number in a Config member of whichever type it has.
template <class T, class V>
void store(T& out, V v) {
    if constexpr (std::is_same_v<T, std::chrono::seconds> || std::is_same_v<T, std::chrono::milliseconds>)
        out = T(static_cast<long long>(v));
    else if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
        out = static_cast<T>(v);
}

/// Sets the flag's member to `value` (a Text flag's, or a number already checked).
template <class V>
void setMember(const Flag& f, Config& c, const V& value) {
    std::visit(
        [&](auto member) {
            using M = decltype(member);
            if constexpr (!std::is_same_v<M, std::monostate>) {
                auto& out = c.*member;
                using T = std::remove_reference_t<decltype(out)>;
                if constexpr (std::is_same_v<T, bool>)
                    out = f.kind == Kind::On;
                else if constexpr (std::is_same_v<V, std::string>) {
                    if constexpr (std::is_assignable_v<T&, const std::string&>) out = value;
                } else
                    store(out, value);
            }
        },
        f.member);
}

/// Checks one flag's value and sets its part of `c`, or writes `error` and returns false.
bool applyFlag(const Flag& f, const std::string& value, Config& c, std::string& error) {
    switch (f.kind) {
        case Kind::Whole: {
            long long v = 0;
            if (!toInt(value, static_cast<long long>(f.min), static_cast<long long>(f.max), v)) {
                error = "--" + std::string(f.name) + (f.alias ? std::string(" (alias --") + f.alias + ")" : std::string()) +
                        " must be a whole number in " + std::to_string(static_cast<long long>(f.min)) + ".." +
                        std::to_string(static_cast<long long>(f.max));
                return false;
            }
            setMember(f, c, v);
            return true;
        }
        case Kind::Decimal: {
            double v = 0;
            if (!toDouble(value, v) || !(v >= f.min && v <= f.max)) {
                error = "--" + std::string(f.name) + " must be a number in " + std::to_string(f.min) + ".." + std::to_string(f.max);
                return false;
            }
            setMember(f, c, v);
            return true;
        }
        case Kind::Custom:
            return f.apply(value, c, error);
        case Kind::Text:
        case Kind::On:
        case Kind::Off:
            setMember(f, c, value);
            return true;
    }
    return true;
}

/// The values given, by flag name: first the environment's, then argv's (the last one counts).
/// False on a bad command line (`error` says why) or `--help` (`help`, `error` the usage).
bool readValues(int argc, char** argv, std::map<std::string, std::string>& values, std::string& error, bool& help) {
    for (const Flag& f : kFlags)
        if (f.env)
            if (const char* v = std::getenv(f.env); v && *v) values[f.name] = v;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            help = true;
            error = usage();
            return false;
        }
        if (a.rfind("--", 0) != 0) {
            error = "unexpected argument '" + a + "'\n" + usage();
            return false;
        }
        std::string name = a.substr(2), value;
        const Flag* exact = findFlag(name, false);
        if (exact && (exact->kind == Kind::On || exact->kind == Kind::Off)) {
            value = "1";
        } else if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            error = "flag --" + name + " needs a value";
            return false;
        }
        const Flag* f = findFlag(name, true);
        if (!f) {
            error = "unknown flag --" + name + "\n" + usage();
            return false;
        }
        values[f->name] = value;  // one option, two spellings: the last one given counts
    }
    return true;
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

std::filesystem::path findTables(const char* argv0) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!argv0) return "none";
    const fs::path exe = fs::weakly_canonical(fs::absolute(argv0, ec), ec);
    if (ec) return "none";
    // build/server/senet-server -> build/tables
    const fs::path dir = exe.parent_path().parent_path() / "tables";
    return fs::is_directory(dir, ec) ? dir : fs::path("none");
}

std::optional<Config> parseConfig(int argc, char** argv, std::string& error, bool& help) {
    help = false;
    std::map<std::string, std::string> values;
    if (!readValues(argc, argv, values, error, help)) return std::nullopt;
    std::vector<const Flag*> order;
    for (const Flag& f : kFlags) order.push_back(&f);
    std::stable_sort(order.begin(), order.end(), [](const Flag* a, const Flag* b) { return a->check < b->check; });
    Config c;
    for (const Flag* f : order)
        if (auto it = values.find(f->name); it != values.end() && !applyFlag(*f, it->second, c, error)) return std::nullopt;
    if (values.find("instance") == values.end()) {
        char host[256] = {};
        if (gethostname(host, sizeof host - 1) != 0 || !host[0]) std::snprintf(host, sizeof host, "senet");
        // host:port: unique on a host, and the same after a restart, which so takes its own leases
        // back at once. Instances on --port 0 sharing a database need --instance.
        c.instance = std::string(host).substr(0, 40) + ":" + std::to_string(c.port);
    }
    if (c.webRoot.empty()) c.webRoot = findWebRoot(argc > 0 ? argv[0] : nullptr);
    if (c.tables.empty()) c.tables = findTables(argc > 0 ? argv[0] : nullptr);
    return c;
}

std::vector<FlagInfo> flagTable() {
    std::vector<FlagInfo> out;
    for (const Flag& f : kFlags) out.push_back({f.name, f.env ? f.env : "", f.alias ? f.alias : ""});
    return out;
}

}  // namespace senet::server
