// Kendall and Piccione in a room (MemoryStorage, ManualScheduler): Piccione's steps (a throw
// split over several moves, the entry throw, the automatic pass of a remainder, a step onto 27),
// the computer making several consecutive steps, each its own paced task, a restart in the
// middle of a throw, rematch and the verified record; a Kendall friend game to its end.
// The expected values are written here (PROTOCOL.md "Snapshot" `steps`, "Events").
#include "room_support.hpp"

namespace senet::testing {
namespace {

/// The amount of a Piccione step as the state lists it: |to - from|, 31 - from for a bear-off,
/// 1 for `in-1`.
int amountOf(const json& m) {
    if (m.value("enter", false)) return 1;
    return std::abs(m["to"].get<int>() - m["from"].get<int>());
}

/// A local Piccione game with both seeds fixed; its client holds both seats.
struct LocalPiccione {
    explicit LocalPiccione(Fixture& f, const std::string& seed)
        : g(f.create(Opponent::Local, 0, RulesetId::Piccione)), room(f.room(g.id)), c(room) {
        c.hello(g.secret, seed);
    }
    Created g;
    std::shared_ptr<Room> room;
    Client c;
};

/// The events of the last events frame `c` got.
json lastEventsFrame(Client& c) {
    const auto& frames = c.frames();
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
        const json m = json::parse(**it);
        if (m["t"] == "events") return m["d"]["events"];
    }
    return json();
}

/// One action of the seat to act in a local game: a throw, or the legal move that `pick`
/// chooses (an index into legalMoves).
void act(Client& c, const std::function<std::size_t(const json& moves)>& pick) {
    const json s = c.state();
    if (s["phase"] == "move") c.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][pick(s["legalMoves"])]["move"]}});
    else c.send("throw", {{"ply", s["ply"]}});
    ASSERT_FALSE(c.hasNewError()) << c.errors().back().dump();
}

TEST(RoomSteps, TheStateOfAPiccioneGameAtItsStartAndOfTheOtherRulesets) {
    Fixture f;
    LocalPiccione p(f, "start");
    const json s = p.c.state();
    EXPECT_EQ(s["ruleset"], "piccione");
    EXPECT_EQ(s["position"], "piccione:..............................:1:0:0:0:-:0:0");
    EXPECT_EQ(s["steps"], json::parse(R"({"direction":"-","entry":false,"hand":[5,5],"owed":0,"remainder":0})"));
    EXPECT_EQ(s["phase"], "throw");
    EXPECT_EQ(s["players"], json::array({1, 2}));
    for (const RulesetId id : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell, RulesetId::Kendall}) {
        const Created g = f.create(Opponent::Local, 0, id);
        EXPECT_TRUE(f.freshState(g.id)["steps"].is_null()) << ruleset(id).key;
    }
}

/// Until a 1 is thrown nothing can enter: every other throw passes (turn-lost). The 1 offers
/// `in-1` alone; it enters the piece and the entry throw follows for the same seat.
TEST(RoomSteps, AnEntryAndItsEntryThrow) {
    Fixture f;
    LocalPiccione p(f, "entry");
    Client& c = p.c;
    for (int i = 0; i < 100 && c.state()["phase"] != "move"; ++i) {
        c.send("throw", {{"ply", c.state()["ply"]}});
        if (c.state()["phase"] != "move") {
            const json ev = lastEventsFrame(c);
            ASSERT_EQ(ev.size(), 3u) << ev.dump();
            EXPECT_EQ(ev[1]["e"], "turn-lost");
            EXPECT_FALSE(ev[1].contains("remainder"));
            EXPECT_EQ(ev[2]["e"], "turn");
        }
    }
    ASSERT_EQ(c.state()["phase"], "move");
    const json s = c.state();
    EXPECT_EQ(s["lastThrow"]["value"], 1);
    EXPECT_EQ(s["legalMoves"], json::parse(R"([{"dest":1,"enter":true,"from":0,"move":"in-1","to":1}])"));
    const int seat = s["seatToAct"], player = seat + 1;
    const std::int64_t ply = s["ply"];
    c.send("move", {{"ply", ply}, {"move", "in-1"}});
    ASSERT_FALSE(c.hasNewError());
    const json ev = lastEventsFrame(c);
    ASSERT_EQ(ev.size(), 2u) << ev.dump();
    EXPECT_EQ(ev[0], json({{"e", "moved"}, {"seat", seat}, {"player", player}, {"move", "in-1"}, {"from", 0}, {"to", 1},
                           {"dest", 1}, {"enter", true}}));
    EXPECT_EQ(ev[1], json({{"e", "extra-throw"}, {"seat", seat}, {"player", player}, {"value", 1}, {"entry", true}}));
    const json after = c.state();
    EXPECT_EQ(after["ply"], ply + 1);
    EXPECT_EQ(after["phase"], "throw");
    EXPECT_EQ(after["seatToAct"], seat);
    EXPECT_EQ(after["steps"]["entry"], true);
    EXPECT_EQ(after["steps"]["direction"], "f");
    EXPECT_EQ(after["steps"]["hand"][seat], 4);
    EXPECT_EQ(after["steps"]["hand"][1 - seat], 5);
    EXPECT_EQ(after["board"][0], player);
    // The entry throw: its first step moves the entered piece from square 1 forward.
    c.send("throw", {{"ply", ply + 1}});
    ASSERT_FALSE(c.hasNewError());
    const json t = c.state();
    const int value = t["lastThrow"]["value"];
    if (t["phase"] == "move") {
        ASSERT_EQ(t["legalMoves"].size(), static_cast<std::size_t>(value));
        for (const json& m : t["legalMoves"]) {
            EXPECT_EQ(m["from"], 1);
            EXPECT_GT(m["to"].get<int>(), 1);
        }
    }
}

