// A program that speaks the engine protocol (engine/protocol/PROTOCOL.md), run as a child
// process over two pipes: `senet arena --a-engine CMD` asks it for its moves.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "senet/senet.hpp"

namespace senet::cli {

/// A failure of the child: it could not be started, closed its output, broke the protocol or
/// answered a move that is not legal. The message says which and quotes the child's line.
struct EngineFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// One child engine for the life of the object.
class EngineChild {
public:
    /// Starts `/bin/sh -c command` and makes the handshake (`senet-engine` … `ok`, protocol 1,
    /// within 10 s). Its standard error is this process's. Throws EngineFailure.
    explicit EngineChild(const std::string& command);
    /// Sends `quit` and waits for the child to end.
    ~EngineChild();
    EngineChild(const EngineChild&) = delete;
    EngineChild& operator=(const EngineChild&) = delete;

    /// The child's move for position `p` and throw `throwValue` (kNoThrow: a Piccione
    /// remainder step) after `go GO` (e.g. "level expert nodes 20000"); checked against the
    /// rules; each line of its answer within 60 s. Throws EngineFailure.
    Move bestMove(const Position& p, int throwValue, const std::string& go);

private:
    void send(const std::string& line);
    /// The next line of the child's output, without its end; throws when it closed or said
    /// nothing for `timeoutMs`, or sent a line of over 4096 bytes.
    std::string readLine(int timeoutMs);

    std::string command_;
    pid_t pid_ = -1;
    std::FILE* to_ = nullptr;
    int from_ = -1;       ///< the child's standard output
    std::string buffer_;  ///< read from it, not yet returned
};

}  // namespace senet::cli
