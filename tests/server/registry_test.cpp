// The registry in process (MemoryStorage, ManualScheduler): game ids, what create stores for
// each opponent, the computer's queue limit, lookups, expiry, restoring from storage (and
// refusing stored actions that do not replay) and sweeping idle rooms out of memory.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

#include "room_support.hpp"

namespace senet::testing {
namespace {

/// bytes 0..31: the server seed of --test-seed 000102…1f.
std::vector<std::uint8_t> seed0to31() {
    std::vector<std::uint8_t> s(32);
    for (int i = 0; i < 32; ++i) s[i] = static_cast<std::uint8_t>(i);
    return s;
}

/// The state a new spectator of `room` sees (without `you` and `record`).
json stateOf(const std::shared_ptr<Room>& room) {
    Client watcher(room);
    json s = watcher.hello();
    s.erase("you");
    s.erase("record");
    return s;
}

/// A stored game row that only the test wrote (no room yet).
GameRow storedRow(const std::string& id, const std::string& ruleset = "standard") {
    GameRow g;
    g.id = id;
    g.ruleset = ruleset;
    g.opponent = Opponent::Local;
    g.serverSeed = seed0to31();
    g.clientSeeds = {std::optional<std::string>("a"), std::optional<std::string>("b")};
    g.seatHashes = {"h", "h"};
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    g.createdMs = g.updatedMs = now;
    return g;
}

TEST(RegistryIds, PlausibleIdIs22Base64UrlCharacters) {
    EXPECT_TRUE(Registry::plausibleId("AZaz09-_AZaz09-_AZaz09"));
    EXPECT_TRUE(Registry::plausibleId("0000000000000000000000"));
    EXPECT_TRUE(Registry::plausibleId("9999999999999999999999"));
    EXPECT_FALSE(Registry::plausibleId("AZaz09-_AZaz09-_AZaz0"));    // 21
    EXPECT_FALSE(Registry::plausibleId("AZaz09-_AZaz09-_AZaz09a"));  // 23
    EXPECT_FALSE(Registry::plausibleId(""));
    // The neighbours of each accepted range.
    for (char c : {'/', ':', '@', '[', '`', '{', '+', '.', '=', ' '}) {
        std::string id(22, 'a');
        id[7] = c;
        EXPECT_FALSE(Registry::plausibleId(id)) << c;
    }
}

TEST(RegistryCreate, WhatEachOpponentStores) {
    Fixture f;
    f.config.testSeed = seed0to31();
    // python3: hashlib.sha256(bytes(range(32))).hexdigest()
    const std::string commitment = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";

    const Created local = f.create(Opponent::Local, 1, RulesetId::Jequier);
    EXPECT_EQ(local.seats, (std::vector<int>{0, 1}));
    EXPECT_EQ(local.inviteToken, "");
    EXPECT_EQ(local.commitment, commitment);
    EXPECT_EQ(local.id.size(), 22u);
    EXPECT_EQ(local.secret.size(), 43u);
    auto row = f.memory.loadGame(local.id);
    ASSERT_TRUE(row.has_value());
    EXPECT_EQ(row->ruleset, "jequier");
    EXPECT_EQ(row->opponent, Opponent::Local);
    EXPECT_EQ(row->level, "");
    EXPECT_EQ(row->serverSeed, seed0to31());
    EXPECT_EQ(row->seatHashes[0], fairness::sha256Hex(local.secret));
    EXPECT_EQ(row->seatHashes[1], fairness::sha256Hex(local.secret));
    EXPECT_EQ(row->inviteHash, "");
    EXPECT_FALSE(row->clientSeeds[0].has_value());
    EXPECT_FALSE(row->clientSeeds[1].has_value());
    EXPECT_EQ(row->status, GameStatus::Playing);
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    EXPECT_NEAR(double(row->createdMs), double(now), 60'000.0);
    EXPECT_EQ(row->updatedMs, row->createdMs);

    const Created friendly = f.create(Opponent::Friend, 1, RulesetId::Bell, "expert");
    EXPECT_EQ(friendly.seats, std::vector<int>{1});
    row = f.memory.loadGame(friendly.id);
    EXPECT_EQ(row->ruleset, "bell");
    EXPECT_EQ(row->level, "");
    EXPECT_EQ(row->seatHashes[0], "");
    EXPECT_EQ(row->seatHashes[1], fairness::sha256Hex(friendly.secret));
    EXPECT_EQ(friendly.inviteToken.size(), 43u);
    EXPECT_EQ(row->inviteHash, fairness::sha256Hex(friendly.inviteToken));

    const Created computer = f.create(Opponent::Computer, 0, RulesetId::Standard, "expert");
    EXPECT_EQ(computer.seats, std::vector<int>{0});
    EXPECT_EQ(computer.inviteToken, "");
    row = f.memory.loadGame(computer.id);
    EXPECT_EQ(row->level, "expert");
    EXPECT_EQ(row->seatHashes[0], fairness::sha256Hex(computer.secret));
    EXPECT_EQ(row->seatHashes[1], "computer");
    EXPECT_EQ(row->clientSeeds[1], std::optional<std::string>("computer"));  // fixed by --test-seed
    EXPECT_FALSE(row->clientSeeds[0].has_value());
    EXPECT_EQ(f.metrics.gamesCreated.load(), 3);
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 3);
    EXPECT_EQ(f.metrics.gamesRunning.load(), 3);

    // Without --test-seed: a random server seed and a random computer seed (32 hex digits).
    Fixture r;
    const Created c2 = r.create(Opponent::Computer, 1);
    row = r.memory.loadGame(c2.id);
    EXPECT_EQ(row->serverSeed.size(), 32u);
    EXPECT_NE(row->serverSeed, seed0to31());
    ASSERT_TRUE(row->clientSeeds[0].has_value());
    EXPECT_EQ(row->clientSeeds[0]->size(), 32u);
    EXPECT_EQ(c2.commitment, fairness::commitment(row->serverSeed));
    EXPECT_NE(r.create(Opponent::Local, 0).id, c2.id);
}

TEST(RegistryCreate, ComputerQueueLimit) {
    Fixture f;
    f.config.aiQueue = 0;
    try {
        f.create(Opponent::Computer, 0);
        ADD_FAILURE() << "no BusyError";
    } catch (const BusyError& e) {
        EXPECT_EQ(std::string(e.what()), "the computer player is busy: 0 decisions are queued; try again in a few seconds");
    }
    EXPECT_EQ(f.metrics.gamesCreated.load(), 0);
    EXPECT_NO_THROW(f.create(Opponent::Friend, 0));  // only computer games wait for the queue
    f.config.aiQueue = 1;
    EXPECT_NO_THROW(f.create(Opponent::Computer, 0));
}

TEST(RegistryFind, UnknownFoundAndExpired) {
    Fixture f;
    EXPECT_EQ(f.registry->find("AAAAAAAAAAAAAAAAAAAAAA").status, LookupStatus::Unknown);
    EXPECT_EQ(f.registry->find("short").status, LookupStatus::Unknown);
    const Created g = f.create(Opponent::Friend, 0);
    const Lookup l = f.registry->find(g.id);
    EXPECT_EQ(l.status, LookupStatus::Found);
    EXPECT_EQ(l.room.get(), f.registry->find(g.id).room.get());
    EXPECT_EQ(f.registry->find(g.id.substr(0, 21)).status, LookupStatus::Unknown);
    // Idle longer than expireDays (0: any idle time): a failed expiry write keeps it served.
    f.clock.advance(std::chrono::milliseconds(1));
    f.config.expireDays = 0;
    f.faulty.failAll();
    EXPECT_EQ(f.registry->find(g.id).status, LookupStatus::Found);
    EXPECT_EQ(f.memory.loadGame(g.id)->status, GameStatus::Playing);
    f.faulty.setFault({});
    const Lookup expired = f.registry->find(g.id);
    EXPECT_EQ(expired.status, LookupStatus::Expired);
    EXPECT_EQ(expired.room, nullptr);
    EXPECT_EQ(f.memory.loadGame(g.id)->status, GameStatus::Expired);
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 0);
    EXPECT_EQ(f.registry->find(g.id).status, LookupStatus::Expired);  // now from storage
    // A finished game never expires.
    f.config.expireDays = 30;
    const Created over = f.create(Opponent::Local, 0);
    {
        Client c(f.room(over.id));
        c.hello(over.secret, "x");
        c.send("resign");
    }
    f.config.expireDays = 0;
    EXPECT_EQ(f.registry->find(over.id).status, LookupStatus::Found);
    EXPECT_EQ(f.memory.loadGame(over.id)->status, GameStatus::Over);
}

TEST(RegistryRestore, AGameComesBackAsItWas) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    json before;
    {
        Client c(f.room(g.id));
        c.hello(g.secret, "again");
        for (int i = 0; i < 6; ++i) {
            const json s = c.state();
            if (s["phase"] == "move") c.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
            else c.send("throw", {{"ply", s["ply"]}});
        }
    }
    before = f.freshState(g.id);
    ASSERT_EQ(before["ply"], 6);
    Metrics metrics;
    Registry second(f.faulty, metrics, f.scheduler, f.config);
    const Lookup l = second.find(g.id);
    ASSERT_EQ(l.status, LookupStatus::Found);
    json after = stateOf(l.room);
    before.erase("record");
    EXPECT_EQ(after, before);
    EXPECT_EQ(metrics.roomsLoaded.load(), 1);
    EXPECT_EQ(metrics.gamesRunning.load(), 1);
}

