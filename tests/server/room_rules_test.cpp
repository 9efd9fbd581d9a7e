// A room's rules of play in process (MemoryStorage, ManualScheduler): who may act and when, the
// exact refusals, resignation, claims, rematches and invitations (presence: room_presence_test.cpp). The
// expected words and values are written here (PROTOCOL.md "Error codes", "Events").
#include <chrono>

#include "room_support.hpp"

namespace senet::testing {
namespace {

/// A friend game with both seats taken and both seeds fixed: a holds seat 0, b seat 1.
struct FriendGame {
    explicit FriendGame(Fixture& f) : g(f.create(Opponent::Friend, 0)), room(f.room(g.id)) {
        a = std::make_unique<Client>(room);
        a->hello(g.secret, "seedA");
        j = room->join(g.inviteToken);
        EXPECT_EQ(j.status, JoinStatus::Joined);
        b = std::make_unique<Client>(room);
        b->hello(j.secret, "seedB");
    }
    Client& seat(int s) { return s == 0 ? *a : *b; }
    Created g;
    std::shared_ptr<Room> room;
    JoinOutcome j;
    std::unique_ptr<Client> a, b;
};

/// Throws with a local game's client until a move is due (at most 60 throws).
void throwUntilMove(Client& c) {
    for (int i = 0; i < 60 && c.state()["phase"] != "move"; ++i) c.send("throw", {{"ply", c.state()["ply"]}});
    ASSERT_EQ(c.state()["phase"], "move");
}

TEST(RoomRules, HelloFirstAndPong) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    Client c(f.room(g.id));
    c.send("throw", {{"ply", 0}});
    const json e = newError(c, 0);
    EXPECT_EQ(e["code"], "hello-first");
    EXPECT_EQ(e["message"], "send hello first");
    EXPECT_EQ(e["ply"], 0);
    const auto before = c.frames().size();
    c.send("ping");
    ASSERT_EQ(c.frames().size(), before + 1);
    const json pong = json::parse(*c.frames().back());
    EXPECT_EQ(pong["t"], "pong");
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    EXPECT_NEAR(pong["d"]["time"].get<double>(), double(now), 60'000.0);
}

TEST(RoomRules, WatcherMayNotAct) {
    Fixture f;
    FriendGame fg(f);
    Client w(fg.room);
    w.hello();
    for (const char* type : {"throw", "resign", "claim", "rematch"}) {
        const auto before = w.errors().size();
        w.send(type, std::string(type) == "throw" ? json{{"ply", 0}} : json::object());
        const json e = newError(w, before);
        EXPECT_EQ(e["code"], "not-seated") << type;
        EXPECT_EQ(e["message"], "you are watching this game; only a seat may act") << type;
    }
    EXPECT_EQ(w.state()["ply"], 0);
    EXPECT_TRUE(w.state()["result"].is_null());
}

TEST(RoomRules, WrongPlyIsRefusedWithASnapshot) {
    Fixture f;
    FriendGame fg(f);
    const int toAct = fg.a->state()["seatToAct"];
    Client& actor = fg.seat(toAct);
    const auto frames = actor.frames().size();
    actor.send("throw", {{"ply", 3}});
    const auto& all = actor.frames();
    ASSERT_EQ(all.size(), frames + 2);  // the error, then a fresh snapshot
    const json e = json::parse(*all[frames]);
    EXPECT_EQ(e["t"], "error");
    EXPECT_EQ(e["d"]["code"], "wrong-ply");
    EXPECT_EQ(e["d"]["message"], "this game is at ply 0, not 3");
    EXPECT_EQ(json::parse(*all[frames + 1])["t"], "snapshot");
    EXPECT_EQ(actor.state()["ply"], 0);
    EXPECT_TRUE(f.memory.loadActions(fg.g.id).empty());
}

TEST(RoomRules, OnlyTheSeatToActActs) {
    Fixture f;
    FriendGame fg(f);
    const int toAct = fg.a->state()["seatToAct"];
    Client& other = fg.seat(1 - toAct);
    other.send("throw", {{"ply", 0}});
    const json e = newError(other, 0);
    EXPECT_EQ(e["code"], "not-your-turn");
    EXPECT_EQ(e["message"], "seat " + std::to_string(toAct) + " is to act");
    EXPECT_TRUE(f.memory.loadActions(fg.g.id).empty());
    fg.seat(toAct).send("throw", {{"ply", 0}});
    EXPECT_TRUE(fg.seat(toAct).errors().empty());
    EXPECT_EQ(f.memory.loadActions(fg.g.id).size(), 1u);
    EXPECT_EQ(other.state()["ply"], 1);
}

TEST(RoomRules, ThrowAndMoveOnlyInTheirPhase) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    Client c(f.room(g.id));
    c.hello(g.secret, "phases");
    c.send("move", {{"ply", 0}, {"move", "9-11"}});
    json e = newError(c, 0);
    EXPECT_EQ(e["code"], "wrong-phase");
    EXPECT_EQ(e["message"], "a throw is due, not a move");
    throwUntilMove(c);
    const std::int64_t ply = c.state()["ply"];
    c.send("throw", {{"ply", ply}});
    e = newError(c, 1);
    EXPECT_EQ(e["code"], "wrong-phase");
    EXPECT_EQ(e["message"], "a move is due, not a throw");
    c.send("move", {{"ply", ply}, {"move", "zz"}});
    e = newError(c, 2);
    EXPECT_EQ(e["code"], "illegal-move");
    EXPECT_EQ(c.state()["ply"], ply);
    EXPECT_EQ(f.memory.loadActions(g.id).size(), static_cast<std::size_t>(ply));
    // A legal move is stored as its text and advances the ply.
    const std::string move = c.state()["legalMoves"][0]["move"];
    c.send("move", {{"ply", ply}, {"move", move}});
    EXPECT_EQ(c.errors().size(), 3u);
    EXPECT_EQ(c.state()["ply"], ply + 1);
    const auto actions = f.memory.loadActions(g.id);
    ASSERT_EQ(actions.size(), static_cast<std::size_t>(ply + 1));
    EXPECT_EQ(actions.back().kind, 'm');
    EXPECT_EQ(actions.back().move, move);
    EXPECT_EQ(actions.back().seq, ply);
}

TEST(RoomRules, ResignationEndsTheGameForTheOtherSeat) {
    for (int resigner : {0, 1}) {
        SCOPED_TRACE(resigner);
        Fixture f;
        FriendGame fg(f);
        EXPECT_FALSE(fg.room->over());
        EXPECT_FALSE(fg.room->verifiableRecord().has_value());
        fg.seat(resigner).send("resign");
        EXPECT_TRUE(fg.seat(resigner).errors().empty());
        EXPECT_TRUE(fg.room->over());
        const json s = fg.a->state();
        EXPECT_EQ(s["phase"], "over");
        EXPECT_EQ(s["result"]["winner"], 1 - resigner);
        EXPECT_EQ(s["result"]["reason"], "resign");
        const auto row = f.memory.loadGame(fg.g.id);
        EXPECT_EQ(row->status, GameStatus::Over);
        EXPECT_EQ(json::parse(row->result)["winner"], 1 - resigner);
        EXPECT_EQ(json::parse(row->result)["reason"], "resign");
        bool revealed = false;
        for (const json& e : fg.b->events())
            if (e["e"] == "result") revealed = e["serverSeed"] == f.serverSeedHex(fg.g.id) && e["winner"] == 1 - resigner;
        EXPECT_TRUE(revealed);
        const auto record = fg.room->verifiableRecord();
        ASSERT_TRUE(record.has_value());
        const json r = json::parse(*record);
        EXPECT_EQ(r["game"], fg.g.id);
        EXPECT_EQ(r["ending"]["reason"], "resign");
        EXPECT_EQ(r["fairness"]["serverSeed"], f.serverSeedHex(fg.g.id));
        EXPECT_EQ(r["fairness"]["clientSeeds"], json::array({"seedA", "seedB"}));
        EXPECT_EQ(r["fairness"]["throws"], 0);
        // Nothing more happens in a finished game.
        for (const char* type : {"resign", "claim", "throw"}) {
            Client& c = fg.seat(1 - resigner);
            const auto before = c.errors().size();
            c.send(type, std::string(type) == "throw" ? json{{"ply", 0}} : json::object());
            const json e = newError(c, before);
            EXPECT_EQ(e["code"], "game-over") << type;
            EXPECT_EQ(e["message"], "the game is over") << type;
        }
        EXPECT_EQ(json::parse(f.memory.loadGame(fg.g.id)->result)["winner"], 1 - resigner);
    }
}

TEST(RoomRules, LocalResignationLosesForTheSeatToAct) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    Client c(f.room(g.id));
    c.hello(g.secret, "local");
    const int toAct = c.state()["seatToAct"];
    c.send("resign");
    EXPECT_EQ(c.state()["result"]["winner"], 1 - toAct);
}

