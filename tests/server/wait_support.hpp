// Waiting on a condition another thread makes true, for tests: poll with a generous bound
// instead of sleeping and hoping (the tests run beside CPU-heavy suites).
#pragma once

#include <chrono>
#include <thread>

namespace senet::testing {

/// Polls `cond` every millisecond until it holds (true) or `timeout` passes (false; `cond` is
/// asked once more at the end).
template <class F>
bool eventually(F cond, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
        if (cond()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return cond();
}

}  // namespace senet::testing
