// Helpers of the storage damage tests: the server run to its exit with all its output, files as
// bytes, counts read straight from SQLite files, games played up to a number of actions.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "harness.hpp"

namespace senet::testing {

/// The real senet-server with stdout and stderr captured together (ServerProcess reads stdout
/// only and requires a start).
class CapturedServer {
public:
    /// Starts the server like ServerProcess does (--port 0, the data dir, the web root) plus `extra`.
    CapturedServer(const std::filesystem::path& dataDir, const std::filesystem::path& webRoot, std::vector<std::string> extra = {});
    ~CapturedServer();
    /// Reads output until `text` appears (true) or the process ends or `timeout` passes (false).
    bool waitFor(const std::string& text, std::chrono::seconds timeout = std::chrono::seconds(20));
    /// Waits for the process to end by itself (killing it after `timeout`); its exit code, or
    /// 128+signal, or -1 when it had to be killed.
    int waitExit(std::chrono::seconds timeout = std::chrono::seconds(20));
    /// Sends `signal` and waits for the exit; returns the exit code (or 128+signal).
    int stop(int signal);
    /// The port from the "listening on" line (after waitFor("listening on")), 0 before.
    unsigned short port() const;
    /// Everything the process wrote so far.
    const std::string& output() const { return out_; }

private:
    bool readSome(int waitMs);
    pid_t pid_ = -1;
    int fd_ = -1;
    int status_ = -1;
    std::string out_;
};

/// A file's bytes ("" when absent).
std::string readBytes(const std::filesystem::path& p);
/// Writes bytes, replacing the file.
void writeBytes(const std::filesystem::path& p, const std::string& bytes);

/// Rows in games and actions (folded and logged) of the database `db` together with its WAL (`db`-wal, if any),
/// read from a copy of both in a scratch directory so the files themselves are not touched.
/// {-1, -1} when SQLite cannot read them.
std::pair<long long, long long> countRows(const std::filesystem::path& db);

/// Creates `games` local games on the server at `port` and plays `actions` actions in each.
/// Returns the total number of acknowledged actions (the sum of the plies).
long long populate(unsigned short port, int games, int actions, std::mt19937& rng, std::vector<NewGame>* created = nullptr);

/// The files in `dir` whose names end with `suffix`, sorted.
std::vector<std::filesystem::path> filesEndingWith(const std::filesystem::path& dir, const std::string& suffix);

}  // namespace senet::testing