TEST(RegistryRestore, StoredActionsThatDoNotReplayAreNotServed) {
    Fixture f;
    struct Case {
        const char* id;
        std::vector<ActionRow> actions;
    };
    // Ids of 22 characters; every one of these is refused by Room::restore.
    const std::vector<Case> cases = {
        {"badOutcome000000000000", {ActionRow{0, 't', 16, ""}}},
        {"negativeOutcome0000000", {ActionRow{0, 't', -1, ""}}},
        {"unknownKind00000000000", {ActionRow{0, 'x', 0, ""}}},
        {"moveFirst0000000000000", {ActionRow{0, 'm', 0, "9-11"}}},
    };
    for (const Case& c : cases) {
        f.memory.createGame(storedRow(c.id));
        for (const ActionRow& a : c.actions) f.memory.appendAction(c.id, a);
        EXPECT_EQ(f.registry->find(c.id).status, LookupStatus::Unknown) << c.id;
    }
    f.memory.createGame(storedRow("unknownRuleset00000000", "chess"));
    EXPECT_EQ(f.registry->find("unknownRuleset00000000").status, LookupStatus::Unknown);
    // Every outcome 0..15 replays (16 outcomes in the standard game).
    f.memory.createGame(storedRow("lastOutcome00000000000"));
    f.memory.appendAction("lastOutcome00000000000", ActionRow{0, 't', 15, ""});
    const Lookup ok = f.registry->find("lastOutcome00000000000");
    ASSERT_EQ(ok.status, LookupStatus::Found);
    EXPECT_EQ(stateOf(ok.room)["ply"], 1);
    EXPECT_EQ(stateOf(ok.room)["throwIndex"], 1);
    EXPECT_EQ(stateOf(ok.room)["lastThrow"]["index"], 0);
    // restoreAll: only the games that replay, none of the refused.
    Metrics metrics;
    Registry second(f.faulty, metrics, f.scheduler, f.config);
    EXPECT_EQ(second.restoreAll(), 1);
    EXPECT_EQ(metrics.roomsLoaded.load(), 1);
}

