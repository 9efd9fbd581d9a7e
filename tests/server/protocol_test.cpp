// The client-message parser (server/src/game/protocol.cpp) on its own: every field rule of
// PROTOCOL.md "Client → server", with the exact error codes and messages written here.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "protocol.hpp"

namespace senet::server::protocol {
namespace {

using nlohmann::json;

/// The error of a frame that must be refused (fails the test when it parses).
ParseError errorOf(const std::string& frame) {
    auto r = parse(frame);
    if (const auto* e = std::get_if<ParseError>(&r)) return *e;
    ADD_FAILURE() << "accepted: " << frame;
    return {};
}

/// The message of a frame that must parse (fails the test when it is refused).
ClientMessage messageOf(const std::string& frame) {
    auto r = parse(frame);
    if (const auto* e = std::get_if<ParseError>(&r)) {
        ADD_FAILURE() << "refused: " << frame << ": " << e->code << " " << e->message;
        return Ping{};
    }
    return std::get<ClientMessage>(r);
}

TEST(ProtocolParse, NotAnObjectIsBadJson) {
    for (const char* frame : {"", "not json", "[1,2]", "3", "\"hello\"", "{\"t\":"}) {
        const ParseError e = errorOf(frame);
        EXPECT_EQ(e.code, "bad-json") << frame;
        EXPECT_EQ(e.message, "a message must be a JSON object {\"t\":..., \"d\":...}") << frame;
    }
}

TEST(ProtocolParse, AMemberTwiceIsBadJson) {
    // Either value could be meant: the fast path (exact text) never sees one, the full parse refuses it.
    const std::pair<const char*, const char*> cases[] = {
        {R"({"t":"throw","t":"move","d":{"ply":1}})", "the message has the member \"t\" twice"},
        {R"({"t":"move","d":{"ply":1,"move":"10-11","ply":2}})", "the message has the member d.ply twice"},
        {R"({"t":"throw","d":{"ply":1,"\u0070ly":1}})", "the message has the member d.ply twice"},
    };
    for (const auto& [frame, message] : cases) {
        const ParseError e = errorOf(frame);
        EXPECT_EQ(e.code, "bad-json") << frame;
        EXPECT_EQ(e.message, message) << frame;
    }
}

TEST(ProtocolParse, TypeMustBeAKnownString) {
    for (const char* frame : {"{}", "{\"t\":3}", "{\"t\":null}", "{\"d\":{}}"}) {
        const ParseError e = errorOf(frame);
        EXPECT_EQ(e.code, "unknown-type") << frame;
        EXPECT_EQ(e.message, "a message needs a string \"t\"") << frame;
    }
    EXPECT_EQ(errorOf(R"({"t":"dance"})").message, "unknown message type \"dance\"");
    EXPECT_EQ(errorOf(R"({"t":"dance"})").code, "unknown-type");
    // A long type is shown cut to 20 bytes.
    EXPECT_EQ(errorOf(R"({"t":"abcdefghijklmnopqrstuvwxyz"})").message, "unknown message type \"abcdefghijklmnopqrst\"");
    EXPECT_EQ(errorOf(R"({"t":"abcdefghijklmnopqrst"})").message, "unknown message type \"abcdefghijklmnopqrst\"");
    EXPECT_EQ(errorOf(R"({"t":"Hello"})").code, "unknown-type");
}

TEST(ProtocolParse, DataMustBeAnObjectOrAbsent) {
    const ParseError e = errorOf(R"({"t":"hello","d":[1]})");
    EXPECT_EQ(e.code, "bad-field");
    EXPECT_EQ(e.message, "hello: \"d\" must be an object");
    EXPECT_EQ(errorOf(R"({"t":"abcdefghijklmnopqrstuvwxyz","d":3})").message,
              "abcdefghijklmnopqrst: \"d\" must be an object");
    // null or absent d: no fields.
    const ClientMessage m = messageOf(R"({"t":"hello","d":null})");
    ASSERT_TRUE(std::holds_alternative<Hello>(m));
    EXPECT_FALSE(std::get<Hello>(m).secret.has_value());
    EXPECT_FALSE(std::get<Hello>(m).clientSeed.has_value());
    EXPECT_TRUE(std::holds_alternative<Resign>(messageOf(R"({"t":"resign"})")));
    // d's fields are read from d, not from the envelope.
    const ParseError noPly = errorOf(R"({"t":"throw","ply":3,"d":{}})");
    EXPECT_EQ(noPly.message, "throw: \"ply\" is missing");
}

TEST(ProtocolParse, HelloSecretAndSeed) {
    const ClientMessage m = messageOf(R"({"t":"hello","d":{"secret":"s3cret","clientSeed":"Ab9_-z"}})");
    ASSERT_TRUE(std::holds_alternative<Hello>(m));
    EXPECT_EQ(std::get<Hello>(m).secret, std::optional<std::string>("s3cret"));
    EXPECT_EQ(std::get<Hello>(m).clientSeed, std::optional<std::string>("Ab9_-z"));
    // null fields are absent.
    const ClientMessage n = messageOf(R"({"t":"hello","d":{"secret":null,"clientSeed":null}})");
    EXPECT_FALSE(std::get<Hello>(n).secret.has_value());
    EXPECT_FALSE(std::get<Hello>(n).clientSeed.has_value());
    // The secret: a string of at most 128 bytes.
    const std::string s128(128, 'k');
    EXPECT_EQ(std::get<Hello>(messageOf(json{{"t", "hello"}, {"d", {{"secret", s128}}}}.dump())).secret, s128);
    const ParseError longSecret = errorOf(json{{"t", "hello"}, {"d", {{"secret", std::string(129, 'k')}}}}.dump());
    EXPECT_EQ(longSecret.code, "bad-field");
    EXPECT_EQ(longSecret.message, "hello: \"secret\" must be a string of at most 128 characters");
    EXPECT_EQ(errorOf(R"({"t":"hello","d":{"secret":5}})").message, "hello: \"secret\" must be a string of at most 128 characters");
    // The seed: 1..64 of [0-9A-Za-z_-].
    EXPECT_EQ(errorOf(R"({"t":"hello","d":{"clientSeed":7}})").message, "hello: \"clientSeed\" must be a string");
    EXPECT_EQ(errorOf(R"({"t":"hello","d":{"clientSeed":7}})").code, "bad-field");
    for (const std::string& bad : {std::string(""), std::string("a b"), std::string("é"), std::string(65, 'a')}) {
        const ParseError e = errorOf(json{{"t", "hello"}, {"d", {{"clientSeed", bad}}}}.dump());
        EXPECT_EQ(e.code, "bad-seed") << bad;
        EXPECT_EQ(e.message, "hello: \"clientSeed\" must be 1-64 characters of [0-9A-Za-z_-]") << bad;
    }
    const std::string s64(64, 'Z');
    EXPECT_EQ(std::get<Hello>(messageOf(json{{"t", "hello"}, {"d", {{"clientSeed", s64}}}}.dump())).clientSeed, s64);
    EXPECT_EQ(std::get<Hello>(messageOf(R"({"t":"hello","d":{"clientSeed":"x"}})")).clientSeed, "x");
}

TEST(ProtocolParse, PlyIsANonNegativeIntegerUpToOneBillion) {
    EXPECT_EQ(std::get<ThrowRequest>(messageOf(R"({"t":"throw","d":{"ply":0}})")).ply, 0);
    EXPECT_EQ(std::get<ThrowRequest>(messageOf(R"({"t":"throw","d":{"ply":-0}})")).ply, 0);
    EXPECT_EQ(std::get<ThrowRequest>(messageOf(R"({"t":"throw","d":{"ply":17}})")).ply, 17);
    EXPECT_EQ(std::get<ThrowRequest>(messageOf(R"({"t":"throw","d":{"ply":1000000000}})")).ply, 1000000000);
    struct Case {
        const char* frame;
        const char* message;
    };
    for (const Case c : {Case{R"({"t":"throw","d":{}})", "throw: \"ply\" is missing"},
                         Case{R"({"t":"throw"})", "throw: \"ply\" is missing"},
                         Case{R"({"t":"throw","d":{"ply":1.5}})", "throw: \"ply\" must be an integer"},
                         Case{R"({"t":"throw","d":{"ply":"3"}})", "throw: \"ply\" must be an integer"},
                         Case{R"({"t":"throw","d":{"ply":-1}})", "throw: \"ply\" is out of range"},
                         Case{R"({"t":"throw","d":{"ply":1000000001}})", "throw: \"ply\" is out of range"},
                         Case{R"({"t":"move","d":{"move":"9-11"}})", "move: \"ply\" is missing"},
                         Case{R"({"t":"move","d":{"ply":-5,"move":"9-11"}})", "move: \"ply\" is out of range"},
                         Case{R"({"t":"move","d":{"ply":true,"move":"9-11"}})", "move: \"ply\" must be an integer"}}) {
        const ParseError e = errorOf(c.frame);
        EXPECT_EQ(e.code, "bad-field") << c.frame;
        EXPECT_EQ(e.message, c.message) << c.frame;
    }
}

TEST(ProtocolParse, MoveTextIsOneToEightBytes) {
    const ClientMessage m = messageOf(R"({"t":"move","d":{"ply":12,"move":"9-11"}})");
    ASSERT_TRUE(std::holds_alternative<MoveRequest>(m));
    EXPECT_EQ(std::get<MoveRequest>(m).ply, 12);
    EXPECT_EQ(std::get<MoveRequest>(m).move, "9-11");
    EXPECT_EQ(std::get<MoveRequest>(messageOf(R"({"t":"move","d":{"ply":1,"move":"12345678"}})")).move, "12345678");
    EXPECT_EQ(std::get<MoveRequest>(messageOf(R"({"t":"move","d":{"ply":1,"move":"x"}})")).move, "x");
    // Piccione's entry and a step onto 27 are moves like any other.
    EXPECT_EQ(std::get<MoveRequest>(messageOf(R"({"t":"move","d":{"ply":3,"move":"in-1"}})")).move, "in-1");
    EXPECT_EQ(std::get<MoveRequest>(messageOf(R"({"t":"move","d":{"ply":3,"move":"24-27"}})")).move, "24-27");
    EXPECT_EQ(errorOf(R"({"t":"move","d":{"ply":1}})").message, "move: \"move\" is missing");
    EXPECT_EQ(errorOf(R"({"t":"move","d":{"ply":1,"move":911}})").message, "move: \"move\" must be a string like \"9-11\"");
    for (const char* bad : {R"({"t":"move","d":{"ply":1,"move":""}})", R"({"t":"move","d":{"ply":1,"move":"123456789"}})"}) {
        const ParseError e = errorOf(bad);
        EXPECT_EQ(e.code, "bad-field") << bad;
        EXPECT_EQ(e.message, "move: \"move\" must be \"FROM-TO\", \"FROM-off\" or \"in-1\"") << bad;
    }
}

TEST(ProtocolParse, EveryTypeAndItsName) {
    struct Case {
        const char* frame;
        std::size_t index;
        const char* name;
    };
    for (const Case c : {Case{R"({"t":"hello"})", 0, "hello"}, Case{R"({"t":"throw","d":{"ply":2}})", 1, "throw"},
                         Case{R"({"t":"move","d":{"ply":2,"move":"1-off"}})", 2, "move"},
                         Case{R"({"t":"resign"})", 3, "resign"}, Case{R"({"t":"rematch","d":{}})", 4, "rematch"},
                         Case{R"({"t":"claim"})", 5, "claim"}, Case{R"({"t":"ping","d":null})", 6, "ping"},
                         Case{R"({"t":"phrase","d":{"phrase":"oops"}})", 7, "phrase"},
                         Case{R"({"t":"takeback","d":{"ply":4}})", 8, "takeback"},
                         Case{R"({"t":"hint","d":{"ply":5}})", 9, "hint"}}) {
        const ClientMessage m = messageOf(c.frame);
        EXPECT_EQ(m.index(), c.index) << c.frame;
        EXPECT_EQ(typeName(m), c.name) << c.frame;
    }
}

TEST(ProtocolParse, PhraseIsOneOfTheSixIds) {
    for (const char* id : {"good-luck", "well-played", "good-game", "thanks", "oops", "your-turn"}) {
        const ClientMessage m = messageOf(json{{"t", "phrase"}, {"d", {{"phrase", id}}}}.dump());
        ASSERT_TRUE(std::holds_alternative<PhraseRequest>(m)) << id;
        EXPECT_EQ(std::get<PhraseRequest>(m).phrase, id);
    }
    const ParseError missing = errorOf(R"({"t":"phrase","d":{}})");
    EXPECT_EQ(missing.code, "bad-field");
    EXPECT_EQ(missing.message, "phrase: \"phrase\" is missing");
    for (const char* bad : {R"({"t":"phrase","d":{"phrase":3}})", R"({"t":"phrase","d":{"phrase":null}})",
                            R"({"t":"phrase","d":{"phrase":["oops"]}})"}) {
        const ParseError e = errorOf(bad);
        EXPECT_EQ(e.code, "bad-field") << bad;
        EXPECT_EQ(e.message, "phrase: \"phrase\" must be a string like \"good-luck\"") << bad;
    }
    // No free text: any other string is refused, named (cut to 20 bytes) with the known ids.
    const char* known = " is not one of good-luck, well-played, good-game, thanks, oops, your-turn";
    const ParseError hi = errorOf(R"({"t":"phrase","d":{"phrase":"hi there"}})");
    EXPECT_EQ(hi.code, "bad-phrase");
    EXPECT_EQ(hi.message, std::string("phrase: \"hi there\"") + known);
    EXPECT_EQ(errorOf(R"({"t":"phrase","d":{"phrase":"Good-Luck"}})").code, "bad-phrase");
    EXPECT_EQ(errorOf(R"({"t":"phrase","d":{"phrase":""}})").message, std::string("phrase: \"\"") + known);
    EXPECT_EQ(errorOf(R"({"t":"phrase","d":{"phrase":"abcdefghijklmnopqrstuvwxyz"}})").message,
              std::string("phrase: \"abcdefghijklmnopqrst\"") + known);
}

TEST(ProtocolParse, TakeBackNeedsItsPly) {
    EXPECT_EQ(std::get<TakeBack>(messageOf(R"({"t":"takeback","d":{"ply":12}})")).ply, 12);
    const ParseError missing = errorOf(R"({"t":"takeback","d":{}})");
    EXPECT_EQ(missing.code, "bad-field");
    EXPECT_EQ(missing.message, "takeback: \"ply\" is missing");
    EXPECT_EQ(errorOf(R"({"t":"takeback","d":{"ply":"3"}})").message, "takeback: \"ply\" must be an integer");
    EXPECT_EQ(errorOf(R"({"t":"takeback","d":{"ply":-1}})").message, "takeback: \"ply\" is out of range");
}

TEST(ProtocolParse, HintNeedsItsPly) {
    EXPECT_EQ(std::get<HintRequest>(messageOf(R"({"t":"hint","d":{"ply":7,"extra":true}})")).ply, 7);
    EXPECT_EQ(std::get<HintRequest>(messageOf(R"({"t":"hint","d":{"ply":1000000000}})")).ply, 1'000'000'000);
    const ParseError missing = errorOf(R"({"t":"hint"})");
    EXPECT_EQ(missing.code, "bad-field");
    EXPECT_EQ(missing.message, "hint: \"ply\" is missing");
    EXPECT_EQ(errorOf(R"({"t":"hint","d":{"ply":2.5}})").message, "hint: \"ply\" must be an integer");
    EXPECT_EQ(errorOf(R"({"t":"hint","d":{"ply":-1}})").message, "hint: \"ply\" is out of range");
    EXPECT_EQ(errorOf(R"({"t":"hint","d":{"ply":1000000001}})").message, "hint: \"ply\" is out of range");
    EXPECT_EQ(errorOf(R"({"t":"hint","d":[]})").message, "hint: \"d\" must be an object");
    EXPECT_EQ(errorOf(R"({"t":"hint","d":{"ply":1,"ply":2}})").code, "bad-json");
    EXPECT_EQ(errorOf(R"({"t":"Hint","d":{"ply":1}})").code, "unknown-type");
}

TEST(ProtocolOut, EnvelopeAndErrorText) {
    EXPECT_EQ(envelope("events", R"({"a":1})"), R"({"t":"events","d":{"a":1}})");
    EXPECT_EQ(envelope("", "null"), R"({"t":"","d":null})");
    // A type longer than its data (the size arithmetic must not wrap around).
    const std::string longType(40, 'x');
    EXPECT_EQ(envelope(longType, "1"), "{\"t\":\"" + longType + "\",\"d\":1}");
    EXPECT_EQ(envelope("t", std::string(40, '7')), "{\"t\":\"t\",\"d\":" + std::string(40, '7') + "}");
    const std::string e = errorMessage("wrong-ply", "this game is at ply 4", 4);
    EXPECT_EQ(e, R"({"t":"error","d":{"code":"wrong-ply","message":"this game is at ply 4","ply":4}})");
    EXPECT_EQ(errorMessage("x", "y", -1), R"({"t":"error","d":{"code":"x","message":"y","ply":-1}})");
}

}  // namespace
}  // namespace senet::server::protocol
