// `senet engine`: the engine protocol (engine/protocol/PROTOCOL.md) on standard input and
// output. The protocol's session decides what each line means; this file reads lines (at most
// kMaxLineBytes each: the rest of a longer line is dropped and the line answered with an error),
// runs a search on a second thread so that `stop`, `isready` and `quit` are read while it runs
// (any other line waits for the search to end), and writes every answer line whole and flushed.
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <variant>

#include "cli.hpp"
#include "senet/engine_protocol.hpp"

namespace senet::cli {

namespace {

/// Writes whole lines from either thread.
class LineWriter {
public:
    void operator()(const std::string& line) {
        const std::lock_guard lock(mutex_);
        std::cout << line << '\n' << std::flush;
    }

    /// Ends the process at once with status 0, between two whole lines (every line is flushed
    /// when written): for `quit` while an `analyse` runs, which no flag can stop.
    [[noreturn]] void exitBetweenLines() {
        mutex_.lock();
        std::_Exit(0);
    }

private:
    std::mutex mutex_;
};

/// Reads one line of at most `limit` bytes into `line` (a longer one is cut there and the rest
/// dropped; `tooLong` says so). False at the end of the input with nothing read.
bool readLine(std::istream& in, std::string& line, std::size_t limit, bool& tooLong) {
    line.clear();
    tooLong = false;
    bool any = false;
    for (int c; (c = in.get()) != EOF;) {
        any = true;
        if (c == '\n') return true;
        if (line.size() <= limit) line.push_back(static_cast<char>(c));
        else tooLong = true;
    }
    return any;
}

}  // namespace

int cmdEngine(Args args) {
    if (!args.empty()) return error("usage: senet engine (then the protocol on standard input; engine/protocol/PROTOCOL.md)");
    std::ios::sync_with_stdio(false);
    // Reading must not flush std::cout (the tie's default) from this thread while the search
    // thread writes: every write, and its flush, goes through LineWriter's lock.
    std::cin.tie(nullptr);
    LineWriter write;
    protocol::Session session;
    std::atomic<bool> stop{false};
    std::atomic<bool> running{false};
    bool analysing = false;  // the running job is an `analyse`, which `stop` does not end
    std::thread search;
    const auto finish = [&] {
        if (search.joinable()) search.join();
    };
    std::string line;
    bool tooLong = false;
    while (readLine(std::cin, line, protocol::kMaxLineBytes, tooLong)) {
        if (search.joinable() && !running) search.join();  // the last search is over
        if (tooLong) {
            write("error line too long (at most " + std::to_string(protocol::kMaxLineBytes) + " bytes)");
            continue;
        }
        // stop, isready and quit act at once; any other line waits for a running search to end
        // (so a whole session can be piped in), then is handled.
        const auto command = protocol::parseCommand(line);
        const bool now = command && (std::holds_alternative<protocol::Stop>(*command) || std::holds_alternative<protocol::IsReady>(*command) ||
                                     std::holds_alternative<protocol::Quit>(*command));
        if (now && std::holds_alternative<protocol::Stop>(*command)) {
            // A `go` answers its bestmove at once: waited for, so that it comes before the
            // answer to any later line (an `isready` after a `stop` answers after the bestmove).
            stop = true;
            if (!analysing) finish();
        }
        if (!now) finish();
        protocol::Reply reply = session.handle(line);
        for (const std::string& out : reply.lines) write(out);
        if (reply.quit) {
            // An analysis cannot be stopped and may run for minutes (Piccione at depth 4): `quit`
            // exits without waiting for it. A `go` is stopped and answers first (below).
            if (running && analysing) write.exitBetweenLines();
            break;
        }
        if (reply.job) {
            finish();
            stop = false;
            analysing = std::holds_alternative<protocol::AnalyseRequest>(reply.job->request);
            running = true;
            search = std::thread([&write, &stop, &running, job = *reply.job] {
                protocol::runJob(job, &stop, [&write](const std::string& out) { write(out); });
                running = false;
            });
        }
    }
    // At the end of the input a search still running finishes and answers; `quit` stops it first.
    if (running && !std::cin.eof()) stop = true;
    finish();
    return 0;
}

}  // namespace senet::cli
