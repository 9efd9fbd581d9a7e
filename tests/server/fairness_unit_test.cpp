// The fairness library (server/fairness) against values from independent sources: Python's
// base64, hashlib and hmac modules, RFC 8032's test key and the openssl command line tool
// (the expected values are written here, not computed by the code under test).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "senet/fairness.hpp"
#include "senet/signer.hpp"

namespace senet::fairness {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> bytes(const std::string& hex) {
    auto b = fromHex(hex);
    EXPECT_TRUE(b.has_value()) << hex;
    return b.value_or(std::vector<std::uint8_t>{});
}

std::vector<std::uint8_t> seed0to31() {
    std::vector<std::uint8_t> s(32);
    for (int i = 0; i < 32; ++i) s[i] = static_cast<std::uint8_t>(i);
    return s;
}

TEST(FairnessUnit, Base64UrlAndHexOfKnownBytes) {
    struct Case {
        std::vector<std::uint8_t> in;
        const char* url;
        const char* std;
    };
    // python3: base64.urlsafe_b64encode(b).rstrip(b'='), base64.b64encode(b)
    for (const Case& c : {Case{{}, "", ""}, Case{{0x00}, "AA", "AA=="}, Case{{0xff}, "_w", "/w=="},
                          Case{{0xfb, 0xef}, "--8", "++8="}, Case{{0x00, 0x10, 0x83}, "ABCD", "ABCD"},
                          Case{{0xfb, 0xff, 0xbf, 0x01}, "-_-_AQ", "+/+/AQ=="},
                          Case{{'h', 'e', 'l', 'l', 'o'}, "aGVsbG8", "aGVsbG8="},
                          Case{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, "AAECAwQFBgcICQoLDA0ODw",
                               "AAECAwQFBgcICQoLDA0ODw=="}}) {
        EXPECT_EQ(toBase64Url(c.in.data(), c.in.size()), c.url);
        EXPECT_EQ(toBase64(c.in), c.std);
    }
    EXPECT_EQ(toHex(std::vector<std::uint8_t>{0x00, 0xff, 0x10, 0xab, 0x09, 0xa0}), "00ff10ab09a0");
    EXPECT_EQ(toHex(std::vector<std::uint8_t>{}), "");
}

TEST(FairnessUnit, FromHexAcceptsBothCasesAndNothingElse) {
    EXPECT_EQ(fromHex("00ff10AB9aF0"), (std::vector<std::uint8_t>{0x00, 0xff, 0x10, 0xab, 0x9a, 0xf0}));
    EXPECT_EQ(fromHex(""), std::vector<std::uint8_t>{});
    EXPECT_EQ(fromHex("09afAF"), (std::vector<std::uint8_t>{0x09, 0xaf, 0xaf}));
    EXPECT_FALSE(fromHex("abc"));  // odd length
    // The neighbours of every accepted range, in either nibble.
    for (const char* bad : {"/0", "0/", ":0", "0:", "`0", "0`", "g0", "0g", "@0", "0@", "G0", "0G", " 0"})
        EXPECT_FALSE(fromHex(bad)) << bad;
}

TEST(FairnessUnit, Sha256CommitmentAndEquality) {
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const auto raw = sha256("abc");
    EXPECT_EQ(raw[0], 0xba);
    EXPECT_EQ(raw[31], 0xad);
    // python3: hashlib.sha256(bytes(range(32))).hexdigest()
    EXPECT_EQ(commitment(seed0to31()), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
    EXPECT_TRUE(constantTimeEqual("abc", "abc"));
    EXPECT_TRUE(constantTimeEqual("", ""));
    EXPECT_FALSE(constantTimeEqual("abc", "abd"));
    EXPECT_FALSE(constantTimeEqual("ab", "abc"));
    EXPECT_FALSE(constantTimeEqual("abc", "ab"));
}

TEST(FairnessUnit, OutcomeIsTheFirstHmacByteMasked) {
    // python3: hmac.new(bytes(range(32)), f"{c0}|{c1}|{i}".encode(), hashlib.sha256).digest()[0]
    const auto seed = seed0to31();
    struct Case {
        const char* c0;
        const char* c1;
        std::uint64_t index;
        int firstByte;
    };
    for (const Case& c : {Case{"a", "b", 0, 102}, Case{"a", "b", 7, 31}, Case{"", "", 0, 203},
                          Case{"alice", "bob", 123456789012ull, 8}, Case{"x", "y", 1, 103}}) {
        EXPECT_EQ(outcomeIndex(seed, c.c0, c.c1, c.index, 16), c.firstByte & 15) << c.c0 << c.c1 << c.index;
        EXPECT_EQ(outcomeIndex(seed, c.c0, c.c1, c.index, 4), c.firstByte & 3) << c.c0 << c.c1 << c.index;
        EXPECT_EQ(outcomeIndex(seed, c.c0, c.c1, c.index, 2), c.firstByte & 1) << c.c0 << c.c1 << c.index;
    }
}

/// One thread's calls with different server seeds, in turn: each uses its own key (the HMAC
/// context a thread keeps is re-keyed every call), here 1..32, 0..31 and sixteen 7s.
TEST(FairnessUnit, OutcomesOfDifferentSeedsInTurnUseEachSeed) {
    std::vector<std::uint8_t> one(32), seven(16, 7);
    for (int i = 0; i < 32; ++i) one[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i + 1);
    const auto zero = seed0to31();
    for (int round = 0; round < 3; ++round) {
        EXPECT_EQ(outcomeIndex(one, "a", "b", 0, 16), 178 & 15);
        EXPECT_EQ(outcomeIndex(zero, "a", "b", 0, 16), 102 & 15);
        EXPECT_EQ(outcomeIndex(seven, "x", "y", 5, 16), 21 & 15);
    }
}

TEST(FairnessUnit, ClientSeedCharacters) {
    EXPECT_TRUE(isValidClientSeed("09azAZ-_"));
    EXPECT_TRUE(isValidClientSeed(std::string(64, 'q')));
    EXPECT_FALSE(isValidClientSeed(std::string(65, 'q')));
    for (const char* bad : {"/", ":", "@", "[", "`", "{", ".", "+", " ", "a b", "\xc3\xa9", ","})
        EXPECT_FALSE(isValidClientSeed(bad)) << bad;
}

TEST(FairnessUnit, RandomBytesAndTokens) {
    EXPECT_TRUE(randomBytes(0).empty());
    const auto a = randomBytes(16), b = randomBytes(16);
    EXPECT_EQ(a.size(), 16u);
    EXPECT_NE(a, b);
    const std::string t = randomToken(16);
    EXPECT_EQ(t.size(), 22u);
    EXPECT_TRUE(isValidClientSeed(t)) << t;  // base64url characters only
    EXPECT_EQ(randomToken(32).size(), 43u);
}

/// RFC 8032 section 7.1, TEST 1: the secret key 9d61b1…7f60 as PKCS#8 PEM
/// (`openssl pkey` of the DER 302e020100300506032b657004220420 ‖ key).
constexpr const char* kRfcKeyPem =
    "-----BEGIN PRIVATE KEY-----\n"
    "MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"
    "-----END PRIVATE KEY-----\n";
constexpr const char* kRfcPublicHex = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
constexpr const char* kRfcPublicPem =
    "-----BEGIN PUBLIC KEY-----\n"
    "MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n"
    "-----END PUBLIC KEY-----\n";
/// `openssl pkeyutl -sign -rawin` of the 7 bytes "message" with that key.
constexpr const char* kRfcSignatureOfMessage =
    "acfec4ee0ec6a91f07ac3de2d736298e6b3d105f8168cf5e54330f7f85561677"
    "aeaf64752703ed4d4b25ad7f866f1508deffe79c91d85cdf964f85a8817b580c";
/// A P-256 key (`openssl genpkey -algorithm EC`): a PEM private key that is not Ed25519.
constexpr const char* kEcKeyPem =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg+cORUH7IPA+Hvuz2\n"
    "r+ORXWFKeFKfXsHW7a74PUHCzKShRANCAAQBk/oLZvMeSJPmb1VpiFYrxySbGIzn\n"
    "iojauOfofhrLbuuvNp4FtbWhT+NPcVx70lsUIX2FMqIOO2s+1xsbqBcH\n"
    "-----END PRIVATE KEY-----\n";

class SignerFiles : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("senet-signer-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path write(const std::string& name, const std::string& text) {
        std::ofstream(dir_ / name, std::ios::binary) << text;
        return dir_ / name;
    }
    fs::path dir_;
};

TEST_F(SignerFiles, KnownKeySignsAsOpenSslDoes) {
    const Signer s = Signer::loadOrCreate(write("key.pem", kRfcKeyPem));
    EXPECT_FALSE(s.created());
    EXPECT_EQ(toHex(s.publicKey()), kRfcPublicHex);
    EXPECT_EQ(s.publicKeyPem(), kRfcPublicPem);
    EXPECT_EQ(toHex(s.sign("message")), kRfcSignatureOfMessage);
    EXPECT_TRUE(verifySignature(bytes(kRfcPublicHex), "message", bytes(kRfcSignatureOfMessage)));
    EXPECT_FALSE(verifySignature(bytes(kRfcPublicHex), "massage", bytes(kRfcSignatureOfMessage)));
    auto shortSig = bytes(kRfcSignatureOfMessage);
    shortSig.pop_back();
    EXPECT_FALSE(verifySignature(bytes(kRfcPublicHex), "message", shortSig));
    auto shortKey = bytes(kRfcPublicHex);
    shortKey.pop_back();
    EXPECT_FALSE(verifySignature(shortKey, "message", bytes(kRfcSignatureOfMessage)));
    // The record signature: over the record without "signature", keys sorted.
    nlohmann::json record = {{"b", 1}, {"a", "x"}, {"signature", "old"}};
    EXPECT_EQ(canonicalRecordBytes(record), R"({"a":"x","b":1})");
    EXPECT_EQ(canonicalRecordBytes(nlohmann::json::array({1, 2})), "[1,2]");
    signRecord(s, record);
    EXPECT_EQ(record["signature"]["algorithm"], "Ed25519");
    EXPECT_EQ(record["signature"]["publicKey"], kRfcPublicHex);
    EXPECT_TRUE(verifySignature(bytes(kRfcPublicHex), R"({"a":"x","b":1})",
                                bytes(record["signature"]["value"].get<std::string>())));
}

TEST_F(SignerFiles, NewKeyIsWrittenPrivateAndLoadsBack) {
    const fs::path file = dir_ / "new.pem";
    const Signer s = Signer::loadOrCreate(file);
    EXPECT_TRUE(s.created());
    struct stat st{};
    ASSERT_EQ(::stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text.rfind("-----BEGIN PRIVATE KEY-----\n", 0), 0u) << text;
    for (const auto& e : fs::directory_iterator(dir_)) EXPECT_EQ(e.path().filename(), "new.pem");  // no temporary left
    const Signer again = Signer::loadOrCreate(file);
    EXPECT_FALSE(again.created());
    EXPECT_EQ(again.publicKey(), s.publicKey());
    EXPECT_TRUE(verifySignature(s.publicKey(), "x", again.sign("x")));
}

TEST_F(SignerFiles, BadKeyFilesAreErrorsNamingTheFile) {
    const fs::path damaged = write("damaged.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    try {
        Signer::loadOrCreate(damaged);
        ADD_FAILURE() << "a damaged key loaded";
    } catch (const std::runtime_error& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind(damaged.string() + ": the signing key file is damaged", 0), 0u) << m;
    }
    const fs::path ec = write("ec.pem", kEcKeyPem);
    try {
        Signer::loadOrCreate(ec);
        ADD_FAILURE() << "an EC key loaded";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), ec.string() + ": the signing key is not an Ed25519 key");
    }
    try {
        Signer::loadOrCreate(dir_ / "missing-dir" / "key.pem");
        ADD_FAILURE() << "a key written into a missing directory";
    } catch (const std::runtime_error& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind((dir_ / "missing-dir" / "key.pem").string() + ": cannot write the signing key", 0), 0u) << m;
    }
}

