// The fast path of the parser (protocol::parseFast) against the full parser (parseFull): on a
// corpus of valid and invalid frames (the fuzzer's corpus, hand-written edge cases, and every
// one-byte deletion, insertion and replacement of the hot frames), parse() gives exactly what
// parseFull gives, message or error; and the frames the page sends do take the fast path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "protocol.hpp"

namespace senet::server::protocol {
namespace {

/// A readable form of a parse result, equal exactly when the results are.
std::string describe(const ParseResult& r) {
    if (const auto* e = std::get_if<ParseError>(&r)) return "error " + e->code + ": " + e->message;
    const auto& m = std::get<ClientMessage>(r);
    std::string out(typeName(m));
    if (const auto* t = std::get_if<ThrowRequest>(&m)) out += " ply=" + std::to_string(t->ply);
    if (const auto* mv = std::get_if<MoveRequest>(&m)) out += " ply=" + std::to_string(mv->ply) + " move=" + mv->move;
    if (const auto* h = std::get_if<Hello>(&m)) out += " secret=" + h->secret.value_or("-") + " seed=" + h->clientSeed.value_or("-");
    return out;
}

std::vector<std::string> corpus() {
    std::vector<std::string> frames = {
        R"({"t":"throw","d":{"ply":0}})",
        R"({"t":"throw","d":{"ply":7}})",
        R"({"t":"throw","d":{"ply":1000000000}})",
        R"({"t":"throw","d":{"ply":1000000001}})",
        R"({"t":"throw","d":{"ply":9999999999}})",
        R"({"t":"throw","d":{"ply":99999999999999999999999}})",
        R"({"t":"throw","d":{"ply":01}})",
        R"({"t":"throw","d":{"ply":-1}})",
        R"({"t":"throw","d":{"ply":1.0}})",
        R"({"t":"throw","d":{"ply":1e3}})",
        R"({"t":"throw","d":{"ply":"1"}})",
        R"({"t":"throw","d":{"ply":1}} )",
        R"( {"t":"throw","d":{"ply":1}})",
        R"({"t":"throw","d":{"ply":1}}})",
        R"({"t":"throw","d":{"ply":1},"d":{"ply":2}})",
        R"({"t":"throw","d":{"ply":1,"ply":2}})",
        R"({"t":"throw","d":{}})",
        R"({"t":"throw"})",
        R"({"t":"move","d":{"ply":12,"move":"9-11"}})",
        R"({"t":"move","d":{"ply":12,"move":"26-off"}})",
        R"({"t":"move","d":{"ply":12,"move":"pass"}})",
        R"({"t":"move","d":{"ply":12,"move":"in-1"}})",
        R"({"t":"move","d":{"ply":12,"move":"in-1 "}})",
        R"({"t":"move","d":{"ply":12,"move":"24-27"}})",
        R"({"t":"move","d":{"ply":12,"move":"30-26"}})",
        R"({"t":"move","d":{"ply":12,"move":"123456789"}})",
        R"({"t":"move","d":{"ply":12,"move":"12345678"}})",
        R"({"t":"move","d":{"ply":12,"move":""}})",
        R"({"t":"move","d":{"ply":12,"move":"9\u002d11"}})",
        R"({"t":"move","d":{"ply":12,"move":"9-11","move":"1-2"}})",
        R"({"t":"move","d":{"ply":12,"move":"9-11","x":1}})",
        R"({"t":"move","d":{"move":"9-11","ply":12}})",
        R"({"t":"move","d":{"ply":12,"move":9}})",
        R"({"t":"move","d":{"ply":12,"move":"9-11"})",
        R"({"t":"move","d":{"ply":12,"move":"9 11"}})",
        R"({"t":"move","d":{"ply":12,"move":"é"}})",
        R"({"t":"move","d":{"ply":12}})",
        R"({"t":"hello","d":{"secret":"abc","clientSeed":"x1"}})",
        R"({"t":"ping"})",
        R"({"t":"resign","d":null})",
        R"({"t":"throwx","d":{"ply":1}})",
        R"({"t":"thro","d":{"ply":1}})",
        "",
        "{",
        "null",
    };
    // The fuzzer's corpus.
    for (const auto& entry : std::filesystem::directory_iterator(SENET_PROTOCOL_CORPUS)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        frames.push_back(text.str());
    }
    // Every one-byte deletion, insertion and replacement of the hot frames (Piccione's in-1 too).
    const std::string bytes = std::string("09-\"{}:,. a\\\x7f") + '\0';
    for (const std::string hot : {R"({"t":"throw","d":{"ply":10}})", R"({"t":"move","d":{"ply":10,"move":"9-off"}})",
                                  R"({"t":"move","d":{"ply":10,"move":"in-1"}})"}) {
        for (std::size_t i = 0; i <= hot.size(); ++i) {
            if (i < hot.size()) frames.push_back(hot.substr(0, i) + hot.substr(i + 1));
            for (const char c : bytes) {
                frames.push_back(hot.substr(0, i) + c + hot.substr(i));
                if (i < hot.size()) frames.push_back(hot.substr(0, i) + c + hot.substr(i + 1));
            }
        }
    }
    return frames;
}

TEST(ProtocolFastPath, AgreesWithTheFullParser) {
    std::size_t fast = 0;
    const auto frames = corpus();
    for (const std::string& frame : frames) {
        const std::string full = describe(parseFull(frame));
        EXPECT_EQ(describe(parse(frame)), full) << frame;
        if (const auto quick = parseFast(frame)) {
            ++fast;
            EXPECT_EQ(describe(ParseResult{*quick}), full) << frame;
        }
    }
    // Both kinds of frames took it, many times, and many frames did not (the corpus has both).
    EXPECT_GT(fast, 20u);
    EXPECT_LT(fast, frames.size() / 2);
}

TEST(ProtocolFastPath, TakesTheFramesThePageSends) {
    const auto t = parseFast(R"({"t":"throw","d":{"ply":41}})");
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(std::get<ThrowRequest>(*t).ply, 41);
    const auto m = parseFast(R"({"t":"move","d":{"ply":1000000000,"move":"26-off"}})");
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(std::get<MoveRequest>(*m).ply, 1000000000);
    EXPECT_EQ(std::get<MoveRequest>(*m).move, "26-off");
    const auto entry = parseFast(R"({"t":"move","d":{"ply":7,"move":"in-1"}})");
    ASSERT_TRUE(entry.has_value());
    EXPECT_EQ(std::get<MoveRequest>(*entry).move, "in-1");
    // Other shapes are left to the full parser.
    EXPECT_FALSE(parseFast(R"({"t":"throw","d":{"ply":01}})"));
    EXPECT_FALSE(parseFast(R"({"t":"throw","d":{"ply":1000000001}})"));
    EXPECT_FALSE(parseFast(R"({"t":"move","d":{"move":"9-11","ply":1}})"));
    EXPECT_FALSE(parseFast(R"({"t":"move","d":{"ply":1,"move":"123456789"}})"));
    EXPECT_FALSE(parseFast(R"({"t":"hello","d":{}})"));
}

}  // namespace
}  // namespace senet::server::protocol
