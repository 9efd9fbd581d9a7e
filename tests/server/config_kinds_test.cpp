// Every kind of flag in app/config_flags.cpp's table, parsed in-process: the usage text (pinned
// whole), whole numbers and decimals with their bounds and error texts, text flags, switches,
// flags with their own checks, environment variables, and the command line's own errors.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <string>
#include <vector>

#include "config_flags.hpp"

namespace senet::server {
namespace {

std::optional<Config> parse(std::vector<std::string> args, std::string& error, bool* help = nullptr) {
    args.insert(args.begin(), "senet-server");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    bool h = false;
    auto c = parseConfig(static_cast<int>(argv.size()), argv.data(), error, h);
    if (help) *help = h;
    return c;
}

/// The usage text as it was written out by hand before the table: the table must give it back.
constexpr const char* kUsage =
    "usage: senet-server [flags]\n"
    "  --address A            bind address (SENET_ADDRESS, default 127.0.0.1)\n"
    "  --port N               port, 0 for any free one (SENET_PORT, default 8080)\n"
    "  --data-dir DIR         SQLite database directory (SENET_DATA_DIR, default ./data)\n"
    "  --web-root DIR         the web/ directory (SENET_WEB_ROOT, default: found near the binary or cwd)\n"
    "  --tables DIR           endgame tables folder, or none (SENET_TABLES, default: the build's tables/\n"
    "                         found near the binary)\n"
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
    "  --accept-lost-games    start even when the database that has held games is missing, empty or another\n"
    "                         one, or its WAL is missing or empty after an unclean stop; logs what is lost\n"
    "                         (default: refuse, see server/README.md Recovery)\n"
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
    "  --lobby-seeks-per-address N  open lobby seeks per address (default 20)\n"
    "  --lobby-abort-seconds N  seconds a paired lobby game may wait for its first throw (default 30)\n"
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

TEST(ConfigFlags, HelpIsTheUsageTextUnchanged) {
    std::string usage;
    bool help = false;
    EXPECT_FALSE(parse({"--help"}, usage, &help));
    EXPECT_TRUE(help);
    EXPECT_EQ(usage, kUsage);
    EXPECT_FALSE(parse({"--port", "1", "-h"}, usage, &help));
    EXPECT_TRUE(help);
    EXPECT_EQ(usage, kUsage);
}

TEST(ConfigFlags, HelpListsEveryFlagOfTheTable) {
    std::string usage;
    EXPECT_FALSE(parse({"--help"}, usage));
    const auto flags = flagTable();
    EXPECT_GE(flags.size(), 46u);
    for (const auto& f : flags) {
        EXPECT_NE(usage.find(" --" + f.name + " "), std::string::npos) << "--" << f.name << " missing from --help";
        if (!f.env.empty()) EXPECT_NE(usage.find(f.env), std::string::npos) << f.env << " missing from --help";
        if (!f.alias.empty()) EXPECT_NE(usage.find("--" + f.alias), std::string::npos) << "--" << f.alias << " missing from --help";
        std::string error;  // and each is known: a bad value gets its own error, not "unknown flag"
        parse({"--" + f.name + "=\x01"}, error);
        EXPECT_EQ(error.find("unknown flag"), std::string::npos) << f.name;
    }
}

TEST(ConfigFlags, CommandLineErrors) {
    std::string error;
    bool help = true;
    EXPECT_FALSE(parse({"--nope", "1"}, error, &help));
    EXPECT_FALSE(help);
    EXPECT_EQ(error, std::string("unknown flag --nope\n") + kUsage);
    EXPECT_FALSE(parse({"--nope=1"}, error));
    EXPECT_EQ(error, std::string("unknown flag --nope\n") + kUsage);
    EXPECT_FALSE(parse({"--port", "1", "stray"}, error));
    EXPECT_EQ(error, std::string("unexpected argument 'stray'\n") + kUsage);
    EXPECT_FALSE(parse({"--threads"}, error));
    EXPECT_EQ(error, "flag --threads needs a value");
    EXPECT_FALSE(parse({"--nope"}, error));
    EXPECT_EQ(error, "flag --nope needs a value") << "a last flag without a value, known or not";
}

TEST(ConfigFlags, WholeNumbersKeepTheirBounds) {
    struct Bound {
        const char* flag;
        long long min, max;
    };
    const Bound bounds[] = {{"port", 0, 65535}, {"threads", 1, 64}, {"ai-threads", 1, 64}, {"grace-seconds", 0, 2592000},
                            {"computer-delay-ms", 0, 60000}, {"ai-budget-ms", 1, 60000}, {"rate", 1, 1000000},
                            {"burst", 1, 1000000}, {"max-dropped", 1, 1000000000}, {"max-message", 64, 1048576},
                            {"idle-seconds", 1, 86400}, {"http-timeout-seconds", 1, 3600}, {"expire-days", 1, 36500},
                            {"sweep-seconds", 1, 86400}, {"unload-seconds", 1, 2592000}, {"ai-late-ms", 0, 60000},
                            {"ai-queue", 1, 10000000}, {"max-waiting-games", 1, 1000000000},
                            {"max-queue-bytes", 65536, 4294967296}, {"max-connections", 1, 10000000},
                            {"max-connections-per-address", 1, 10000000}, {"analysis-threads", 1, 64},
                            {"analysis-cache", 1, 1000000}, {"database-pool", 1, 256}, {"backup-keep", 1, 100000}};
    for (const auto& b : bounds) {
        const std::string flag = std::string("--") + b.flag;
        const std::string message = flag + " must be a whole number in " + std::to_string(b.min) + ".." + std::to_string(b.max);
        std::string error;
        EXPECT_TRUE(parse({flag, std::to_string(b.min)}, error)) << flag << ": " << error;
        EXPECT_TRUE(parse({flag + "=" + std::to_string(b.max)}, error)) << flag << ": " << error;
        for (const std::string bad : {std::to_string(b.min - 1), std::to_string(b.max + 1), std::string("7x"), std::string("1.5"),
                                      std::string("")}) {
            EXPECT_FALSE(parse({flag, bad}, error)) << flag << " " << bad;
            EXPECT_EQ(error, message) << flag << " " << bad;
        }
    }
    std::string error;
    const auto c = parse({"--port", "9", "--grace-seconds", "7", "--computer-delay-ms", "8", "--rate", "5", "--max-message", "100",
                          "--max-queue-bytes", "70000", "--threads", "3"},
                         error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->port, 9);
    EXPECT_EQ(c->grace, std::chrono::seconds(7));
    EXPECT_EQ(c->computerDelay, std::chrono::milliseconds(8));
    EXPECT_EQ(c->rate, 5.0);
    EXPECT_EQ(c->maxMessage, 100u);
    EXPECT_EQ(c->maxQueueBytes, 70000u);
    EXPECT_EQ(c->threads, 3);
}

TEST(ConfigFlags, DecimalsKeepTheirBounds) {
    struct Bound {
        const char* flag;
        const char* min;
        const char* max;
        const char* range;
    };
    const Bound bounds[] = {{"create-rate", "0.001", "1e6", "0.001000..1000000.000000"},
                            {"create-burst", "1", "1e9", "1.000000..1000000000.000000"},
                            {"join-rate", "0.001", "1e6", "0.001000..1000000.000000"},
                            {"join-burst", "1", "1e9", "1.000000..1000000000.000000"},
                            {"analysis-rate", "0.001", "1e6", "0.001000..1000000.000000"},
                            {"analysis-burst", "1", "1e9", "1.000000..1000000000.000000"}};
    for (const auto& b : bounds) {
        const std::string flag = std::string("--") + b.flag;
        std::string error;
        EXPECT_TRUE(parse({flag, b.min}, error)) << flag << ": " << error;
        EXPECT_TRUE(parse({flag, b.max}, error)) << flag << ": " << error;
        for (const std::string bad : {"0.0009", "2e9", "x", "", "1,5"}) {
            EXPECT_FALSE(parse({flag, bad}, error)) << flag << " " << bad;
            EXPECT_EQ(error, flag + " must be a number in " + b.range) << flag << " " << bad;
        }
    }
    std::string error;
    const auto c = parse({"--create-rate", "2.5", "--join-burst", "7", "--analysis-rate", "0.25"}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->createRate, 2.5);
    EXPECT_EQ(c->joinBurst, 7.0);
    EXPECT_EQ(c->analysisRate, 0.25);
}

TEST(ConfigFlags, TextFlagsAreKeptAsGiven) {
    std::string error;
    const auto c = parse({"--address", "::1", "--data-dir", "/d", "--web-root=/w", "--backup-dir", "/b", "--test-fail-writes", "/f"},
                         error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->address, "::1");
    EXPECT_EQ(c->dataDir, "/d");
    EXPECT_EQ(c->webRoot, "/w");
    EXPECT_EQ(c->backupDir, "/b");
    EXPECT_EQ(c->testFailWrites, "/f");
}

TEST(ConfigFlags, SwitchesTakeNoValue) {
    std::string error;
    auto c = parse({}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_FALSE(c->acceptDamagedWal);
    EXPECT_FALSE(c->acceptLostGames);
    EXPECT_TRUE(c->quickCheck);
    c = parse({"--accept-damaged-wal", "--skip-quick-check", "--port", "9"}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_TRUE(c->acceptDamagedWal);
    EXPECT_FALSE(c->acceptLostGames);
    c = parse({"--accept-lost-games"}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_TRUE(c->acceptLostGames);
    EXPECT_FALSE(c->acceptDamagedWal);
    c = parse({"--skip-quick-check", "--port", "9"}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_FALSE(c->quickCheck);
    EXPECT_EQ(c->port, 9);
    EXPECT_FALSE(parse({"--accept-damaged-wal", "9"}, error)) << "a switch leaves the next argument alone";
    EXPECT_EQ(error, std::string("unexpected argument '9'\n") + kUsage);
}

TEST(ConfigFlags, FlagsWithTheirOwnChecks) {
    std::string error;
    auto c = parse({"--sync", "full", "--backup-minutes", "0.5", "--trusted-proxy", "10.0.0.1, ::1", "--allow-origin",
                    "https://a.example,http://b.example:8080", "--test-seed", std::string(64, 'a')},
                   error);
    ASSERT_TRUE(c) << error;
    EXPECT_TRUE(c->syncFull);
    EXPECT_EQ(c->backupInterval, std::chrono::milliseconds(30000));
    EXPECT_EQ(c->trustedProxies, (std::vector<std::string>{"10.0.0.1", "::1"}));
    EXPECT_EQ(c->allowOrigins, (std::vector<std::string>{"https://a.example", "http://b.example:8080"}));
    ASSERT_TRUE(c->testSeed);
    EXPECT_EQ(c->testSeed->size(), 32u);
    const std::pair<std::vector<std::string>, std::string> refused[] = {
        {{"--sync", "FULL"}, "--sync must be full or normal"},
        {{"--backup-minutes", "0.0166"}, "--backup-minutes must be a number of minutes from 0.0167 (one second) to 10080"},
        {{"--backup-minutes", "10081"}, "--backup-minutes must be a number of minutes from 0.0167 (one second) to 10080"},
        {{"--trusted-proxy", "10.0.0.1,proxy"}, "--trusted-proxy: 'proxy' is not an IP address"},
        {{"--allow-origin", "https://a.example/x"}, "--allow-origin: 'https://a.example/x' is not an origin like https://example.org"},
        {{"--test-seed", "abc"}, "--test-seed must be 64 hex digits"},
    };
    for (const auto& [args, message] : refused) {
        EXPECT_FALSE(parse(args, error)) << args[0];
        EXPECT_EQ(error, message);
    }
}

TEST(ConfigFlags, EnvironmentVariablesAndFlagsWin) {
    ::setenv("SENET_PORT", "9001", 1);
    ::setenv("SENET_ADDRESS", "0.0.0.0", 1);
    std::string error;
    auto c = parse({}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->port, 9001);
    EXPECT_EQ(c->address, "0.0.0.0");
    c = parse({"--port", "9002"}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->port, 9002);
    ::setenv("SENET_PORT", "99999", 1);
    EXPECT_FALSE(parse({}, error));
    EXPECT_EQ(error, "--port must be a whole number in 0..65535") << "a variable's value is checked as the flag's";
    ::unsetenv("SENET_PORT");
    ::unsetenv("SENET_ADDRESS");
}

// With several bad values the same one is reported as before the table (its `check` order).
TEST(ConfigFlags, SeveralBadValuesReportTheSameOne) {
    std::string error;
    EXPECT_FALSE(parse({"--test-seed", "x", "--sync", "x", "--threads", "0", "--port", "x"}, error));
    EXPECT_EQ(error, "--port must be a whole number in 0..65535");
    EXPECT_FALSE(parse({"--backup-minutes", "0", "--backup-keep", "0", "--database", "x"}, error));
    EXPECT_EQ(error, "--database must be a postgresql:// or postgres:// URL (SQLite is the default: leave --database out)");
    EXPECT_FALSE(parse({"--ai-queue", "0", "--create-rate", "0"}, error));
    EXPECT_EQ(error, "--ai-queue must be a whole number in 1..10000000");
}

}  // namespace
}  // namespace senet::server
