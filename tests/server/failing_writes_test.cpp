// The real server process with its writes failing for a while (--test-fail-writes PATH: every
// write fails while PATH exists): nothing it could not store is announced, a SIGKILL meanwhile
// loses nothing acknowledged, and once writes work the games finish with records that verify.
// Also: a flood of computer games does not delay a new computer game's answer past 2 s.
#include <fstream>
#include <thread>

#include "fixture.hpp"

namespace senet::testing {
namespace {

class FailingWrites : public ServerTest {
protected:
    std::vector<std::string> flags() const override { return {"--test-fail-writes", failFlag().string()}; }
    std::filesystem::path failFlag() const { return dir_.path() / "disk-full"; }
    void diskFull(bool full) {
        if (full) std::ofstream(failFlag()) << "full";
        else std::filesystem::remove(failFlag());
    }
};

/// Plays `n` actions of a one-client game (the computer's turns are waited for).
void playSome(WsClient& c, int n, int seat, std::mt19937& rng) {
    for (int i = 0; i < n && c.state()["phase"] != "over"; ++i) {
        const json s = c.state();
        const std::int64_t ply = s["ply"];
        if (s["seatToAct"] != seat && !(s["you"].size() == 2)) {
            ASSERT_TRUE(c.receiveUntilPly(ply + 1));
            continue;
        }
        if (s["phase"] == "move") c.send("move", {{"ply", ply}, {"move", s["legalMoves"][rng() % s["legalMoves"].size()]["move"]}});
        else c.send("throw", {{"ply", ply}});
        ASSERT_TRUE(c.receiveUntilPly(ply + 1));
    }
}

TEST_F(FailingWrites, NothingIsAnnouncedThatWasNotStored) {
    std::mt19937 rng(77);
    const NewGame local = createGame(port(), "standard", "local");
    const NewGame friendGame = createGame(port(), "bell", "friend", "second");
    WsClient c(port(), local.id);
    c.hello(local.secret, "local");
    playSome(c, 12, 0, rng);
    const json before = c.state();
    const std::int64_t ply = before["ply"];

    diskFull(true);
    // A throw or move, a resignation, a creation and a join all fail and change nothing.
    if (before["phase"] == "move") c.send("move", {{"ply", ply}, {"move", before["legalMoves"][0]["move"]}});
    else c.send("throw", {{"ply", ply}});
    ASSERT_TRUE(c.waitForError("storage").is_object());
    c.send("resign");
    ASSERT_TRUE(c.waitForError("storage").is_object());
    // Everything the server sent before answering a ping: nothing after the refusals.
    const auto later = c.roundTrip();
    ASSERT_TRUE(later);
    for (const json& m : *later) ADD_FAILURE() << "something was announced: " << m.dump();
    for (const json& e : c.events()) EXPECT_NE(e["e"], "result");
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + local.id + "/record").status, 409);
    const HttpReply created = httpRequest(port(), "POST", "/api/games", R"({"ruleset":"standard","opponent":"local"})");
    EXPECT_EQ(created.status, 503);
    EXPECT_EQ(created.bodyJson().value("error", ""), "storage");
    const HttpReply joined = httpRequest(port(), "POST", "/api/games/" + friendGame.id + "/join",
                                         json({{"invite", friendGame.inviteToken}}).dump());
    EXPECT_EQ(joined.status, 503) << joined.body;
    const json summary = httpRequest(port(), "GET", "/api/games/" + friendGame.id).bodyJson();
    EXPECT_EQ(summary["phase"], "waiting");
    EXPECT_EQ(summary["seats"][0]["taken"], false);

    // Killed while the disk is full: after the restart the game is where it was acknowledged,
    // with its seed still secret.
    c.close();
    server_->stop(SIGKILL);
    restart();
    WsClient again(port(), local.id);
    const json s = again.hello(local.secret);
    EXPECT_EQ(s["ply"], ply);
    EXPECT_TRUE(s["fairness"]["serverSeed"].is_null());
    EXPECT_EQ(s["fairness"]["commitment"], before["fairness"]["commitment"]);
    EXPECT_EQ(s["position"], before["position"]);

    // The disk works again: the game plays to its end and its record verifies.
    diskFull(false);
    playToEnd({{0, &again}, {1, &again}}, {}, rng);
    EXPECT_EQ(again.state()["phase"], "over");
    const auto rec = httpRequest(port(), "GET", "/api/games/" + local.id + "/record");
    ASSERT_EQ(rec.status, 200);
    const auto file = dir_.path() / "local.json";
    std::ofstream(file) << rec.body;
    auto [code, out] = runCli({"verify", file.string()});
    EXPECT_EQ(code, 0) << out;
    // And the friend game can be joined now (the creator holds the second seat).
    const auto [status, secret] = joinGame(port(), friendGame.id, friendGame.inviteToken);
    EXPECT_EQ(status, 200);
}

class ComputerQueue : public ServerTest {
protected:
    // The production decision budget; one computer thread, as by default.
    std::vector<std::string> flags() const override { return {"--ai-budget-ms", "100", "--ai-threads", "1",
                // A flood from many addresses: the per-address limits are lifted here.
                "--create-rate", "1000000", "--create-burst", "1000000", "--max-connections-per-address", "100000"}; }
};

/// 300 expert games in which the computer moves first are started at once; a computer game
/// created after them gets its first computer action within 2 s.
TEST_F(ComputerQueue, NewGameAnswersWithinTwoSecondsDuringAFlood) {
    const char* env = std::getenv("SENET_TEST_FLOOD");  // to measure other sizes by hand
    const int flood = env ? std::atoi(env) : 300;
    const auto floodStart = std::chrono::steady_clock::now();
    for (int i = 0; i < flood; ++i) {
        const NewGame g = createGame(port(), "bell", "computer", "second", "expert");
        WsClient c(port(), g.id);
        c.hello(g.secret, "flood");  // fixes the human's seed: the computer may now throw
    }
    const double floodSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - floodStart).count();
    const auto start = std::chrono::steady_clock::now();
    const NewGame g = createGame(port(), "bell", "computer", "second", "expert");
    WsClient c(port(), g.id);
    c.hello(g.secret, "late");
    bool acted = false;
    while (!acted && c.receive(std::chrono::seconds(60))) {
        for (const json& e : c.events()) acted = acted || (e["e"] == "thrown" && e["seat"] == 0);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("[ figure ] %d computer games started in %.2f s; the next game's first computer action after %.3f s\n", flood,
                floodSeconds, seconds);
    ASSERT_TRUE(acted);
    EXPECT_LT(seconds, 2.0);
}

}  // namespace
}  // namespace senet::testing
