// GET /api/games/{id}/analysis over the real server: a finished game's analysis (one value per
// position in [0, 1], ending at the result, the same JSON as `senet analyse` of its record),
// 409 while the game is played, 404 and 405, the per-address limit (429 with Retry-After), the
// cache and one computation for concurrent requests. server/API.md "Analysis".
#include <condition_variable>
#include <fstream>
#include <thread>

#include "analysis_service.hpp"
#include "fixture.hpp"
#include "senet/record.hpp"
#include "senet/senet.hpp"

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
    json s = playActions(c, 12, rng);
    // A throw with no legal move passes the turn and shifts the throw/move alternation (the
    // throws are the server's): one more action, a move, then leaves the game at a throw.
    if (s.value("phase", "") == "move") s = playActions(c, 1, rng);
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
    // Malformed ids are unknown games too (the empty one was answered 503 "no-analysis").
    for (const std::string& id : std::vector<std::string>{"", "short", std::string(300, 'A')}) {
        const HttpReply bad = httpRequest(port(), "GET", "/api/games/" + id + "/analysis");
        EXPECT_EQ(bad.status, 404) << "'" << id << "': " << bad.body;
        EXPECT_EQ(bad.bodyJson().value("error", ""), "unknown-game") << id;
    }
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

/// A server with a small standard endgame table (at most 2 a side, 3 in all) in --tables.
class AnalysisTables : public ServerTest {
protected:
    static const std::filesystem::path& tablesDir() {
        static const TempDir dir;
        static const bool built = [] {
            const auto [code, out] = runCli({"table", "build", "standard", (dir.path() / "standard.sntb").string(),
                                             "--max-per-side", "2", "--max-total", "3"});
            EXPECT_EQ(code, 0) << out;
            return code == 0;
        }();
        (void)built;
        return dir.path();
    }
    std::vector<std::string> flags() const override { return {"--tables", tablesDir().string()}; }
};

TEST_F(AnalysisTables, TheEndgameIsExactAndTheSameAsTheCommandLines) {
    const std::string id = finishedGame(port(), "standard", 21);
    const HttpReply r = httpRequest(port(), "GET", "/api/games/" + id + "/analysis");
    const json a = checkAgainstRecord(port(), id, r);
    ASSERT_TRUE(a.contains("exact") && a["exact"].is_array());
    ASSERT_EQ(a["exact"].size(), a["winProbability"].size());
    int exact = 0;
    for (const auto& e : a["exact"]) exact += e.get<bool>();
    EXPECT_GE(exact, 1);  // the result at least; the last plies fall inside the table
    EXPECT_TRUE(a["exact"].back().get<bool>());
    ASSERT_EQ(a["players"].size(), 2u);
    EXPECT_EQ(a["thresholds"]["blunder"], 0.1);
    // `senet analyse --tables` with the same table gives the same bytes; without it, not exact.
    const TempDir tmp;
    const auto file = tmp.path() / "record.json";
    std::ofstream(file) << httpRequest(port(), "GET", "/api/games/" + id + "/record").body;
    const auto [code, out] = runCli({"analyse", file.string(), "--tables", tablesDir().string()});
    EXPECT_EQ(code, 0) << out;
    EXPECT_EQ(out, r.body + "\n");
}

TEST(AnalysisTablesFlag, ABadTablesFolderStopsTheStart) {
    const TempDir dir;
    const auto web = makeWebRoot(dir.path());
    EXPECT_THROW(ServerProcess(dir.path() / "data", web, {"--tables", (dir.path() / "missing").string()}), std::runtime_error);
    std::filesystem::create_directories(dir.path() / "broken");
    std::ofstream(dir.path() / "broken" / "standard.sntb") << "not a table";
    EXPECT_THROW(ServerProcess(dir.path() / "data", web, {"--tables", (dir.path() / "broken").string()}), std::runtime_error);
}

/// The JSON record of a random finished game of `id` from `seed`.
std::string randomRecord(RulesetId id, std::uint64_t seed) {
    Rng rng(seed);
    Game g(id);
    while (g.phase() != Phase::Over) {
        if (g.phase() == Phase::Move) {
            const MoveList& moves = g.legalMoves();
            EXPECT_TRUE(g.applyMove(moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))]).ok());
        } else {
            EXPECT_TRUE(g.applyThrow(rng.throwOutcome(g.rules()).throw_).ok());
        }
    }
    return recordToJson(g.record(), g.outcome());
}

/// Collects the answers of AnalysisService::analyse.
struct Answers {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<server::Response> got;
    server::AnalysisService::Done done() {
        return [this](server::Response r) {
            std::lock_guard lock(mutex);
            got.push_back(std::move(r));
            changed.notify_all();
        };
    }
    /// Waits (up to a minute) until `n` answers came.
    bool waitFor(std::size_t n) {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, std::chrono::seconds(60), [&] { return got.size() >= n; });
    }
};

std::string header(const server::Response& r, const std::string& name) {
    for (const auto& [k, v] : r.headers)
        if (k == name) return v;
    return "";
}

