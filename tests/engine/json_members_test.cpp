// firstDuplicateMember (json_members.hpp): a member twice in one object, at any depth, is found
// with its path; distinct names in different objects are not duplicates.
#include "senet/json_members.hpp"

#include <gtest/gtest.h>

#include <string>

#include "senet/senet.hpp"

namespace senet {
namespace {

TEST(JsonMembers, FindsTheFirstMemberTwiceWithItsPath) {
    EXPECT_EQ(firstDuplicateMember(R"({"a":1,"b":2,"a":3})"), std::optional<std::string>("\"a\""));
    EXPECT_EQ(firstDuplicateMember(R"({"fairness":{"serverSeed":"x","throws":1,"serverSeed":"y"}})"),
              std::optional<std::string>("fairness.serverSeed"));
    EXPECT_EQ(firstDuplicateMember(R"({"plies":[{"throw":1},{"throw":2},{"move":"1-2","move":"1-3"}]})"),
              std::optional<std::string>("plies[2].move"));
    EXPECT_EQ(firstDuplicateMember(R"([[1,2],{"x":[{},{"y":1,"y":1}]}])"), std::optional<std::string>("[1].x[1].y"));
    // Names are compared unescaped: "\u0061" is "a".
    EXPECT_EQ(firstDuplicateMember(R"({"a":1,"\u0061":2})"), std::optional<std::string>("\"a\""));
    // The first in text order wins when there are several.
    EXPECT_EQ(firstDuplicateMember(R"({"o":{"p":1,"p":2},"o":3})"), std::optional<std::string>("o.p"));
}

TEST(JsonMembers, DistinctNamesAndOtherTextsHaveNone) {
    EXPECT_EQ(firstDuplicateMember(R"({"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]})"), std::nullopt);
    EXPECT_EQ(firstDuplicateMember(R"({"a":1,"A":2,"a ":3})"), std::nullopt);
    EXPECT_EQ(firstDuplicateMember("[]"), std::nullopt);
    EXPECT_EQ(firstDuplicateMember("42"), std::nullopt);
    // Not JSON: no answer here (the caller's parse refuses it), and never a throw.
    EXPECT_EQ(firstDuplicateMember(R"({"a":1,"a")"), std::optional<std::string>("\"a\""));
    EXPECT_EQ(firstDuplicateMember(R"({"a":1,)"), std::nullopt);
    EXPECT_EQ(firstDuplicateMember(""), std::nullopt);
    EXPECT_EQ(firstDuplicateMember("\xff\xfe"), std::nullopt);
}

TEST(JsonMembers, APathIsCutAtTwoHundredBytes) {
    std::string deep = "{\"" + std::string(60, 'n') + "\":";
    std::string text;
    for (int i = 0; i < 8; ++i) text += deep;
    text += R"({"z":1,"z":2})";
    text += std::string(9, '}');
    const auto path = firstDuplicateMember(text);
    ASSERT_TRUE(path.has_value());
    // Cut between steps: whole names of 40 bytes (the first without a dot), then "…".
    EXPECT_EQ(*path, std::string(40, 'n') + "." + std::string(40, 'n') + "." + std::string(40, 'n') + "." +
                         std::string(40, 'n') + "…");
}

TEST(JsonMembers, NestingDepthIsCountedOutsideStrings) {
    EXPECT_FALSE(nestedDeeperThan(R"({"a":[1,{"b":[]}]})", 4));
    EXPECT_TRUE(nestedDeeperThan(R"({"a":[1,{"b":[]}]})", 3));
    EXPECT_FALSE(nestedDeeperThan(R"({"a":"[[[[{{{{\"[[["})", 1));
    EXPECT_FALSE(nestedDeeperThan("", 0));
    EXPECT_TRUE(nestedDeeperThan(std::string(100000, '['), 64));
    EXPECT_FALSE(nestedDeeperThan(std::string(64, '[') + std::string(64, ']') + std::string(64, '['), 64));
}

/// The member `name` of the top-level object of `json`, written again at its end (same value).
std::string withMemberTwice(const std::string& json, const std::string& name) {
    const std::string key = "\"" + name + "\":";
    const auto at = json.find(key);
    if (at == std::string::npos) return json;
    // The value ends where the member's text ends: the next top-level comma or the closing brace.
    int depth = 0;
    bool inString = false;
    std::size_t end = at + key.size();
    for (; end < json.size(); ++end) {
        const char c = json[end];
        if (inString) {
            if (c == '\\') ++end;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 0) break;
            --depth;
        } else if (c == ',' && depth == 0) {
            break;
        }
    }
    std::string out = json;
    out.insert(out.rfind('}'), "," + json.substr(at, end - at));
    return out;
}

TEST(JsonMembers, ARecordWithAnyMemberTwiceIsRefused) {
    for (RulesetId id : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell}) {
        SCOPED_TRACE(ruleset(id).key);
        // A short game as the engine writes it: every member once.
        Game g(id);
        Rng rng(7);
        for (int ply = 0; ply < 6 && g.phase() != Phase::Over; ++ply) {
            g.applyThrow(rng.throwOutcome(g.rules()).throw_);
            if (g.phase() == Phase::Move) g.applyMove(g.legalMoves()[0]);
        }
        const std::string record = recordToJson(g.record(), g.outcome());
        ASSERT_EQ(firstDuplicateMember(record), std::nullopt) << record;
        ASSERT_TRUE(parseRecord(record).ok()) << parseRecord(record).error().message;
        int members = 0;
        for (const char* name : {"ruleset", "opening", "plies", "result"}) {
            const std::string twice = withMemberTwice(record, name);
            if (twice == record) continue;  // not in this ruleset's record
            ++members;
            const auto parsed = parseRecord(twice);
            ASSERT_FALSE(parsed.ok()) << twice;
            EXPECT_EQ(parsed.error().message, "record has the member \"" + std::string(name) + "\" twice");
        }
        EXPECT_GE(members, 2);
        // A NUL byte and more after it: the JSON parser would stop at the NUL and read the record before it.
        const auto withNul = parseRecord(record + std::string(1, '\0') + ",\"result\":\"x\"}");
        ASSERT_FALSE(withNul.ok());
        EXPECT_EQ(withNul.error().message, "record is not valid JSON: it holds a NUL byte");
        // Inside a ply: its first member written twice.
        const auto ply = record.find("\"plies\":[{");
        ASSERT_NE(ply, std::string::npos) << record;
        const auto open = ply + 9, colon = record.find(':', open);
        const auto end = record.find_first_of(",}", colon);
        std::string inner = record;
        inner.insert(end, "," + record.substr(open + 1, end - open - 1));
        const auto parsed = parseRecord(inner);
        ASSERT_FALSE(parsed.ok()) << inner;
        EXPECT_EQ(parsed.error().message.rfind("record has the member plies[0].", 0), 0u) << parsed.error().message;
    }
}

}  // namespace
}  // namespace senet