/// A throw spent in two steps: after the first the same seat moves again with the remainder,
/// no throw in between and no turn event; the state says how much is left; a restart in the
/// middle of the throw finds the same state.
TEST(RoomSteps, AThrowSplitOverTwoSteps) {
    Fixture f;
    LocalPiccione p(f, "split");
    Client& c = p.c;
    std::mt19937 rng(5);
    bool split = false;
    for (int i = 0; i < 3000 && !split && c.state()["phase"] != "over"; ++i) {
        const json s = c.state();
        const bool fresh = s["phase"] == "move" && s["steps"]["remainder"] == 0;
        const int value = s["lastThrow"].is_null() ? 0 : s["lastThrow"]["value"].get<int>();
        std::optional<std::size_t> partial;
        if (fresh)
            for (std::size_t k = 0; k < s["legalMoves"].size(); ++k)
                if (amountOf(s["legalMoves"][k]) < value) partial = k;
        if (!partial) {
            act(c, [&](const json& moves) { return rng() % moves.size(); });
            continue;
        }
        const json m = s["legalMoves"][*partial];
        c.send("move", {{"ply", s["ply"]}, {"move", m["move"]}});
        ASSERT_FALSE(c.hasNewError());
        const json after = c.state();
        if (after["phase"] != "move") continue;  // no step for the remainder (its pass), or the end
        split = true;
        const int left = value - amountOf(m);
        EXPECT_EQ(after["ply"], s["ply"].get<int>() + 1);
        EXPECT_EQ(after["seatToAct"], s["seatToAct"]);
        EXPECT_EQ(after["throwIndex"], s["throwIndex"]);
        EXPECT_EQ(after["lastThrow"], s["lastThrow"]);
        EXPECT_EQ(after["steps"]["remainder"], left);
        EXPECT_EQ(after["steps"]["direction"], m.value("backward", false) ? "b" : "f");
        const std::string pos = after["position"];
        EXPECT_EQ(pos.substr(pos.size() - 7, 1), std::to_string(left)) << pos;
        for (const json& e : lastEventsFrame(c)) EXPECT_NE(e["e"], "turn") << e.dump();
        for (const json& next : after["legalMoves"]) EXPECT_LE(amountOf(next), left) << next.dump();
        // A throw now is the wrong phase; a step of more than the remainder is illegal.
        c.send("throw", {{"ply", after["ply"]}});
        EXPECT_EQ(c.waitForError("wrong-phase")["code"], "wrong-phase");
        // The same state after a restart: the stored actions replay to the middle of the throw.
        ManualScheduler scheduler2;
        Metrics metrics2;
        Registry again(f.memory, metrics2, scheduler2, f.config);
        Lookup l = again.find(p.g.id);
        ASSERT_EQ(l.status, LookupStatus::Found);
        Client watcher(l.room);
        json fresh2 = watcher.hello();
        for (const char* k : {"position", "steps", "legalMoves", "lastThrow", "ply", "throwIndex", "phase", "seatToAct"})
            EXPECT_EQ(fresh2[k], after[k]) << k;
        // The remainder is spent with a move that has no throw in the record.
        c.send("move", {{"ply", after["ply"]}, {"move", after["legalMoves"][0]["move"]}});
        ASSERT_FALSE(c.hasNewError());
        Client w2(p.room);
        const json plies = w2.hello()["record"]["plies"];
        bool remainderPly = false;
        for (const json& ply : plies) remainderPly = remainderPly || (!ply.contains("throw") && ply["move"] != "pass");
        EXPECT_TRUE(remainderPly) << plies.dump();
    }
    EXPECT_TRUE(split) << "no throw was split in 3000 actions";
}

