// Two registries on one shared store, as two server instances on one PostgreSQL database: each
// has its own connection (MemoryInstance: it fences its writes with the lease epochs it
// acquired) and its own name; both read the lease time from one ManualClock, so a lease expires
// only when the test moves the clock. server/README.md "Several instances".
#include "room_support.hpp"

namespace senet::testing {
namespace {

constexpr auto kTtl = std::chrono::milliseconds(3000);

/// One instance: its storage connection, registry, metrics and config.
struct Instance {
    Instance(MemoryStorage& shared, ManualScheduler& scheduler, ManualClock& clock, const std::string& name) : storage(shared) {
        config.instance = name;
        config.leaseTtl = kTtl;
        config.computerDelay = std::chrono::milliseconds(0);
        config.aiBudget = std::chrono::milliseconds(5);
        registry = std::make_unique<Registry>(storage, metrics, scheduler, config, clock, /*sharedStore=*/true);
    }
    Created createLocal() {
        CreateRequest req;
        req.opponent = Opponent::Local;
        return registry->create(req);
    }
    std::shared_ptr<Room> load(const std::string& id) {
        Lookup l = registry->find(id);
        EXPECT_EQ(l.status, LookupStatus::Found) << id;
        return l.room;
    }
    MemoryInstance storage;
    Metrics metrics;
    Config config;
    std::unique_ptr<Registry> registry;
};

struct Cluster {
    MemoryStorage shared;
    ManualScheduler scheduler;
    ManualClock clock;
    Instance a{shared, scheduler, clock, "a"};
    Instance b{shared, scheduler, clock, "b"};
};

/// Throws once (the seat to act is the client's: a local game holds both seats).
void throwOnce(Client& c) { c.send("throw", {{"ply", c.state()["ply"]}}); }

TEST(RegistryLease, ACreatedGameIsHandedOnAndLoadedByWhicheverInstanceIsAskedFirst) {
    Cluster c;
    const Created g = c.a.createLocal();
    EXPECT_EQ(c.a.metrics.roomsLoaded.load(), 0) << "the creator keeps no room: nginx sends the players by game id";
    EXPECT_EQ(c.a.metrics.gamesCreated.load(), 1);
    auto room = c.b.load(g.id);
    ASSERT_TRUE(room);
    EXPECT_EQ(c.b.metrics.leaseAcquisitions.load(), 1);
    EXPECT_EQ(c.b.metrics.roomsLoaded.load(), 1);
}

TEST(RegistryLease, FindOfAGameLeasedElsewhereSaysTryAgainUntilTheLeaseExpires) {
    Cluster c;
    const Created g = c.a.createLocal();
    ASSERT_TRUE(c.b.load(g.id));
    EXPECT_THROW(c.a.registry->find(g.id), GameElsewhere);
    EXPECT_EQ(c.a.metrics.leaseRefusals.load(), 1);
    EXPECT_EQ(c.a.metrics.roomsLoaded.load(), 0);
    c.clock.advance(kTtl - std::chrono::milliseconds(1));
    EXPECT_THROW(c.a.registry->find(g.id), GameElsewhere) << "the lease is still live";
    // A read without the game works wherever it is.
    ASSERT_TRUE(c.a.registry->peek(g.id).has_value());
    EXPECT_EQ(c.a.registry->peek(g.id)->id, g.id);
    c.clock.advance(std::chrono::milliseconds(2));
    EXPECT_EQ(c.a.registry->find(g.id).status, LookupStatus::Found);
    EXPECT_EQ(c.a.metrics.leaseTakeovers.load(), 1) << "asked for while held elsewhere, then taken";
}

TEST(RegistryLease, RenewalKeepsTheLeaseAndOtherInstancesWait) {
    Cluster c;
    const Created g = c.a.createLocal();
    ASSERT_TRUE(c.b.load(g.id));
    for (int i = 0; i < 5; ++i) {
        Client keep(c.b.load(g.id));  // connected: never handed on
        c.clock.advance(kTtl / 2);
        const LeaseRound r = c.b.registry->renewLeases();
        EXPECT_EQ(r.held, 1);
        EXPECT_EQ(r.lost, 0);
        EXPECT_EQ(r.released, 0);
        EXPECT_THROW(c.a.registry->find(g.id), GameElsewhere) << "round " << i;
    }
}

TEST(RegistryLease, AStaleWriteDropsTheRoomAndClosesItsConnectionsWithMoved) {
    Cluster c;
    const Created g = c.a.createLocal();
    auto old = c.b.load(g.id);
    Client player(old), watcher(old);
    player.hello(g.secret, "seed-1");
    watcher.hello();
    throwOnce(player);
    ASSERT_EQ(player.state()["ply"], 1);
    // b stalls past its lease; a is asked for the game and takes it over.
    c.clock.advance(kTtl + std::chrono::milliseconds(1));
    auto fresh = c.a.load(g.id);
    ASSERT_TRUE(fresh);
    // b's next write is fenced off: nothing stored, no `storage` error, both connections closed "moved".
    const std::string move = player.state()["legalMoves"].empty() ? "" : player.state()["legalMoves"][0]["move"].get<std::string>();
    if (player.state()["phase"] == "move") player.send("move", {{"ply", 1}, {"move", move}});
    else throwOnce(player);
    EXPECT_TRUE(old->moved());
    EXPECT_FALSE(player.hasNewError()) << player.errors().back().dump();
    EXPECT_EQ(player.closes(), (std::vector<std::pair<int, std::string>>{{4001, "moved"}}));
    EXPECT_EQ(watcher.closes(), (std::vector<std::pair<int, std::string>>{{4001, "moved"}}));
    EXPECT_EQ(c.shared.loadActions(g.id).size(), 1u) << "the stale write changed nothing";
    EXPECT_EQ(c.b.metrics.leasesLost.load(), 1);
    EXPECT_EQ(c.b.metrics.movedCloses.load(), 2);
    EXPECT_EQ(c.b.metrics.roomsLoaded.load(), 0) << "the room left b";
    EXPECT_THROW(c.b.registry->find(g.id), GameElsewhere);
    // Later messages to the old room are ignored; a late connection is closed at once.
    throwOnce(player);
    EXPECT_FALSE(player.hasNewError());
    Client late(old);
    EXPECT_EQ(late.closes(), (std::vector<std::pair<int, std::string>>{{4001, "moved"}}));
    // The player reconnects to a and goes on from the acknowledged ply.
    Client again(fresh);
    EXPECT_EQ(again.hello(g.secret)["ply"], 1);
}

TEST(RegistryLease, ARenewalThatFindsTheLeaseTakenDropsTheRoom) {
    Cluster c;
    const Created g = c.a.createLocal();
    auto old = c.b.load(g.id);
    Client player(old);
    player.hello(g.secret, "seed-1");
    c.clock.advance(kTtl + std::chrono::milliseconds(1));
    ASSERT_TRUE(c.a.load(g.id));
    const LeaseRound r = c.b.registry->renewLeases();
    EXPECT_EQ(r.held, 1);
    EXPECT_EQ(r.lost, 1);
    EXPECT_EQ(player.closes(), (std::vector<std::pair<int, std::string>>{{4001, "moved"}}));
    EXPECT_EQ(c.b.metrics.leasesLost.load(), 1);
    EXPECT_EQ(c.b.metrics.roomsLoaded.load(), 0);
    // a keeps it: its own renewal loses nothing.
    EXPECT_EQ(c.a.registry->renewLeases().lost, 0);
}

TEST(RegistryLease, TakeoverAfterExpiryRestoresEveryAcknowledgedAction) {
    Cluster c;
    const Created g = c.a.createLocal();
    std::int64_t acknowledged = 0;
    {
        Client player(c.b.load(g.id));
        player.hello(g.secret, "seed-1");
        std::mt19937 rng(7);
        for (int i = 0; i < 12; ++i) {
            const json s = player.state();
            if (s["phase"] == "move") player.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][rng() % s["legalMoves"].size()]["move"]}});
            else throwOnce(player);
            ASSERT_FALSE(player.hasNewError());
        }
        acknowledged = player.state()["ply"];
        ASSERT_EQ(acknowledged, 12);
    }
    // b dies (no renewal). A client asks a while the lease is live: told to retry, noted.
    EXPECT_THROW(c.a.registry->find(g.id), GameElsewhere);
    EXPECT_EQ(c.a.registry->takeOver(), 0) << "not before the lease expires";
    c.clock.advance(kTtl + std::chrono::milliseconds(1));
    EXPECT_EQ(c.a.registry->takeOver(), 1);
    EXPECT_EQ(c.a.metrics.leaseTakeovers.load(), 1);
    EXPECT_EQ(c.a.metrics.roomsLoaded.load(), 1) << "restored before the client's next try";
    EXPECT_EQ(c.a.registry->takeOver(), 0) << "taken once";
    auto room = c.a.load(g.id);
    Client player(room);
    EXPECT_EQ(player.hello(g.secret)["ply"], acknowledged);
    // The game goes on at a to its end, and its record verifies.
    std::mt19937 rng(11);
    Fixture unused;
    playToEnd(unused, {{0, &player}, {1, &player}}, player, rng,
              [](Client& actor, const std::string& type, const json& d) { actor.send(type, d); }, [] {});
    expectVerifies(*room, "lease-takeover");
    EXPECT_EQ(c.shared.loadGame(g.id)->status, GameStatus::Over);
}

