// The computer's seat in process (MemoryStorage, ManualScheduler): what it writes to the
// operator's log. A normal game logs nothing (no slow decision, no illegal choice, no
// degraded level); a write that fails is retried without counting the retry as late; expert
// decisions that start late are made at the intermediate level and logged once per 10 s.
#include <iostream>
#include <sstream>

#include "room_support.hpp"

namespace senet::testing {
namespace {

/// Collects what the code under test writes to std::cerr while it lives.
class CerrCapture {
public:
    CerrCapture() : old_(std::cerr.rdbuf(text_.rdbuf())) {}
    ~CerrCapture() { std::cerr.rdbuf(old_); }
    CerrCapture(const CerrCapture&) = delete;
    CerrCapture& operator=(const CerrCapture&) = delete;
    std::string text() const { return text_.str(); }
    /// Lines containing `part`.
    int count(const std::string& part) const {
        std::istringstream in(text_.str());
        int n = 0;
        for (std::string line; std::getline(in, line);) n += line.find(part) != std::string::npos;
        return n;
    }

private:
    std::stringstream text_;
    std::streambuf* old_;
};

// Runs first in this file: the degraded-decision log is rate-limited process-wide.
TEST(RoomComputerLog, ANormalGameLogsNothingAndARetryIsNotLate) {
    Fixture f;
    f.config.aiLate = std::chrono::milliseconds(2000);
    f.config.aiBudget = std::chrono::milliseconds(5);
    const Created g = f.create("computer", 1, RulesetId::Standard, "expert");
    auto room = f.room(g.id);
    Client human(room);
    CerrCapture log;
    human.hello(g.secret, "quiet");
    // The computer (seat 0) throws until a move is due, one scheduled task per action.
    bool retried = false;
    for (int i = 0; i < 400 && !retried; ++i) {
        const json s = human.state();
        if (s["seatToAct"] == 0 && s["phase"] == "move") {
            // Its move's write fails once: the retry is scheduled 1 s later and, when it runs
            // at once (ManualScheduler), is not late: decided at expert, nothing logged.
            f.faulty.failNth(1);
            ASSERT_TRUE(f.scheduler.runOne());
            EXPECT_EQ(human.state()["ply"], s["ply"]) << "the failed write changed the game";
            ASSERT_TRUE(f.scheduler.runOne());
            EXPECT_EQ(human.state()["ply"], s["ply"].get<int>() + 1);
            retried = true;
        } else if (s["seatToAct"] == 0) {
            ASSERT_TRUE(f.scheduler.runOne());
        } else if (s["phase"] == "move") {
            human.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
        } else {
            human.send("throw", {{"ply", s["ply"]}});
        }
    }
    ASSERT_TRUE(retried);
    std::mt19937 rng(11);
    playToEnd(f, {{1, &human}}, human, rng, plainAct());
    EXPECT_EQ(human.state()["phase"], "over");
    EXPECT_EQ(log.count("computer queue busy"), 0) << log.text();
    EXPECT_EQ(log.count("computer decision took"), 0) << log.text();
    EXPECT_EQ(log.count("illegal move"), 0) << log.text();
    EXPECT_EQ(log.count("computer player failed"), 0) << log.text();
}

TEST(RoomComputerLog, LateExpertDecisionsAreDegradedAndLoggedOncePerTenSeconds) {
    Fixture f;
    f.config.aiLate = std::chrono::milliseconds(-1);  // every decision starts "late"
    f.config.aiBudget = std::chrono::milliseconds(5);
    const Created g = f.create("computer", 1, RulesetId::Standard, "expert");
    Client human(f.room(g.id));
    CerrCapture log;
    human.hello(g.secret, "busy");
    std::mt19937 rng(12);
    playToEnd(f, {{1, &human}}, human, rng, plainAct());
    EXPECT_EQ(human.state()["phase"], "over");
    // Many degraded decisions, one line (the game takes well under 10 s).
    EXPECT_EQ(log.count("senet-server: computer queue busy: 1 decision(s) made at the intermediate level instead of expert (latest: game " + g.id),
              1)
        << log.text();
    EXPECT_EQ(log.count("computer queue busy"), 1) << log.text();
}

}  // namespace
}  // namespace senet::testing
