// The pure parts of the limits (server/src/connections.*, admission.*): client address behind
// a trusted proxy, address groups, the Origin rule, token buckets and RAII connection slots.
#include <gtest/gtest.h>

#include "admission.hpp"
#include "connections.hpp"

namespace senet::server {
namespace {

TEST(ClientAddress, ForwardedForOnlyFromATrustedPeer) {
    const std::vector<std::string> trusted = {"10.0.0.1", "10.0.0.2"};
    EXPECT_EQ(clientAddress("203.0.113.9", "198.51.100.1", trusted), "203.0.113.9");  // peer not trusted
    EXPECT_EQ(clientAddress("10.0.0.1", "198.51.100.1", trusted), "198.51.100.1");
    EXPECT_EQ(clientAddress("10.0.0.1", "", trusted), "10.0.0.1");
    // The right-most untrusted entry: whatever a client prepends is ignored.
    EXPECT_EQ(clientAddress("10.0.0.1", "6.6.6.6, 198.51.100.1", trusted), "198.51.100.1");
    EXPECT_EQ(clientAddress("10.0.0.1", "6.6.6.6, 198.51.100.1, 10.0.0.2", trusted), "198.51.100.1");
    EXPECT_EQ(clientAddress("10.0.0.1", "garbage, 198.51.100.1", trusted), "198.51.100.1");
    EXPECT_EQ(clientAddress("10.0.0.1", "198.51.100.1, garbage", trusted), "10.0.0.1");  // stops at the last trusted hop
    EXPECT_EQ(clientAddress("::ffff:10.0.0.1", " 2001:DB8::1 ", trusted), "2001:db8::1");
    EXPECT_EQ(clientAddress("10.0.0.1", "10.0.0.2", trusted), "10.0.0.2");  // all trusted: the left-most
}

TEST(ClientAddress, Groups) {
    EXPECT_EQ(addressGroup("198.51.100.1"), "198.51.100.1");
    EXPECT_EQ(addressGroup("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
    EXPECT_EQ(addressGroup("2001:db8:1:2::9"), addressGroup("2001:db8:1:2:ffff::1"));
    EXPECT_NE(addressGroup("2001:db8:1:2::9"), addressGroup("2001:db8:1:3::9"));
}

TEST(Origin, SameHostOrAllowListed) {
    const std::vector<std::string> allowed = {"https://play.example.org"};
    EXPECT_TRUE(originAllowed("", "senet.example", allowed));
    EXPECT_TRUE(originAllowed("https://senet.example", "senet.example", allowed));
    EXPECT_TRUE(originAllowed("https://senet.example", "senet.example:443", allowed));
    EXPECT_TRUE(originAllowed("http://127.0.0.1:8080", "127.0.0.1:8080", allowed));
    EXPECT_TRUE(originAllowed("HTTPS://Play.Example.org", "senet.example", allowed));
    EXPECT_FALSE(originAllowed("http://127.0.0.1:8081", "127.0.0.1:8080", allowed));
    EXPECT_FALSE(originAllowed("https://evil.example", "senet.example", allowed));
    EXPECT_FALSE(originAllowed("null", "senet.example", allowed));
    EXPECT_FALSE(originAllowed("https://senet.example.evil.example", "senet.example", allowed));
    EXPECT_FALSE(originAllowed("https://user@senet.example", "senet.example", allowed));
    EXPECT_FALSE(originAllowed("https://senet.example", "", allowed));
}

TEST(TokenBucketsTest, BurstThenRetryAfter) {
    TokenBuckets b(1.0, 3.0);
    for (int i = 0; i < 3; ++i) EXPECT_FALSE(b.take("a")) << i;
    const auto wait = b.take("a");
    ASSERT_TRUE(wait);
    EXPECT_EQ(*wait, 1);
    EXPECT_FALSE(b.take("b"));
    TokenBuckets slow(0.1, 1.0);
    EXPECT_FALSE(slow.take("a"));
    EXPECT_EQ(slow.take("a").value_or(0), 10);
}

TEST(TokenBucketsTest, MemoryIsBounded) {
    TokenBuckets b(1.0, 5.0, 1000);
    for (int i = 0; i < 50000; ++i) b.take("10.0." + std::to_string(i / 256) + "." + std::to_string(i % 256));
    EXPECT_LE(b.size(), 1000u);
}

TEST(ConnectionCounterTest, SlotsReleaseTheirPlaces) {
    ConnectionCounter c;
    {
        std::vector<ConnectionSlot> slots;
        for (int i = 0; i < 2; ++i) slots.push_back(c.acquire("1.1.1.1", 2, true, 3));
        EXPECT_TRUE(slots[0] && slots[1]);
        EXPECT_FALSE(c.acquire("1.1.1.1", 2, true, 3));  // per address
        ConnectionSlot third = c.acquire("2.2.2.2", 2, true, 3);
        EXPECT_TRUE(third);
        EXPECT_FALSE(c.acquire("3.3.3.3", 2, true, 3));  // total
        EXPECT_EQ(c.total(), 3);
        ConnectionSlot moved = std::move(third);
        EXPECT_EQ(c.total(), 3);
    }
    EXPECT_EQ(c.total(), 0);
    EXPECT_TRUE(c.acquire("1.1.1.1", 2, true, 3));
}

}  // namespace
}  // namespace senet::server