TEST(RegistryLease, RoomsNobodyUsesAreHandedOnAfterOneTtl) {
    Cluster c;
    const Created g = c.a.createLocal();
    ASSERT_TRUE(c.a.load(g.id));
    EXPECT_EQ(c.a.registry->renewLeases().released, 0) << "used a moment ago";
    c.clock.advance(kTtl + std::chrono::milliseconds(1));
    const LeaseRound r = c.a.registry->renewLeases();
    EXPECT_EQ(r.released, 1);
    EXPECT_EQ(c.a.metrics.roomsLoaded.load(), 0);
    // Released, not expired: b may take it at once, without waiting.
    EXPECT_EQ(c.b.registry->find(g.id).status, LookupStatus::Found);
}

/// One instance's connection whose releaseLease first runs a hook: a lookup that comes in
/// while the registry hands an idle room on, between dropping it and releasing its lease.
class HookedRelease final : public ForwardingStorage {
public:
    explicit HookedRelease(Storage& inner) : ForwardingStorage(inner) {}
    void releaseLease(const std::string& id, const std::string& instance) override {
        if (auto hook = std::exchange(beforeRelease, nullptr)) hook(id);
        ForwardingStorage::releaseLease(id, instance);
    }
    std::function<void(const std::string&)> beforeRelease;
};