TEST(RegistryRestore, RestoreAllExpiresLongIdleGames) {
    Fixture f;
    GameRow old = storedRow("oldGame000000000000000");
    old.updatedMs = 1000;  // 1970
    f.memory.createGame(old);
    f.memory.createGame(storedRow("freshGame0000000000000"));
    GameRow over = storedRow("overGame00000000000000");
    over.status = GameStatus::Over;
    over.result = R"({"winner":0,"player":1,"reason":"resign"})";
    f.memory.createGame(over);
    Metrics metrics;
    Registry second(f.faulty, metrics, f.scheduler, f.config);
    EXPECT_EQ(second.restoreAll(), 1);
    EXPECT_EQ(f.memory.loadGame("oldGame000000000000000")->status, GameStatus::Expired);
    EXPECT_EQ(f.memory.loadGame("freshGame0000000000000")->status, GameStatus::Playing);
    EXPECT_EQ(metrics.roomsLoaded.load(), 1);
    EXPECT_EQ(second.find("oldGame000000000000000").status, LookupStatus::Expired);
    EXPECT_EQ(second.find("overGame00000000000000").status, LookupStatus::Found);
    EXPECT_TRUE(second.find("overGame00000000000000").room->over());
    EXPECT_EQ(metrics.gamesRunning.load(), 1);  // the finished game is loaded but not running
}

