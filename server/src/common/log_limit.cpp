#include "log_limit.hpp"

#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <string>

namespace senet::server {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kWindow = std::chrono::seconds(10);
constexpr int kLinesPerWindow = 5;
constexpr std::size_t kMaxKinds = 256;

struct Kind {
    Clock::time_point windowStart;
    int printed = 0;
    long long suppressed = 0;
};

std::mutex mutex;
std::map<std::string, Kind, std::less<>> kinds;

void reportSuppressed(const std::string& name, Kind& k) {
    if (k.suppressed > 0)
        std::cerr << "senet-server: " << name << ": " << k.suppressed << " similar line" << (k.suppressed == 1 ? "" : "s")
                  << " suppressed\n";
    k.suppressed = 0;
}

}  // namespace

void logLimited(std::string_view kind, std::string_view line) {
    std::lock_guard lock(mutex);
    const auto now = Clock::now();
    auto it = kinds.find(kind);
    if (it == kinds.end()) {
        if (kinds.size() >= kMaxKinds) {  // bounded: forget the kinds whose window ended
            for (auto k = kinds.begin(); k != kinds.end();) {
                if (now - k->second.windowStart >= kWindow) {
                    reportSuppressed(k->first, k->second);
                    k = kinds.erase(k);
                } else {
                    ++k;
                }
            }
            if (kinds.size() >= kMaxKinds) return;  // still full: drop the line
        }
        it = kinds.emplace(std::string(kind), Kind{now}).first;
    }
    Kind& k = it->second;
    if (now - k.windowStart >= kWindow) {
        reportSuppressed(it->first, k);
        k.windowStart = now;
        k.printed = 0;
    }
    if (k.printed < kLinesPerWindow) {
        ++k.printed;
        std::cerr << "senet-server: " << line << '\n';
    } else {
        ++k.suppressed;
    }
}

void flushSuppressedLogs() {
    std::lock_guard lock(mutex);
    const auto now = Clock::now();
    for (auto& [name, k] : kinds)
        if (now - k.windowStart >= kWindow) reportSuppressed(name, k);
}

}  // namespace senet::server
