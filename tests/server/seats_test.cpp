// Every seat choice through the real server: opponent (friend, computer, local) × side (first,
// second, random) × ruleset, each game played to its end; the commitment in the create and
// join answers; the first throw waits for both client seeds.
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
    ASSERT_TRUE(a.receiveType("events").has_value());  // joined
    a.send("throw", {{"ply", 0}});
    ASSERT_TRUE(a.receiveType("error").has_value());
    EXPECT_EQ(a.errors().back()["code"], "seeds-pending");
    WsClient b(port(), g.id);
    const json s = b.hello(secret);  // no seed: the server draws one
    EXPECT_TRUE(s["fairness"]["clientSeeds"][1].is_string()) << s.dump();
    a.clearErrors();
    a.send("throw", {{"ply", 0}});
    EXPECT_TRUE(a.receiveUntilPly(1));
    EXPECT_TRUE(a.errors().empty());
}

}  // namespace
}  // namespace senet::testing