TEST(RegistryRestore, AFinishedBoardWithoutAStoredResultGetsIt) {
    // Played to the end in one storage, then replayed from a copy whose row lacks the result
    // (a crash between the last move and the result, in an older version).
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    {
        Client c(f.room(g.id));
        c.hello(g.secret, "ending");
        std::mt19937 rng(3);
        playToEnd(f, {{0, &c}, {1, &c}}, c, rng, plainAct());
    }
    const GameRow finished = *f.memory.loadGame(g.id);
    const json result = json::parse(finished.result);
    ASSERT_EQ(result["reason"], "bear-off");
    MemoryStorage copy;
    GameRow row = finished;
    row.status = GameStatus::Playing;
    row.result = "";
    copy.createGame(row);
    for (const ActionRow& a : f.memory.loadActions(g.id)) copy.appendAction(g.id, a);
    Metrics metrics;
    Registry second(copy, metrics, f.scheduler, f.config);
    const Lookup l = second.find(g.id);
    ASSERT_EQ(l.status, LookupStatus::Found);
    EXPECT_TRUE(l.room->over());
    EXPECT_EQ(copy.loadGame(g.id)->status, GameStatus::Over);
    EXPECT_EQ(json::parse(copy.loadGame(g.id)->result), result);
    EXPECT_EQ(stateOf(l.room)["result"], result);
    EXPECT_EQ(metrics.gamesRunning.load(), 0);
    // When that write fails the game is not served.
    MemoryStorage copy2;
    copy2.createGame(row);
    for (const ActionRow& a : f.memory.loadActions(g.id)) copy2.appendAction(g.id, a);
    FaultyStorage faulty(copy2);
    // Every write of the game fails; the lease (a single store's, always granted) is taken.
    faulty.setFault([](WriteKind kind, std::int64_t) { return kind != WriteKind::Lease; });
    Metrics metrics2;
    Registry third(faulty, metrics2, f.scheduler, f.config);
    EXPECT_EQ(third.find(g.id).status, LookupStatus::Unknown);
    EXPECT_EQ(copy2.loadGame(g.id)->status, GameStatus::Playing);
}

TEST(RegistrySweep, IdleRoomsLeaveMemory) {
    Fixture f;
    const Created a = f.create(Opponent::Local, 0), b = f.create(Opponent::Local, 0), c = f.create(Opponent::Local, 0);
    {
        Client over(f.room(c.id));
        over.hello(c.secret, "x");
        over.send("resign");
    }
    // A connected room stays.
    Client held(f.room(b.id));
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 3);
    SweepResult r = f.registry->sweep(std::chrono::hours(1));
    EXPECT_EQ(r.unloaded, 0);
    EXPECT_EQ(r.expired, 0);
    r = f.registry->sweep(std::chrono::milliseconds(-1));
    EXPECT_EQ(r.unloaded, 2);
    EXPECT_EQ(r.expired, 0);
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 1);
    EXPECT_EQ(f.metrics.gamesRunning.load(), 1);  // b; a left memory unfinished
    // Unloaded rooms come back from storage.
    EXPECT_EQ(f.registry->find(a.id).status, LookupStatus::Found);
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 2);
    // Idle past expireDays: expired instead, unless the write fails.
    f.clock.advance(std::chrono::milliseconds(1));
    f.config.expireDays = 0;
    f.faulty.failAll();
    r = f.registry->sweep(std::chrono::milliseconds(-1));
    EXPECT_EQ(r.unloaded, 0);
    EXPECT_EQ(r.expired, 0);
    EXPECT_EQ(f.memory.loadGame(a.id)->status, GameStatus::Playing);
    f.faulty.setFault({});
    r = f.registry->sweep(std::chrono::milliseconds(-1));
    EXPECT_EQ(r.expired, 1);
    EXPECT_EQ(r.unloaded, 0);
    EXPECT_EQ(f.memory.loadGame(a.id)->status, GameStatus::Expired);
    EXPECT_EQ(f.memory.loadGame(c.id)->status, GameStatus::Over);
    EXPECT_EQ(f.metrics.roomsLoaded.load(), 1);
}

// The sweep checks each room outside the registry's mutex and drops it only if nobody took it
// into use meanwhile: a room a connection is attached to is never dropped, however the sweeps
// and the connections interleave (and nothing deadlocks).
TEST(RegistrySweep, ARoomInUseIsNeverDroppedWhileSweepsRun) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    std::atomic<bool> stop{false};
    std::atomic<int> unloaded{0};
    std::thread sweeper([&] {
        while (!stop) unloaded += f.registry->sweep(std::chrono::milliseconds(-1)).unloaded;
    });
    for (int i = 0; i < 300; ++i) {
        {
            auto room = f.room(g.id);
            ASSERT_TRUE(room);
            Client c(room);
            c.hello(g.secret, "s");
            // Attached: the registry still serves this very room.
            ASSERT_EQ(f.registry->find(g.id).room, room) << "a room with a connection left memory (round " << i << ")";
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));  // unused now: a sweep may drop it
    }
    stop = true;
    sweeper.join();
    std::printf("[ figure ] %d unloads among 300 connections\n", unloaded.load());
}

}  // namespace
}  // namespace senet::testing
