// Game records (record.hpp): JSON round trips, replay, and rejected records.
#include "senet_test_support.hpp"

namespace senet::test {
namespace {

/// A random game of `id` played through the Game class until it ends (or `maxPlies`).
Game randomGame(RulesetId id, std::uint64_t seed, int maxPlies = 3000) {
    Rng rng(seed);
    Game g(id);
    while (g.phase() == Phase::Opening) EXPECT_TRUE(g.applyThrow(rng.throwOutcome(g.rules()).throw_).ok());
    for (int ply = 0; ply < maxPlies && g.phase() != Phase::Over; ++ply) {
        EXPECT_TRUE(g.applyThrow(rng.throwOutcome(g.rules()).throw_).ok());
        if (g.phase() == Phase::Move)
            EXPECT_TRUE(g.applyMove(g.legalMoves()[static_cast<int>(rng.below(g.legalMoves().size()))]).ok());
    }
    return g;
}

TEST(Record, JsonRoundTripReplaysToTheSamePosition) {
    for (RulesetId id : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell}) {
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            const Game g = randomGame(id, seed);
            ASSERT_EQ(g.phase(), Phase::Over) << ruleset(id).key << " seed " << seed;
            const std::string json = recordToJson(g.record(), g.outcome());
            const auto parsed = parseRecord(json);
            ASSERT_TRUE(parsed.ok()) << parsed.error().message << "\n" << json;
            EXPECT_EQ(parsed->rulesetId, id);
            EXPECT_EQ(parsed->opening, g.record().opening);
            ASSERT_EQ(parsed->plies.size(), g.record().plies.size());
            for (std::size_t i = 0; i < parsed->plies.size(); ++i) {
                EXPECT_EQ(parsed->plies[i].player, g.record().plies[i].player) << i;
                EXPECT_EQ(parsed->plies[i].throw_, g.record().plies[i].throw_) << i;
                EXPECT_EQ(formatMove(parsed->plies[i].move), formatMove(g.record().plies[i].move)) << i;
            }
            const auto replayed = replay(*parsed);
            ASSERT_TRUE(replayed.ok()) << replayed.error().message;
            EXPECT_EQ(replayed->position(), g.position());
            EXPECT_EQ(replayed->outcome(), g.outcome());
            // Serializing the replayed game gives the same text.
            EXPECT_EQ(recordToJson(replayed->record(), replayed->outcome()), json);
        }
    }
}

TEST(Record, JequierRecordWithOpening) {
    // Seat 0 throws 3, seat 1 throws the 1 and becomes player 2; player 2 then plays 11-13 with a 2.
    const char* json =
        R"({"ruleset":"jequier","opening":[{"throw":3,"sticks":"1110"},{"throw":1,"sticks":"0001"}],)"
        R"("plies":[{"player":2,"throw":2,"sticks":"0011","move":"11-13"}],"result":"ongoing"})";
    const auto rec = parseRecord(json);
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    ASSERT_EQ(rec->opening.size(), 2u);
    EXPECT_EQ(rec->opening[1].value, 1);
    const auto g = replay(*rec);
    ASSERT_TRUE(g.ok()) << g.error().message;
    EXPECT_EQ(formatPosition(g->position()), "jequier:121212121...2.................:1:0:0");
    EXPECT_EQ(g->playerOf(1), Player::Two);
    EXPECT_EQ(g->outcome(), Outcome::Ongoing);
}

TEST(Record, IllegalStepIsRejectedWithItsPly) {
    // Ply 1: 9-11 with a 2; ply 2: player 2 plays 10-13 with a 3; ply 3: 1-3 lands on player 1's own piece.
    const char* json =
        R"({"ruleset":"standard","plies":[{"player":1,"throw":2,"sticks":"1100","move":"9-11"},)"
        R"({"player":2,"throw":3,"sticks":"1110","move":"10-13"},)"
        R"({"player":1,"throw":2,"sticks":"0110","move":"1-3"}]})";
    const auto rec = parseRecord(json);
    ASSERT_FALSE(rec.ok());
    EXPECT_EQ(rec.error().ply, 3);
    EXPECT_EQ(rec.error().message.rfind("ply 3: ", 0), 0u) << rec.error().message;
    EXPECT_GT(rec.error().message.size(), std::string("ply 3: ").size());

    // The same through replay(): a Record whose ply 2 moves a piece the wrong distance.
    Record r;
    r.rulesetId = RulesetId::Standard;
    r.plies.push_back(Ply{Player::One, Throw{2, 0b0011}, Move{9, 11, 11, 0}});
    r.plies.push_back(Ply{Player::Two, Throw{3, 0b0111}, Move{10, 12, 12, 0}});
    const auto g = replay(r);
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error().ply, 2);
    EXPECT_EQ(g.error().message.rfind("ply 2: ", 0), 0u) << g.error().message;
}

