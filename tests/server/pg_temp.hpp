// A PostgreSQL server for tests, from Debian's packages (scripts/pg-temp.sh): the one CTest
// started for the whole run (fixture "senet_pg", its directory in SENET_TEST_PG_DIR), or, when
// a test binary runs by itself, one started on first use and stopped when the process exits.
// Each test gets a database of its own.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "harness.hpp"

namespace senet::testing {

/// Whether PostgreSQL's server binaries are installed (/usr/lib/postgresql/*/bin/initdb).
bool postgresInstalled();

/// A fresh, empty database on the shared test server; returns its URL
/// (postgresql:///NAME?host=DIR&user=senet). Throws std::runtime_error when the server cannot
/// be started or reached. Call only when postgresInstalled().
std::string freshPostgresDatabase();

/// Drops a database made by freshPostgresDatabase (its connections are closed first).
void dropPostgresDatabase(const std::string& url);

/// A PostgreSQL server of a test's own (scripts/pg-temp.sh in a short /tmp directory: a unix
/// socket path holds at most 107 bytes), for tests that stop it and start it again (the shared
/// server must stay up); stopped and deleted on destruction. Call only when postgresInstalled().
class OwnPostgres {
public:
    /// Starts it; `error` holds pg-temp.sh's output when that failed ("" when it runs).
    OwnPostgres();
    ~OwnPostgres();
    OwnPostgres(const OwnPostgres&) = delete;
    OwnPostgres& operator=(const OwnPostgres&) = delete;
    /// postgresql:///senet?host=DIR&user=senet ("" when it did not start).
    const std::string& url() const { return url_; }
    /// Its unix socket, DIR/.s.PGSQL.5432.
    std::string socket() const { return std::string(dir_) + "/.s.PGSQL.5432"; }
    /// Stops it, keeping its data (pg-temp.sh down), and starts it again on the same socket
    /// and port (up); each records a test failure when pg-temp.sh fails.
    void down();
    void up();
    std::string error;

private:
    char dir_[32] = "/tmp/senet-pgo.XXXXXX";
    std::string url_;
};

/// Base fixture of the tests on PostgreSQL: each test gets a fresh database (url_), dropped
/// after it; the test is skipped (GTEST_SKIP) when PostgreSQL is not installed. A derived
/// TearDown that overrides this one must call it last.
class PgDatabaseTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!postgresInstalled()) GTEST_SKIP() << "PostgreSQL is not installed (/usr/lib/postgresql/*/bin; scripts/setup.sh installs it)";
        url_ = freshPostgresDatabase();
    }
    void TearDown() override {
        if (!url_.empty()) dropPostgresDatabase(url_);
    }

    std::string url_;  ///< the test's database ("" when skipped)
};

/// PgDatabaseTest plus what a test of the real server process needs: a scratch directory (dir_,
/// removed after the test) and a web root in it (web_).
class PgServerTest : public PgDatabaseTest {
protected:
    void SetUp() override {
        PgDatabaseTest::SetUp();
        if (IsSkipped()) return;
        web_ = makeWebRoot(dir_.path());
    }

    TempDir dir_;
    std::filesystem::path web_;
};

}  // namespace senet::testing
