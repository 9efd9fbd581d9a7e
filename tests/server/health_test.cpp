// GET /healthz follows the SQLite database: with the database file gone from where the server
// opened it (moved away under the running server: its writes would go to a file a restart does
// not find), /healthz answers 503 with a short JSON reason; with the file back, 200 again.
#include <chrono>
#include <iostream>
#include <thread>

#include "fixture.hpp"
#include "storage_support.hpp"

namespace senet::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

class Healthz : public ServerTest {
protected:
    /// Polls /healthz until its status is `status`, up to 30 s; the last answer.
    HttpReply waitFor(int status) {
        HttpReply last;
        const auto end = Clock::now() + std::chrono::seconds(30);
        while (Clock::now() < end) {
            const auto t0 = Clock::now();
            last = httpRequest(port(), "GET", "/healthz");
            slowest_ = std::max(slowest_, std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0));
            if (last.status == status) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return last;
    }
    std::chrono::milliseconds slowest_{0};
};

TEST_F(Healthz, IsOkWithAWritableDatabaseAndHeadAnswersToo) {
    const HttpReply r = waitFor(200);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "ok\n");
    EXPECT_EQ(r.header("cache-control"), "no-store");
    EXPECT_EQ(httpRequest(port(), "HEAD", "/healthz").status, 200);
    EXPECT_EQ(httpRequest(port(), "POST", "/healthz").status, 405);
}

TEST_F(Healthz, Is503WhileTheSqliteDatabaseIsGoneAnd200WhenItIsBack) {
    ASSERT_EQ(waitFor(200).status, 200);
    const fs::path data = dir_.path() / "data", away = dir_.path() / "moved";
    fs::rename(data, away);
    const HttpReply down = waitFor(503);
    ASSERT_EQ(down.status, 503) << down.body;
    const json body = down.bodyJson();
    EXPECT_EQ(body.value("status", ""), "unavailable") << down.body;
    EXPECT_NE(body.value("reason", "").find("senet.sqlite3"), std::string::npos) << down.body;
    EXPECT_EQ(body.value("reason", "").find(dir_.path().string()), std::string::npos) << "no path in a public answer: " << down.body;
    EXPECT_NE(down.header("content-type").find("application/json"), std::string::npos);
    EXPECT_EQ(down.header("cache-control"), "no-store");
    fs::rename(away, data);
    const HttpReply up = waitFor(200);
    EXPECT_EQ(up.status, 200) << up.body;
    EXPECT_EQ(up.body, "ok\n");
    std::cout << "[ figures ] slowest /healthz answer: " << slowest_.count() << " ms\n";
}

}  // namespace
}  // namespace senet::testing
