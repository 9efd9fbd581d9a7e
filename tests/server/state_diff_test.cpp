// An events frame carries only the state members that changed (PROTOCOL.md "events"): a
// client that puts them over the state it holds must hold exactly the room's state after every
// frame, whatever the ruleset, the opponent, or when it said hello.
#include <set>

#include "room_support.hpp"

namespace senet::testing {
namespace {

/// The members of an events frame's state.
std::set<std::string> membersOf(const std::string& frame) {
    std::set<std::string> keys;
    const json m = json::parse(frame);
    for (auto it = m["d"]["state"].begin(); it != m["d"]["state"].end(); ++it) keys.insert(it.key());
    return keys;
}

/// The state a client holds equals a fresh spectator's view of the room, record aside.
void expectSameAsFresh(Fixture& f, const std::string& id, Client& c, const char* who) {
    json fresh = f.freshState(id);
    fresh.erase("record");
    ASSERT_EQ(c.state(), fresh) << who;
}

/// Every ruleset × opponent: three clients (a player, a spectator from the start, and a
/// spectator that says hello mid-game) follow whole games; after every action each one's merged
/// state equals the room's state.
TEST(StateDiff, MergedStateEqualsTheRoomsStateThroughWholeGames) {
    for (const RulesetId ruleset : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell}) {
        for (const std::string opponent : {"local", "computer"}) {
            SCOPED_TRACE(std::string(senet::ruleset(ruleset).key) + " " + opponent);
            Fixture f;
            const Created g = f.create(opponent, 0, ruleset);
            auto room = f.room(g.id);
            Client player(room), early(room);
            player.hello(g.secret, "seed0");
            early.hello();
            std::unique_ptr<Client> late;
            std::mt19937 rng(7);
            int actions = 0;
            const ActFn act = [&](Client& actor, const std::string& type, const json& data) {
                actor.send(type, data);
                ASSERT_FALSE(actor.hasNewError()) << actor.errors().back().dump();
                f.scheduler.runAll();
                if (++actions == 25) {
                    late = std::make_unique<Client>(room);
                    late->hello();
                }
                expectSameAsFresh(f, g.id, player, "player");
                expectSameAsFresh(f, g.id, early, "early spectator");
                if (late) expectSameAsFresh(f, g.id, *late, "late spectator");
            };
            std::map<int, Client*> players{{0, &player}};
            if (opponent == "local") players[1] = &player;
            playToEnd(f, players, player, rng, act, [&] {
                f.scheduler.runAll();
                expectSameAsFresh(f, g.id, player, "player after the computer");
            });
            EXPECT_EQ(player.state()["phase"], "over");
            EXPECT_GT(actions, 25);
            expectSameAsFresh(f, g.id, player, "player at the end");
            ASSERT_TRUE(late);
            expectSameAsFresh(f, g.id, *late, "late spectator at the end");
        }
    }
}

/// A throw's frame names what a throw changes and leaves out what it cannot (the board, the
/// fairness commitment, the seats); the frame after a snapshot is no bigger than needed.
TEST(StateDiff, AThrowsFrameHoldsOnlyWhatChanged) {
    Fixture f;
    const Created g = f.create("local", 0);
    auto room = f.room(g.id);
    Client c(room);
    c.hello(g.secret, "seed0");
    c.frames();  // the snapshot and anything before the first throw
    const std::size_t before = c.frames().size();
    c.send("throw", {{"ply", 0}});
    const auto& frames = c.frames();
    ASSERT_EQ(frames.size(), before + 1);
    const std::set<std::string> members = membersOf(*frames.back());
    EXPECT_TRUE(members.count("ply"));
    EXPECT_TRUE(members.count("throwIndex"));
    EXPECT_TRUE(members.count("lastThrow"));
    EXPECT_FALSE(members.count("board"));
    EXPECT_FALSE(members.count("fairness"));
    EXPECT_FALSE(members.count("seats"));
    EXPECT_FALSE(members.count("game"));
    EXPECT_FALSE(members.count("ruleset"));
    EXPECT_LT(frames.back()->size(), 700u) << *frames.back();
}

/// A spectator that says hello at the state the last frame sent gets a snapshot of that same
/// state: the next frame stays small, and both clients follow it.
TEST(StateDiff, AHelloAtTheSentStateKeepsTheNextFrameSmall) {
    Fixture f;
    const Created g = f.create("local", 0);
    auto room = f.room(g.id);
    Client a(room);
    a.hello(g.secret, "seed0");
    a.send("throw", {{"ply", 0}});
    ASSERT_FALSE(a.hasNewError());
    // A spectator says hello at the state the last frame sent: the next frame stays small.
    Client b(room);
    b.hello();
    a.send(a.state()["phase"] == "move" ? "move" : "throw",
           a.state()["phase"] == "move" ? json{{"ply", 1}, {"move", a.state()["legalMoves"][0]["move"]}} : json{{"ply", 1}});
    ASSERT_FALSE(a.hasNewError());
    EXPECT_FALSE(membersOf(*a.frames().back()).count("fairness")) << *a.frames().back();
    expectSameAsFresh(f, g.id, b, "spectator");
    expectSameAsFresh(f, g.id, a, "player");
}

}  // namespace
}  // namespace senet::testing
