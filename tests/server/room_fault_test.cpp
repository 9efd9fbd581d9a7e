// A failed write means nothing happened: every kind of write (create, join, seed, throw,
// move, resign, claim, rematch, the final action that ends the game) is made to fail once in
// process (FaultyStorage over MemoryStorage); the test checks that no event went out, no seed
// was revealed, the state and storage are unchanged, the client got `storage`, and that the
// game then continues to its end with a record that verifies.
#include "room_support.hpp"

namespace senet::testing {
namespace {

/// Checks after a failed write that nothing happened.
class NothingHappened {
public:
    NothingHappened(Fixture& f, const std::string& id, std::vector<Client*> watchers)
        : f_(f), id_(id), watchers_(std::move(watchers)) {
        state_ = f.freshState(id);
        row_ = *f.memory.loadGame(id);
        actions_ = f.memory.loadActions(id).size();
        for (Client* c : watchers_) {
            events_.push_back(c->events().size());
            frames_.push_back(c->frames().size());
        }
    }
    void check(const std::string& what) {
        SCOPED_TRACE(what);
        EXPECT_EQ(f_.freshState(id_), state_);
        const GameRow row = *f_.memory.loadGame(id_);
        EXPECT_EQ(row.status, row_.status);
        EXPECT_EQ(row.result, row_.result);
        EXPECT_EQ(row.clientSeeds, row_.clientSeeds);
        EXPECT_EQ(row.seatHashes, row_.seatHashes);
        EXPECT_EQ(row.rematch, row_.rematch);
        EXPECT_EQ(f_.memory.loadActions(id_).size(), actions_);
        const std::string seed = f_.serverSeedHex(id_);
        for (std::size_t i = 0; i < watchers_.size(); ++i) {
            EXPECT_EQ(watchers_[i]->events().size(), events_[i]) << "an event went out: " << watchers_[i]->events().back().dump();
            const auto& frames = watchers_[i]->frames();
            for (std::size_t k = frames_[i]; k < frames.size(); ++k)
                EXPECT_EQ(frames[k]->find(seed), std::string::npos) << "the server seed was revealed: " << *frames[k];
        }
        if (row_.status == GameStatus::Playing) {
            auto room = f_.room(id_);
            EXPECT_FALSE(room->verifiableRecord().has_value()) << "the record of an unfinished game is served";
        }
    }

private:
    Fixture& f_;
    std::string id_;
    std::vector<Client*> watchers_;
    json state_;
    GameRow row_;
    std::size_t actions_ = 0;
    std::vector<std::size_t> events_, frames_;
};

/// An action that first fails its write (the actor gets `storage`, nothing happens), then succeeds.
ActFn failOnceThenSucceed(Fixture& f, const std::string& id, std::vector<Client*> watchers, int& failed) {
    return [&f, id, watchers, &failed](Client& actor, const std::string& type, const json& data) {
        NothingHappened before(f, id, watchers);
        const auto writes = f.faulty.writes();
        f.faulty.failNth(1);
        actor.send(type, data);
        f.faulty.setFault({});
        EXPECT_EQ(f.faulty.writes(), writes + 1) << type << " made no write";
        ASSERT_TRUE(actor.waitForError("storage").is_object()) << type << ": no error for a failed write";
        EXPECT_FALSE(actor.hasNewError()) << type << ": more than one error";
        before.check(type + " " + data.dump());
        ++failed;
        actor.send(type, data);
        EXPECT_FALSE(actor.hasNewError()) << actor.errors().back().dump();
    };
}

/// A seated hello whose seed write fails: the client gets `storage`, no seed is fixed or
/// published; the same hello then works.
void helloWithFailingSeed(Fixture& f, const std::string& id, Client& c, const std::string& secret, const std::string& seed,
                          int seat, Client& watcher) {
    const auto seen = watcher.events().size();
    f.faulty.failNth(1);
    c.hello(secret, seed);
    f.faulty.setFault({});
    ASSERT_TRUE(c.waitForError("storage").is_object()) << "no error for a seed that was not stored";
    EXPECT_FALSE(c.hasNewError()) << "more than one error";
    EXPECT_FALSE(f.memory.loadGame(id)->clientSeeds[seat].has_value());
    EXPECT_TRUE(f.freshState(id)["fairness"]["clientSeeds"][seat].is_null());
    for (std::size_t i = seen; i < watcher.events().size(); ++i) EXPECT_NE(watcher.events()[i]["e"], "seed");
    c.hello(secret, seed);
    EXPECT_FALSE(c.hasNewError()) << c.errors().back().dump();
    EXPECT_EQ(f.memory.loadGame(id)->clientSeeds[seat], seed);
    EXPECT_EQ(watcher.events().back()["e"], "seed");
}

/// A friend game where each of its writes fails once, from creation to the rematch.
TEST(RoomFaults, EveryWriteOfAFriendGameFailsOnceAndChangesNothing) {
    for (const RulesetId ruleset : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell, RulesetId::Kendall, RulesetId::Piccione}) {
        SCOPED_TRACE(std::string(senet::ruleset(ruleset).key));
        Fixture f;
        // create
        f.faulty.failNth(1);
        EXPECT_THROW(f.create(Opponent::Friend, 0, ruleset), StorageError);
        EXPECT_TRUE(f.memory.unfinishedGames().empty());
        EXPECT_EQ(f.metrics.roomsLoaded.load(), 0);
        const Created g = f.create(Opponent::Friend, 0, ruleset);
        auto room = f.room(g.id);
        Client a(room), watcher(room);
        watcher.hello();
        int failed = 0;
        auto act = failOnceThenSucceed(f, g.id, {&a, &watcher}, failed);
        // seed (the creator's hello)
        helloWithFailingSeed(f, g.id, a, g.secret, "seedA", 0, watcher);
        EXPECT_EQ(a.state()["fairness"]["clientSeeds"][0], "seedA");
        // join
        {
            NothingHappened before(f, g.id, {&a, &watcher});
            f.faulty.failNth(1);
            EXPECT_THROW(room->join(g.inviteToken), StorageError);
            f.faulty.setFault({});
            before.check("join");
        }
        const JoinOutcome j = room->join(g.inviteToken);
        ASSERT_EQ(j.status, JoinStatus::Joined);
        EXPECT_EQ(j.seat, 1);
        Client b(room);
        helloWithFailingSeed(f, g.id, b, j.secret, "seedB", 1, watcher);
        EXPECT_EQ(b.state()["fairness"]["clientSeeds"][1], "seedB");
        // every throw and move, the last one (which ends the game) included
        std::mt19937 rng(7);
        const int before = failed;
        playToEnd(f, {{0, &a}, {1, &b}}, watcher, rng, act);
        EXPECT_GT(failed - before, 20);
        EXPECT_EQ(watcher.state()["phase"], "over");
        EXPECT_EQ(watcher.state()["fairness"]["serverSeed"], f.serverSeedHex(g.id));
        EXPECT_EQ(f.memory.loadGame(g.id)->status, GameStatus::Over);
        expectVerifies(*room, "friend");
        // rematch: the first offer writes nothing; the acceptance creates the game
        a.send("rematch");
        EXPECT_EQ(watcher.events().back()["e"], "rematch-offered");
        act(b, "rematch", json::object());
        EXPECT_EQ(watcher.events().back()["e"], "rematch");
        EXPECT_EQ(f.memory.loadGame(g.id)->rematch, watcher.events().back()["game"]);
    }
}

/// A resignation whose write fails is not announced: the seed stays secret, the record is not
/// served, and a restart finds the game where it was; then it plays on to its end.
TEST(RoomFaults, ResignationWhoseWriteFailsRevealsNothing) {
    Fixture f;
    const Created g = f.create(Opponent::Computer, 0);
    auto room = f.room(g.id);
    Client a(room);
    a.hello(g.secret, "resigner");
    std::mt19937 rng(3);
    int actions = 0;
    // A few actions first, so that a restart from ply 0 would show.
    ActFn some = [&](Client& actor, const std::string& type, const json& data) {
        actor.send(type, data);
        ++actions;
    };
    for (int i = 0; i < 6; ++i) {
        const json s = a.state();
        if (s["seatToAct"] != 0) {
            f.scheduler.runAll();
            continue;
        }
        if (s["phase"] == "move") some(a, "move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
        else some(a, "throw", {{"ply", s["ply"]}});
        f.scheduler.runAll();
    }
    const std::int64_t ply = a.state()["ply"];
    ASSERT_GT(ply, 0);
    NothingHappened before(f, g.id, {&a});
    f.faulty.failAll();
    a.send("resign");
    f.faulty.setFault({});
    ASSERT_TRUE(a.waitForError("storage").is_object());
    before.check("resign");
    EXPECT_NE(a.state()["phase"], "over");
    // A restart over the same storage: the game is where it was, not at ply 0.
    {
        ManualScheduler scheduler2;
        Metrics metrics2;
        Registry again(f.memory, metrics2, scheduler2, f.config);
        Lookup l = again.find(g.id);
        ASSERT_EQ(l.status, LookupStatus::Found);
        Client c(l.room);
        const json s = c.hello();
        EXPECT_EQ(s["ply"], ply);
        EXPECT_TRUE(s["fairness"]["serverSeed"].is_null());
    }
    // Writes work again: the game goes on to its end.
    playToEnd(f, {{0, &a}}, a, rng, plainAct());
    EXPECT_EQ(a.state()["result"]["reason"], "bear-off");
    expectVerifies(*room, "resign");
    // And a resignation that succeeds ends a game at once.
    const Created g2 = f.create(Opponent::Computer, 0);
    Client c2(f.room(g2.id));
    c2.hello(g2.secret, "x");
    c2.send("resign");
    EXPECT_EQ(c2.state()["result"]["reason"], "resign");
    EXPECT_EQ(c2.state()["fairness"]["serverSeed"], f.serverSeedHex(g2.id));
}

/// A claim whose write fails changes nothing; once writes work it ends the game.
TEST(RoomFaults, ClaimWhoseWriteFailsChangesNothing) {
    Fixture f;
    f.config.grace = std::chrono::seconds(0);
    const Created g = f.create(Opponent::Friend, 0);
    auto room = f.room(g.id);
    Client a(room);
    a.hello(g.secret, "claimer");
    const JoinOutcome j = room->join(g.inviteToken);
    ASSERT_EQ(j.status, JoinStatus::Joined);
    {
        // A few whole turns (the claim comes when no throw is pending), then b leaves.
        Client b(room);
        b.hello(j.secret, "leaver");
        std::map<int, Client*> seats{{0, &a}, {1, &b}};
        std::mt19937 rng(9);
        for (int i = 0; i < 200; ++i) {
            const json s = a.state();
            if (s["ply"].get<int>() >= 6 && s["phase"] == "throw") break;
            Client& actor = *seats[s["seatToAct"].get<int>()];
            if (s["phase"] == "move") actor.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][rng() % s["legalMoves"].size()]["move"]}});
            else actor.send("throw", {{"ply", s["ply"]}});
        }
        ASSERT_EQ(a.state()["phase"], "throw");
    }  // b leaves
    int failed = 0;
    failOnceThenSucceed(f, g.id, {&a}, failed)(a, "claim", json::object());
    EXPECT_EQ(failed, 1);
    EXPECT_EQ(a.state()["result"]["reason"], "claim");
    EXPECT_EQ(a.state()["result"]["winner"], 0);
    expectVerifies(*room, "claim");
}

