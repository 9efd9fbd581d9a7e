// A room in process (MemoryStorage, ManualScheduler): the order of fairness (both client seeds
// fixed before the first throw), every seat choice of a friend game, shared snapshots.
#include <future>
#include <set>

#include "room_support.hpp"

namespace senet::testing {
namespace {

/// The first throw waits until both seats' seeds are fixed; a seated hello without a seed
/// gets a server-drawn one, published before any throw.
TEST(RoomSeeds, FirstThrowWaitsUntilBothSeedsAreFixed) {
    Fixture f;
    const Created g = f.create(Opponent::Friend, 0);
    auto room = f.room(g.id);
    Client a(room);
    a.hello(g.secret, "creatorseed");
    const JoinOutcome j = room->join(g.inviteToken);
    ASSERT_EQ(j.status, JoinStatus::Joined);
    // The friend holds its seat but has not said hello: its seed is not fixed.
    a.send("throw", {{"ply", 0}});
    a.waitForError("seeds-pending");
    EXPECT_EQ(a.state()["ply"], 0);
    EXPECT_TRUE(f.memory.loadActions(g.id).empty());
    // The friend's hello carries no seed: the server draws one and publishes it.
    Client b(room);
    const json s = b.hello(j.secret);
    ASSERT_TRUE(s["fairness"]["clientSeeds"][1].is_string()) << s.dump();
    const std::string drawn = s["fairness"]["clientSeeds"][1];
    EXPECT_EQ(drawn.size(), 32u);
    EXPECT_EQ(f.memory.loadGame(g.id)->clientSeeds[1], drawn);
    bool published = false;
    for (const json& e : a.events()) published = published || (e["e"] == "seed" && e["seat"] == 1 && e["clientSeed"] == drawn);
    EXPECT_TRUE(published);
    // Now the throw is accepted, with both seeds in the derivation.
    a.send("throw", {{"ply", 0}});
    EXPECT_FALSE(a.hasNewError());
    EXPECT_EQ(a.state()["ply"], 1);
    // A later hello cannot change a fixed seed.
    b.hello(j.secret, "another");
    EXPECT_EQ(b.state()["fairness"]["clientSeeds"][1], drawn);
}

/// The computer, moving first, does not throw before the human's seed is fixed.
TEST(RoomSeeds, ComputerWaitsForTheHumanSeed) {
    Fixture f;
    const Created g = f.create(Opponent::Computer, 1);
    auto room = f.room(g.id);
    Client watcher(room);
    watcher.hello();
    f.scheduler.runAll();
    EXPECT_EQ(watcher.state()["ply"], 0);
    EXPECT_TRUE(watcher.state()["fairness"]["clientSeeds"][0].is_string());  // the computer's, fixed at creation
    EXPECT_TRUE(watcher.state()["fairness"]["clientSeeds"][1].is_null());
    Client human(room);
    human.hello(g.secret, "human");
    f.scheduler.runAll();
    EXPECT_GT(watcher.state()["ply"].get<int>(), 0);
    ASSERT_FALSE(watcher.events().empty());
    bool thrown = false;
    for (const json& e : watcher.events()) thrown = thrown || (e["e"] == "thrown" && e["seat"] == 0);
    EXPECT_TRUE(thrown);
}

/// A local game: the one client's seed fixes both seats; without one the server draws both.
TEST(RoomSeeds, LocalGameSeeds) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    Client c(f.room(g.id));
    const json s = c.hello(g.secret);
    EXPECT_TRUE(s["fairness"]["clientSeeds"][0].is_string());
    EXPECT_TRUE(s["fairness"]["clientSeeds"][1].is_string());
    c.send("throw", {{"ply", 0}});
    EXPECT_TRUE(c.errors().empty()) << c.errors().back().dump();
    EXPECT_EQ(c.state()["ply"], 1);
}

/// A friend game waits for the other seat whichever seat its creator holds; join takes the free seat.
TEST(RoomSeeds, ASeedStoredBeforeTheNextFailedIsAnnouncedAndShown) {
    // Found by the room fuzzer: a throw that retries the seeds stored seat 0's, failed on seat
    // 1's, and announced nothing, so later snapshots still showed seat 0 without its seed.
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    auto room = f.room(g.id);
    Client c(room);
    f.faulty.failNth(1);  // the hello's first seed write fails: nothing is fixed
    c.hello(g.secret, "localseed");
    c.waitForError("storage");
    EXPECT_TRUE(c.state()["fairness"]["clientSeeds"][0].is_null());
    f.faulty.failNth(2);  // the throw retries: seat 0's write goes through, seat 1's fails
    c.send("throw", {{"ply", 0}});
    c.waitForError("storage");
    EXPECT_FALSE(c.hasNewError()) << "more than one error";
    EXPECT_EQ(f.memory.loadGame(g.id)->clientSeeds[0], std::optional<std::string>("localseed"));
    bool announced = false;
    for (const json& e : c.events()) announced = announced || (e["e"] == "seed" && e["seat"] == 0 && e["clientSeed"] == "localseed");
    EXPECT_TRUE(announced);
    Client late(room);
    const json s = late.hello();
    EXPECT_EQ(s["fairness"]["clientSeeds"][0], "localseed") << s.dump();
    EXPECT_TRUE(s["fairness"]["clientSeeds"][1].is_null());
    // Writes work again: the next throw fixes seat 1's seed and is thrown.
    c.send("throw", {{"ply", 0}});
    EXPECT_EQ(c.state()["ply"], 1);
    EXPECT_EQ(f.memory.loadGame(g.id)->clientSeeds[1], std::optional<std::string>("localseed"));
}

TEST(RoomSeats, FriendGameWaitsWhicheverSeatTheCreatorHolds) {
    for (int creatorSeat : {0, 1}) {
        SCOPED_TRACE(creatorSeat);
        Fixture f;
        const Created g = f.create(Opponent::Friend, creatorSeat);
        ASSERT_EQ(g.seats, std::vector<int>{creatorSeat});
        auto room = f.room(g.id);
        Client a(room);
        const json s = a.hello(g.secret, "a");
        EXPECT_EQ(s["phase"], "waiting");
        EXPECT_TRUE(s["seatToAct"].is_null());
        a.send("throw", {{"ply", 0}});
        a.waitForError("not-started");
        const JoinOutcome j = room->join(g.inviteToken);
        ASSERT_EQ(j.status, JoinStatus::Joined);
        EXPECT_EQ(j.seat, 1 - creatorSeat);
        EXPECT_EQ(room->join(g.inviteToken).status, JoinStatus::Full);
        Client b(room);
        const json sb = b.hello(j.secret, "b");
        EXPECT_EQ(sb["you"], json::array({1 - creatorSeat}));
        EXPECT_EQ(sb["phase"], "throw");
        std::map<int, Client*> players{{creatorSeat, &a}, {1 - creatorSeat, &b}};
        std::mt19937 rng(5);
        playToEnd(f, players, a, rng, plainAct());
        expectVerifies(*room, "seats" + std::to_string(creatorSeat));
    }
}

/// Repeated hellos at the same state share one snapshot string (no new copy per hello).
TEST(RoomSnapshot, RepeatedHellosShareOneFrame) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    auto room = f.room(g.id);
    Client c(room), w1(room), w2(room);
    c.hello(g.secret, "x");
    for (int i = 0; i < 40; ++i) {
        const json s = c.state();
        if (s["phase"] == "move") c.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
        else c.send("throw", {{"ply", s["ply"]}});
    }
    w1.hello();
    w2.hello();
    w1.hello();
    const auto last1 = w1.frames().back(), last2 = w2.frames().back();
    EXPECT_EQ(last1.get(), last2.get()) << "each hello built its own snapshot";
    const json snap = json::parse(*last1);
    EXPECT_EQ(snap["t"], "snapshot");
    EXPECT_EQ(snap["d"]["you"], json::array());
    EXPECT_EQ(snap["d"]["ply"], 40);
    // A seat's snapshot says which seats it holds.
    const json mine = c.hello(g.secret);
    EXPECT_EQ(mine["you"], json::array({0, 1}));
    // After a change the next hello gets the new state.
    c.send("resign");
    const json after = w1.hello();
    EXPECT_EQ(after["phase"], "over");
    EXPECT_NE(w1.frames().back().get(), last1.get());
    // At the end of a whole game: 100 hellos hold one snapshot between them.
    const Created g2 = f.create(Opponent::Local, 0);
    auto room2 = f.room(g2.id);
    Client p(room2);
    p.hello(g2.secret, "y");
    std::mt19937 rng(1);
    playToEnd(f, {{0, &p}, {1, &p}}, p, rng, plainAct());
    std::vector<std::unique_ptr<Client>> watchers;
    std::set<const std::string*> distinct;
    for (int i = 0; i < 100; ++i) {
        watchers.push_back(std::make_unique<Client>(room2));
        watchers.back()->hello();
        distinct.insert(watchers.back()->frames().back().get());
    }
    EXPECT_EQ(distinct.size(), 1u);
    std::printf("[ figure ] a finished game's snapshot: %zu bytes, shared by 100 hellos (%zu distinct frames)\n",
                (*distinct.begin())->size(), distinct.size());
}

