#include "raw_client.hpp"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

namespace senet::testing {

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

int rawConnect(unsigned short port, const std::string& from, int rcvbuf) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (rcvbuf > 0) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    sockaddr_in local{};
    local.sin_family = AF_INET;
    inet_pton(AF_INET, from.c_str(), &local.sin_addr);
    if (bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
        close(fd);
        return -1;
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

std::string RawReply::header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
}

bool writeAll(int fd, const std::string& data) {
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

RawReply readReply(int fd, std::chrono::milliseconds timeout) {
    RawReply reply;
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::size_t headEnd = std::string::npos, need = 0;
    while (true) {
        if (headEnd != std::string::npos && text.size() >= headEnd + 4 + need) break;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
        char buf[4096];
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
        if (headEnd == std::string::npos && (headEnd = text.find("\r\n\r\n")) != std::string::npos) {
            std::istringstream head(text.substr(0, headEnd));
            std::string line;
            std::getline(head, line);
            if (line.rfind("HTTP/1.", 0) == 0 && line.size() >= 12) reply.status = std::stoi(line.substr(9, 3));
            while (std::getline(head, line)) {
                if (!line.empty() && line.back() == '\r') line.pop_back();
                const auto colon = line.find(':');
                if (colon == std::string::npos) continue;
                std::string value = line.substr(colon + 1);
                while (!value.empty() && value.front() == ' ') value.erase(0, 1);
                reply.headers[lower(line.substr(0, colon))] = value;
            }
            const std::string length = reply.header("content-length");
            need = length.empty() || reply.status == 101 ? 0 : std::stoul(length);
        }
    }
    if (headEnd != std::string::npos) reply.body = text.substr(headEnd + 4, need);
    return reply;
}

RawReply rawExchange(unsigned short port, const std::string& request, const std::string& from, std::chrono::milliseconds timeout) {
    const int fd = rawConnect(port, from);
    if (fd < 0) return {};
    writeAll(fd, request);
    RawReply r = readReply(fd, timeout);
    close(fd);
    return r;
}

std::string upgradeRequest(unsigned short port, const std::string& path, const std::string& extra) {
    std::string r = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                    "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n";
    if (!extra.empty()) r += extra + "\r\n";
    return r + "\r\n";
}

std::string clientFrame(const std::string& payload, int opcode) {
    std::string f;
    f += static_cast<char>(0x80 | opcode);
    const std::size_t n = payload.size();
    if (n < 126) {
        f += static_cast<char>(0x80 | n);
    } else if (n < 65536) {
        f += static_cast<char>(0x80 | 126);
        f += static_cast<char>(n >> 8);
        f += static_cast<char>(n & 0xff);
    } else {
        f += static_cast<char>(0x80 | 127);
        for (int i = 7; i >= 0; --i) f += static_cast<char>((n >> (8 * i)) & 0xff);
    }
    static thread_local std::mt19937 rng(7);
    char mask[4];
    for (char& m : mask) m = static_cast<char>(rng());
    f.append(mask, 4);
    for (std::size_t i = 0; i < n; ++i) f += static_cast<char>(payload[i] ^ mask[i % 4]);
    return f;
}

long procStatusKb(int pid, const std::string& field) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
    return -1;
}

int openDescriptors(int pid) {
    DIR* d = opendir(("/proc/" + std::to_string(pid) + "/fd").c_str());
    if (!d) return -1;
    int n = 0;
    while (dirent* e = readdir(d))
        if (e->d_name[0] != '.') ++n;
    closedir(d);
    return n;
}

double cpuSeconds(int pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos) return -1;
    std::istringstream rest(text.substr(close + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {  // fields 14 and 15 are utime and stime
        if (i == 14) utime = std::stoull(field);
        if (i == 15) stime = std::stoull(field);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

bool healthy(unsigned short port, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        const RawReply r = rawExchange(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", "127.0.0.1",
                                       std::chrono::milliseconds(1000));
        if (r.status == 200 && r.body == "ok\n") return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

}  // namespace senet::testing