/// The state's `owed` counts the throw made and not yet spent (PROTOCOL.md "not yet made"): while
/// a new throw waits for its first step, an owed throw it spends is no longer counted and a 5
/// already owes one more; the position's BONUS changes only with that step (RULES.md `apply`).
TEST(RoomSteps, OwedThrowsCountTheThrowMadeBeforeItsFirstStep) {
    Fixture f;
    LocalPiccione p(f, "owed");
    Client& c = p.c;
    std::mt19937 rng(11);
    int fives = 0, owedSpent = 0;
    for (int i = 0; i < 4000 && (fives < 3 || owedSpent < 3) && c.state()["phase"] != "over"; ++i) {
        const json s = c.state();
        if (s["phase"] == "move" && s["steps"]["remainder"] == 0) {
            const std::string pos = s["position"];
            std::vector<std::string> fields;
            for (std::size_t a = 0, b; a <= pos.size(); a = b + 1) {
                b = pos.find(':', a);
                if (b == std::string::npos) b = pos.size();
                fields.push_back(pos.substr(a, b - a));
            }
            ASSERT_EQ(fields.size(), 9u) << pos;
            const bool spendsOwed = fields[6] != "-" && fields[8] == "0";
            const int value = s["lastThrow"]["value"].get<int>();
            const int expected = std::stoi(fields[7]) - (spendsOwed ? 1 : 0) + (value == 5 ? 1 : 0);
            EXPECT_EQ(s["steps"]["owed"], expected) << pos << " throw " << value;
            fives += value == 5;
            owedSpent += spendsOwed;
        }
        act(c, [&](const json& moves) { return rng() % moves.size(); });
    }
    EXPECT_GE(fives, 3);
    EXPECT_GE(owedSpent, 3);
}

/// Random local games until a step leaves a remainder that no step can spend: the pass comes
/// in the step's own frame, after `moved`, as `turn-lost` with `remainder`, then `turn`; the
/// record has the pass as a ply without a throw; the record verifies.
TEST(RoomSteps, TheAutomaticPassOfARemainder) {
    int seen = 0, toHand = 0;
    for (int round = 0; round < 6 && seen < 2; ++round) {
        Fixture f;
        f.config.testSeed = std::vector<std::uint8_t>(32, 3);
        LocalPiccione p(f, "rem" + std::to_string(round));
        Client& c = p.c;
        std::mt19937 rng(round + 1);
        // Small amounts first: they leave remainders.
        const auto small = [&](const json& moves) {
            std::vector<std::size_t> pick;
            for (std::size_t k = 0; k < moves.size(); ++k)
                if (amountOf(moves[k]) == 1) pick.push_back(k);
            if (pick.empty() || rng() % 4 == 0) return static_cast<std::size_t>(rng() % moves.size());
            return pick[rng() % pick.size()];
        };
        for (int i = 0; i < 5000 && c.state()["phase"] != "over"; ++i) {
            const json s = c.state();
            act(c, small);
            if (s["phase"] != "move") continue;
            const json ev = lastEventsFrame(c);
            for (const json& e : ev)
                if (e["e"] == "moved" && e.value("toHand", false)) {
                    ++toHand;
                    EXPECT_EQ(e["to"], 27);
                    EXPECT_EQ(e["dest"], 0);
                }
            if (ev.size() < 3 || !ev[ev.size() - 2].value("remainder", false)) continue;
            ++seen;
            const json pass = ev[ev.size() - 2];
            const json after = c.state();
            const int seat = s["seatToAct"];
            EXPECT_EQ(ev[0]["e"], "moved");
            EXPECT_EQ(pass["e"], "turn-lost");
            EXPECT_EQ(pass["seat"], seat);
            EXPECT_EQ(pass["player"], seat + 1);
            const int budget = s["steps"]["remainder"] == 0 ? s["lastThrow"]["value"].get<int>() : s["steps"]["remainder"].get<int>();
            EXPECT_EQ(pass["value"], budget - amountOf(ev[0])) << ev.dump();
            EXPECT_GT(pass["value"].get<int>(), 0);
            EXPECT_EQ(ev.back(), json({{"e", "turn"}, {"seat", 1 - seat}, {"player", 2 - seat}}));
            EXPECT_EQ(after["ply"], s["ply"].get<int>() + 1);
            EXPECT_EQ(after["phase"], "throw");
            EXPECT_EQ(after["seatToAct"], 1 - seat);
            EXPECT_EQ(after["steps"]["remainder"], 0);
            EXPECT_EQ(after["steps"]["direction"], "-");
            EXPECT_EQ(after["steps"]["owed"], 0);
            Client w(p.room);
            const json plies = w.hello()["record"]["plies"];
            ASSERT_GE(plies.size(), 2u);
            EXPECT_EQ(plies.back(), json({{"player", seat + 1}, {"move", "pass"}}));
            EXPECT_EQ(plies[plies.size() - 2]["move"], ev[0]["move"]);
        }
        if (c.state()["phase"] == "over") expectVerifies(*p.room, "piccione-pass" + std::to_string(round));
    }
    EXPECT_GE(seen, 2);
    EXPECT_GE(toHand, 1);
}