/// New computer games are refused while the computer's queue is full; other games are not.
TEST(RoomComputerQueue, NewComputerGamesRefusedWhenTheQueueIsFull) {
    Fixture f;
    f.config.aiQueue = 1;
    const Created g = f.create(Opponent::Computer, 1);
    Client human(f.room(g.id));
    human.hello(g.secret, "h");  // the computer's first throw is now queued
    ASSERT_EQ(f.scheduler.pending(), 1u);
    EXPECT_THROW(f.create(Opponent::Computer, 0), BusyError);
    EXPECT_NO_THROW(f.create(Opponent::Friend, 0));
    f.scheduler.runAll();
    EXPECT_NO_THROW(f.create(Opponent::Computer, 0));
}

/// A connection whose other owners let go while the room sends to it (a session closing as a
/// frame goes out), so that the room's reference is the last: its destructor detaches from
/// the room, as WebSocketSession's does.
class VanishingPeer final : public Peer {
public:
    explicit VanishingPeer(std::shared_ptr<Room> room) : room_(std::move(room)) {}
    ~VanishingPeer() override { room_->detach(this); }
    void send(std::shared_ptr<const std::string>) override { self_.reset(); }
    std::shared_ptr<VanishingPeer> self_;

private:
    std::shared_ptr<Room> room_;
};

/// The last reference to a connection dropped inside a send must not deadlock the room (the
/// destructor's detach takes the room's lock): seen as the computer's thread stuck for good
/// during a flood of computer games whose clients closed right after their hello.
TEST(RoomPeers, ConnectionReleasedDuringASendDoesNotDeadlock) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    auto room = f.room(g.id);
    auto run = std::async(std::launch::async, [room] {
        auto peer = std::make_shared<VanishingPeer>(room);
        peer->self_ = peer;
        Peer* key = peer.get();
        room->attach(key, peer);
        peer.reset();  // only self_ holds it now; send() lets it go
        room->handle(key, protocol::Hello{}, std::chrono::steady_clock::now());
    });
    if (run.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
        ADD_FAILURE() << "the room deadlocked";
        std::fflush(nullptr);
        std::_Exit(1);  // the stuck thread cannot be joined
    }
    // The room still works.
    Client c(room);
    EXPECT_EQ(c.hello(g.secret, "x")["you"], json::array({0, 1}));
}

}  // namespace
}  // namespace senet::testing