TEST(RoomRules, ClaimNeedsAnAbsentHumanOpponent) {
    const std::string noOpponent = "there is no human opponent to claim against";
    {
        Fixture f;
        const Created g = f.create(Opponent::Local, 0);
        Client c(f.room(g.id));
        c.hello(g.secret, "x");
        c.send("claim");
        const json e = newError(c, 0);
        EXPECT_EQ(e["code"], "cannot-claim");
        EXPECT_EQ(e["message"], noOpponent);
    }
    {
        Fixture f;
        const Created g = f.create(Opponent::Computer, 0);
        Client c(f.room(g.id));
        c.hello(g.secret, "x");
        c.send("claim");
        EXPECT_EQ(newError(c, 0)["message"], noOpponent);
    }
    {
        Fixture f;  // the friend has not joined
        const Created g = f.create(Opponent::Friend, 1);
        Client c(f.room(g.id));
        c.hello(g.secret, "x");
        c.send("claim");
        EXPECT_EQ(newError(c, 0)["message"], noOpponent);
    }
    {
        Fixture f;
        FriendGame fg(f);
        fg.a->send("claim");
        const json e = newError(*fg.a, 0);
        EXPECT_EQ(e["code"], "cannot-claim");
        EXPECT_EQ(e["message"], "your opponent is online");
        // Offline, but for less than the grace period (300 s by default).
        fg.b.reset();
        EXPECT_EQ(fg.a->state()["seats"][1]["online"], false);
        fg.a->send("claim");
        const json early = newError(*fg.a, 1);
        EXPECT_EQ(early["code"], "cannot-claim");
        EXPECT_EQ(early["message"], "your opponent has been offline for 0 s of 300 s");
        EXPECT_TRUE(fg.a->state()["result"].is_null());
        EXPECT_EQ(f.memory.loadGame(fg.g.id)->status, GameStatus::Playing);
    }
}

