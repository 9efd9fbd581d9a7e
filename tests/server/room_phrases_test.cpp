// Quick phrases (PROTOCOL.md "Quick phrases"): relayed to the two players of a friend game and
// to nobody else, refused where there is no opponent, rate limited per seat on the room's
// clock, and kept in the record only as counts per seat.
#include "room_support.hpp"

namespace senet::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

/// A friend game with both seats and a spectator connected: a holds seat 0, b seat 1.
struct Talk {
    explicit Talk(Fixture& f) : g(f.create(Opponent::Friend, 0)), room(f.room(g.id)), a(room), b(room), watcher(room) {
        a.hello(g.secret, "seat-zero");
        const JoinOutcome j = room->join(g.inviteToken);
        EXPECT_EQ(j.status, JoinStatus::Joined);
        b.hello(j.secret, "seat-one");
        watcher.hello();
    }
    Created g;
    std::shared_ptr<Room> room;
    Client a, b, watcher;
};

TEST(RoomPhrases, APhraseGoesToBothPlayersAndNotToSpectators) {
    Fixture f;
    Talk t(f);
    t.a.send("phrase", {{"phrase", "good-luck"}});
    EXPECT_FALSE(t.a.hasNewError());
    ASSERT_EQ(t.b.phrases().size(), 1u);
    EXPECT_EQ(t.b.phrases()[0], json({{"phrase", "good-luck"}, {"seat", 0}}));
    ASSERT_EQ(t.a.phrases().size(), 1u);  // the sender's own connections see it said
    EXPECT_EQ(t.a.phrases()[0]["seat"], 0);
    EXPECT_TRUE(t.watcher.phrases().empty());
    // The other way, and the game itself is untouched.
    f.clock.advance(seconds(1));
    t.b.send("phrase", {{"phrase", "thanks"}});
    ASSERT_EQ(t.a.phrases().size(), 2u);
    EXPECT_EQ(t.a.phrases()[1], json({{"phrase", "thanks"}, {"seat", 1}}));
    EXPECT_EQ(t.a.state()["ply"], 0);
    EXPECT_TRUE(t.watcher.phrases().empty());
    // A spectator may not speak.
    t.watcher.send("phrase", {{"phrase", "oops"}});
    t.watcher.waitForError("not-seated");
    EXPECT_EQ(t.a.phrases().size(), 2u);
}

TEST(RoomPhrases, OnePhraseEveryTwoSecondsAndTenAMinutePerSeat) {
    Fixture f;
    Talk t(f);
    t.a.send("phrase", {{"phrase", "good-luck"}});
    f.clock.advance(milliseconds(1999));
    t.a.send("phrase", {{"phrase", "oops"}});
    const json early = t.a.waitForError("phrase-limit");
    EXPECT_EQ(early.value("message", ""), "one phrase per 2 s: wait 1 ms");
    EXPECT_EQ(t.b.phrases().size(), 1u) << "a refused phrase was relayed";
    // The other seat has its own limit.
    t.b.send("phrase", {{"phrase", "thanks"}});
    EXPECT_FALSE(t.b.hasNewError());
    f.clock.advance(milliseconds(1));
    t.a.send("phrase", {{"phrase", "oops"}});
    EXPECT_FALSE(t.a.hasNewError());
    // Eight more, 2 s apart: ten within 18 s of the first.
    for (int i = 0; i < 8; ++i) {
        f.clock.advance(seconds(2));
        t.a.send("phrase", {{"phrase", "your-turn"}});
        EXPECT_FALSE(t.a.hasNewError()) << i;
    }
    ASSERT_EQ(t.b.phrases().size(), 11u);  // a's ten and b's one
    f.clock.advance(seconds(2));           // 20 s after the first
    t.a.send("phrase", {{"phrase", "well-played"}});
    const json many = t.a.waitForError("phrase-limit");
    EXPECT_EQ(many.value("message", ""), "at most 10 phrases a minute: wait 40000 ms");
    EXPECT_EQ(t.b.phrases().size(), 11u);
    // A minute after the first, it has left the window.
    f.clock.advance(seconds(40));
    t.a.send("phrase", {{"phrase", "well-played"}});
    EXPECT_FALSE(t.a.hasNewError());
    EXPECT_EQ(t.b.phrases().size(), 12u);
}

