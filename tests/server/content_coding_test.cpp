// Content codings in-process: Accept-Encoding negotiation, gzip/brotli round trips, entity tags
// and If-None-Match (server/src/http/content_coding.hpp).
#include <gtest/gtest.h>

#include "content_coding.hpp"

namespace senet::server {
namespace {

std::string name(Coding c) { return std::string(codingName(c)); }

TEST(ChooseCoding, PrefersBrotliThenGzipThenIdentity) {
    EXPECT_EQ(name(chooseCoding("gzip, deflate, br", true, true)), "br");
    EXPECT_EQ(name(chooseCoding("gzip, deflate, br", true, false)), "gzip");
    EXPECT_EQ(name(chooseCoding("gzip, deflate, br", false, false)), "");
    EXPECT_EQ(name(chooseCoding("br", false, true)), "br");
    EXPECT_EQ(name(chooseCoding("br", true, false)), "");
    EXPECT_EQ(name(chooseCoding("gzip", true, true)), "gzip");
    EXPECT_EQ(name(chooseCoding("", true, true)), "");
    EXPECT_EQ(name(chooseCoding("identity", true, true)), "");
    EXPECT_EQ(name(chooseCoding("deflate, compress", true, true)), "");
}

TEST(ChooseCoding, HonoursQValues) {
    EXPECT_EQ(name(chooseCoding("gzip;q=1.0, br;q=0.999", true, true)), "gzip");
    EXPECT_EQ(name(chooseCoding("gzip;q=0.5, br;q=0.5", true, true)), "br");
    EXPECT_EQ(name(chooseCoding("gzip;q=0.001", true, true)), "gzip");  // identity unlisted ranks below
    EXPECT_EQ(name(chooseCoding("identity;q=0.5, gzip;q=0.4", true, true)), "");
    EXPECT_EQ(name(chooseCoding("identity;q=0.5, gzip;q=0.5", true, true)), "gzip");
    EXPECT_EQ(name(chooseCoding("br ; q=0.7 , gzip ;Q=0.8", true, true)), "gzip");
    EXPECT_EQ(name(chooseCoding("br;q=1.000", true, true)), "br");
}

TEST(ChooseCoding, QZeroRefuses) {
    EXPECT_EQ(name(chooseCoding("br;q=0, gzip", true, true)), "gzip");
    EXPECT_EQ(name(chooseCoding("br;q=0.000, gzip;q=0", true, true)), "");
    EXPECT_EQ(name(chooseCoding("*;q=0", true, true)), "");
    EXPECT_EQ(name(chooseCoding("*;q=0, identity;q=0", true, true)), "");  // nothing left: identity all the same
    EXPECT_EQ(name(chooseCoding("gzip, *;q=0", true, true)), "gzip");
}

TEST(ChooseCoding, StarCoversTheUnlisted) {
    EXPECT_EQ(name(chooseCoding("*", true, true)), "br");
    EXPECT_EQ(name(chooseCoding("br;q=0, *", true, true)), "gzip");
    EXPECT_EQ(name(chooseCoding("gzip;q=0.2, *;q=0.5", true, true)), "br");
    EXPECT_EQ(name(chooseCoding("x-gzip", true, true)), "gzip");
    EXPECT_EQ(name(chooseCoding("GZip, BR", true, true)), "br");
}

TEST(ChooseCoding, FirstListingCounts) {
    EXPECT_EQ(name(chooseCoding("br;q=0, br", true, true)), "");
    EXPECT_EQ(name(chooseCoding("br, br;q=0", true, false)), "");
    EXPECT_EQ(name(chooseCoding("br, br;q=0", true, true)), "br");
}

TEST(ChooseCoding, MalformedElementsAreIgnoredNeverAnError) {
    for (const char* header : {"gzip;q=2", "gzip;q=1.5", "gzip;q=0.1234", "gzip;q=", "gzip;q", "gzip;=1", "gzip;level=1",
                               "gzip;q=0.5;q=0.5", "\"gzip\"", "gz ip", "gzip/1", ";", ";;;q=1", ",,,", "   ", "q=1",
                               "gzip;q=.5", "gzip;q=-1", "gzip;q=0x1", "gzip\x01", "\xff\xfe"}) {
        EXPECT_EQ(name(chooseCoding(header, true, true)), "") << header;
    }
    EXPECT_EQ(name(chooseCoding("gzip;q=2, br", true, true)), "br");
    EXPECT_EQ(name(chooseCoding(",, gzip ,", true, true)), "gzip");
    EXPECT_EQ(name(chooseCoding(std::string(100000, ','), true, true)), "");
}

TEST(Compression, GzipAndBrotliRoundTrip) {
    std::string text;
    for (int i = 0; i < 2000; ++i) text += "line " + std::to_string(i % 37) + " of the text\n";
    for (int level : {1, 6, 9}) {
        const auto z = gzipCompress(text, level);
        ASSERT_TRUE(z.has_value());
        EXPECT_LT(z->size(), text.size() / 5);
        EXPECT_EQ(static_cast<unsigned char>((*z)[0]), 0x1f);
        EXPECT_EQ(gunzip(*z), text);
    }
    for (int quality : {1, 5, 11}) {
        const auto b = brotliCompress(text, quality);
        ASSERT_TRUE(b.has_value());
        EXPECT_LT(b->size(), text.size() / 5);
        EXPECT_EQ(brotliDecompress(*b), text);
    }
    EXPECT_EQ(gunzip(*gzipCompress("", 9)), "");
    EXPECT_EQ(brotliDecompress(*brotliCompress("", 11)), "");
}

TEST(Compression, BrokenInputIsRefused) {
    const std::string text(5000, 'x');
    const std::string z = *gzipCompress(text, 9);
    EXPECT_FALSE(gunzip(z.substr(0, z.size() - 4)).has_value());  // truncated
    EXPECT_FALSE(gunzip(z + "junk").has_value());
    EXPECT_FALSE(gunzip("PRECOMPRESSED").has_value());
    EXPECT_FALSE(gunzip("").has_value());
    EXPECT_EQ(gunzip(z + z), text + text);  // two members
    EXPECT_FALSE(gunzip(z, 100).has_value());  // beyond the limit
    const std::string b = *brotliCompress(text, 5);
    EXPECT_FALSE(brotliDecompress(b.substr(0, b.size() - 1)).has_value());
    EXPECT_FALSE(brotliDecompress(b + "x").has_value());
    EXPECT_FALSE(brotliDecompress("PRECOMPRESSED").has_value());
    EXPECT_FALSE(brotliDecompress(b, 100).has_value());
}

TEST(EntityTag, DiffersByContentAndCoding) {
    const std::string a = entityTag("abc", Coding::Identity);
    EXPECT_EQ(a.front(), '"');
    EXPECT_EQ(a.back(), '"');
    EXPECT_EQ(a, entityTag("abc", Coding::Identity));
    EXPECT_NE(a, entityTag("abd", Coding::Identity));
    EXPECT_NE(a, entityTag("abc", Coding::Gzip));
    EXPECT_NE(entityTag("abc", Coding::Gzip), entityTag("abc", Coding::Brotli));
    EXPECT_EQ(entityTag("abc", Coding::Brotli).substr(a.size() - 1), "-br\"");
}

TEST(NoneMatch, WeakComparisonOverAList) {
    const std::string tag = "\"0123-9\"";
    EXPECT_TRUE(noneMatchHits(tag, tag));
    EXPECT_TRUE(noneMatchHits("W/" + tag, tag));
    EXPECT_TRUE(noneMatchHits("\"a\", " + tag + " ,\"b\"", tag));
    EXPECT_TRUE(noneMatchHits(" * ", tag));
    EXPECT_FALSE(noneMatchHits("\"a\", \"b\"", tag));
    EXPECT_FALSE(noneMatchHits("", tag));
    EXPECT_FALSE(noneMatchHits("0123-9", tag));           // unquoted
    EXPECT_FALSE(noneMatchHits("\"0123-9", tag));         // unterminated
    EXPECT_FALSE(noneMatchHits(tag + " junk", tag));      // not a list
    EXPECT_FALSE(noneMatchHits("\"a b\", " + tag, tag));  // a space inside a tag
}

}  // namespace
}  // namespace senet::server
