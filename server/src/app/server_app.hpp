// The server's wiring: storage, services, the I/O threads, signals and shutdown (main.cpp calls it).
#pragma once

#include <stdexcept>

#include "config.hpp"

namespace senet::server {

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

/// Opens the storage, starts every service and serves until SIGINT/SIGTERM, then shuts down in
/// order. Throws UsageError, InstanceNameInUse (storage.hpp) or another std::exception when the
/// server cannot start.
void runServer(const Config& config);

}  // namespace senet::server