/// The computer plays Piccione by itself: each of its steps is its own task (paced like a
/// move, one action each), several in a row within one turn, and the game ends; its record
/// verifies; the rematch is Piccione too, sides swapped.
TEST(RoomSteps, TheComputerMakesSeveralStepsInATurn) {
    for (const std::string level : {"beginner", "expert"}) {
        SCOPED_TRACE(level);
        Fixture f;
        const Created g = f.create(Opponent::Computer, 0, RulesetId::Piccione, level);
        auto room = f.room(g.id);
        Client c(room);
        c.hello(g.secret, "human");
        std::mt19937 rng(9);
        int consecutive = 0, longest = 0, computerSteps = 0;
        for (int i = 0; i < 6000 && c.state()["phase"] != "over"; ++i) {
            const json s = c.state();
            if (s["seatToAct"] == 0) {
                consecutive = 0;
                act(c, [&](const json& moves) { return rng() % moves.size(); });
                continue;
            }
            const std::int64_t ply = s["ply"];
            ASSERT_TRUE(f.scheduler.runOne()) << "the computer has no task at ply " << ply << ": " << s.dump();
            ASSERT_EQ(c.state()["ply"], ply + 1) << "one task, one action";
            if (s["phase"] == "move") {
                ++computerSteps;
                longest = std::max(longest, ++consecutive);
            }
        }
        ASSERT_EQ(c.state()["phase"], "over");
        EXPECT_GE(longest, 2) << "the computer never made two steps in one turn";
        EXPECT_GT(computerSteps, 10);
        expectVerifies(*room, "piccione-computer-" + level);
        c.send("rematch");
        EXPECT_FALSE(c.hasNewError());
        const std::string id = f.memory.loadGame(g.id)->rematch;
        ASSERT_EQ(id.size(), 22u);
        const json next = f.freshState(id);
        EXPECT_EQ(next["ruleset"], "piccione");
        EXPECT_EQ(next["seats"][0]["kind"], "computer");
        EXPECT_EQ(next["level"], level);
    }
}

/// A Kendall friend game from the invitation to its end: five pieces each, no steps member,
/// the ending on the board, a record that verifies.
TEST(RoomSteps, AKendallFriendGameToItsEnd) {
    Fixture f;
    const Created g = f.create(Opponent::Friend, 0, RulesetId::Kendall);
    auto room = f.room(g.id);
    Client a(room), b(room);
    a.hello(g.secret, "kendallA");
    const JoinOutcome j = room->join(g.inviteToken);
    ASSERT_EQ(j.status, JoinStatus::Joined);
    b.hello(j.secret, "kendallB");
    const json s = a.state();
    EXPECT_EQ(s["ruleset"], "kendall");
    EXPECT_EQ(s["position"], "kendall:1212121212....................:1:0:0");
    EXPECT_TRUE(s["steps"].is_null());
    std::mt19937 rng(4);
    playToEnd(f, {{0, &a}, {1, &b}}, a, rng, plainAct());
    const json end = b.state();
    EXPECT_EQ(end["phase"], "over");
    EXPECT_EQ(end["result"]["reason"], "bear-off");
    const int winner = end["result"]["winner"];
    EXPECT_EQ(end["off"][winner], 5);
    expectVerifies(*room, "kendall-friend");
}

}  // namespace
}  // namespace senet::testing
