// Test harness: the real senet-server process, a blocking HTTP client and a WebSocket client
// built on Boost.Beast, and a driver that plays whole games through the protocol.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace senet::testing {

using nlohmann::json;

/// A fresh temporary directory, removed on destruction.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

/// A web root for tests: the repository's templates and catalogs (symlinked) and a dist/ with
/// known test files.
std::filesystem::path makeWebRoot(const std::filesystem::path& dir);

/// The real server process (build/server/senet-server) on a free port.
class ServerProcess {
public:
    /// Starts the server with `--port 0 --data-dir DATA --web-root WEB --computer-delay-ms 0` and
    /// `extra` flags; waits until it listens. Throws std::runtime_error if it does not start.
    /// A non-empty `stderrFile` receives the server's standard error (for tests that count log lines).
    ServerProcess(const std::filesystem::path& dataDir, const std::filesystem::path& webRoot,
                  std::vector<std::string> extra = {}, const std::filesystem::path& stderrFile = {});
    ~ServerProcess();
    unsigned short port() const { return port_; }
    /// Sends `signal` and waits for the exit; returns the exit status (or 128+signal).
    int stop(int signal);
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    int out_ = -1;
    unsigned short port_ = 0;
};

/// One HTTP exchange's answer.
struct HttpReply {
    int status = 0;
    std::map<std::string, std::string> headers;  ///< lower-case names
    std::string body;
    json bodyJson() const { return json::parse(body, nullptr, false); }
    std::string header(const std::string& name) const;
};

/// Sends one request on a new connection and reads the answer.
HttpReply httpRequest(unsigned short port, const std::string& method, const std::string& target, const std::string& body = "",
                      std::map<std::string, std::string> headers = {});

/// A created game as the API returned it.
struct NewGame {
    std::string id, secret, inviteUrl, inviteToken;
    std::vector<int> seats;
    json raw;
};
/// POST /api/games with these fields; fails the test unless 201.
NewGame createGame(unsigned short port, const std::string& ruleset, const std::string& opponent, const std::string& side = "first",
                   const std::string& level = "");
/// POST /api/games/{id}/join with the invite token; returns the secret (empty when refused) and the status.
std::pair<int, std::string> joinGame(unsigned short port, const std::string& id, const std::string& invite);

/// A WebSocket client of /ws/games/{id}.
class WsClient {
public:
    WsClient(unsigned short port, const std::string& gameId);
    ~WsClient();
    /// Sends a text frame.
    void sendText(const std::string& text);
    /// Sends a binary frame.
    void sendBinary(const std::string& bytes);
    /// Sends {"t":type,"d":data}.
    void send(const std::string& type, json data = json::object());
    /// The next message, or nullopt after `timeout` (or when the connection closed: see closed()).
    /// A plain read: it records no test failure (tests that expect a close read with it).
    std::optional<json> receive(std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

    // Waits. Every wait below that does not get what it waits for (timeout or closed
    // connection) records a test failure itself (ADD_FAILURE, naming what it waited for and the
    // last message seen) and returns nullopt / false / an empty json; a caller that cannot go
    // on ASSERTs on the result. The try* forms wait the same way without recording a failure,
    // for tests where the server may be gone (killed on purpose) or a close is one good outcome.

    /// Receives until a message with t == type and returns it. Messages are kept in state().
    std::optional<json> receiveType(const std::string& type, std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
    /// Receives until the latest state's ply is >= ply (or the game is over).
    bool receiveUntilPly(std::int64_t ply, std::chrono::milliseconds timeout = std::chrono::milliseconds(10000));
    /// hello with the secret and seed; waits for the snapshot and returns its data.
    json hello(const std::string& secret = "", const std::string& clientSeed = "");
    /// Receives until the next `error` message and returns its data ({"code","message","ply"}).
    /// Records a failure when none comes, or when its code is not `code` (then still returns it).
    /// Errors received before this call are not looked at: the error returned is a new one.
    json waitForError(const std::string& code, std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
    /// Receives until an `events` message holding an event with "e" == `name` (and, when
    /// `match` is an object, every field of `match` equal) and returns that event.
    json waitForEvent(const std::string& name, const json& match = json(),
                      std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
    /// Sends a ping and receives until its pong; returns the messages that came before the pong
    /// (the server answers in order, so these are all it had sent). nullopt (and a failure) when
    /// no pong came.
    std::optional<std::vector<json>> roundTrip(std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

    /// receiveType without recording a failure.
    std::optional<json> tryReceiveType(const std::string& type, std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
    /// receiveUntilPly without recording a failure.
    bool tryReceiveUntilPly(std::int64_t ply, std::chrono::milliseconds timeout = std::chrono::milliseconds(10000));
    /// hello without recording a failure: the snapshot's data, or an empty json.
    json tryHello(const std::string& secret = "", const std::string& clientSeed = "");
    /// The latest state seen (from a snapshot or an events message).
    const json& state() const { return state_; }
    /// Every event seen, in order.
    const std::vector<json>& events() const { return events_; }
    /// Every error seen, in order.
    const std::vector<json>& errors() const { return errors_; }
    /// Forgets the errors seen so far.
    void clearErrors() { errors_.clear(); }
    /// Whether the server closed the connection, and its close code.
    bool closed() const { return closed_; }
    int closeCode() const { return closeCode_; }
    void close();

private:
    /// "; last message: ..." for failure messages.
    std::string lastSeen() const;
    struct Impl;
    std::unique_ptr<Impl> impl_;
    json last_;  ///< the last message received (for failure messages)
    json state_;
    std::vector<json> events_, errors_;
    bool closed_ = false;
    int closeCode_ = 0;
};

/// Plays a game to its end: `players` maps each seat to the client that holds it (a local
/// game's one client for both; nothing for the computer's seat); `watchers` only follow.
/// Moves are chosen at random with `rng`; with `forward` (and always after 1,500 actions), among
/// the moves that take a piece furthest: random play in Jéquier can last thousands of actions,
/// and the server's throws are not seeded by the test. Returns the number of
/// actions sent. Fails the test on any error message.
int playToEnd(std::map<int, WsClient*> players, std::vector<WsClient*> watchers, std::mt19937& rng, int maxActions = 5000,
              bool forward = false);

/// Plays up to `actions` actions (random legal moves from `rng`) of a game `c` may act in, each
/// waited for; returns the last acknowledged state (early at the end of the game). An action
/// not acknowledged in time records a failure (and ends the play early).
json playActions(WsClient& c, int actions, std::mt19937& rng);
/// playActions for a server that may be killed meanwhile: an action not acknowledged ends the
/// play early without recording a failure.
json tryPlayActions(WsClient& c, int actions, std::mt19937& rng);

/// Runs the `senet` command-line tool with arguments; returns the exit code and its output (stdout and stderr).
std::pair<int, std::string> runCli(const std::vector<std::string>& args);
/// Runs the shell command `program` (a path, possibly after a prefix such as "timeout 20") with
/// `args` each single-quoted; returns its exit status (-1 when it did not exit) and its output,
/// stdout and stderr together.
std::pair<int, std::string> runProgram(const std::string& program, const std::vector<std::string>& args);

}  // namespace senet::testing
