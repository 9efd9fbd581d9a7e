// Bots in the lobby (PROTOCOL.md "Bots"): a program seeks with "bot": true; it is paired only with
// a seeker that accepts bots ("bots": true), so two bots only when both ask for it; a person may
// take a bot's open seek, a bot only a seek that accepts bots; the open list, the paired frame,
// the seats and the record mark the bot; bad flags are refused and change nothing.
#include "lobby_support.hpp"

namespace senet::testing {
namespace {

void seekAs(LobbyClient& c, const std::string& ruleset, bool bot, bool bots, const std::string& browser = "") {
    json d = {{"ruleset", ruleset}, {"bot", bot}, {"bots", bots}};
    if (!browser.empty()) d["browser"] = browser;
    c.send("seek", d);
}

TEST(LobbyBots, ABotIsPairedOnlyWithASeekerWhoAcceptsBots) {
    LobbyFixture f;
    LobbyClient bot(*f.lobby), person(*f.lobby), willing(*f.lobby);
    seekAs(bot, "standard", true, false);
    person.seek("standard");  // a person's seek by default: no bots
    EXPECT_FALSE(bot.paired());
    EXPECT_FALSE(person.paired());
    EXPECT_EQ(f.lobby->stats().openSeeks, 2u);
    seekAs(willing, "standard", false, true);
    ASSERT_TRUE(willing.paired());
    ASSERT_TRUE(bot.paired());
    EXPECT_FALSE(person.paired());
    const json pw = willing.last("paired"), pb = bot.last("paired");
    EXPECT_EQ(pw["game"], pb["game"]);
    EXPECT_EQ(pw["opponentBot"], true);
    EXPECT_EQ(pb["opponentBot"], false);
    // Both see the bot's seat marked; the person's is not.
    Client cw(f.room(pw["game"])), cb(f.room(pb["game"]));
    const json sw = cw.hello(pw["secret"]);
    cb.hello(pb["secret"]);
    const int botSeat = pb["seat"].get<int>();
    EXPECT_EQ(sw["seats"][botSeat].value("bot", false), true);
    EXPECT_FALSE(sw["seats"][1 - botSeat].contains("bot"));
    EXPECT_EQ(f.freshState(pw["game"])["seats"][botSeat].value("bot", false), true);  // spectators too
}

TEST(LobbyBots, TwoBotsArePairedOnlyWhenBothAskForIt) {
    LobbyFixture f;
    LobbyClient a(*f.lobby), b(*f.lobby), c(*f.lobby), d(*f.lobby);
    seekAs(a, "bell", true, false);
    seekAs(b, "bell", true, true);  // b accepts bots, a does not
    EXPECT_FALSE(a.paired());
    EXPECT_FALSE(b.paired());
    seekAs(c, "bell", true, true);  // c and b both asked
    ASSERT_TRUE(c.paired());
    ASSERT_TRUE(b.paired());
    EXPECT_FALSE(a.paired());
    EXPECT_EQ(c.last("paired")["opponentBot"], true);
    EXPECT_EQ(b.last("paired")["opponentBot"], true);
    // A person who accepts bots is paired with the waiting bot a, although a accepts no bots.
    seekAs(d, "any", false, true);
    ASSERT_TRUE(d.paired());
    EXPECT_EQ(d.last("paired")["ruleset"], "bell");
    EXPECT_EQ(d.last("paired")["game"], a.last("paired")["game"]);
}

TEST(LobbyBots, PeopleWhoDoNotAcceptBotsStillPairWithEachOther) {
    LobbyFixture f;
    LobbyClient bot(*f.lobby), a(*f.lobby), b(*f.lobby);
    seekAs(bot, "kendall", true, true);
    a.seek("kendall");
    b.seek("kendall");
    ASSERT_TRUE(a.paired());
    EXPECT_EQ(a.last("paired")["game"], b.last("paired")["game"]);
    EXPECT_FALSE(bot.paired());
}

TEST(LobbyBots, TheOpenListMarksBotsAndTakingFollowsTheSameRule) {
    LobbyFixture f;
    LobbyClient bot(*f.lobby), person(*f.lobby), otherBot(*f.lobby), taker(*f.lobby);
    seekAs(bot, "piccione", true, false);
    person.seek("standard");
    const json counts = json::parse(f.lobby->countsJson());  // GET /api/lobby's body
    ASSERT_EQ(counts["open"].size(), 2u);
    json botEntry, personEntry;
    for (const json& e : counts["open"]) (e["ruleset"] == "piccione" ? botEntry : personEntry) = e;
    EXPECT_EQ(botEntry.value("bot", false), true);
    EXPECT_FALSE(personEntry.contains("bot"));
    EXPECT_FALSE(personEntry.contains("bots"));  // this person accepts no bots
    EXPECT_FALSE(botEntry.contains("bots"));
    // A seek that accepts bots says so in the list, so that a bot knows it may take it.
    LobbyClient willing(*f.lobby);
    seekAs(willing, "bell", false, true);
    const json more = json::parse(f.lobby->countsJson());
    ASSERT_EQ(more["open"].size(), 3u);
    EXPECT_EQ(more["open"][2]["ruleset"], "bell");
    EXPECT_EQ(more["open"][2].value("bots", false), true);
    EXPECT_FALSE(more["open"][2].contains("bot"));
    // A bot may not take the seek of a person who did not accept bots; nothing changes.
    otherBot.send("take", {{"seek", personEntry["id"]}, {"bot", true}});
    EXPECT_EQ(otherBot.last("error")["code"], "no-bots");
    EXPECT_FALSE(person.paired());
    EXPECT_EQ(f.lobby->stats().openSeeks, 3u);
    // A person who takes the bot's seek chose it.
    taker.send("take", {{"seek", botEntry["id"]}});
    ASSERT_TRUE(taker.paired());
    EXPECT_EQ(taker.last("paired")["opponentBot"], true);
    EXPECT_EQ(taker.last("paired")["ruleset"], "piccione");
}

TEST(LobbyBots, BadFlagsAreRefusedAndChangeNothing) {
    LobbyFixture f;
    LobbyClient a(*f.lobby), b(*f.lobby);
    for (const json& bad : {json("yes"), json(1), json::array(), json::object()}) {
        a.send("seek", {{"ruleset", "standard"}, {"bot", bad}});
        EXPECT_EQ(a.last("error")["code"], "bad-field") << bad;
        a.send("seek", {{"ruleset", "standard"}, {"bots", bad}});
        EXPECT_EQ(a.last("error")["code"], "bad-field") << bad;
        a.send("take", {{"seek", "abc"}, {"bot", bad}});
        EXPECT_EQ(a.last("error")["code"], "bad-field") << bad;
    }
    EXPECT_NE(a.last("error")["message"].get<std::string>().find("\"bot\" must be true or false"), std::string::npos);
    EXPECT_EQ(f.lobby->stats().openSeeks, 0u);
    // A member given twice is refused as on the game socket, whichever value comes last.
    a.sendRaw(R"({"t":"seek","d":{"ruleset":"standard","bot":true,"bot":false}})");
    EXPECT_EQ(a.last("error")["code"], "bad-json");
    a.sendRaw(R"({"t":"seek","d":{"ruleset":"standard","bot":false,"bot":true}})");
    EXPECT_EQ(a.last("error")["code"], "bad-json");
    EXPECT_NE(a.last("error")["message"].get<std::string>().find("bot"), std::string::npos);
    a.sendRaw(R"({"t":"seek","t":"take","d":{"ruleset":"standard"}})");
    EXPECT_EQ(a.last("error")["code"], "bad-json");
    EXPECT_EQ(f.lobby->stats().openSeeks, 0u);
    // null is as absent: a person's seek.
    a.send("seek", {{"ruleset", "standard"}, {"bot", nullptr}, {"bots", nullptr}});
    b.seek("standard");
    EXPECT_TRUE(b.paired());
}

TEST(LobbyBots, TheRecordMarksTheBotsSeatAndKeepsItWhenLoadedAgain) {
    LobbyFixture f;
    LobbyClient bot(*f.lobby), person(*f.lobby);
    seekAs(bot, "standard", true, false);
    seekAs(person, "standard", false, true);
    const json pb = bot.last("paired"), pp = person.last("paired");
    ASSERT_TRUE(pb.is_object() && pp.is_object());
    const std::string id = pb["game"];
    auto room = f.room(id);
    Client cb(room), cp(room);
    cb.hello(pb["secret"]);
    cp.hello(pp["secret"]);
    cp.send("resign");
    ASSERT_EQ(cp.state()["phase"], "over");
    const int botSeat = pb["seat"].get<int>();
    json expected = json::array({false, false});
    expected[botSeat] = true;
    const json record = json::parse(*room->verifiableRecord());
    EXPECT_EQ(record["bots"], expected);
    EXPECT_FALSE(record["ending"].contains("bots"));
    EXPECT_FALSE(cp.state()["result"].contains("bots"));
    expectVerifies(*room, "bots");
    // Loaded again from storage (after a restart): the same record, the seat still marked.
    Registry again(f.faulty, f.metrics, f.scheduler, f.config, f.clock);
    Lookup l = again.find(id);
    ASSERT_EQ(l.status, LookupStatus::Found);
    EXPECT_EQ(json::parse(*l.room->verifiableRecord()), record);
    Client watcher(l.room);
    EXPECT_EQ(watcher.hello()["seats"][botSeat].value("bot", false), true);
}

TEST(LobbyBots, GamesWithoutBotsHaveNoMark) {
    LobbyFixture f;
    LobbyClient a(*f.lobby), b(*f.lobby);
    a.seek("standard");
    b.seek("standard");
    const json pa = a.last("paired");
    EXPECT_EQ(pa["opponentBot"], false);
    auto room = f.room(pa["game"]);
    Client ca(room);
    const json s = ca.hello(pa["secret"]);
    EXPECT_FALSE(s["seats"][0].contains("bot"));
    EXPECT_FALSE(s["seats"][1].contains("bot"));
    ca.send("resign");
    EXPECT_FALSE(json::parse(*room->verifiableRecord()).contains("bots"));
}

}  // namespace
}  // namespace senet::testing