TEST(AnalysisService, KeepsTheLeastRecentlyUsedWithinItsBound) {
    server::AnalysisService::Options o;
    o.cacheEntries = 2;
    o.depth = 1;
    server::AnalysisService service(o);
    Answers answers;
    for (int i = 0; i < 3; ++i) {
        std::string id = "g";
        id += std::to_string(i);
        ASSERT_TRUE(service.analyse(id, randomRecord(RulesetId::Bell, 40 + static_cast<std::uint64_t>(i)), answers.done()));
        ASSERT_TRUE(answers.waitFor(static_cast<std::size_t>(i) + 1));
        // g0 is used again after g1 came, so g1 is the least recently used when g2 arrives.
        if (i == 1) {
            EXPECT_TRUE(service.cached("g0"));
        }
    }
    EXPECT_EQ(service.computed(), 3u);
    EXPECT_TRUE(service.cached("g0"));
    EXPECT_FALSE(service.cached("g1"));
    EXPECT_TRUE(service.cached("g2"));
    for (const auto& r : answers.got) {
        EXPECT_EQ(r.status, 200);
        EXPECT_EQ(header(r, "X-Analysis"), "computed");
        const json a = json::parse(r.body);
        EXPECT_EQ(a["depth"], 1);
        EXPECT_EQ(a["winProbability"].size(), a["plies"].size() + 1);
    }
    // A cached game is answered at once, on the caller's thread.
    ASSERT_TRUE(service.analyse("g2", "not even read", answers.done()));
    ASSERT_EQ(answers.got.size(), 4u);
    EXPECT_EQ(header(answers.got[3], "X-Analysis"), "cached");
    EXPECT_EQ(answers.got[3].body, answers.got[2].body);
}

/// Kendall's and Piccione's records are analysed like the others: one entry per ply (in
/// Piccione per step, a remainder step's "throw" 0), the record's moves in order.
TEST(AnalysisService, AnalysesKendallAndPiccioneRecords) {
    server::AnalysisService::Options o;
    o.depth = 1;
    server::AnalysisService service(o);
    Answers answers;
    const std::string kendall = randomRecord(RulesetId::Kendall, 5), piccione = randomRecord(RulesetId::Piccione, 6);
    ASSERT_TRUE(service.analyse("kendall", kendall, answers.done()));
    ASSERT_TRUE(service.analyse("piccione", piccione, answers.done()));
    ASSERT_TRUE(answers.waitFor(2));
    for (std::size_t i = 0; i < 2; ++i) {
        const json record = json::parse(i == 0 ? kendall : piccione);
        ASSERT_EQ(answers.got[i].status, 200) << answers.got[i].body.substr(0, 200);
        const json a = json::parse(answers.got[i].body);
        EXPECT_EQ(a["ruleset"], i == 0 ? "kendall" : "piccione");
        ASSERT_EQ(a["plies"].size(), record["plies"].size());
        EXPECT_EQ(a["winProbability"].size(), record["plies"].size() + 1);
        int remainderSteps = 0;
        for (std::size_t k = 0; k < record["plies"].size(); ++k) {
            EXPECT_EQ(a["plies"][k]["move"], record["plies"][k]["move"]) << k;
            // A remainder step has no "throw" in the analysis either, as in the record.
            EXPECT_EQ(a["plies"][k].contains("throw"), record["plies"][k].contains("throw")) << k;
            if (record["plies"][k].contains("throw")) EXPECT_EQ(a["plies"][k]["throw"], record["plies"][k]["throw"]) << k;
            remainderSteps += !record["plies"][k].contains("throw");
        }
        if (i == 1) EXPECT_GT(remainderSteps, 0);
    }
}

TEST(AnalysisService, RefusesBeyondItsPendingGamesAndAfterStop) {
    server::AnalysisService::Options o;
    o.maxPending = 1;
    o.depth = 3;
    server::AnalysisService service(o);
    Answers answers;
    // A whole standard game at depth 3 takes a good fraction of a second: it is still pending
    // when the next game comes, which is refused; a second request for it shares the work.
    ASSERT_TRUE(service.analyse("long", randomRecord(RulesetId::Standard, 8), answers.done()));
    EXPECT_FALSE(service.analyse("other", randomRecord(RulesetId::Bell, 9), answers.done()));
    ASSERT_TRUE(service.analyse("long", "", answers.done()));
    ASSERT_TRUE(answers.waitFor(2));
    EXPECT_EQ(answers.got[0].body, answers.got[1].body);
    EXPECT_EQ(header(answers.got[0], "X-Analysis"), "computed");
    EXPECT_EQ(header(answers.got[1], "X-Analysis"), "shared");
    EXPECT_EQ(service.computed(), 1u);
    // A record that does not replay is a server fault: 500 to every waiting caller.
    ASSERT_TRUE(service.analyse("broken", R"({"ruleset":"bell","plies":[{"throw":1,"move":"1-30"}]})", answers.done()));
    ASSERT_TRUE(answers.waitFor(3));
    EXPECT_EQ(answers.got[2].status, 500);
    EXPECT_FALSE(service.cached("broken"));
    service.stop();
    EXPECT_FALSE(service.analyse("after", randomRecord(RulesetId::Bell, 10), answers.done()));
}

}  // namespace
}  // namespace senet::testing
