#include "pg_temp.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <stdexcept>
#include <vector>

namespace senet::testing {

namespace {

namespace fs = std::filesystem;

/// Runs a shell command; returns its exit status and its standard output.
std::pair<int, std::string> shell(const std::string& command) {
    std::string out;
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) return {-1, ""};
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// The server this process uses: CTest's, or its own (stopped at exit).
class Server {
public:
    Server() {
        if (const char* dir = std::getenv("SENET_TEST_PG_DIR"); dir && *dir) {
            dir_ = dir;
            return;
        }
        auto [rc, out] = shell(std::string("'") + SENET_SOURCE_DIR + "/scripts/pg-temp.sh' start");
        if (rc != 0) throw std::runtime_error("scripts/pg-temp.sh start failed (exit " + std::to_string(rc) + ")");
        // The URL is the last line: postgresql:///senet?host=DIR&user=senet
        const auto at = out.rfind("host=");
        const auto end = out.find('&', at);
        if (at == std::string::npos || end == std::string::npos) throw std::runtime_error("pg-temp.sh printed no URL: " + out);
        dir_ = out.substr(at + 5, end - at - 5);
        owned_ = true;
    }
    ~Server() {
        if (owned_) shell(std::string("'") + SENET_SOURCE_DIR + "/scripts/pg-temp.sh' stop '" + dir_ + "' >/dev/null 2>&1");
    }
    std::string url(const std::string& db) const { return "postgresql:///" + db + "?host=" + dir_ + "&user=senet"; }

private:
    std::string dir_;
    bool owned_ = false;
};

Server& server() {
    static std::unique_ptr<Server> s;
    static std::mutex m;
    std::lock_guard lock(m);
    if (!s) s = std::make_unique<Server>();
    return *s;
}

}  // namespace

namespace {

/// scripts/pg-temp.sh ARGS (at most 120 s); its exit status and output.
std::pair<int, std::string> pgTemp(const std::vector<std::string>& args) {
    return runProgram(std::string("timeout 120 ") + SENET_SOURCE_DIR + "/scripts/pg-temp.sh", args);
}

}  // namespace

OwnPostgres::OwnPostgres() {
    if (!::mkdtemp(dir_)) {
        error = "mkdtemp failed";
        return;
    }
    auto [rc, out] = pgTemp({"start", dir_});
    const auto at = out.rfind("postgresql://");
    if (rc != 0 || at == std::string::npos) {
        error = out.empty() ? "pg-temp.sh start failed" : out;
        return;
    }
    url_ = out.substr(at, out.find('\n', at) - at);
}

OwnPostgres::~OwnPostgres() { pgTemp({"stop", dir_}); }

void OwnPostgres::down() {
    auto [rc, out] = pgTemp({"down", dir_});
    EXPECT_EQ(rc, 0) << "pg-temp.sh down: " << out;
}

void OwnPostgres::up() {
    auto [rc, out] = pgTemp({"up", dir_});
    EXPECT_EQ(rc, 0) << "pg-temp.sh up: " << out;
}

bool postgresInstalled() {
    std::error_code ec;
    if (const char* bin = std::getenv("SENET_PG_BIN"); bin && *bin) return fs::exists(fs::path(bin) / "initdb", ec);
    if (!fs::is_directory("/usr/lib/postgresql", ec)) return false;
    for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec))
        if (fs::exists(e.path() / "bin" / "initdb", ec) && fs::exists(e.path() / "bin" / "pg_ctl", ec)) return true;
    return false;
}

std::string freshPostgresDatabase() {
    static std::atomic<int> counter{0};
    const std::string name = "t" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
    Server& s = server();
    pqxx::connection c(s.url("senet"));
    pqxx::nontransaction tx(c);
    tx.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    tx.exec("CREATE DATABASE " + name);
    return s.url(name);
}

void dropPostgresDatabase(const std::string& url) {
    const auto start = url.find(":///") + 4;
    const std::string name = url.substr(start, url.find('?') - start);
    try {
        pqxx::connection c(server().url("senet"));
        pqxx::nontransaction tx(c);
        tx.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    } catch (const std::exception&) {
        // Left for the server's teardown, which deletes everything.
    }
}

}  // namespace senet::testing
