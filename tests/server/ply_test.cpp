// A move carrying a stale, future or otherwise wrong ply is refused with `wrong-ply` (PROTOCOL.md
// "Terms"/"Error codes"), is followed by a fresh snapshot, changes nothing, and the next correct
// move still works. (Throws have their own ply tests; these are about moves.)
#include "fixture.hpp"

namespace senet::testing {
namespace {

constexpr const char* kSeed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

class MovePly : public ServerTest {
    std::vector<std::string> flags() const override { return {"--test-seed", kSeed}; }
};

/// The state members a refused action must leave as they were.
json gameOf(const json& s) {
    json out;
    for (const char* k : {"ply", "throwIndex", "phase", "seatToAct", "position", "board", "off", "turn", "lastThrow", "legalMoves",
                          "result"})
        out[k] = s[k];
    return out;
}

/// Sends a move with `ply` and expects exactly: error wrong-ply naming the current ply, then a
/// snapshot equal in every game member to `before`.
void expectWrongPly(WsClient& c, const json& before, const json& ply, const std::string& move) {
    c.clearErrors();
    c.send("move", {{"ply", ply}, {"move", move}});
    auto err = c.receive();
    ASSERT_TRUE(err) << "no answer to a move at ply " << ply;
    ASSERT_EQ((*err)["t"], "error") << err->dump();
    EXPECT_EQ((*err)["d"]["code"], "wrong-ply") << err->dump();
    EXPECT_EQ((*err)["d"]["ply"], before["ply"]);
    auto snap = c.receive();
    ASSERT_TRUE(snap) << "no snapshot after wrong-ply";
    ASSERT_EQ((*snap)["t"], "snapshot") << snap->dump();
    EXPECT_EQ(gameOf((*snap)["d"]), gameOf(before));
}

/// Says hello with `seed` as the seat of `secret` and makes the game's first throw; returns the
/// state at ply 1. Records a failure when the throw's events do not come.
json firstThrowMade(WsClient& c, const std::string& secret, const std::string& seed) {
    c.hello(secret, seed);
    c.send("throw", {{"ply", 0}});
    EXPECT_TRUE(c.receiveUntilPly(1)) << "the first throw was not answered";
    return c.state();
}

/// Sends a move message with data `d` and expects the next error to be `code`.
void expectMoveRefused(WsClient& c, const json& d, const std::string& code) {
    c.send("move", d);
    auto err = c.receiveType("error");
    ASSERT_TRUE(err) << "no error for the move " << d.dump();
    EXPECT_EQ((*err)["d"]["code"], code) << d.dump();
}

TEST_F(MovePly, StaleAndFuturePliesAreRefusedAndChangeNothing) {
    const NewGame g = createGame(port(), "standard", "local");
    WsClient c(port(), g.id);
    c.hello(g.secret, "plyseed");
    WsClient watcher(port(), g.id);
    ASSERT_FALSE(watcher.hello().is_null());
    c.send("throw", {{"ply", 0}});
    ASSERT_TRUE(c.receiveUntilPly(1));
    ASSERT_TRUE(watcher.receiveUntilPly(1));
    const json before = c.state();
    ASSERT_EQ(before["phase"], "move");
    ASSERT_EQ(before["ply"], 1);
    const std::string move = before["legalMoves"][0]["move"];

    expectWrongPly(c, before, 0, move);        // stale (the throw's ply)
    expectWrongPly(c, before, 2, move);        // one ahead
    expectWrongPly(c, before, 1000000, move);  // far ahead
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + g.id).bodyJson()["ply"], 1);

    // The right ply works, and the watcher's next message is that move, at ply 2: the refused
    // moves left no trace.
    c.clearErrors();
    c.send("move", {{"ply", 1}, {"move", move}});
    ASSERT_TRUE(c.receiveUntilPly(2));
    EXPECT_TRUE(c.errors().empty()) << c.errors().back().dump();
    auto m = watcher.receiveType("events");
    ASSERT_TRUE(m);
    EXPECT_EQ((*m)["d"]["ply"], 2);
    EXPECT_EQ((*m)["d"]["events"][0]["e"], "moved");
    EXPECT_EQ((*m)["d"]["events"][0]["move"], move);
    EXPECT_EQ(c.state()["ply"], 2);
}

TEST_F(MovePly, ARepeatedMoveIsRefusedAsWrongPly) {
    const NewGame g = createGame(port(), "bell", "local");
    WsClient c(port(), g.id);
    const json first = firstThrowMade(c, g.secret, "repeat");
    ASSERT_EQ(first["phase"], "move");
    const std::string move = first["legalMoves"][0]["move"];
    c.send("move", {{"ply", 1}, {"move", move}});
    ASSERT_TRUE(c.receiveUntilPly(2));
    const json before = c.state();
    ASSERT_EQ(before["phase"], "throw");  // Bell: no extra throws
    // The same message again (a resent frame): refused as wrong-ply, not as a wrong phase.
    expectWrongPly(c, before, 1, move);
    // Throw, then the stale move again while a move is due: still refused.
    c.send("throw", {{"ply", 2}});
    ASSERT_TRUE(c.receiveUntilPly(3));
    const json moveDue = c.state();
    if (moveDue["phase"] == "move") {
        for (const auto& legal : moveDue["legalMoves"]) expectWrongPly(c, moveDue, 1, legal["move"]);
        const std::string next = moveDue["legalMoves"][0]["move"];
        c.send("move", {{"ply", 3}, {"move", next}});
        ASSERT_TRUE(c.receiveUntilPly(4));
        EXPECT_EQ(c.state()["ply"], 4);
    }
}

TEST_F(MovePly, AMoveWithoutANonNegativeIntegerPlyIsABadField) {
    const NewGame g = createGame(port(), "standard", "local");
    WsClient c(port(), g.id);
    const json before = firstThrowMade(c, g.secret, "badfield");
    ASSERT_EQ(before["ply"], 1);
    const std::string move = before["legalMoves"][0]["move"];
    for (const json& ply : {json("1"), json(1.5), json(nullptr), json(-1)}) expectMoveRefused(c, {{"ply", ply}, {"move", move}}, "bad-field");
    expectMoveRefused(c, {{"move", move}}, "bad-field");  // no ply at all
    // Nothing changed: a fresh hello shows the same game.
    EXPECT_EQ(gameOf(c.hello(g.secret)), gameOf(before));
}

}  // namespace
}  // namespace senet::testing