TEST(RoomRules, ClaimAfterTheGracePeriodWins) {
    for (int claimer : {0, 1}) {
        SCOPED_TRACE(claimer);
        Fixture f;
        f.config.grace = std::chrono::seconds(0);
        FriendGame fg(f);
        (claimer == 0 ? fg.b : fg.a).reset();
        Client& c = fg.seat(claimer);
        c.send("claim");
        EXPECT_TRUE(c.errors().empty()) << c.errors().back().dump();
        EXPECT_EQ(c.state()["result"]["winner"], claimer);
        EXPECT_EQ(c.state()["result"]["reason"], "claim");
        EXPECT_EQ(json::parse(f.memory.loadGame(fg.g.id)->result)["reason"], "claim");
        EXPECT_EQ(json::parse(f.memory.loadGame(fg.g.id)->result)["winner"], claimer);
    }
}

TEST(RoomRules, RematchNeedsBothSeatsThenSwapsThem) {
    Fixture f;
    FriendGame fg(f);
    fg.a->send("rematch");
    json e = newError(*fg.a, 0);
    EXPECT_EQ(e["code"], "not-over");
    EXPECT_EQ(e["message"], "a rematch is offered once the game is over");
    fg.a->send("resign");
    fg.b->send("rematch");
    EXPECT_EQ(fg.a->state()["rematchOffered"], json::array({false, true}));
    EXPECT_TRUE(fg.a->state()["rematch"].is_null());
    EXPECT_EQ(lastEvent(*fg.a, "rematch-offered")["seat"], 1);
    EXPECT_EQ(f.memory.loadGame(fg.g.id)->rematch, "");
    fg.a->send("rematch");
    EXPECT_TRUE(fg.a->errors().size() == 1 && fg.b->errors().empty());
    const std::string id = f.memory.loadGame(fg.g.id)->rematch;
    ASSERT_EQ(id.size(), 22u);
    EXPECT_EQ(fg.b->state()["rematch"], id);
    EXPECT_EQ(lastEvent(*fg.b, "rematch")["game"], id);
    const auto old = f.memory.loadGame(fg.g.id);
    const auto next = f.memory.loadGame(id);
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(next->rematchOf, fg.g.id);
    EXPECT_EQ(next->seatHashes[0], old->seatHashes[1]);
    EXPECT_EQ(next->seatHashes[1], old->seatHashes[0]);
    EXPECT_EQ(next->opponent, Opponent::Friend);
    EXPECT_EQ(next->ruleset, old->ruleset);
    // The creator's secret holds seat 1 of the rematch.
    Client again(f.room(id));
    EXPECT_EQ(again.hello(fg.g.secret, "s")["you"], json::array({1}));
    // Asking again answers the same game.
    const auto events = fg.a->events().size();
    fg.a->send("rematch");
    ASSERT_EQ(fg.a->events().size(), events + 1);
    EXPECT_EQ(fg.a->events().back()["game"], id);
    EXPECT_EQ(f.memory.loadGame(fg.g.id)->rematch, id);
}