/// The computer's own writes fail once each: it tries again and the game goes on.
TEST(RoomFaults, ComputerActionsWhoseWritesFailAreRetried) {
    Fixture f;
    const Created g = f.create(Opponent::Computer, 1, RulesetId::Jequier, "expert");
    auto room = f.room(g.id);
    Client a(room), watcher(room);
    watcher.hello();
    int failed = 0, computerFailed = 0;
    auto act = failOnceThenSucceed(f, g.id, {&a, &watcher}, failed);
    helloWithFailingSeed(f, g.id, a, g.secret, "human", 1, watcher);
    auto computerTurn = [&] {
        NothingHappened before(f, g.id, {&a, &watcher});
        f.faulty.failAll();
        f.scheduler.runAll(3);  // the computer tries (and retries) while the disk is full
        f.faulty.setFault({});
        before.check("computer");
        ++computerFailed;
        f.scheduler.runAll();
    };
    std::mt19937 rng(11);
    playToEnd(f, {{1, &a}}, watcher, rng, act, computerTurn);
    EXPECT_GT(computerFailed, 5);
    expectVerifies(*room, "computer");
}

/// SQLite's two-part writes are one transaction each: when the second part fails, the first
/// is rolled back (the ending is never stored without its action, nor a rematch unlinked).
TEST(SqliteStorageWrites, TwoPartWritesAreAllOrNothing) {
    const auto dir = std::filesystem::temp_directory_path() / ("senet-room-sqlite-" + fairness::randomToken(8));
    std::filesystem::create_directories(dir);
    {
        auto db = openSqliteStorage((dir / "t.sqlite3").string(), false);
        GameRow g;
        g.id = "game-one";
        g.ruleset = "standard";
        g.opponent = Opponent::Local;
        g.serverSeed = std::vector<std::uint8_t>(32, 7);
        db->createGame(g);
        db->appendAction(g.id, ActionRow{0, 't', 3, ""});
        // The final action's seq is taken: the insert fails, the result must not be stored.
        EXPECT_THROW(db->appendFinalAction(g.id, ActionRow{0, 'm', 0, "9-11"}, R"({"reason":"bear-off"})"), StorageError);
        EXPECT_EQ(db->loadGame(g.id)->status, GameStatus::Playing);
        EXPECT_EQ(db->loadGame(g.id)->result, "");
        EXPECT_EQ(db->loadActions(g.id).size(), 1u);
        db->appendFinalAction(g.id, ActionRow{1, 'm', 0, "9-11"}, R"({"reason":"bear-off"})");
        EXPECT_EQ(db->loadGame(g.id)->status, GameStatus::Over);
        EXPECT_EQ(db->loadActions(g.id).size(), 2u);
        // The action is inserted, then the ending finds no game: the action is rolled back.
        EXPECT_THROW(db->appendFinalAction("no-such-game", ActionRow{0, 't', 1, ""}, "{}"), StorageError);
        EXPECT_TRUE(db->loadActions("no-such-game").empty());
        // A rematch of an unknown game: the new game is not stored either.
        GameRow r = g;
        r.id = "game-two";
        r.rematchOf = "no-such-game";
        EXPECT_THROW(db->createGame(r), StorageError);
        EXPECT_FALSE(db->loadGame("game-two").has_value());
        r.rematchOf = g.id;
        db->createGame(r);
        EXPECT_EQ(db->loadGame(g.id)->rematch, "game-two");
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace senet::testing
