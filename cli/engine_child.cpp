#include "engine_child.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace senet::cli {

namespace {

/// A line of the child quoted in a message: at most 80 characters.
std::string quoted(const std::string& line) { return "'" + line.substr(0, 80) + (line.size() > 80 ? "…'" : "'"); }

}  // namespace

EngineChild::EngineChild(const std::string& command) : command_(command) {
    ::signal(SIGPIPE, SIG_IGN);  // a child that died is reported by the write's error, not by a signal
    int in[2], out[2];
    if (::pipe(in) != 0) throw EngineFailure("engine '" + command + "': pipe: " + std::strerror(errno));
    if (::pipe(out) != 0) {
        ::close(in[0]), ::close(in[1]);
        throw EngineFailure("engine '" + command + "': pipe: " + std::strerror(errno));
    }
    pid_ = ::fork();
    if (pid_ < 0) {
        ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
        throw EngineFailure("engine '" + command + "': fork: " + std::strerror(errno));
    }
    if (pid_ == 0) {
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
        ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = ::fdopen(in[1], "w");
    from_ = out[0];
    send("senet-engine");
    bool protocol = false;
    int lines = 0;
    for (std::string line; (line = readLine(10000)) != "ok";) {
        if (line == "protocol 1") protocol = true;
        if (++lines > 100) throw EngineFailure("engine '" + command_ + "': no 'ok' in the first 100 lines of its handshake");
    }
    if (!protocol) throw EngineFailure("engine '" + command_ + "': its handshake named no 'protocol 1'");
}

EngineChild::~EngineChild() {
    if (to_) {
        std::fputs("quit\n", to_);
        std::fclose(to_);
    }
    if (from_ >= 0) ::close(from_);
    if (pid_ > 0) {
        // Up to 2 s to end after `quit` and the end of its input, then it is killed.
        int status = 0;
        for (int i = 0; i < 200 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i) ::usleep(10000);
        if (::waitpid(pid_, &status, WNOHANG) == 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
        }
    }
}

void EngineChild::send(const std::string& line) {
    if (std::fputs((line + "\n").c_str(), to_) < 0 || std::fflush(to_) != 0)
        throw EngineFailure("engine '" + command_ + "': cannot write to it (it has ended?)");
}

std::string EngineChild::readLine(int timeoutMs) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    std::size_t end;
    while ((end = buffer_.find('\n')) == std::string::npos) {
        if (buffer_.size() > 4096) throw EngineFailure("engine '" + command_ + "' sent a line of over 4096 bytes");
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
        pollfd p{from_, POLLIN, 0};
        const int ready = left > 0 ? ::poll(&p, 1, static_cast<int>(left)) : 0;
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0)
            throw EngineFailure("engine '" + command_ + "' said nothing for " + std::to_string(timeoutMs / 1000) + " s" +
                                (buffer_.empty() ? "" : " after " + quoted(buffer_)));
        char chunk[4096];
        const ssize_t n = ::read(from_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw EngineFailure("engine '" + command_ + "' closed its output" + (buffer_.empty() ? "" : " after " + quoted(buffer_)));
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
    std::string line = buffer_.substr(0, end);
    buffer_.erase(0, end + 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

Move EngineChild::bestMove(const Position& p, int throwValue, const std::string& go) {
    send("position " + formatPosition(p));
    send(throwValue == kNoThrow ? std::string("throw -") : "throw " + std::to_string(throwValue));
    send("go " + go);
    for (std::string line;;) {
        line = readLine(60000);
        if (line.rfind("info ", 0) == 0) continue;
        if (line.rfind("bestmove ", 0) != 0)
            throw EngineFailure("engine '" + command_ + "' answered " + quoted(line) + " where 'bestmove MOVE' was due");
        const auto move = parseMove(p, throwValue, line.substr(9));
        if (!move) throw EngineFailure("engine '" + command_ + "' chose " + quoted(line.substr(9)) + ": " + move.error().message);
        return *move;
    }
}

}  // namespace senet::cli
