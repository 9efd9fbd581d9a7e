// GET /api/games/{id}/analysis over the real server: a finished game's analysis (one value per
// position in [0, 1], ending at the result, the same JSON as `senet analyse` of its record),
// 409 while the game is played, 404 and 405, the per-address limit (429 with Retry-After), the
// cache and one computation for concurrent requests. server/API.md "Analysis".
#include <fstream>
#include <thread>

#include "fixture.hpp"

namespace senet::testing {
namespace {

class Analysis : public ServerTest {};

/// Plays a local game of `ruleset` to its end with random moves from `seed`; returns its id.
std::string finishedGame(unsigned short port, const std::string& ruleset, unsigned seed) {
    const NewGame g = createGame(port, ruleset, "local");
    WsClient c(port, g.id);
    c.hello(g.secret);
    std::mt19937 rng(seed);
    playToEnd({{0, &c}, {1, &c}}, {}, rng, 5000, ruleset == "jequier");
    EXPECT_EQ(c.state().value("phase", ""), "over");
    return g.id;
}

/// Checks an analysis body against the game's record; returns the body as JSON.
json checkAgainstRecord(unsigned short port, const std::string& id, const HttpReply& r) {
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.header("content-type"), "application/json");
    const json a = r.bodyJson();
    const json record = httpRequest(port, "GET", "/api/games/" + id + "/record").bodyJson();
    EXPECT_TRUE(a.is_object() && record.is_object());
    if (!a.is_object() || !record.is_object()) return a;
    const std::size_t plies = record["plies"].size();
    EXPECT_GT(plies, 0u);
    EXPECT_EQ(a["winProbability"].size(), plies + 1);
    EXPECT_EQ(a["plies"].size(), plies);
    for (const auto& p : a["winProbability"]) {
        EXPECT_GE(p.get<double>(), 0.0);
        EXPECT_LE(p.get<double>(), 1.0);
    }
    for (std::size_t i = 0; i < plies && i < a["plies"].size(); ++i) {
        EXPECT_EQ(a["plies"][i]["ply"], i + 1);
        EXPECT_EQ(a["plies"][i]["move"], record["plies"][i]["move"]);
        EXPECT_EQ(a["plies"][i]["throw"], record["plies"][i]["throw"]);
        EXPECT_GE(a["plies"][i]["loss"].get<double>(), 0.0);
    }
    // The last entry is the result: the winner of the ending (1 for player 1, 0 for player 2).
    const json& ending = record["ending"];
    const double expected = ending["player"] == 1 ? 1.0 : ending["player"] == 2 ? 0.0 : 0.5;
    EXPECT_EQ(a["winProbability"].back().get<double>(), expected) << ending.dump();
    return a;
}

TEST_F(Analysis, FinishedGameIsAnalysedOnceAndCached) {
    const std::string id = finishedGame(port(), "bell", 11);
    const HttpReply first = httpRequest(port(), "GET", "/api/games/" + id + "/analysis");
    checkAgainstRecord(port(), id, first);
    EXPECT_EQ(first.header("x-analysis"), "computed");
    // The second answer comes from the cache: the same bytes.
    const HttpReply second = httpRequest(port(), "GET", "/api/games/" + id + "/analysis");
    EXPECT_EQ(second.status, 200);
    EXPECT_EQ(second.header("x-analysis"), "cached");
    EXPECT_EQ(second.body, first.body);
    // HEAD: the headers without the body.
    const HttpReply head = httpRequest(port(), "HEAD", "/api/games/" + id + "/analysis");
    EXPECT_EQ(head.status, 200);
    EXPECT_TRUE(head.body.empty());
    // The same JSON as the command line's analysis of the game's record.
    const TempDir tmp;
    const auto file = tmp.path() / "record.json";
    std::ofstream(file) << httpRequest(port(), "GET", "/api/games/" + id + "/record").body;
    const auto [code, out] = runCli({"analyse", file.string()});
    EXPECT_EQ(code, 0) << out;
    EXPECT_EQ(out, first.body + "\n");
}

TEST_F(Analysis, ResignedGameEndsAtTheWinnerOfTheResignation) {
    const NewGame g = createGame(port(), "standard", "local");
    WsClient c(port(), g.id);
    c.hello(g.secret);
    std::mt19937 rng(5);
    const json s = playActions(c, 12, rng);
    ASSERT_EQ(s.value("phase", ""), "throw") << s.dump();
    c.send("resign");
    ASSERT_TRUE(c.receiveType("events"));
    ASSERT_EQ(c.state()["phase"], "over");
    const json a = checkAgainstRecord(port(), g.id, httpRequest(port(), "GET", "/api/games/" + g.id + "/analysis"));
    EXPECT_EQ(a["ruleset"], "standard");
    EXPECT_FALSE(a["result"].is_null());
}

TEST_F(Analysis, PlayingUnknownAndWrongMethod) {
    const NewGame g = createGame(port(), "standard", "local");
    const HttpReply playing = httpRequest(port(), "GET", "/api/games/" + g.id + "/analysis");
    EXPECT_EQ(playing.status, 409) << playing.body;
    EXPECT_EQ(playing.bodyJson()["error"], "not-finished");
    const HttpReply unknown = httpRequest(port(), "GET", "/api/games/AAAAAAAAAAAAAAAAAAAAAA/analysis");
    EXPECT_EQ(unknown.status, 404) << unknown.body;
    EXPECT_EQ(unknown.bodyJson()["error"], "unknown-game");
    const HttpReply post = httpRequest(port(), "POST", "/api/games/" + g.id + "/analysis", "{}");
    EXPECT_EQ(post.status, 405);
    EXPECT_EQ(post.header("allow"), "GET, HEAD");
}

TEST_F(Analysis, ConcurrentRequestsComputeOnce) {
    const std::string id = finishedGame(port(), "jequier", 3);
    constexpr int kClients = 6;
    std::vector<HttpReply> replies(kClients);
    std::vector<std::thread> threads;
    for (int i = 0; i < kClients; ++i)
        threads.emplace_back([&, i] { replies[i] = httpRequest(port(), "GET", "/api/games/" + id + "/analysis"); });
    for (auto& t : threads) t.join();
    int computed = 0;
    for (const HttpReply& r : replies) {
        EXPECT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(r.body, replies[0].body);
        const std::string how = r.header("x-analysis");
        EXPECT_TRUE(how == "computed" || how == "shared" || how == "cached") << how;
        computed += how == "computed";
    }
    EXPECT_EQ(computed, 1);
    checkAgainstRecord(port(), id, replies[0]);
}

class AnalysisLimit : public ServerTest {
protected:
    std::vector<std::string> flags() const override { return {"--analysis-burst", "3", "--analysis-rate", "0.01"}; }
};

TEST_F(AnalysisLimit, TooManyRequestsFromOneAddressGet429) {
    const std::string target = "/api/games/AAAAAAAAAAAAAAAAAAAAAA/analysis";
    for (int i = 0; i < 3; ++i) EXPECT_EQ(httpRequest(port(), "GET", target).status, 404) << i;
    const HttpReply limited = httpRequest(port(), "GET", target);
    EXPECT_EQ(limited.status, 429) << limited.body;
    EXPECT_EQ(limited.bodyJson()["error"], "rate-limited");
    const int retry = std::stoi(limited.header("retry-after").empty() ? "0" : limited.header("retry-after"));
    EXPECT_GE(retry, 1);
    EXPECT_LE(retry, 100);
    // Other routes are not limited by it.
    EXPECT_EQ(httpRequest(port(), "GET", "/healthz").status, 200);
}

}  // namespace
}  // namespace senet::testing
