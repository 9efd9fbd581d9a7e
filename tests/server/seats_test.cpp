// Every seat choice through the real server: opponent (friend, computer, local) × side (first,
// second, random) × ruleset, each game played to its end; the commitment in the create and
// join answers; the first throw waits for both client seeds.
#include <algorithm>
#include <fstream>

#include "fixture.hpp"

namespace senet::testing {
namespace {

class Seats : public ServerTest {};

struct SeatCase {
    const char* opponent;
    const char* side;
    const char* ruleset;
};

std::string caseName(const ::testing::TestParamInfo<SeatCase>& info) {
    return std::string(info.param.opponent) + "_" + info.param.side + "_" + info.param.ruleset;
}

std::vector<SeatCase> allCases() {
    std::vector<SeatCase> out;
    for (const char* o : {"friend", "computer", "local"})
        for (const char* s : {"first", "second", "random"})
            for (const char* r : {"standard", "jequier", "bell"}) out.push_back({o, s, r});
    return out;
}

class EverySeat : public Seats, public ::testing::WithParamInterface<SeatCase> {};

TEST_P(EverySeat, PlaysToTheEnd) {
    const SeatCase c = GetParam();
    const std::string opponent = c.opponent, side = c.side;
    const NewGame g = createGame(port(), c.ruleset, opponent, side, opponent == "computer" ? "beginner" : "");
    ASSERT_FALSE(g.id.empty());
    ASSERT_EQ(g.raw.value("commitment", "").size(), 64u) << g.raw.dump();
    if (opponent == "local") {
        ASSERT_EQ(g.seats, (std::vector<int>{0, 1}));
    } else {
        ASSERT_EQ(g.seats.size(), 1u);
        if (side == "first") EXPECT_EQ(g.seats[0], 0);
        if (side == "second") EXPECT_EQ(g.seats[0], 1);
    }
    const int mine = g.seats[0];
    WsClient a(port(), g.id);
    const json snap = a.hello(g.secret, "creator");
    EXPECT_EQ(snap["fairness"]["commitment"], g.raw["commitment"]);
    std::map<int, WsClient*> players;
    std::unique_ptr<WsClient> b;
    if (opponent == "local") {
        players = {{0, &a}, {1, &a}};
    } else if (opponent == "computer") {
        players = {{mine, &a}};
    } else {
        EXPECT_EQ(snap["phase"], "waiting");
        EXPECT_TRUE(snap["seatToAct"].is_null());
        const HttpReply r = httpRequest(port(), "POST", "/api/games/" + g.id + "/join", json({{"invite", g.inviteToken}}).dump());
        ASSERT_EQ(r.status, 200) << r.body;
        const json j = r.bodyJson();
        EXPECT_EQ(j["seats"], json::array({1 - mine}));
        EXPECT_EQ(j["commitment"], g.raw["commitment"]);
        EXPECT_EQ(joinGame(port(), g.id, g.inviteToken).first, 409);
        b = std::make_unique<WsClient>(port(), g.id);
        const json sb = b->hello(j["secret"], "friend");
        EXPECT_EQ(sb["you"], json::array({1 - mine}));
        EXPECT_NE(sb["phase"], "waiting");
        players = {{mine, &a}, {1 - mine, b.get()}};
        ASSERT_TRUE(a.receiveUntilPly(0));
    }
    std::mt19937 rng(2024);
    playToEnd(players, {}, rng, 5000, /*forward=*/true);  // random play in Jéquier may not end in 5000 actions
    EXPECT_EQ(a.state()["phase"], "over");
    const auto rec = httpRequest(port(), "GET", "/api/games/" + g.id + "/record");
    ASSERT_EQ(rec.status, 200) << rec.body;
    const auto file = dir_.path() / (g.id + ".json");
    std::ofstream(file) << rec.body;
    auto [code, out] = runCli({"verify", file.string()});
    EXPECT_EQ(code, 0) << out;
}

INSTANTIATE_TEST_SUITE_P(All27, EverySeat, ::testing::ValuesIn(allCases()), caseName);

TEST_F(Seats, FirstThrowWaitsForBothSeeds) {
    const NewGame g = createGame(port(), "standard", "friend", "first");
    WsClient a(port(), g.id);
    a.hello(g.secret, "early");
    const auto [status, secret] = joinGame(port(), g.id, g.inviteToken);
    ASSERT_EQ(status, 200);
    ASSERT_TRUE(a.waitForEvent("joined", {{"seat", 1}}).is_object());
    a.send("throw", {{"ply", 0}});
    ASSERT_TRUE(a.waitForError("seeds-pending").is_object());
    WsClient b(port(), g.id);
    const json s = b.hello(secret);  // no seed: the server draws one
    EXPECT_TRUE(s["fairness"]["clientSeeds"][1].is_string()) << s.dump();
    a.clearErrors();
    a.send("throw", {{"ply", 0}});
    EXPECT_TRUE(a.receiveUntilPly(1));
    EXPECT_TRUE(a.errors().empty());
}


// ---- the creator's unused invite, from any device (API.md "POST /api/games/{id}/invite") ----

HttpReply askInvite(unsigned short port, const std::string& id, const json& body) {
    return httpRequest(port, "POST", "/api/games/" + id + "/invite", body.dump());
}

TEST_F(Seats, CreatorGetsTheUnusedInviteWhicheverSeat) {
    for (const char* side : {"first", "second"}) {
        const NewGame g = createGame(port(), "standard", "friend", side);
        const HttpReply r = askInvite(port(), g.id, {{"secret", g.secret}});
        ASSERT_EQ(r.status, 200) << side << ": " << r.body;
        const json j = r.bodyJson();
        EXPECT_EQ(j["invite"], g.inviteToken) << side;
        EXPECT_EQ(j["inviteUrl"], g.inviteUrl) << side;
        EXPECT_EQ(j["game"], g.id);
        EXPECT_EQ(r.header("cache-control"), "no-store");
        // The same answer again (nothing changes), and the invite still seats the friend.
        EXPECT_EQ(askInvite(port(), g.id, {{"secret", g.secret}}).bodyJson()["invite"], g.inviteToken);
        const auto [status, secret] = joinGame(port(), g.id, j["invite"]);
        EXPECT_EQ(status, 200);
        EXPECT_FALSE(secret.empty());
    }
}

TEST_F(Seats, TheInviteSurvivesARestart) {
    const NewGame g = createGame(port(), "bell", "friend", "second");
    restart();
    const HttpReply r = askInvite(port(), g.id, {{"secret", g.secret}, {"lang", "pl"}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.bodyJson()["inviteUrl"], "/pl/play/" + g.id + "#invite=" + g.inviteToken);
    EXPECT_EQ(joinGame(port(), g.id, g.inviteToken).first, 200);
}

TEST_F(Seats, InviteIsRefusedToEveryoneButTheWaitingCreator) {
    const NewGame g = createGame(port(), "standard", "friend", "second");
    const std::string path = "/api/games/" + g.id + "/invite";
    auto code = [](const HttpReply& r) { return r.bodyJson().is_object() ? r.bodyJson().value("error", "") : ""; };

    HttpReply r = askInvite(port(), g.id, {{"secret", std::string(43, 'A')}});
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(code(r), "bad-secret");
    EXPECT_EQ(r.body.find(g.inviteToken), std::string::npos);
    r = askInvite(port(), g.id, {{"secret", g.inviteToken}});  // the invite itself is not a seat
    EXPECT_EQ(r.status, 403) << r.body;
    r = askInvite(port(), g.id, json::object());
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(code(r), "secret");
    r = askInvite(port(), g.id, {{"secret", 5}});
    EXPECT_EQ(r.status, 400) << r.body;
    r = httpRequest(port(), "POST", path, "not json");
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(code(r), "bad-body");
    r = httpRequest(port(), "GET", path);
    EXPECT_EQ(r.status, 405) << r.body;
    r = askInvite(port(), std::string(22, 'x'), {{"secret", g.secret}});
    EXPECT_EQ(r.status, 404) << r.body;

    // Once the friend holds the other seat there is no invite, for either seat.
    const auto [status, friendSecret] = joinGame(port(), g.id, g.inviteToken);
    ASSERT_EQ(status, 200);
    for (const std::string& s : {g.secret, friendSecret}) {
        r = askInvite(port(), g.id, {{"secret", s}});
        EXPECT_EQ(r.status, 409) << r.body;
        EXPECT_EQ(code(r), "full");
        EXPECT_EQ(r.body.find(g.inviteToken), std::string::npos);
    }

    // Games without an invite.
    for (const char* opponent : {"computer", "local"}) {
        const NewGame other = createGame(port(), "standard", opponent, "first", opponent == std::string("computer") ? "beginner" : "");
        r = askInvite(port(), other.id, {{"secret", other.secret}});
        EXPECT_EQ(r.status, 409) << opponent << ": " << r.body;
        EXPECT_EQ(code(r), "no-invite") << opponent;
    }

    // A waiting game the creator resigned: over, no invite.
    const NewGame resigned = createGame(port(), "standard", "friend", "first");
    WsClient a(port(), resigned.id);
    a.hello(resigned.secret, "creator");
    a.send("resign");
    ASSERT_TRUE(a.receiveType("events").has_value());
    r = askInvite(port(), resigned.id, {{"secret", resigned.secret}});
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(code(r), "over");
}

// ---- a join after the waiting game ended ----

TEST_F(Seats, JoinAfterTheCreatorResignedSaysTheGameIsOver) {
    const NewGame g = createGame(port(), "standard", "friend", "second");
    WsClient a(port(), g.id);
    a.hello(g.secret, "creator");
    a.send("resign");
    ASSERT_TRUE(a.receiveType("events").has_value());
    ASSERT_EQ(a.state()["phase"], "over");
    const HttpReply r = httpRequest(port(), "POST", "/api/games/" + g.id + "/join", json({{"invite", g.inviteToken}}).dump());
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(r.bodyJson().value("error", ""), "over") << r.body;
    // A wrong token still learns nothing about the game.
    EXPECT_EQ(joinGame(port(), g.id, std::string(43, 'B')).first, 403);
}

// ---- spectators are counted (PROTOCOL.md message `watchers`) ----

/// Receives until a `watchers` message with `count`; false on timeout or another count last.
bool waitWatchers(WsClient& c, int count) {
    // One long read per message: a read that times out leaves the client unusable.
    for (int i = 0; i < 50; ++i) {
        const auto m = c.receive(std::chrono::seconds(10));
        if (!m) return false;
        if ((*m)["t"] == "watchers" && (*m)["d"]["count"] == count) return true;
    }
    return false;
}

/// Sends hello; returns the count of the `watchers` message that comes before the snapshot (-1 if none).
int helloCount(WsClient& c, const std::string& secret = "", const std::string& seed = "") {
    json d = json::object();
    if (!secret.empty()) d["secret"] = secret;
    if (!seed.empty()) d["clientSeed"] = seed;
    c.send("hello", d);
    int count = -1;
    for (int i = 0; i < 50; ++i) {
        const auto m = c.receive(std::chrono::seconds(10));
        if (!m) return -2;
        if ((*m)["t"] == "watchers") count = (*m)["d"]["count"];
        if ((*m)["t"] == "snapshot") return count;
    }
    return -3;
}

TEST_F(Seats, SpectatorsAreCountedAndAnnounced) {
    const NewGame g = createGame(port(), "standard", "friend", "first");
    WsClient a(port(), g.id);
    EXPECT_EQ(helloCount(a, g.secret, "creator"), 0);

    WsClient w1(port(), g.id);
    EXPECT_EQ(helloCount(w1), 1);
    ASSERT_TRUE(waitWatchers(a, 1));

    WsClient w2(port(), g.id);
    EXPECT_EQ(helloCount(w2), 2);
    ASSERT_TRUE(waitWatchers(a, 2));
    ASSERT_TRUE(waitWatchers(w1, 2));
    // The count is not part of the game's state: a snapshot stays shared by every spectator.
    EXPECT_FALSE(w1.state().contains("watchers"));

    // A connection without hello is not counted; one that says hello with a seat is a player.
    WsClient silent(port(), g.id);
    const auto [status, friendSecret] = joinGame(port(), g.id, g.inviteToken);
    ASSERT_EQ(status, 200);
    WsClient b(port(), g.id);
    EXPECT_EQ(helloCount(b, friendSecret, "friend"), 2);
    // Another hello of a spectator changes nothing.
    EXPECT_EQ(helloCount(w1), 2);

    // A spectator who takes a seat by a second hello stops watching.
    EXPECT_EQ(helloCount(w2, friendSecret), 1);
    EXPECT_EQ(w2.state()["you"], json::array({1}));
    ASSERT_TRUE(waitWatchers(a, 1));

    w1.close();
    ASSERT_TRUE(waitWatchers(a, 0));
    ASSERT_TRUE(waitWatchers(b, 0));
    // GET /api/games/{id} tells the count too.
    EXPECT_EQ(httpRequest(port(), "GET", "/api/games/" + g.id).bodyJson().value("watchers", -1), 0);
}

}  // namespace
}  // namespace senet::testing