TEST(RoomPhrases, RefusedWithoutAnOpponent) {
    Fixture f;
    for (const Opponent o : {Opponent::Local, Opponent::Computer}) {
        const Created g = f.create(o, 0);
        Client c(f.room(g.id));
        c.hello(g.secret, "alone");
        c.send("phrase", {{"phrase", "good-luck"}});
        const json e = c.waitForError("no-opponent");
        EXPECT_EQ(e.value("message", ""), o == Opponent::Local ? "a game on one device has no opponent to send a phrase to"
                                                               : "the computer does not read phrases");
        EXPECT_TRUE(c.phrases().empty());
    }
    // A friend game whose friend has not joined.
    const Created g = f.create(Opponent::Friend, 1);
    Client c(f.room(g.id));
    c.hello(g.secret, "early");
    c.send("phrase", {{"phrase", "good-luck"}});
    EXPECT_EQ(c.waitForError("no-opponent").value("message", ""), "your friend has not joined yet");
    EXPECT_TRUE(c.phrases().empty());
    // Before hello: hello-first.
    Client stranger(f.room(g.id));
    stranger.send("phrase", {{"phrase", "oops"}});
    stranger.waitForError("hello-first");
}

TEST(RoomPhrases, TheRecordCountsEachSeatsPhrasesAndNeverTheirWords) {
    Fixture f;
    Talk t(f);
    t.a.send("phrase", {{"phrase", "good-luck"}});
    t.b.send("phrase", {{"phrase", "good-luck"}});
    f.clock.advance(seconds(3));
    t.a.send("phrase", {{"phrase", "oops"}});
    t.a.send("throw", {{"ply", 0}});
    t.b.send("resign");
    ASSERT_EQ(t.a.state()["phase"], "over");
    // After the end, "good game" still goes (and is counted, but the record is fixed at the end).
    f.clock.advance(seconds(3));
    t.b.send("phrase", {{"phrase", "good-game"}});
    EXPECT_FALSE(t.b.hasNewError());
    EXPECT_EQ(t.a.phrases().back()["phrase"], "good-game");
    // The state's result has no counts; the stored result and the record have them.
    EXPECT_EQ(t.a.state()["result"], json({{"player", 1}, {"reason", "resign"}, {"winner", 0}}));
    const json stored = json::parse(f.memory.loadGame(t.g.id)->result);
    EXPECT_EQ(stored["phrases"], json({2, 1}));
    const json record = json::parse(*t.room->verifiableRecord());
    EXPECT_EQ(record["phrases"], json({2, 1}));
    EXPECT_FALSE(record["ending"].contains("phrases"));
    EXPECT_EQ(record.dump().find("good-luck"), std::string::npos);
    expectVerifies(*t.room, "phrases");
    // A room loaded again from storage gives the same record.
    Registry again(f.faulty, f.metrics, f.scheduler, f.config, f.clock);
    Lookup l = again.find(t.g.id);
    ASSERT_EQ(l.status, LookupStatus::Found);
    EXPECT_EQ(json::parse(*l.room->verifiableRecord())["phrases"], json({2, 1}));
    EXPECT_EQ(json::parse(*l.room->verifiableRecord()), record);
}

TEST(RoomPhrases, ComputerAndLocalRecordsHaveNoCounts) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    auto room = f.room(g.id);
    Client c(room);
    c.hello(g.secret, "local");
    c.send("resign");
    const json record = json::parse(*room->verifiableRecord());
    EXPECT_FALSE(record.contains("phrases"));
    EXPECT_FALSE(json::parse(f.memory.loadGame(g.id)->result).contains("phrases"));
}

}  // namespace
}  // namespace senet::testing