TEST(RoomRules, ComputerRematchAtOnceAndAFailedWriteChangesNothing) {
    Fixture f;
    const Created g = f.create(Opponent::Computer, 0, RulesetId::Standard, "expert");
    Client c(f.room(g.id));
    c.hello(g.secret, "h");
    c.send("resign");
    f.faulty.failNth(1);
    c.send("rematch");
    const json e = newError(c, 0);
    EXPECT_EQ(e["code"], "storage");
    EXPECT_EQ(e["message"], "the rematch could not be saved; nothing changed, try again");
    EXPECT_EQ(c.state()["rematchOffered"], json::array({false, false}));
    EXPECT_EQ(f.memory.loadGame(g.id)->rematch, "");
    c.send("rematch");
    const std::string id = f.memory.loadGame(g.id)->rematch;
    ASSERT_FALSE(id.empty());
    EXPECT_EQ(c.state()["rematch"], id);
    const auto next = f.memory.loadGame(id);
    EXPECT_EQ(next->seatHashes[0], "computer");
    EXPECT_EQ(next->level, "expert");
    EXPECT_EQ(next->opponent, Opponent::Computer);
    EXPECT_TRUE(next->clientSeeds[0].has_value());
    EXPECT_FALSE(next->clientSeeds[1].has_value());
}

TEST(RoomRules, ComputerInTheFirstSeatAgreesToARematchAtOnce) {
    // The human holds the second seat: one offer is enough, as with the computer second.
    Fixture f;
    const Created g = f.create(Opponent::Computer, 1, RulesetId::Bell, "beginner");
    Client c(f.room(g.id));
    EXPECT_EQ(c.hello(g.secret, "h")["you"], json::array({1}));
    c.send("resign");
    ASSERT_EQ(c.state()["phase"], "over");
    c.send("rematch");
    EXPECT_FALSE(c.hasNewError());
    const std::string id = f.memory.loadGame(g.id)->rematch;
    ASSERT_EQ(id.size(), 22u) << "the rematch was not created by the human's one offer";
    EXPECT_EQ(c.state()["rematch"], id);
    const auto next = f.memory.loadGame(id);
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(next->seatHashes[1], "computer");  // sides swapped
    EXPECT_EQ(next->seatHashes[0], f.memory.loadGame(g.id)->seatHashes[1]);
    EXPECT_EQ(next->ruleset, "bell");
    EXPECT_EQ(next->level, "beginner");
}

TEST(RoomInvites, JoinAndInviteAnswers) {
    Fixture f;
    const Created g = f.create(Opponent::Friend, 0);
    auto room = f.room(g.id);
    EXPECT_EQ(room->join("not-the-token").status, JoinStatus::BadInvite);
    EXPECT_EQ(room->invite("not-a-secret").status, InviteStatus::BadSecret);
    const InviteOutcome inv = room->invite(g.secret);
    EXPECT_EQ(inv.status, InviteStatus::Found);
    EXPECT_EQ(inv.token, g.inviteToken);
    const JoinOutcome j = room->join(g.inviteToken);
    ASSERT_EQ(j.status, JoinStatus::Joined);
    EXPECT_EQ(j.seat, 1);
    EXPECT_EQ(j.secret.size(), 43u);
    EXPECT_EQ(j.commitment, fairness::commitment(f.memory.loadGame(g.id)->serverSeed));
    EXPECT_EQ(f.memory.loadGame(g.id)->seatHashes[1], fairness::sha256Hex(j.secret));
    EXPECT_EQ(room->invite(g.secret).status, InviteStatus::Full);
    EXPECT_EQ(room->invite(j.secret).status, InviteStatus::Full);
    EXPECT_EQ(room->join(g.inviteToken).status, JoinStatus::Full);
    EXPECT_EQ(room->invite(g.secret).token, "");

    // Over before the friend came.
    Fixture f2;
    const Created w = f2.create(Opponent::Friend, 1);
    auto room2 = f2.room(w.id);
    Client c(room2);
    c.hello(w.secret, "x");
    c.send("resign");
    EXPECT_EQ(c.state()["result"]["reason"], "resign");
    EXPECT_EQ(room2->join(w.inviteToken).status, JoinStatus::Over);
    EXPECT_EQ(room2->invite(w.secret).status, InviteStatus::Over);
    EXPECT_EQ(f2.memory.loadGame(w.id)->seatHashes[0], "");

    // Games without an invitation.
    for (const Opponent opponent : {Opponent::Local, Opponent::Computer}) {
        const Created o = f2.create(opponent, 0);
        EXPECT_EQ(f2.room(o.id)->invite(o.secret).status, InviteStatus::NoInvite) << toString(opponent);
        EXPECT_EQ(f2.room(o.id)->join(g.inviteToken).status, JoinStatus::Full) << toString(opponent);
        EXPECT_EQ(f2.room(o.id)->invite("computer").status, InviteStatus::BadSecret) << toString(opponent);
    }
}


