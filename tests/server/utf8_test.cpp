// The UTF-8 helpers every cut and every hand-written JSON string goes through (server/src/common/utf8.hpp,
// json_out.hpp): cuts never split a character, and ill-formed input becomes U+FFFD exactly as
// nlohmann::json's replace handler writes it (so hand-written frames stay byte-identical).
#include <random>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "json_out.hpp"
#include "utf8.hpp"

namespace senet::server {
namespace {

using nlohmann::json;

std::string nlohmannReplace(const std::string& s) { return json(s).dump(-1, ' ', false, json::error_handler_t::replace); }

std::string handWritten(const std::string& s) {
    std::string out;
    jsonout::appendString(out, s);
    return out;
}

TEST(Utf8, CutKeepsWholeCharacters) {
    const std::string e = "aaaaaaaaaaaaaaaaaaa\xc3\xa9";  // 19 + 2 bytes
    EXPECT_EQ(utf8::cut(e, 20), std::string(19, 'a'));
    EXPECT_EQ(utf8::cut(e, 21), e);
    const std::string euro = "ab\xe2\x82\xac";
    EXPECT_EQ(utf8::cut(euro, 3), "ab");
    EXPECT_EQ(utf8::cut(euro, 4), "ab");
    EXPECT_EQ(utf8::cut(euro, 5), euro);
    const std::string smile = "a\xf0\x9f\x98\x80z";
    for (std::size_t n = 1; n < 5; ++n) EXPECT_EQ(utf8::cut(smile, n), "a") << n;
    EXPECT_EQ(utf8::cut(smile, 5), "a\xf0\x9f\x98\x80");
    for (std::size_t n = 0; n <= e.size(); ++n) EXPECT_TRUE(utf8::valid(utf8::cut(e, n))) << n;
}

TEST(Utf8, ValidityFollowsTheStandard) {
    EXPECT_TRUE(utf8::valid("plain \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
    for (const char* bad : {"\xc3", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff", "\x80", "\xf0\x9f\x98"})
        EXPECT_FALSE(utf8::valid(bad)) << bad;
}

TEST(Utf8, HandWrittenStringsMatchNlohmannReplace) {
    const std::vector<std::string> cases = {"", "plain", "quote \" back \\ nl \n tab \t ctl \x01", "caf\xc3\xa9", "cut \xc3",
                                            "\xe2\x82", "\xf0\x9f\x98", "\xed\xa0\x80 surrogate", "\xc0\xaf overlong",
                                            "\xff\xfe", "a\x80z", "\xf4\x90\x80\x80 too high", "ok \xf0\x9f\x98\x80 then \xe2\x28\xa1"};
    for (const auto& s : cases) EXPECT_EQ(handWritten(s), nlohmannReplace(s)) << s;
    // And random bytes, biased towards the lead and continuation bytes of multi-byte sequences.
    std::mt19937 rng(2026);
    const std::string alphabet = std::string("az\"\\\n\x01") + "\x80\xbf\xc2\xc3\xdf\xe0\xe2\xed\xef\xf0\xf4\xf5\xff\x9f\xa0\x8f\x90";
    for (int i = 0; i < 20000; ++i) {
        std::string s(rng() % 12, ' ');
        for (char& c : s) c = alphabet[rng() % alphabet.size()];
        const std::string mine = handWritten(s);
        ASSERT_EQ(mine, nlohmannReplace(s)) << json(s).dump(-1, ' ', true, json::error_handler_t::replace);
        ASSERT_TRUE(utf8::valid(mine));
    }
}

}  // namespace
}  // namespace senet::server
