// Take-back (PROTOCOL.md "Take-back"): in local and computer games the last move of a human seat
// goes back, with the computer's answer after it; the throws stay as drawn (the throw index goes
// back, so the same throws come again); refused in friend games, before any move, after the end,
// while the computer is to act and at a stale ply; stored, so a reloaded room is the same game;
// the record marks it and still verifies.
#include "room_support.hpp"

namespace senet::testing {
namespace {

/// Moves with the first legal move at state `s`.
void moveFirst(Client& c, const json& s) {
    c.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
    EXPECT_FALSE(c.hasNewError()) << c.errors().back().dump();
}

TEST(RoomTakeBack, TheHumansMoveAndTheComputersAnswerGoBackWithTheSameThrows) {
    Fixture f;
    const Created g = f.create(Opponent::Computer, 0);
    auto room = f.room(g.id);
    Client c(room);
    c.hello(g.secret, "takeback-seed");
    // The human moves until the computer is to act (a 1, 4 or 5 throws again): `before` is the
    // state before the human's last move.
    json before;
    int humanMoves = 0;
    do {
        before = throwUntilMove(f, c);
        ASSERT_TRUE(before.is_object());
        if (humanMoves == 0) EXPECT_EQ(before["takeback"], false) << "nothing to take back before the first move";
        moveFirst(c, before);
        ++humanMoves;
    } while (c.state()["seatToAct"] == 0 && c.state()["phase"] != "over");
    // While the computer is to act: refused.
    ASSERT_EQ(c.state()["seatToAct"], 1);
    c.send("takeback", {{"ply", c.state()["ply"]}});
    c.waitForError("computer-thinking");
    // The computer answers (its throws, its move or passes), then it is the human's turn again.
    std::vector<json> thrownAfter;
    for (int guard = 0; guard < 50 && c.state()["seatToAct"] != 0; ++guard) f.scheduler.runAll();
    ASSERT_EQ(c.state()["seatToAct"], 0);
    for (const json& e : c.events())
        if (e["e"] == "thrown" && e["index"].get<int>() >= before["throwIndex"].get<int>()) thrownAfter.push_back(e);
    ASSERT_FALSE(thrownAfter.empty()) << "the computer threw nothing";
    EXPECT_EQ(c.state()["takeback"], true);
    const std::int64_t ply = c.state()["ply"];
    c.send("takeback", {{"ply", ply}});
    EXPECT_FALSE(c.hasNewError()) << c.errors().back().dump();
    const json after = c.state();
    // The position and the throw before the move, at the next ply; the throw index went back.
    EXPECT_EQ(after["ply"], ply + 1);
    EXPECT_EQ(after["position"], before["position"]);
    EXPECT_EQ(after["board"], before["board"]);
    EXPECT_EQ(after["phase"], "move");
    EXPECT_EQ(after["seatToAct"], 0);
    EXPECT_EQ(after["lastThrow"], before["lastThrow"]);
    EXPECT_EQ(after["throwIndex"], before["throwIndex"]);
    EXPECT_EQ(after["legalMoves"], before["legalMoves"]);
    EXPECT_EQ(after["takeback"], humanMoves > 1) << "an earlier move of the human can go back too";
    const json ev = lastEvent(c, "taken-back");
    EXPECT_EQ(ev["seat"], 0);
    EXPECT_EQ(ev["player"], 1);
    EXPECT_GE(ev["plies"].get<int>(), 2);  // the human's move and at least the computer's throw
    // The same move again, then the computer's throws come again as they were drawn.
    moveFirst(c, after);
    const std::size_t seen = c.events().size();
    for (int guard = 0; guard < 50 && c.state()["seatToAct"] != 0; ++guard) f.scheduler.runAll();
    std::vector<json> thrownAgain;
    for (std::size_t i = seen; i < c.events().size(); ++i)
        if (c.events()[i]["e"] == "thrown") thrownAgain.push_back(c.events()[i]);
    // (The computer's choices may differ, so only its first throw is sure to come at the same point.)
    ASSERT_FALSE(thrownAgain.empty());
    EXPECT_EQ(thrownAgain[0]["index"], thrownAfter[0]["index"]);
    EXPECT_EQ(thrownAgain[0]["value"], thrownAfter[0]["value"]);
    EXPECT_EQ(thrownAgain[0]["sticks"], thrownAfter[0]["sticks"]);
    EXPECT_EQ(thrownAgain[0]["seat"], 1);
    // The record marks it and verifies; a room loaded again from storage is the same game.
    c.send("resign");
    const json record = json::parse(*room->verifiableRecord());
    ASSERT_TRUE(record.contains("takebacks")) << record.dump();
    ASSERT_EQ(record["takebacks"].size(), 1u);
    EXPECT_EQ(record["takebacks"][0]["undone"], ev["plies"]);
    EXPECT_EQ(record["fairness"]["throws"].get<int>(), c.state()["throwIndex"].get<int>());
    expectVerifies(*room, "takeback");
    Registry again(f.faulty, f.metrics, f.scheduler, f.config, f.clock);
    Lookup l = again.find(g.id);
    ASSERT_EQ(l.status, LookupStatus::Found);
    EXPECT_EQ(json::parse(*l.room->verifiableRecord()), record);
}

TEST(RoomTakeBack, LocalGameTakesBackTheLastMoveOnlyAndSurvivesAReload) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    auto room = f.room(g.id);
    Client c(room);
    c.hello(g.secret, "local-takeback");
    // Before any move: nothing to take back (also with a throw pending).
    c.send("throw", {{"ply", 0}});
    if (c.state()["phase"] == "move") {
        c.send("takeback", {{"ply", c.state()["ply"]}});
        EXPECT_EQ(c.waitForError("nothing-to-take-back").value("message", ""), "no move has been made yet");
    }
    const json first = throwUntilMove(f, c, c.state()["seatToAct"]);
    moveFirst(c, first);
    const json second = throwUntilMove(f, c, c.state()["seatToAct"]);
    ASSERT_TRUE(second.is_object());
    moveFirst(c, second);
    // A stale ply is refused (with a snapshot), the current one takes back the second move only.
    c.send("takeback", {{"ply", c.state()["ply"].get<int>() - 1}});
    c.waitForError("wrong-ply");
    c.send("takeback", {{"ply", c.state()["ply"]}});
    EXPECT_FALSE(c.hasNewError());
    EXPECT_EQ(c.state()["position"], second["position"]);
    EXPECT_EQ(c.state()["lastThrow"], second["lastThrow"]);
    EXPECT_EQ(c.state()["takeback"], true) << "the first move can go back too";
    EXPECT_EQ(lastEvent(c, "taken-back")["plies"], 1);
    // The move list of every connection comes again with the record: a snapshot after the events.
    Client other(room);
    other.hello(g.secret, "local-takeback");
    EXPECT_EQ(f.freshState(g.id)["position"], second["position"]);
    // Reloaded from storage: the same state.
    json live = f.freshState(g.id);
    Registry again(f.faulty, f.metrics, f.scheduler, f.config, f.clock);
    Client back(again.find(g.id).room);
    json restored = back.hello(g.secret, "local-takeback");
    restored.erase("you");
    restored.erase("record");
    live.erase("record");
    EXPECT_EQ(restored, live);
}

TEST(RoomTakeBack, RefusedBetweenTwoPeopleAfterTheEndAndForSpectators) {
    Fixture f;
    const Created g = f.create(Opponent::Friend, 0);
    auto room = f.room(g.id);
    Client a(room);
    a.hello(g.secret, "friend-a");
    const JoinOutcome j = room->join(g.inviteToken);
    Client b(room);
    b.hello(j.secret, "friend-b");
    const json s = throwUntilMove(f, a);
    moveFirst(a, s);
    a.send("takeback", {{"ply", a.state()["ply"]}});
    EXPECT_EQ(a.waitForError("no-takeback").value("message", ""), "a game between two people has no take-back: a move made stays made");
    EXPECT_EQ(a.state()["takeback"], false);
    Client watcher(room);
    watcher.hello();
    watcher.send("takeback", {{"ply", a.state()["ply"]}});
    watcher.waitForError("not-seated");
    // A computer game that is over.
    const Created cg = f.create(Opponent::Computer, 0);
    Client c(f.room(cg.id));
    c.hello(cg.secret, "over");
    moveFirst(c, throwUntilMove(f, c));
    for (int guard = 0; guard < 50 && c.state()["seatToAct"] != 0; ++guard) f.scheduler.runAll();
    c.send("resign");
    c.send("takeback", {{"ply", c.state()["ply"]}});
    c.waitForError("game-over");
}

}  // namespace
}  // namespace senet::testing
