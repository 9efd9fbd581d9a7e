// Fair throws: the derivation, the commitment, the test seed, and the throws of a real game.
#include "fixture.hpp"
#include "senet/fairness.hpp"
#include "senet/game.hpp"
#include "senet/record.hpp"

namespace senet::testing {
namespace {

constexpr const char* kTestSeed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
constexpr const char* kTestCommitment = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";

TEST(Fairness, KnownVectors) {
    const std::vector<std::uint8_t> zero(32, 0);
    EXPECT_EQ(fairness::commitment(zero), "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
    // HMAC-SHA-256(32 zero bytes, "a|b|i")[0] & 15, computed independently (Python hmac).
    const int expected[] = {4, 15, 15, 0};
    for (int i = 0; i < 4; ++i) EXPECT_EQ(fairness::outcomeIndex(zero, "a", "b", i, 16), expected[i]) << i;
    EXPECT_EQ(fairness::outcomeIndex(zero, "a", "b", 0, 4), 0);
}

TEST(Fairness, OutcomesAreUniform) {
    const auto seed = fairness::randomBytes(32);
    std::array<int, 16> counts{};
    for (int i = 0; i < 16000; ++i) ++counts[fairness::outcomeIndex(seed, "x", "y", i, 16)];
    for (int c : counts) EXPECT_NEAR(c, 1000, 150);
}

TEST(Fairness, TokensAndSeeds) {
    EXPECT_EQ(fairness::randomToken(16).size(), 22u);
    EXPECT_NE(fairness::randomToken(16), fairness::randomToken(16));
    EXPECT_TRUE(fairness::isValidClientSeed("abc-DEF_123"));
    EXPECT_FALSE(fairness::isValidClientSeed("a|b"));
    EXPECT_FALSE(fairness::isValidClientSeed(std::string(65, 'a')));
    EXPECT_EQ(fairness::fromHex("0aFF").value(), (std::vector<std::uint8_t>{10, 255}));
    EXPECT_FALSE(fairness::fromHex("0g"));
}

class FixedSeed : public ServerTest {
    std::vector<std::string> flags() const override { return {"--test-seed", kTestSeed}; }
};

TEST_F(FixedSeed, EveryThrowFollowsTheDerivation) {
    const NewGame g = createGame(port(), "standard", "local");
    WsClient c(port(), g.id);
    auto snap = c.hello(g.secret, "client");
    EXPECT_EQ(snap["fairness"]["commitment"], kTestCommitment);
    std::mt19937 rng(3);
    playToEnd({{0, &c}, {1, &c}}, {}, rng);
    const auto seed = *fairness::fromHex(kTestSeed);
    const Ruleset& rules = ruleset(RulesetId::Standard);
    int checked = 0;
    for (const auto& e : c.events()) {
        if (e["e"] != "thrown") continue;
        const int index = e["index"];
        const Throw t = throwOfOutcome(rules, fairness::outcomeIndex(seed, "client", "client", index, rules.outcomeCount));
        EXPECT_EQ(e["value"], t.value) << index;
        EXPECT_EQ(e["sticks"], sticksString(rules, t)) << index;
        ++checked;
    }
    EXPECT_GT(checked, 10);
    EXPECT_EQ(c.state()["fairness"]["serverSeed"], kTestSeed);
}

TEST_F(FixedSeed, SameSeedsGiveTheSameGame) {
    std::vector<std::string> throws[2];
    for (int run = 0; run < 2; ++run) {
        const NewGame g = createGame(port(), "bell", "local");
        WsClient c(port(), g.id);
        c.hello(g.secret, "same");
        for (int i = 0; i < 10; ++i) {
            const json s = c.state();
            if (s["phase"] == "move")
                c.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
            else
                c.send("throw", {{"ply", s["ply"]}});
            ASSERT_TRUE(c.receiveUntilPly(s["ply"].get<int>() + 1));
        }
        for (const auto& e : c.events())
            if (e["e"] == "thrown") throws[run].push_back(e["value"].dump());
    }
    EXPECT_EQ(throws[0], throws[1]);
}

class RandomSeed : public ServerTest {};

TEST_F(RandomSeed, NoClientMessageCanFixTheSeed) {
    const NewGame g = createGame(port(), "standard", "local");
    WsClient c(port(), g.id);
    c.send("hello", {{"secret", g.secret}, {"testSeed", kTestSeed}, {"test-seed", kTestSeed}});
    auto snap = c.receiveType("snapshot");
    ASSERT_TRUE(snap);
    EXPECT_NE((*snap)["d"]["fairness"]["commitment"], kTestCommitment);
    const NewGame h = createGame(port(), "standard", "local");
    EXPECT_NE(httpRequest(port(), "GET", "/api/games/" + h.id).bodyJson()["commitment"],
              httpRequest(port(), "GET", "/api/games/" + g.id).bodyJson()["commitment"]);
}

}  // namespace
}  // namespace senet::testing