/// A lookup during the hand-on of an idle room must not load the game under the lease being
/// released (same instance, same epoch): the release would free the new room's lease and its
/// first write would fail as moved. It is told to try again; after the release it loads the
/// game under a lease of its own and plays on.
TEST(RegistryLease, ALookupWhileAnIdleRoomIsHandedOnWaitsForTheRelease) {
    MemoryStorage shared;
    ManualScheduler scheduler;
    ManualClock clock;
    MemoryInstance connection(shared);
    HookedRelease storage(connection);
    Metrics metrics;
    Config config;
    config.instance = "a";
    config.leaseTtl = kTtl;
    Registry registry(storage, metrics, scheduler, config, clock, /*sharedStore=*/true);
    CreateRequest req;
    req.opponent = Opponent::Local;
    const Created g = registry.create(req);
    {
        Lookup l = registry.find(g.id);
        ASSERT_EQ(l.status, LookupStatus::Found);
        Client c(l.room);
        c.hello(g.secret, "seed");
        throwOnce(c);
        ASSERT_EQ(c.state()["ply"], 1);
    }
    clock.advance(kTtl + std::chrono::milliseconds(1));
    bool refused = false;
    storage.beforeRelease = [&](const std::string& id) {
        try {
            registry.find(id);
        } catch (const GameElsewhere&) {
            refused = true;
        }
    };
    EXPECT_EQ(registry.renewLeases().released, 1);
    EXPECT_TRUE(refused) << "a lookup during the hand-on loaded the game under the lease being released";
    Lookup l = registry.find(g.id);
    ASSERT_EQ(l.status, LookupStatus::Found);
    Client c(l.room);
    c.hello(g.secret, "seed");
    ASSERT_EQ(c.state()["ply"], 1) << "the throw before the hand-on was kept";
    if (c.state()["phase"] == "move") c.send("move", {{"ply", 1}, {"move", c.state()["legalMoves"][0]["move"]}});
    else throwOnce(c);
    EXPECT_FALSE(c.hasNewError()) << c.errors().back().dump();
    EXPECT_TRUE(c.closes().empty()) << "closed as moved: " << c.closes().front().second;
    EXPECT_EQ(c.state()["ply"], 2);
}

TEST(RegistryLease, ASingleInstanceStoreKeepsItsRoomsAndLosesNothing) {
    Fixture f;  // not shared: the created room stays in memory, renewals keep it
    const Created g = f.create(Opponent::Local, 0);
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 1);
    f.clock.advance(std::chrono::hours(1));
    const LeaseRound r = f.registry->renewLeases();
    EXPECT_EQ(r.held, 1);
    EXPECT_EQ(r.lost, 0);
    EXPECT_EQ(r.released, 0);
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 1);
    EXPECT_EQ(f.registry->find(g.id).status, LookupStatus::Found);
}

}  // namespace
}  // namespace senet::testing