/// A throw that leaves no legal move says so in its own batch of events: "passed" (a ruleset
/// with an extra throw after a pass) or "turn-lost", with the thrower's seat and value, before
/// the turn moves on. Whole local games with fixed seeds (deterministic: the same throws).
TEST(RoomRules, AThrowWithoutAMoveIsAnnounced) {
    int announced = 0;
    for (const auto& [ruleset, seed] : {std::pair{RulesetId::Standard, std::string("pass1")}, std::pair{RulesetId::Bell, std::string("pass2")},
                                        std::pair{RulesetId::Standard, std::string("pass3")}, std::pair{RulesetId::Kendall, std::string("pass4")},
                                        std::pair{RulesetId::Piccione, std::string("pass5")}}) {
        Fixture f;
        f.config.testSeed = std::vector<std::uint8_t>(32, 7);
        const Created g = f.create(Opponent::Local, 0, ruleset);
        Client c(f.room(g.id));
        c.hello(g.secret, seed);
        std::mt19937 rng(1);
        playToEnd(f, {{0, &c}, {1, &c}}, c, rng, plainAct());
        for (const auto& frame : c.frames()) {
            const json m = json::parse(*frame);
            if (m["t"] != "events") continue;
            const json& ev = m["d"]["events"];
            for (std::size_t i = 0; i < ev.size(); ++i) {
                if (ev[i]["e"] != "thrown" || ev[i]["opening"] == true) continue;
                bool turnMoves = false;
                const json* pass = nullptr;
                for (std::size_t k = i + 1; k < ev.size(); ++k) {
                    if (ev[k]["e"] == "turn" || ev[k]["e"] == "extra-throw") turnMoves = true;
                    if (ev[k]["e"] == "passed" || ev[k]["e"] == "turn-lost") pass = &ev[k];
                }
                if (!turnMoves) continue;  // a move is due: nothing more in this batch
                ASSERT_NE(pass, nullptr) << m.dump();
                EXPECT_EQ((*pass)["seat"], ev[i]["seat"]);
                EXPECT_EQ((*pass)["value"], ev[i]["value"]);
                // The rules engine's table says which (a pass that keeps the turn or loses it).
                EXPECT_EQ((*pass)["e"], senet::ruleset(ruleset).extraThrowAfterPass ? "passed" : "turn-lost") << m.dump();
                ++announced;
            }
        }
    }
    EXPECT_GT(announced, 0);
}


/// Bell: a capture's "captured" event names the captured side (the mover's opponent), and the
/// square the mover landed on. Whole local Bell games with fixed seeds until captures were seen.
TEST(RoomRules, BellCaptureNamesTheCapturedSide) {
    int captures = 0;
    for (int round = 0; round < 8 && captures < 3; ++round) {
        Fixture f;
        f.config.testSeed = std::vector<std::uint8_t>(32, 11);
        const Created g = f.create(Opponent::Local, 0, RulesetId::Bell);
        Client c(f.room(g.id));
        c.hello(g.secret, "capture" + std::to_string(round));
        std::mt19937 rng(round + 1);
        playToEnd(f, {{0, &c}, {1, &c}}, c, rng, plainAct());
        for (const auto& frame : c.frames()) {
            const json m = json::parse(*frame);
            if (m["t"] != "events") continue;
            const json* moved = nullptr;
            for (const json& e : m["d"]["events"]) {
                if (e["e"] == "moved") moved = &e;
                if (e["e"] != "captured") continue;
                ASSERT_NE(moved, nullptr) << m.dump();
                const int mover = (*moved)["player"];
                EXPECT_EQ(e["player"], 3 - mover) << "the captured side is the mover's opponent: " << m.dump();
                EXPECT_EQ(e["square"], (*moved)["to"]) << m.dump();
                ++captures;
            }
        }
    }
    EXPECT_GT(captures, 0) << "no Bell game had a capture";
}

}  // namespace
}  // namespace senet::testing
