// A PostgreSQL server for tests, from Debian's packages (scripts/pg-temp.sh): the one CTest
// started for the whole run (fixture "senet_pg", its directory in SENET_TEST_PG_DIR), or, when
// a test binary runs by itself, one started on first use and stopped when the process exits.
// Each test gets a database of its own.
#pragma once

#include <string>

namespace senet::testing {

/// Whether PostgreSQL's server binaries are installed (/usr/lib/postgresql/*/bin/initdb).
bool postgresInstalled();

/// A fresh, empty database on the shared test server; returns its URL
/// (postgresql:///NAME?host=DIR&user=senet). Throws std::runtime_error when the server cannot
/// be started or reached. Call only when postgresInstalled().
std::string freshPostgresDatabase();

/// Drops a database made by freshPostgresDatabase (its connections are closed first).
void dropPostgresDatabase(const std::string& url);

}  // namespace senet::testing