TEST(Record, PassWhenAMoveExistsAndMoveWhenOnlyPassAreRejected) {
    const auto passing = parseRecord(R"({"ruleset":"standard","plies":[{"throw":2,"sticks":"0011","move":"pass"}]})");
    ASSERT_FALSE(passing.ok());
    EXPECT_EQ(passing.error().ply, 1);
    // Ply 2 claims player 1, but after a throw of 2 it is player 2's turn.
    const auto wrongPlayer =
        parseRecord(R"({"ruleset":"standard","plies":[{"player":1,"throw":2,"sticks":"0011","move":"9-11"},)"
                    R"({"player":1,"throw":2,"sticks":"0011","move":"1-3"}]})");
    ASSERT_FALSE(wrongPlayer.ok());
    EXPECT_EQ(wrongPlayer.error().ply, 2);
}

TEST(Record, MalformedRecordsAreRejected) {
    const char* bad[] = {
        "",
        "{",
        "[]",
        "not json",
        R"({"plies":[]})",                                           // no ruleset
        R"({"ruleset":"senet","plies":[]})",                         // unknown ruleset
        R"({"ruleset":7,"plies":[]})",
        R"({"ruleset":"standard"})",                                 // no plies
        R"({"ruleset":"standard","plies":{}})",
        R"({"ruleset":"standard","plies":[{"throw":2,"move":"9-11"}]})",                     // sticks missing
        R"({"ruleset":"standard","plies":[{"throw":2,"sticks":"11000","move":"9-11"}]})",    // five sticks
        R"({"ruleset":"standard","plies":[{"throw":2,"sticks":"11x0","move":"9-11"}]})",     // not 0 or 1
        R"({"ruleset":"standard","plies":[{"throw":2,"sticks":"1000","move":"9-11"}]})",     // counts 1, not 2
        R"({"ruleset":"standard","plies":[{"throw":5,"sticks":"1000","move":"9-14"}]})",     // counts 1, not 5
        R"({"ruleset":"standard","plies":[{"throw":6,"sticks":"0000","move":"9-15"}]})",     // none up is 5
        R"({"ruleset":"standard","plies":[{"throw":"2","sticks":"1100","move":"9-11"}]})",   // throw not a number
        R"({"ruleset":"standard","plies":[{"throw":2,"sticks":"1100"}]})",                   // move missing
        R"({"ruleset":"standard","plies":[{"throw":2,"sticks":"1100","move":"9to11"}]})",    // malformed move
        R"({"ruleset":"standard","plies":[{"player":2,"throw":2,"sticks":"1100","move":"9-11"}]})",  // player 1's turn
        R"({"ruleset":"standard","plies":[{"player":3,"throw":2,"sticks":"1100","move":"9-11"}]})",
        R"({"ruleset":"standard","plies":[{"throw":2,"sticks":"1100","move":"9-11"}],"result":"win 1"})",
        R"({"ruleset":"standard","plies":[{"throw":2,"sticks":"1100","move":"9-11"}],"result":"won"})",
        R"({"ruleset":"standard","plies":[],"result":"draw"})",
        R"({"ruleset":"standard","opening":[{"throw":1,"sticks":"1000"}],"plies":[]})",     // standard has no opening
        R"({"ruleset":"jequier","plies":[{"throw":2,"sticks":"1100","move":"11-13"}]})",    // opening not decided
        R"({"ruleset":"jequier","opening":[{"throw":2,"sticks":"1100"}],"plies":[{"throw":2,"sticks":"1100","move":"11-13"}]})",
        R"({"ruleset":"jequier","opening":[{"throw":1,"sticks":"1000"},{"throw":2,"sticks":"1100"}],"plies":[]})",
        R"({"ruleset":"jequier","opening":[{"throw":5,"sticks":"0000"}],"plies":[]})",      // none up is 6
        R"({"ruleset":"bell","plies":[{"throw":5,"move":"19-24"}]})",                        // a die has 1..4
        R"({"ruleset":"bell","plies":[{"throw":0,"move":"pass"}]})",
    };
    for (const char* json : bad) {
        const auto rec = parseRecord(json);
        EXPECT_FALSE(rec.ok()) << json;
        if (!rec.ok()) {
            EXPECT_FALSE(rec.error().message.empty()) << json;
            EXPECT_EQ(rec.error().message.find('\n'), std::string::npos) << json;
        }
    }
    // The smallest valid records.
    EXPECT_TRUE(parseRecord(R"({"ruleset":"standard","plies":[]})").ok());
    EXPECT_TRUE(parseRecord(R"({"ruleset":"bell","plies":[{"player":1,"throw":2,"move":"19-21"}],"result":"ongoing"})").ok());
}

TEST(Record, SticksStringShowsWhichSticksAreUp) {
    const Ruleset& s = ruleset(RulesetId::Standard);
    EXPECT_EQ(sticksString(s, Throw{2, 0b0011}), "1100");
    EXPECT_EQ(sticksString(s, Throw{5, 0}), "0000");
    EXPECT_EQ(sticksString(s, Throw{1, 0b1000}), "0001");
    EXPECT_EQ(sticksString(ruleset(RulesetId::Bell), Throw{3, 0}), "");
}

}  // namespace
}  // namespace senet::test
