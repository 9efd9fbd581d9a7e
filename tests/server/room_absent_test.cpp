// Someone gone, in process (MemoryStorage, ManualScheduler): a rematch offer whose maker left,
// a repeated offer, a rematch its maker never came to, and a friend game whose creator's page
// never connected. The expected words and values are written here (PROTOCOL.md "Rematch",
// "Claiming a win").
#include <chrono>

#include "room_support.hpp"

namespace senet::testing {
namespace {

/// The events named `name` that `c` received, in order.
std::vector<json> eventsNamed(Client& c, const std::string& name) {
    std::vector<json> out;
    for (const auto& e : c.events())
        if (e.value("e", "") == name) out.push_back(e);
    return out;
}

/// A finished friend game: a holds seat 0, b seat 1 (b resigned).
struct EndedGame {
    explicit EndedGame(Fixture& f) : g(f.create(Opponent::Friend, 0)), room(f.room(g.id)) {
        a = std::make_unique<Client>(room);
        a->hello(g.secret, "seedA");
        j = room->join(g.inviteToken);
        b = std::make_unique<Client>(room);
        b->hello(j.secret, "seedB");
        b->send("resign");
        EXPECT_EQ(a->state()["phase"], "over");
    }
    Created g;
    std::shared_ptr<Room> room;
    JoinOutcome j;
    std::unique_ptr<Client> a, b;
};

TEST(RoomAbsent, AnOfferIsWithdrawnWhenItsMakerLeaves) {
    Fixture f;
    EndedGame eg(f);
    eg.b->send("rematch");
    EXPECT_EQ(eg.a->state()["rematchOffered"], json::array({false, true}));
    // A second connection of the maker's seat leaving keeps the offer: the seat is still there.
    auto b2 = std::make_unique<Client>(eg.room);
    b2->hello(eg.j.secret);
    b2.reset();
    EXPECT_EQ(eg.a->state()["rematchOffered"], json::array({false, true}));
    EXPECT_TRUE(eventsNamed(*eg.a, "rematch-withdrawn").empty());
    eg.b.reset();
    const auto withdrawn = eventsNamed(*eg.a, "rematch-withdrawn");
    ASSERT_EQ(withdrawn.size(), 1u);
    EXPECT_EQ(withdrawn[0]["seat"], 1);
    EXPECT_EQ(eg.a->state()["rematchOffered"], json::array({false, false}));
    EXPECT_EQ(f.freshState(eg.g.id)["rematchOffered"], json::array({false, false}));
    // Accepting now is an offer of its own, not a game against nobody.
    eg.a->send("rematch");
    EXPECT_TRUE(eg.a->errors().empty());
    EXPECT_EQ(eg.a->state()["rematchOffered"], json::array({true, false}));
    EXPECT_EQ(f.memory.loadGame(eg.g.id)->rematch, "");
    // The one who stays and leaves takes their offer too.
    eg.a.reset();
    Client back(eg.room);
    EXPECT_EQ(back.hello(eg.j.secret)["rematchOffered"], json::array({false, false}));
}

TEST(RoomAbsent, ARepeatedOfferIsOneOfferAnnouncedOnce) {
    Fixture f;
    EndedGame eg(f);
    eg.b->send("rematch");
    eg.b->send("rematch");
    eg.b->send("rematch");
    EXPECT_TRUE(eg.b->errors().empty());
    EXPECT_EQ(eventsNamed(*eg.a, "rematch-offered").size(), 1u);
    EXPECT_EQ(eventsNamed(*eg.b, "rematch-offered").size(), 1u);
    EXPECT_EQ(eg.a->state()["rematchOffered"], json::array({false, true}));
    EXPECT_EQ(f.memory.loadGame(eg.g.id)->rematch, "");
    eg.a->send("rematch");
    EXPECT_EQ(f.memory.loadGame(eg.g.id)->rematch.size(), 22u);
}

TEST(RoomAbsent, NoClaimAgainstASeatThatNeverCameToTheRematch) {
    Fixture f;
    f.config.grace = std::chrono::seconds(0);
    EndedGame eg(f);
    eg.b->send("rematch");
    eg.a->send("rematch");
    const std::string id = f.memory.loadGame(eg.g.id)->rematch;
    ASSERT_EQ(id.size(), 22u);
    auto room = f.room(id);
    // The accepting player (seat 1 of the rematch) arrives; the maker (seat 0 now) does not.
    Client a(room);
    const json s = a.hello(eg.g.secret, "seedA2");
    EXPECT_EQ(s["you"], json::array({1}));
    EXPECT_TRUE(s["seatToAct"].is_null());
    f.clock.advance(std::chrono::seconds(3600));
    a.send("claim");
    const json e = a.waitForError("cannot-claim");
    EXPECT_EQ(e["message"], "your opponent has not come to this rematch yet");
    EXPECT_TRUE(a.state()["result"].is_null());
    // Once they came (and went), the claim runs as in any game.
    {
        Client b(room);
        b.hello(eg.j.secret, "seedB2");
        EXPECT_EQ(a.state()["seatToAct"], 0);
    }
    a.send("claim");
    EXPECT_EQ(a.state()["result"]["reason"], "claim");
    EXPECT_EQ(a.state()["result"]["winner"], 1);
}

TEST(RoomAbsent, AnAbsentCreatorIsClaimedAgainstAndStartsTheGameWhenBack) {
    for (bool claim : {true, false}) {
        SCOPED_TRACE(claim);
        Fixture f;
        f.config.grace = std::chrono::seconds(60);
        // The creator takes the second seat: the friend is the first to throw.
        const Created g = f.create(Opponent::Friend, 1);
        auto room = f.room(g.id);
        // The creator's page never said hello: its seed is not fixed.
        const JoinOutcome j = room->join(g.inviteToken);
        ASSERT_EQ(j.status, JoinStatus::Joined);
        ASSERT_EQ(j.seat, 0);
        Client b(room);
        const json s = b.hello(j.secret, "seedB");
        EXPECT_TRUE(s["seatToAct"].is_null());
        EXPECT_EQ(s["phase"], "throw");
        EXPECT_TRUE(s["fairness"]["clientSeeds"][1].is_null());
        b.send("throw", {{"ply", 0}});
        b.waitForError("seeds-pending");
        b.send("claim");
        EXPECT_EQ(b.waitForError("cannot-claim")["message"], "your opponent has been offline for 0 s of 60 s");
        f.clock.advance(std::chrono::seconds(61));
        if (claim) {
            b.send("claim");
            EXPECT_FALSE(b.hasNewError());
            EXPECT_EQ(b.state()["result"]["reason"], "claim");
            EXPECT_EQ(b.state()["result"]["winner"], 0);
            continue;
        }
        Client a(room);
        a.hello(g.secret, "seedA");
        EXPECT_EQ(b.state()["seatToAct"], 0);
        EXPECT_EQ(b.state()["fairness"]["clientSeeds"][1], "seedA");
        b.send("throw", {{"ply", 0}});
        EXPECT_FALSE(b.hasNewError());
        EXPECT_EQ(a.state()["ply"], 1);
    }
}

}  // namespace
}  // namespace senet::testing
