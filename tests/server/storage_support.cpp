#include "storage_support.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

namespace senet::testing {

namespace fs = std::filesystem;

CapturedServer::CapturedServer(const fs::path& dataDir, const fs::path& webRoot, std::vector<std::string> extra) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::vector<std::string> args = {SENET_SERVER_BINARY, "--port", "0", "--data-dir", dataDir.string(), "--web-root",
                                     webRoot.string(), "--computer-delay-ms", "0", "--rate", "5000", "--burst", "5000"};
    args.insert(args.end(), extra.begin(), extra.end());
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(fds[1]);
    fd_ = fds[0];
    fcntl(fd_, F_SETFL, O_NONBLOCK);
}

CapturedServer::~CapturedServer() {
    if (pid_ > 0) stop(SIGKILL);
    if (fd_ >= 0) close(fd_);
}

bool CapturedServer::readSome(int waitMs) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, waitMs) <= 0) return true;
    char buf[4096];
    const ssize_t n = read(fd_, buf, sizeof buf);
    if (n > 0) out_.append(buf, static_cast<std::size_t>(n));
    return n != 0;  // 0: end of output (the process is gone)
}

bool CapturedServer::waitFor(const std::string& text, std::chrono::seconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (out_.find(text) == std::string::npos) {
        if (std::chrono::steady_clock::now() > deadline || !readSome(100)) return out_.find(text) != std::string::npos;
    }
    return true;
}

int CapturedServer::waitExit(std::chrono::seconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (pid_ > 0) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            while (readSome(0) && fd_ >= 0) {
                pollfd p{fd_, POLLIN, 0};
                if (poll(&p, 1, 0) <= 0) break;
            }
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        if (std::chrono::steady_clock::now() > deadline) {
            stop(SIGKILL);
            return -1;
        }
        readSome(50);
    }
    return -1;
}

int CapturedServer::stop(int signal) {
    if (pid_ <= 0) return -1;
    kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    while (readSome(0)) {
        pollfd p{fd_, POLLIN, 0};
        if (poll(&p, 1, 0) <= 0) break;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

unsigned short CapturedServer::port() const {
    const auto at = out_.find("listening on http://");
    if (at == std::string::npos) return 0;
    const auto colon = out_.find(':', at + 20);
    return static_cast<unsigned short>(std::stoi(out_.substr(colon + 1)));
}

std::string readBytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeBytes(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes; }

std::pair<long long, long long> countRows(const fs::path& db) {
    TempDir scratch;
    const fs::path copy = scratch.path() / "copy.sqlite3";
    fs::copy_file(db, copy);
    if (fs::exists(db.string() + "-wal")) fs::copy_file(db.string() + "-wal", copy.string() + "-wal");
    sqlite3* h = nullptr;
    std::pair<long long, long long> out{-1, -1};
    if (sqlite3_open_v2(copy.c_str(), &h, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(h, "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM actions) + (SELECT count(*) FROM action_log)", -1, &st, nullptr) ==
                SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            out = {sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)};
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

long long populate(unsigned short port, int games, int actions, std::mt19937& rng, std::vector<NewGame>* created) {
    static const char* kRulesets[] = {"standard", "jequier", "bell"};
    long long total = 0;
    for (int i = 0; i < games; ++i) {
        const NewGame g = createGame(port, kRulesets[i % 3], "local");
        WsClient c(port, g.id);
        c.hello(g.secret, "damage");
        total += playActions(c, actions, rng)["ply"].get<long long>();
        if (created) created->push_back(g);
    }
    return total;
}

std::vector<fs::path> filesEndingWith(const fs::path& dir, const std::string& suffix) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string n = e.path().filename().string();
        if (n.size() >= suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace senet::testing
