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
    for (const RulesetId ruleset : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell, RulesetId::Kendall, RulesetId::Piccione}) {
        for (const Opponent opponent : {Opponent::Local, Opponent::Computer}) {
            SCOPED_TRACE(std::string(senet::ruleset(ruleset).key) + " " + std::string(toString(opponent)));
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
            if (opponent == Opponent::Local) players[1] = &player;
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
    const Created g = f.create(Opponent::Local, 0);
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
    const Created g = f.create(Opponent::Local, 0);
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

/// The type of the first frame `c` received from frame `from` on that carries game state (a
/// `snapshot` or an `events` frame; `watchers` and `error` carry none), "" when none came.
std::string firstStateFrame(Client& c, std::size_t from = 0) {
    const auto& frames = c.frames();
    for (std::size_t i = from; i < frames.size(); ++i) {
        const std::string t = json::parse(*frames[i]).value("t", "");
        if (t == "snapshot" || t == "events") return t;
    }
    return "";
}

/// Says hello on `c` and checks that the first frame of game state it got from then on is the
/// snapshot answering it: its own hello's events (presence, seed) are in that snapshot, never
/// in an events frame before it (PROTOCOL.md "events").
void helloExpectingSnapshotFirst(Client& c, const char* who, const std::string& secret = "", const std::string& seed = "") {
    const std::size_t from = c.frames().size();
    c.hello(secret, seed);
    EXPECT_EQ(firstStateFrame(c, from), "snapshot") << who << ": an events frame came before the snapshot answering the hello";
}

/// A connection's first frame of game state is always a snapshot, and a hello (a first one, one
/// after a reconnection, or a second one on the same connection) is answered by a snapshot
/// before any events frame: an events frame holds only the members that changed since the
/// connection's last frame, so one before its snapshot would be merged onto a state it does not
/// hold. Afterwards every client's merged state stays the room's.
TEST(StateDiff, EveryHelloIsAnsweredByASnapshotBeforeAnyEventsFrame) {
    Fixture f;
    const Created g = f.create(Opponent::Friend, 0);
    auto room = f.room(g.id);
    std::mt19937 rng(11);
    std::vector<std::pair<Client*, const char*>> clients;
    const auto allFollow = [&](const char* when) {
        SCOPED_TRACE(when);
        for (auto [c, who] : clients) expectSameAsFresh(f, g.id, *c, who);
    };
    // Plays `n` actions as whichever of `a` (seat 0) and `b` (seat 1) is to act.
    const auto play = [&](Client& a, Client& b, int n) {
        for (int i = 0; i < n; ++i) {
            const json s = a.state();
            if (s["phase"] == "over") return;
            Client& actor = s["seatToAct"] == 0 ? a : b;
            const std::int64_t ply = s["ply"];
            if (s["phase"] == "move") {
                const auto& moves = s["legalMoves"];
                actor.send("move", {{"ply", ply}, {"move", moves[rng() % moves.size()]["move"]}});
            } else {
                actor.send("throw", {{"ply", ply}});
            }
            ASSERT_FALSE(actor.hasNewError()) << actor.errors().back().dump();
            allFollow("after an action");
        }
    };

    // The creator's hello brings its seat online and fixes its seed.
    Client creator(room);
    clients.emplace_back(&creator, "creator");
    helloExpectingSnapshotFirst(creator, "the creator", g.secret, "seed0");
    EXPECT_EQ(firstStateFrame(creator), "snapshot");
    // A spectator from the start.
    Client watcher(room);
    clients.emplace_back(&watcher, "spectator");
    helloExpectingSnapshotFirst(watcher, "the spectator");
    EXPECT_EQ(firstStateFrame(watcher), "snapshot");
    allFollow("before the join");

    // The friend joins and says hello: its seat online, the last seed fixed (events the other
    // two connections get).
    const JoinOutcome j = room->join(g.inviteToken);
    ASSERT_EQ(j.status, JoinStatus::Joined);
    ASSERT_EQ(j.seat, 1);
    auto friendSeat = std::make_unique<Client>(room);
    clients.emplace_back(friendSeat.get(), "friend");
    helloExpectingSnapshotFirst(*friendSeat, "the friend", j.secret, "seed1");
    EXPECT_EQ(firstStateFrame(*friendSeat), "snapshot");
    allFollow("after the friend's hello");
    ASSERT_FALSE(creator.state()["seatToAct"].is_null()) << creator.state().dump();
    play(creator, *friendSeat, 3);

    // The friend reconnects: a new connection, its seat online again.
    clients.pop_back();
    friendSeat.reset();
    ASSERT_EQ(creator.state()["seats"][1]["online"], false);
    auto again = std::make_unique<Client>(room);
    clients.emplace_back(again.get(), "friend reconnected");
    helloExpectingSnapshotFirst(*again, "the reconnection", j.secret, "seed1");
    EXPECT_EQ(firstStateFrame(*again), "snapshot");
    EXPECT_EQ(again->state()["seats"][1]["online"], true);
    allFollow("after the reconnection");
    play(creator, *again, 3);

    // Second hellos on connections that hold a state: the creator's connection gives up its seat
    // (its seat offline), the spectator's takes the creator's seat (online again).
    helloExpectingSnapshotFirst(creator, "the creator's second hello");
    EXPECT_EQ(creator.state()["seats"][0]["online"], false);
    allFollow("after the creator's second hello");
    helloExpectingSnapshotFirst(watcher, "the spectator's second hello", g.secret);
    EXPECT_EQ(watcher.state()["seats"][0]["online"], true);
    allFollow("after the spectator's second hello");
    // The next frames are still merged onto what each connection holds.
    play(watcher, *again, 4);
}

}  // namespace
}  // namespace senet::testing
