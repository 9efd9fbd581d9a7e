// HealthMonitor (server/src/health.*): /healthz reads the last check without waiting; a check
// that hangs (a database that does not answer) turns the status unhealthy after the timeout,
// and a later good check makes it healthy again.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <mutex>
#include <thread>

#include "health_monitor.hpp"
#include "wait_support.hpp"

namespace senet::server {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using senet::testing::eventually;

TEST(HealthMonitor, ReportsTheProbesReasonAndRecovers) {
    std::mutex m;
    std::string answer = "";
    HealthMonitor monitor([&] {
        std::lock_guard lock(m);
        return answer;
    }, 10ms, 5s);
    EXPECT_TRUE(monitor.current().ok) << "the first check runs before the constructor returns";
    {
        std::lock_guard lock(m);
        answer = "postgresql unreachable";
    }
    ASSERT_TRUE(eventually([&] { return !monitor.current().ok; }));
    EXPECT_EQ(monitor.current().reason, "postgresql unreachable");
    {
        std::lock_guard lock(m);
        answer = "";
    }
    ASSERT_TRUE(eventually([&] { return monitor.current().ok; }));
    EXPECT_EQ(monitor.current().reason, "");
}

TEST(HealthMonitor, AfterAFailedCheckTheNextComesAfterTheRetryIntervalNotTheFullOne) {
    std::mutex m;
    std::string answer = "postgresql unreachable";
    std::atomic<int> checks{0};
    HealthMonitor monitor([&] {
        ++checks;
        std::lock_guard lock(m);
        return answer;
    }, std::chrono::hours(1), 5s, 10ms);
    EXPECT_FALSE(monitor.current().ok);
    ASSERT_TRUE(eventually([&] { return checks >= 3; })) << "failed checks are retried every 10 ms";
    {
        std::lock_guard lock(m);
        answer = "";
    }
    ASSERT_TRUE(eventually([&] { return monitor.current().ok; })) << "the recovery shows without waiting an hour";
    const int after = checks;
    std::this_thread::sleep_for(100ms);  // while healthy, the next check is an hour away
    EXPECT_EQ(checks, after);
}

TEST(HealthMonitor, AHangingCheckIsUnhealthyAfterTheTimeoutAndNeverBlocksTheReader) {
    std::mutex m;
    std::condition_variable cv;
    bool hang = false, released = false;
    std::atomic<int> checks{0};
    HealthMonitor monitor([&] {
        ++checks;
        std::unique_lock lock(m);
        if (hang) cv.wait(lock, [&] { return released; });
        return std::string();
    }, 10ms, 200ms);
    auto release = [&] {
        {
            std::lock_guard lock(m);
            hang = false;
            released = true;
        }
        cv.notify_all();
    };
    struct Guard {  // however the test ends, the probe is let go before the monitor joins it
        std::function<void()> f;
        ~Guard() { f(); }
    } guard{release};
    {
        std::lock_guard lock(m);
        hang = true;
    }
    // The reader is answered at once all along, first with the last result, then, once the
    // hanging check is older than 200 ms, with the timeout.
    Clock::duration slowest{};
    ASSERT_TRUE(eventually([&] {
        const auto t0 = Clock::now();
        const bool ok = monitor.current().ok;
        slowest = std::max(slowest, Clock::now() - t0);
        return !ok;
    }));
    EXPECT_EQ(monitor.current().reason, "storage check unfinished after 200 ms");
    std::cout << "[ figures ] slowest HealthMonitor::current() while a check hung: "
              << std::chrono::duration_cast<std::chrono::microseconds>(slowest).count() << " us\n";
    const int before = checks.load();
    release();
    ASSERT_TRUE(eventually([&] { return monitor.current().ok && checks.load() > before; }));
    monitor.stop();
    monitor.stop();  // idempotent
}

TEST(HealthMonitor, AThrowingProbeIsUnhealthyWithItsMessage) {
    HealthMonitor monitor([]() -> std::string { throw std::runtime_error("boom\nsecond line"); }, 10ms, 5s);
    EXPECT_FALSE(monitor.current().ok);
    EXPECT_EQ(monitor.current().reason, "boom second line") << "one printable line";
}

}  // namespace
}  // namespace senet::server
