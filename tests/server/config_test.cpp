// The server's flags (server/src/app/config_flags.cpp), parsed in-process: --lease-ms is the same option
// as --lease-ttl (one bound, one error text; the last one given counts), and the instance name
// has one default (host:port).
#include <gtest/gtest.h>

#include <unistd.h>

#include <string>
#include <vector>

#include "config_flags.hpp"

namespace senet::server {
namespace {

/// parseConfig of `args` (after the program name); `error` gets its error text.
std::optional<Config> parse(std::vector<std::string> args, std::string& error) {
    args.insert(args.begin(), "senet-server");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    bool help = false;
    return parseConfig(static_cast<int>(argv.size()), argv.data(), error, help);
}

TEST(Config, LeaseMsAndLeaseTtlAreOneOptionWithOneBound) {
    for (const std::string flag : {"--lease-ttl", "--lease-ms"}) {
        std::string error;
        auto c = parse({flag, "300"}, error);
        ASSERT_TRUE(c) << flag << ": " << error;
        EXPECT_EQ(c->leaseTtl.count(), 300) << flag;
        c = parse({flag, "600000"}, error);
        ASSERT_TRUE(c) << flag << ": " << error;
        EXPECT_EQ(c->leaseTtl.count(), 600000) << flag;
    }
    // Out of bounds either way: the same error text, whichever spelling was used.
    for (const std::string value : {"299", "100", "600001", "86400000", "abc"}) {
        std::string ttlError, msError;
        EXPECT_FALSE(parse({"--lease-ttl", value}, ttlError)) << value;
        EXPECT_FALSE(parse({"--lease-ms", value}, msError)) << "--lease-ms " << value << " was accepted";
        EXPECT_EQ(msError, ttlError) << value;
        EXPECT_EQ(ttlError, "--lease-ttl (alias --lease-ms) must be a whole number in 300..600000") << value;
    }
    // Given twice, in either spelling: the last one counts, as for any flag given twice.
    std::string error;
    auto c = parse({"--lease-ttl", "1000", "--lease-ms", "2000"}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->leaseTtl.count(), 2000);
    c = parse({"--lease-ms", "2000", "--lease-ttl", "1000"}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->leaseTtl.count(), 1000);
    c = parse({"--lease-ms=4000"}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->leaseTtl.count(), 4000);
    c = parse({}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->leaseTtl.count(), 5000) << "the default";
}

TEST(Config, TheInstanceNameDefaultsToHostAndPort) {
    char host[256] = {};
    ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
    std::string error;
    auto c = parse({"--port", "8123"}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->instance, std::string(host).substr(0, 40) + ":8123");
    c = parse({"--port", "8123", "--instance", "s7"}, error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->instance, "s7");
    EXPECT_FALSE(parse({"--instance", "bad name"}, error));
    EXPECT_EQ(error, "--instance must be 1 to 64 letters, digits, '-', '_', '.' or ':'");
}

}  // namespace
}  // namespace senet::server

namespace senet::server {
namespace {

// libpq takes both URI schemes, so the server does too (server/README.md "PostgreSQL"): each is
// kept as given; anything else is refused with an error naming both, and --help names both.
TEST(Config, DatabaseTakesBothPostgresqlAndPostgresUrls) {
    for (const std::string url : {"postgresql://senet@db.example:5432/senet", "postgres://senet@db.example:5432/senet",
                                  "postgresql:///senet?host=/run/postgresql", "postgres:///senet?host=/run/postgresql"}) {
        std::string error;
        const auto c = parse({"--database", url}, error);
        ASSERT_TRUE(c) << url << ": " << error;
        EXPECT_EQ(c->database, url);
    }
    for (const std::string bad : {"mysql://senet@db/senet", "/var/lib/senet/senet.sqlite3", "postgresql:senet", "postgres:/senet",
                                  "POSTGRES://senet@db/senet"}) {
        std::string error;
        EXPECT_FALSE(parse({"--database", bad}, error)) << "'" << bad << "' was accepted";
        EXPECT_EQ(error, "--database must be a postgresql:// or postgres:// URL (SQLite is the default: leave --database out)")
            << "'" << bad << "'";
    }
    std::string usage;
    EXPECT_FALSE(parse({"--help"}, usage));
    EXPECT_NE(usage.find("postgresql://"), std::string::npos) << usage;
    EXPECT_NE(usage.find("postgres://"), std::string::npos) << "--help names the short scheme too";
}

// The exit statuses a supervisor (the systemd unit in deploy/) tells apart: --help lists them.
TEST(Config, HelpListsTheExitStatuses) {
    std::string usage;
    EXPECT_FALSE(parse({"--help"}, usage));
    EXPECT_NE(usage.find("exit status: 0"), std::string::npos) << usage;
    EXPECT_NE(usage.find("3 the --instance name is held by another live process"), std::string::npos) << usage;
}

}  // namespace
}  // namespace senet::server
