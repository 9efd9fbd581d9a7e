// Rate-limited logging: a line that can repeat (network errors, bad frames, accept failures)
// goes through logLimited, which prints at most a few lines per kind in every window and then
// reports how many were suppressed. Thread-safe.
#pragma once

#include <string_view>

namespace senet::server {

/// Prints "senet-server: LINE" to stderr unless lines of this `kind` (a short fixed name such
/// as "websocket read") already filled the current 10-second window (5 lines); suppressed lines
/// are counted and the count is printed with the next line of that kind after the window, or
/// by flushSuppressedLogs. The number of kinds kept is bounded.
void logLimited(std::string_view kind, std::string_view line);

/// Prints the count of lines suppressed in windows that have ended (called now and then).
void flushSuppressedLogs();

}  // namespace senet::server
