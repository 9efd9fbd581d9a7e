// /metrics counts what happened: every value is checked against the requests, sockets and
// actions the test made, not only that a metric's name is present.
#include <thread>

#include "fixture.hpp"

namespace senet::testing {
namespace {

using namespace std::chrono_literals;

/// The value of the sample line `name` (a gauge, counter or histogram line with its labels) in
/// /metrics; -1 when the line is absent.
double metric(unsigned short port, const std::string& name) {
    const std::string body = "\n" + httpRequest(port, "GET", "/metrics").body;
    const auto at = body.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stod(body.substr(at + name.size() + 2));
}

/// Polls `name` until it equals `expected` (a counter is updated just after the broadcast the
/// client reacts to); returns the last value read, so a mismatch is reported with it.
double metricBecomes(unsigned short port, const std::string& name, double expected) {
    double v = metric(port, name);
    for (auto until = std::chrono::steady_clock::now() + 5s; v != expected && std::chrono::steady_clock::now() < until;) {
        std::this_thread::sleep_for(20ms);
        v = metric(port, name);
    }
    return v;
}

class Metrics : public ServerTest {};

TEST_F(Metrics, GamesAndSocketsAreCounted) {
    EXPECT_EQ(metric(port(), "senet_games_created_total"), 0);
    EXPECT_EQ(metric(port(), "senet_games_running"), 0);
    EXPECT_EQ(metric(port(), "senet_open_sockets"), 0);
    const NewGame local = createGame(port(), "standard", "local");
    const NewGame waiting = createGame(port(), "bell", "friend");
    EXPECT_EQ(metric(port(), "senet_games_created_total"), 2);
    EXPECT_EQ(metric(port(), "senet_games_running"), 2);
    {
        WsClient player(port(), local.id), watcher(port(), local.id);
        player.hello(local.secret);
        watcher.hello();
        EXPECT_EQ(metricBecomes(port(), "senet_open_sockets", 2), 2);
        // A resignation ends the game: it is no longer running, but still loaded.
        player.send("resign");
        ASSERT_TRUE(player.receiveType("events"));
        ASSERT_EQ(player.state()["phase"], "over");
        EXPECT_EQ(metricBecomes(port(), "senet_games_running", 1), 1);
        EXPECT_EQ(metric(port(), "senet_games_created_total"), 2);
    }
    EXPECT_EQ(metricBecomes(port(), "senet_open_sockets", 0), 0);
    (void)waiting;
}

TEST_F(Metrics, ActionsRefusalsAndLatencyAreCounted) {
    const NewGame g = createGame(port(), "standard", "local");
    WsClient c(port(), g.id);
    c.hello(g.secret);
    std::mt19937 rng(7);
    const json s = playActions(c, 6, rng);
    ASSERT_EQ(s["ply"], 6) << s.dump();
    EXPECT_EQ(metricBecomes(port(), "senet_actions_total", 6), 6);
    EXPECT_EQ(metricBecomes(port(), "senet_action_latency_seconds_count", 6), 6);
    EXPECT_EQ(metric(port(), "senet_action_latency_seconds_bucket{le=\"+Inf\"}"), 6);
    const double sum = metric(port(), "senet_action_latency_seconds_sum");
    EXPECT_GE(sum, 0);
    EXPECT_LT(sum, 6 * 5.0) << "six actions on loopback took less than 5 s each";
    EXPECT_EQ(metric(port(), "senet_rejected_messages_total"), 0);
    // A throw at a stale ply is refused: one rejection, no action, no latency sample.
    c.send("throw", {{"ply", 2}});
    const auto refused = c.receiveType("error");
    ASSERT_TRUE(refused);
    EXPECT_EQ((*refused)["d"]["code"], "wrong-ply");
    EXPECT_EQ(metricBecomes(port(), "senet_rejected_messages_total", 1), 1);
    EXPECT_EQ(metric(port(), "senet_actions_total"), 6);
    EXPECT_EQ(metric(port(), "senet_action_latency_seconds_count"), 6);
}

TEST_F(Metrics, HttpRequestsAreCountedOncePerAnswer) {
    const double before = metric(port(), "senet_http_requests_total");
    ASSERT_GE(before, 1);  // the metrics request itself
    for (const char* path : {"/healthz", "/en/", "/nowhere"}) httpRequest(port(), "GET", path);
    // Three requests, plus this metrics request: the counter counts the request that reads it.
    EXPECT_EQ(metric(port(), "senet_http_requests_total"), before + 4);
}

}  // namespace
}  // namespace senet::testing
