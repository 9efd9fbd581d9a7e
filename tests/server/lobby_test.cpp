// The lobby in process (PROTOCOL.md "Lobby"): FIFO pairing per ruleset, "any", seeks dying with
// their connection, two tabs of one browser, simultaneous seekers, take, the per-address cap,
// bad messages, the counts frame, the 30 s abort on the manual clock and the abort ladder.
#include <thread>

#include "lobby_support.hpp"

namespace senet::testing {
namespace {

TEST(Lobby, FirstComeFirstServedPerRuleset) {
    LobbyFixture f;
    LobbyClient a(*f.lobby), b(*f.lobby), c(*f.lobby), d(*f.lobby), e(*f.lobby);
    a.seek("standard");
    b.seek("bell");
    EXPECT_EQ(a.last("seeking")["ruleset"], "standard");
    EXPECT_FALSE(a.paired());
    c.seek("standard");
    d.seek("standard");
    ASSERT_TRUE(a.paired());
    ASSERT_TRUE(c.paired());
    EXPECT_FALSE(b.paired());
    EXPECT_FALSE(d.paired());  // the third standard seeker waits for the next one
    EXPECT_EQ(a.last("paired")["game"], c.last("paired")["game"]);
    EXPECT_EQ(a.last("paired")["ruleset"], "standard");
    e.seek("standard");
    ASSERT_TRUE(d.paired());
    EXPECT_EQ(d.last("paired")["game"], e.last("paired")["game"]);
    EXPECT_NE(d.last("paired")["game"], a.last("paired")["game"]);
    EXPECT_EQ(f.lobby->stats().openSeeks, 1u);  // b's bell seek
    EXPECT_EQ(f.lobby->stats().paired, 2u);
}

TEST(Lobby, PairedSeatsHaveTheirOwnSecretsAndNames) {
    LobbyFixture f;
    LobbyClient a(*f.lobby), b(*f.lobby);
    a.seek("jequier", "", "Nefertari");
    b.seek("jequier", "", "");
    const json pa = a.last("paired"), pb = b.last("paired");
    ASSERT_TRUE(pa.is_object() && pb.is_object());
    EXPECT_NE(pa["seat"], pb["seat"]);
    EXPECT_NE(pa["secret"], pb["secret"]);
    EXPECT_EQ(pa["name"], "Nefertari");
    EXPECT_EQ(pb["opponent"], "Nefertari");
    EXPECT_EQ(pa["opponent"], pb["name"]);
    EXPECT_TRUE(pb["name"].get<std::string>().starts_with("Guest "));
    const std::string id = pa["game"];
    EXPECT_EQ(pa["socket"], "/ws/games/" + id);
    EXPECT_EQ(pa["url"], "/play/" + id + "#seat=" + pa["secret"].get<std::string>());
    // Each secret holds its own seat of an ordinary friend game; the names are in the seats.
    Client ca(f.room(id)), cb(f.room(id));
    const json sa = ca.hello(pa["secret"]);
    const json sb = cb.hello(pb["secret"]);
    EXPECT_EQ(sa["you"], json::array({pa["seat"]}));
    EXPECT_EQ(sb["you"], json::array({pb["seat"]}));
    EXPECT_EQ(sa["opponent"], "friend");
    EXPECT_EQ(sa["ruleset"], "jequier");
    EXPECT_EQ(sb["seats"][pa["seat"].get<int>()]["name"], "Nefertari");
    EXPECT_EQ(sb["seats"][pb["seat"].get<int>()]["name"], pb["name"]);
    EXPECT_EQ(f.room(id)->summary()["seats"][pa["seat"].get<int>()]["name"], "Nefertari");
}

TEST(Lobby, SeatsAreDrawnAtRandom) {
    LobbyFixture f;
    int firstSeatZero = 0;
    for (int i = 0; i < 40; ++i) {
        const std::string address = "10.0.0." + std::to_string(i);
        LobbyClient a(*f.lobby, address), b(*f.lobby, address);
        a.seek("standard");
        b.seek("standard");
        firstSeatZero += a.last("paired")["seat"] == 0;
    }
    // 40 fair draws: all on one side has probability 2^-39.
    EXPECT_GT(firstSeatZero, 0);
    EXPECT_LT(firstSeatZero, 40);
}

TEST(Lobby, AnyPairsWithARuleset) {
    LobbyFixture f;
    LobbyClient a(*f.lobby), b(*f.lobby), c(*f.lobby), d(*f.lobby), e(*f.lobby), g(*f.lobby);
    a.seek("any");
    b.seek("kendall");
    ASSERT_TRUE(a.paired());
    EXPECT_EQ(a.last("paired")["ruleset"], "kendall");
    c.seek("piccione");
    d.seek("any");
    ASSERT_TRUE(d.paired());
    EXPECT_EQ(c.last("paired")["ruleset"], "piccione");
    e.seek("any");
    g.seek("any");
    ASSERT_TRUE(g.paired());
    EXPECT_EQ(g.last("paired")["ruleset"], "standard");
}

TEST(Lobby, ASeekDiesWithItsConnection) {
    LobbyFixture f;
    auto a = std::make_unique<LobbyClient>(*f.lobby);
    a->seek("standard");
    EXPECT_EQ(f.lobby->stats().openSeeks, 1u);
    a->close();
    EXPECT_EQ(f.lobby->stats().openSeeks, 0u);
    LobbyClient b(*f.lobby);
    b.seek("standard");
    EXPECT_FALSE(b.paired());  // the closed tab is never paired
    EXPECT_FALSE(a->paired());
    EXPECT_EQ(f.lobby->stats().paired, 0u);
}

TEST(Lobby, TwoTabsOfOneBrowserAreNeverPaired) {
    LobbyFixture f;
    LobbyClient tab1(*f.lobby), tab2(*f.lobby), other(*f.lobby), noToken1(*f.lobby), noToken2(*f.lobby);
    tab1.seek("standard", "browserAAAA");
    tab2.seek("standard", "browserAAAA");
    EXPECT_FALSE(tab1.paired());
    EXPECT_FALSE(tab2.paired());
    other.seek("standard", "browserBBBB");
    ASSERT_TRUE(tab1.paired());  // the oldest, not the second tab
    EXPECT_FALSE(tab2.paired());
    // Seekers without a token are never taken for the same browser.
    noToken1.seek("bell");
    noToken2.seek("bell");
    EXPECT_TRUE(noToken2.paired());
    // Taking a seek of one's own browser is refused, the seek stays open.
    LobbyClient tab3(*f.lobby);
    tab3.send("take", {{"seek", tab2.last("seeking")["id"]}, {"browser", "browserAAAA"}});
    EXPECT_EQ(tab3.last("error")["code"], "same-browser");
    EXPECT_EQ(f.lobby->stats().openSeeks, 1u);
}

TEST(Lobby, SharingAnAddressNeverPreventsPairing) {
    LobbyFixture f;
    LobbyClient a(*f.lobby, "198.51.100.7"), b(*f.lobby, "198.51.100.7");
    a.seek("standard", "family1");
    b.seek("standard", "family2");
    EXPECT_TRUE(a.paired());
    EXPECT_TRUE(b.paired());
}

TEST(Lobby, OneAddressMakesGamesNoFasterThanTheApi) {
    // Two sockets of one address pairing each other over and over: --create-burst (20) games,
    // then one a second (--create-rate), as POST /api/games.
    LobbyFixture f;
    LobbyClient a(*f.lobby, "192.0.2.77"), b(*f.lobby, "192.0.2.77");
    for (int i = 0; i < 20; ++i) {
        a.seek("standard", "self-a");
        b.seek("standard", "self-b");
        ASSERT_EQ(b.of("paired").size(), static_cast<std::size_t>(i + 1)) << i;
    }
    a.seek("standard", "self-a");
    b.seek("standard", "self-b");
    EXPECT_EQ(b.last("error")["code"], "rate-limited");
    EXPECT_EQ(f.lobby->stats().paired, 20u);
    EXPECT_EQ(f.lobby->stats().openSeeks, 1u);  // a's seek still waits
    f.clock.advance(std::chrono::seconds(1));
    b.seek("standard", "self-b");
    EXPECT_EQ(b.of("paired").size(), 21u);
    // Another address is not held up.
    LobbyClient c(*f.lobby, "192.0.2.78"), d(*f.lobby, "192.0.2.79");
    c.seek("bell");
    d.seek("bell");
    EXPECT_TRUE(d.paired());
}

TEST(Lobby, TenSimultaneousSeekersMakeFiveGames) {
    LobbyFixture f;
    std::vector<std::unique_ptr<LobbyClient>> clients;
    for (int i = 0; i < 10; ++i) clients.push_back(std::make_unique<LobbyClient>(*f.lobby, "203.0.113." + std::to_string(i)));
    std::vector<std::thread> threads;
    for (int i = 0; i < 10; ++i)
        threads.emplace_back([&, i] { clients[i]->seek("standard", "browser" + std::to_string(i)); });
    for (auto& t : threads) t.join();
    std::map<std::string, int> games;
    for (auto& c : clients) {
        const auto paired = c->of("paired");
        ASSERT_EQ(paired.size(), 1u);  // each seeker in exactly one game
        ++games[paired[0]["game"]];
    }
    EXPECT_EQ(games.size(), 5u);
    for (auto& [id, n] : games) {
        EXPECT_EQ(n, 2) << id;
        EXPECT_EQ(f.room(id)->summary()["phase"], "throw");  // both seats taken
    }
    EXPECT_EQ(f.lobby->stats().openSeeks, 0u);
}

TEST(Lobby, TakeAnOpenSeek) {
    LobbyFixture f;
    LobbyClient a(*f.lobby), b(*f.lobby), c(*f.lobby);
    a.seek("bell", "", "Imhotep");
    const std::string id = a.last("seeking")["id"];
    EXPECT_EQ(a.last("seeking")["name"], "Imhotep");
    b.seek("standard");  // b's own seek is withdrawn when it takes
    b.send("take", {{"seek", id}, {"name", "Ahmose"}});
    ASSERT_TRUE(a.paired());
    ASSERT_TRUE(b.paired());
    EXPECT_EQ(b.last("paired")["ruleset"], "bell");
    EXPECT_EQ(a.last("paired")["opponent"], "Ahmose");
    EXPECT_EQ(f.lobby->stats().openSeeks, 0u);
    c.send("take", {{"seek", id}});
    EXPECT_EQ(c.last("error")["code"], "gone");
    // One's own seek cannot be taken.
    c.seek("standard");
    c.send("take", {{"seek", c.last("seeking")["id"]}});
    EXPECT_EQ(c.last("error")["code"], "same-browser");
}

TEST(Lobby, OneSeekPerConnectionAndCancel) {
    LobbyFixture f;
    LobbyClient a(*f.lobby), b(*f.lobby);
    a.seek("standard");
    a.seek("bell");  // replaces the first
    EXPECT_EQ(f.lobby->stats().openSeeks, 1u);
    b.seek("standard");
    EXPECT_FALSE(b.paired());
    a.send("cancel");
    EXPECT_EQ(a.lastFrame()["t"], "cancelled");
    EXPECT_EQ(f.lobby->stats().openSeeks, 1u);  // b's
}

TEST(Lobby, AtMostTwentySeeksPerAddress) {
    LobbyFixture f;
    std::vector<std::unique_ptr<LobbyClient>> clients;
    for (int i = 0; i < 21; ++i) clients.push_back(std::make_unique<LobbyClient>(*f.lobby, "192.0.2.50"));
    for (int i = 0; i < 20; ++i) clients[i]->seek("standard", "same");  // one browser: none pair
    EXPECT_EQ(f.lobby->stats().openSeeks, 20u);
    clients[20]->seek("bell");
    EXPECT_EQ(clients[20]->last("error")["code"], "too-many-seeks");
    EXPECT_EQ(f.lobby->stats().openSeeks, 20u);
    LobbyClient elsewhere(*f.lobby, "192.0.2.51");
    elsewhere.seek("bell");
    EXPECT_EQ(elsewhere.last("seeking")["ruleset"], "bell");
    clients[0]->close();
    clients[20]->seek("bell");
    EXPECT_TRUE(clients[20]->paired());  // a place came free; it pairs with `elsewhere`
}

TEST(Lobby, BadMessagesGetAnErrorAndTheConnectionStaysUsable) {
    LobbyFixture f;
    LobbyClient a(*f.lobby), b(*f.lobby);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"not json", "bad-json"},
        {"[1,2]", "bad-json"},
        {R"({"d":{}})", "unknown-type"},
        {R"({"t":"hello","d":{}})", "unknown-type"},
        {R"({"t":"throw","d":{"ply":0}})", "unknown-type"},
        {R"({"t":"seek","d":[]})", "bad-field"},
        {R"({"t":"seek","d":{}})", "bad-field"},
        {R"({"t":"seek","d":{"ruleset":7}})", "bad-field"},
        {R"({"t":"seek","d":{"ruleset":"chess"}})", "bad-ruleset"},
        {R"({"t":"seek","d":{"ruleset":"standard","name":5}})", "bad-field"},
        {R"({"t":"seek","d":{"ruleset":"standard","name":"http://x.example"}})", "bad-name"},
        {R"({"t":"seek","d":{"ruleset":"standard","browser":""}})", "bad-browser"},
        {R"({"t":"seek","d":{"ruleset":"standard","browser":"a b"}})", "bad-browser"},
        {R"({"t":"take","d":{}})", "bad-field"},
        {R"({"t":"take","d":{"seek":"../../x"}})", "bad-field"},
        {R"({"t":"take","d":{"seek":"AAAAAAAAAAAAAAAA"}})", "gone"},
    };
    for (const auto& [frame, code] : cases) {
        a.sendRaw(frame);
        EXPECT_EQ(a.lastFrame()["t"], "error") << frame;
        EXPECT_EQ(a.lastFrame()["d"]["code"], code) << frame;
        EXPECT_TRUE(a.lastFrame()["d"]["message"].is_string()) << frame;
    }
    EXPECT_EQ(f.lobby->stats().openSeeks, 0u);  // nothing changed
    a.send("ping");
    EXPECT_EQ(a.lastFrame()["t"], "pong");
    a.seek("standard");
    b.seek("standard");
    EXPECT_TRUE(a.paired());
}

TEST(Lobby, CountsOnConnectAndAtMostOncePerTick) {
    LobbyFixture f;
    LobbyClient watcher(*f.lobby);
    const json first = watcher.last("lobby");
    ASSERT_TRUE(first.is_object());
    EXPECT_EQ(first["rulesets"].size(), 5u);
    EXPECT_EQ(first["rulesets"]["standard"], (json{{"seeking", 0}, {"playing", 0}}));
    EXPECT_EQ(first["open"], json::array());
    LobbyClient a(*f.lobby), b(*f.lobby), c(*f.lobby);
    a.seek("standard", "", "Tiye");
    b.seek("bell");
    c.seek("any");  // pairs with a (the oldest compatible)
    EXPECT_EQ(watcher.of("lobby").size(), 1u);  // changes wait for the tick
    f.lobby->tick();
    ASSERT_EQ(watcher.of("lobby").size(), 2u);  // three changes, one frame
    const json now = watcher.last("lobby");
    EXPECT_EQ(now["rulesets"]["standard"]["playing"], 2);
    EXPECT_EQ(now["rulesets"]["bell"]["seeking"], 1);
    EXPECT_EQ(now["rulesets"]["standard"]["seeking"], 0);
    ASSERT_EQ(now["open"].size(), 1u);
    EXPECT_EQ(now["open"][0]["ruleset"], "bell");
    EXPECT_TRUE(now["open"][0]["since"].is_number_integer());
    EXPECT_TRUE(now["open"][0]["name"].get<std::string>().starts_with("Guest "));
    f.lobby->tick();
    EXPECT_EQ(watcher.of("lobby").size(), 2u);  // nothing changed: no frame
    // An any seek counts under every ruleset; the counts never hold a secret nor a browser token.
    LobbyClient d(*f.lobby), e(*f.lobby);
    d.seek("any");
    EXPECT_TRUE(d.paired());  // with b's bell seek
    e.seek("any", "tok3");
    const json counts = json::parse(f.lobby->countsJson());
    EXPECT_EQ(counts["rulesets"]["piccione"]["seeking"], 1);
    EXPECT_EQ(counts["rulesets"]["bell"]["seeking"], 1);
    EXPECT_EQ(counts["rulesets"]["bell"]["playing"], 2);
    EXPECT_EQ(counts["open"][0]["ruleset"], "any");
    const std::string text = f.lobby->countsJson();
    EXPECT_EQ(text.find(a.last("paired")["secret"].get<std::string>()), std::string::npos);
    EXPECT_EQ(text.find("tok3"), std::string::npos);
}

}  // namespace
}  // namespace senet::testing
