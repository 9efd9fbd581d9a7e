// The signed record: the server's Ed25519 key in the data directory, GET /api/key, the
// signature on GET /api/games/{id}/record, and `senet verify --key` on a genuine record.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>

#include "fixture.hpp"
#include "senet/fairness.hpp"
#include "senet/json_members.hpp"
#include "senet/signer.hpp"

namespace senet::testing {
namespace {

namespace fs = std::filesystem;

class Signature : public ServerTest {};

/// Runs the server binary with these arguments until it exits (at most 20 s); returns its exit
/// status and its output (stdout and stderr).
std::pair<int, std::string> runServer(const std::vector<std::string>& args) {
    // Bounded: a server that does not refuse to start is stopped after 20 s.
    return runProgram(std::string("timeout 20 ") + SENET_SERVER_BINARY, args);
}

/// Plays a local game of `ruleset` to its end; returns its id.
std::string playLocalGame(unsigned short port, const std::string& ruleset, unsigned seed) {
    const NewGame g = createGame(port, ruleset, "local");
    WsClient c(port, g.id);
    c.hello(g.secret, "signed" + std::to_string(seed));
    std::mt19937 rng(seed);
    playToEnd({{0, &c}, {1, &c}}, {}, rng);
    EXPECT_EQ(c.state()["phase"], "over");
    return g.id;
}

TEST(SignerUnit, SignsVerifiesAndParsesKeys) {
    TempDir dir;
    const fs::path file = dir.path() / "key.pem";
    const auto signer = fairness::Signer::loadOrCreate(file);
    EXPECT_TRUE(signer.created());
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
    ASSERT_EQ(signer.publicKey().size(), 32u);
    const auto sig = signer.sign("message");
    ASSERT_EQ(sig.size(), 64u);
    EXPECT_TRUE(fairness::verifySignature(signer.publicKey(), "message", sig));
    EXPECT_FALSE(fairness::verifySignature(signer.publicKey(), "messagf", sig));
    auto other = sig;
    other[10] ^= 1;
    EXPECT_FALSE(fairness::verifySignature(signer.publicKey(), "message", other));
    EXPECT_FALSE(fairness::verifySignature({1, 2, 3}, "message", sig));

    // Loaded again: the same key, not a new one.
    const auto again = fairness::Signer::loadOrCreate(file);
    EXPECT_FALSE(again.created());
    EXPECT_EQ(again.publicKey(), signer.publicKey());

    // Every textual form of the public key parses to the same bytes.
    const std::string hex = fairness::toHex(signer.publicKey());
    EXPECT_EQ(fairness::parsePublicKey(hex), signer.publicKey());
    EXPECT_EQ(fairness::parsePublicKey("  " + hex + "\n"), signer.publicKey());
    EXPECT_EQ(fairness::parsePublicKey(fairness::toBase64(signer.publicKey())), signer.publicKey());
    EXPECT_EQ(fairness::parsePublicKey(signer.publicKeyPem()), signer.publicKey());
    EXPECT_EQ(fairness::parsePublicKey(json({{"publicKey", hex}}).dump()), signer.publicKey());
    EXPECT_FALSE(fairness::parsePublicKey(hex.substr(2)));
    EXPECT_FALSE(fairness::parsePublicKey("not a key"));
    EXPECT_FALSE(fairness::parsePublicKey(""));
    EXPECT_EQ(fairness::toBase64({'a', 'b', 'c', 'd'}), "YWJjZA==");
}

TEST(SignerUnit, CanonicalBytesLeaveOutTheSignature) {
    TempDir dir;
    const auto signer = fairness::Signer::loadOrCreate(dir.path() / "key.pem");
    json record = {{"plies", json::array()}, {"game", "abc"}, {"ruleset", "standard"}};
    EXPECT_EQ(fairness::canonicalRecordBytes(record), R"({"game":"abc","plies":[],"ruleset":"standard"})");
    fairness::signRecord(signer, record);
    ASSERT_TRUE(record.contains("signature"));
    EXPECT_EQ(record["signature"]["algorithm"], "Ed25519");
    EXPECT_EQ(fairness::canonicalRecordBytes(record), R"({"game":"abc","plies":[],"ruleset":"standard"})");
    const auto sig = fairness::fromHex(record["signature"]["value"].get<std::string>());
    ASSERT_TRUE(sig);
    EXPECT_TRUE(fairness::verifySignature(signer.publicKey(), fairness::canonicalRecordBytes(record), *sig));
}

TEST_F(Signature, KeyIsMadeOnceKeptPrivateAndServed) {
    const fs::path file = dir_.path() / "data" / "signing-key.pem";
    ASSERT_TRUE(fs::exists(file));
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
    auto r = httpRequest(port(), "GET", "/api/key");
    ASSERT_EQ(r.status, 200) << r.body;
    const json key = r.bodyJson();
    EXPECT_EQ(key["algorithm"], "Ed25519");
    const std::string hex = key["publicKey"];
    EXPECT_EQ(hex.size(), 64u);
    EXPECT_EQ(fairness::parsePublicKey(key["pem"].get<std::string>()), fairness::fromHex(hex));
    EXPECT_EQ(fairness::parsePublicKey(key["publicKeyBase64"].get<std::string>()), fairness::fromHex(hex));
    EXPECT_EQ(httpRequest(port(), "POST", "/api/key", "{}").status, 405);

    // A restart on the same data directory keeps the key.
    restart();
    EXPECT_EQ(httpRequest(port(), "GET", "/api/key").bodyJson()["publicKey"], hex);
}

TEST_F(Signature, DamagedKeyFileIsAStartErrorNamingTheFile) {
    TempDir data;
    const fs::path file = data.path() / "signing-key.pem";
    std::ofstream(file) << "-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----\n";
    auto [code, out] = runServer({"--port", "0", "--data-dir", data.path().string(), "--web-root", web_.string()});
    EXPECT_EQ(code, 1) << out;
    EXPECT_NE(out.find(file.string()), std::string::npos) << out;
    EXPECT_NE(out.find("damaged"), std::string::npos) << out;
    // The damaged file is left as it was (for the operator to restore).
    std::ifstream in(file);
    std::string first;
    std::getline(in, first);
    EXPECT_EQ(first, "-----BEGIN PRIVATE KEY-----");
}

TEST_F(Signature, GenuineRecordVerifiesWithTheServersKey) {
    for (const char* ruleset : {"standard", "jequier", "bell"}) {
        SCOPED_TRACE(ruleset);
        const std::string id = playLocalGame(port(), ruleset, 7);
        auto rec = httpRequest(port(), "GET", "/api/games/" + id + "/record");
        ASSERT_EQ(rec.status, 200) << rec.body;
        // The server never writes a member twice (every reader refuses one: json_members.hpp).
        EXPECT_EQ(firstDuplicateMember(rec.body), std::nullopt) << rec.body;
        const json record = rec.bodyJson();
        ASSERT_TRUE(record.contains("signature")) << rec.body;
        auto keyReply = httpRequest(port(), "GET", "/api/key");
        const json key = keyReply.bodyJson();
        EXPECT_EQ(record["signature"]["publicKey"], key["publicKey"]);
        // The signature covers the canonical bytes (PROTOCOL.md), checked here without the CLI.
        EXPECT_TRUE(fairness::verifySignature(*fairness::fromHex(key["publicKey"].get<std::string>()),
                                              fairness::canonicalRecordBytes(record),
                                              *fairness::fromHex(record["signature"]["value"].get<std::string>())));

        const fs::path file = dir_.path() / (id + ".json"), keyFile = dir_.path() / "key.json", pem = dir_.path() / "key.pem";
        std::ofstream(file) << rec.body;
        std::ofstream(keyFile) << keyReply.body;
        std::ofstream(pem) << key["pem"].get<std::string>();
        for (const std::string k : {keyFile.string(), pem.string(), key["publicKey"].get<std::string>()}) {
            auto [code, out] = runCli({"verify", file.string(), "--key", k});
            EXPECT_EQ(code, 0) << k << ": " << out;
            EXPECT_NE(out.find("signature valid"), std::string::npos) << out;
        }
        // The same record with another game id: only the signature can tell.
        json moved = record;
        moved["game"] = "AAAAAAAAAAAAAAAAAAAAAA";
        const fs::path bad = dir_.path() / (id + "-id.json");
        std::ofstream(bad) << moved.dump();
        EXPECT_EQ(runCli({"verify", bad.string()}).first, 0);
        auto [code, out] = runCli({"verify", bad.string(), "--key", keyFile.string()});
        EXPECT_EQ(code, 1) << out;
        EXPECT_NE(out.find("signature does not match"), std::string::npos) << out;
    }
}

}  // namespace
}  // namespace senet::testing