TEST(SignerParse, EveryFormOfThePublicKey) {
    const auto key = bytes(kRfcPublicHex);
    EXPECT_EQ(parsePublicKey(kRfcPublicHex), key);
    EXPECT_EQ(parsePublicKey(" \t\n" + std::string(kRfcPublicHex) + "\r\n "), key);
    EXPECT_EQ(parsePublicKey("D75A980182B10AB7D54BFED3C964073A0EE172F3DAA62325AF021A68F707511A"), key);
    EXPECT_EQ(parsePublicKey("11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="), key);   // base64
    EXPECT_EQ(parsePublicKey("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"), key);    // base64url, no padding
    EXPECT_EQ(parsePublicKey(kRfcPublicPem), key);
    EXPECT_EQ(parsePublicKey(R"({"publicKey":"d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"})"), key);
    // A key with the bytes that make + and / (and - and _): 0xfb 0xff 0xbf.
    std::vector<std::uint8_t> k2(32, 0);
    k2[0] = 0xfb, k2[1] = 0xff, k2[2] = 0xbf;
    EXPECT_EQ(parsePublicKey(toBase64(k2)), k2);
    EXPECT_EQ(toBase64(k2).substr(0, 4), "+/+/");
    EXPECT_EQ(parsePublicKey("-_-_" + toBase64(k2).substr(4)), k2);
    for (const std::string& bad :
         {std::string(""), std::string("   "), std::string(kRfcPublicHex).substr(2), std::string(kRfcPublicHex) + "00",
          std::string("11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHUR"), std::string("11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo.="),
          std::string(R"({"publicKey":5})"), std::string(R"({"key":"x"})"), std::string("[1]"), std::string("{bad json"),
          std::string(R"({"publicKey":"{\"publicKey\":\"d75a\"}"})"),
          std::string("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")})
        EXPECT_FALSE(parsePublicKey(bad)) << bad;
}

}  // namespace
}  // namespace senet::fairness
