// Random and mutated WebSocket frames against the real server process (issue 10: "nothing a
// visitor sends can stop the server or bend a game"). Several connections to three games send
// batches of frames: the issue's crash case and its kin (types cut inside multi-byte
// characters), invalid UTF-8, huge numbers, deep nesting, binary frames, wrong types, empty and
// oversized frames, and byte-level mutations of valid messages. After each batch the process
// must answer /healthz and every connection still open must answer a ping; every message the
// server sends must be canonical JSON (the harness checks each one). Then each game is played
// honestly to its end and `senet verify` must accept its /record.
#include <fstream>

#include "fixture.hpp"

namespace senet::testing {
namespace {

/// Builds the frames of the fuzz batches from a fixed seed (printed, so a failure can be replayed).
class FrameMaker {
public:
    explicit FrameMaker(std::uint32_t seed) : rng_(seed) {}

    /// One frame; `binary` tells whether to send it as a binary frame. Unless `mayClose`, only
    /// frames after which the connection stays open (valid UTF-8 text, within the size limit).
    std::string next(bool& binary, const std::vector<std::string>& secrets, std::int64_t ply, bool mayClose) {
        binary = false;
        if (mayClose) {
            switch (pick(4)) {
                case 0: binary = true; return pick(2) ? valid(secrets, ply) : randomBytes(pick(64));
                case 1: return invalidUtf8();
                case 2: return oversized();
                default: return randomBytes(1 + pick(64));
            }
        }
        switch (pick(10)) {
            case 0:
            case 1: return cutType();
            case 2: return hugeNumber(ply);
            case 3: return deepNesting();
            case 4: return wrongTypes();
            case 5: return pick(2) ? "" : std::string(pick(3) + 1, ' ');
            default: return mutate(valid(secrets, ply));
        }
    }

    /// A valid message (not always one the room accepts: wrong ply, illegal move, ...).
    std::string valid(const std::vector<std::string>& secrets, std::int64_t ply) {
        static const char* kMoves[] = {"9-11", "10-13", "28-off", "pass", "1-2", "26-27", "30-off", "0-0"};
        switch (pick(8)) {
            case 0: {
                json d = {{"clientSeed", "seed" + std::to_string(pick(100))}};
                if (pick(3)) d["secret"] = secrets[pick(secrets.size())];
                return json({{"t", "hello"}, {"d", d}}).dump();
            }
            case 1:
            case 2: return json({{"t", "throw"}, {"d", {{"ply", ply + pick(3) - 1}}}}).dump();
            case 3:
            case 4: return json({{"t", "move"}, {"d", {{"ply", ply + pick(3) - 1}, {"move", kMoves[pick(8)]}}}}).dump();
            case 5: return R"({"t":"claim","d":{}})";
            case 6: return R"({"t":"rematch","d":{}})";
            default: return R"({"t":"ping","d":{}})";
        }
    }

private:
    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

    /// The issue's crash: a type cut at 20 bytes inside a multi-byte character, and its kin.
    std::string cutType() {
        static const char* kChars[] = {"é", "€", "😀", "⟦", "ß"};
        std::string type(pick(24), 'a');
        for (std::size_t i = pick(4); i > 0; --i) type += kChars[pick(5)];
        type += std::string(pick(6), 'b');
        const char* d[] = {"{}", "[]", "1", "\"x\"", "null"};
        return "{\"t\":\"" + type + "\",\"d\":" + d[pick(5)] + "}";
    }

    std::string invalidUtf8() {
        static const char* kBad[] = {"\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf8\x88\x80\x80\x80"};
        const char* where[] = {"{\"t\":\"", "{\"t\":\"hello\",\"d\":{\"secret\":\"", "{\"t\":\"move\",\"d\":{\"ply\":0,\"move\":\""};
        return std::string(where[pick(3)]) + std::string(pick(20), 'a') + kBad[pick(7)] + "\"}}";
    }

    std::string hugeNumber(std::int64_t ply) {
        static const char* kNumbers[] = {"1e400", "-1e400", "18446744073709551616", "18446744073709551615", "-9223372036854775809",
                                         "9223372036854775807", "1000000001", "-1", "0.5", "1e3", "-0", "123456789012345678901234567890"};
        const std::string n = kNumbers[pick(12)];
        switch (pick(3)) {
            case 0: return "{\"t\":\"throw\",\"d\":{\"ply\":" + n + "}}";
            case 1: return "{\"t\":\"move\",\"d\":{\"ply\":" + n + ",\"move\":\"9-11\"}}";
            default: return "{\"t\":\"throw\",\"d\":{\"ply\":" + std::to_string(ply) + ",\"extra\":" + n + "}}";
        }
    }

    std::string deepNesting() {
        const std::size_t depth = 100 + pick(1900);
        if (pick(2)) return std::string(depth, '[') + std::string(depth, ']');
        std::string inner;
        for (std::size_t i = 0; i < depth / 5; ++i) inner += "{\"a\":";
        inner += "1" + std::string(depth / 5, '}');
        return "{\"t\":\"throw\",\"d\":{\"ply\":" + inner + "}}";
    }

    std::string wrongTypes() {
        static const char* kFrames[] = {
            R"({"t":1,"d":{}})",
            R"({"t":["hello"],"d":{}})",
            R"({"t":null})",
            R"({"t":{"t":"hello"}})",
            R"({"t":"hello","d":"x"})",
            R"({"t":"hello","d":[1]})",
            R"({"t":"hello","d":{"secret":12}})",
            R"({"t":"hello","d":{"clientSeed":["a"]}})",
            R"({"t":"hello","d":{"clientSeed":""}})",
            R"({"t":"move","d":{"ply":0,"move":{"from":9}}})",
            R"({"t":"move","d":{"ply":"0","move":"9-11"}})",
            R"({"t":"throw","d":{"ply":true}})",
            R"({"t":"resign","d":5})",
            R"("hello")",
            R"(null)",
            R"(42)",
            R"({"t":"throw","d":{"ply":0}} trailing)",
            R"({"t":"hello","t":"throw","d":{"ply":0}})",
        };
        return kFrames[pick(std::size(kFrames))];
    }

    std::string oversized() { return "{\"t\":\"hello\",\"d\":{\"secret\":\"" + std::string(4096 + pick(2000), 'x') + "\"}}"; }

    std::string randomBytes(std::size_t n) {
        std::string s;
        for (std::size_t i = 0; i < n; ++i) s += static_cast<char>(pick(256));
        return s;
    }

    /// Byte-level mutations of ASCII text, keeping it ASCII: flip, delete, insert, duplicate, truncate.
    std::string mutate(std::string s) {
        for (std::size_t k = pick(4); k > 0 && !s.empty(); --k) {
            const std::size_t at = pick(s.size());
            switch (pick(5)) {
                case 0: s[at] = static_cast<char>(s[at] ^ (1 << pick(7))); break;
                case 1: s.erase(at, 1 + pick(4)); break;
                case 2: s.insert(at, 1, static_cast<char>(pick(128))); break;
                case 3: s.insert(at, s.substr(at, pick(8))); break;
                default: s.resize(at); break;
            }
        }
        return s;
    }

    std::mt19937 rng_;
};

class WsFuzz : public ServerTest {
protected:
    std::vector<std::string> flags() const override {
        // No rate limit in the way: every frame must reach the parser.
        return {"--rate", "1000000", "--burst", "1000000", "--max-dropped", "1000000000", "--computer-delay-ms", "0",
                "--ai-budget-ms", "5"};
    }
    /// Checks that the process serves HTTP.
    void expectAlive(const std::string& when) {
        const HttpReply r = httpRequest(port(), "GET", "/healthz");
        ASSERT_EQ(r.status, 200) << "the server is not serving after " << when;
    }
    /// Fetches a finished game's /record and checks that `senet verify` accepts it.
    void expectVerified(const std::string& id) {
        const HttpReply r = httpRequest(port(), "GET", "/api/games/" + id + "/record");
        ASSERT_EQ(r.status, 200) << r.body;
        const auto file = dir_.path() / ("record-" + id + ".json");
        std::ofstream(file, std::ios::binary) << r.body;
        const auto [code, out] = runCli({"verify", file.string()});
        EXPECT_EQ(code, 0) << "senet verify refused the record of " << id << ": " << out;
    }
};

TEST_F(WsFuzz, RandomAndMutatedFramesStopNothingAndGamesStillVerify) {
    // Three games: a friend game with both seats taken, a local game, a game against the computer.
    const NewGame friendGame = createGame(port(), "standard", "friend", "first");
    const std::string secondSecret = joinGame(port(), friendGame.id, friendGame.inviteToken).second;
    const NewGame localGame = createGame(port(), "jequier", "local", "first");
    const NewGame computerGame = createGame(port(), "bell", "computer", "first", "beginner");
    ASSERT_FALSE(secondSecret.empty());
    struct Conn {
        std::string game;
        std::vector<std::string> secrets;  ///< what it may say hello with (a wrong one included)
        std::unique_ptr<WsClient> ws;
    };
    std::vector<Conn> conns;
    for (auto [game, secrets] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {friendGame.id, {friendGame.secret, "wrong"}}, {friendGame.id, {secondSecret, "wrong"}}, {friendGame.id, {"watcher"}},
             {localGame.id, {localGame.secret, "wrong"}}, {computerGame.id, {computerGame.secret, "wrong"}},
             {computerGame.id, {"watcher"}}})
        conns.push_back(Conn{game, secrets, nullptr});
    auto connect = [&](Conn& c) {
        c.ws = std::make_unique<WsClient>(port(), c.game);
        c.ws->hello(c.secrets[0], "fuzzseed");
    };
    for (auto& c : conns) connect(c);

    const std::uint32_t seed = 20261130;
    SCOPED_TRACE("frame seed " + std::to_string(seed));
    FrameMaker maker(seed);
    int sent = 0, reconnects = 0;
    std::size_t errors = 0;  // error replies: frames that reached the parser or the room
    const int kBatches = 12, kFramesPerConn = 60;
    for (int batch = 0; batch < kBatches; ++batch) {
        for (auto& c : conns) {
            const std::int64_t ply = c.ws->state().is_object() ? c.ws->state().value("ply", std::int64_t{0}) : 0;
            // The last frame of a batch may be one after which the server closes the connection.
            for (int i = 0; i < kFramesPerConn; ++i) {
                bool binary = false;
                const std::string frame = maker.next(binary, c.secrets, ply, i == kFramesPerConn - 1 && batch % 2 == 1);
                if (binary) c.ws->sendBinary(frame);
                else c.ws->sendText(frame);
                ++sent;
            }
        }
        ASSERT_NO_FATAL_FAILURE(expectAlive("batch " + std::to_string(batch)));
        // A connection the server closed (bad UTF-8, a binary or oversized frame) is reopened; an
        // open one must answer a ping after everything it sent.
        for (auto& c : conns) {
            const std::size_t before = c.ws->errors().size();
            c.ws->send("ping");
            const auto asked = std::chrono::steady_clock::now();
            if (!c.ws->tryReceiveType("pong", std::chrono::seconds(20))) {
                EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(19))
                    << "a connection neither answered a ping nor was closed, batch " << batch;
                connect(c);
                ++reconnects;
            } else {
                errors += c.ws->errors().size() - before;
            }
        }
    }
    std::printf("[ ws fuzz ] %d frames on %zu connections in %d batches: %zu error replies, %d connections closed by the server\n",
                sent, conns.size(), kBatches, errors, reconnects);
    EXPECT_GE(sent, 4000);
    EXPECT_GE(errors, 1000u);  // the frames were read and refused one by one (others got snapshots, pongs, events)

    // Honest play to the end of every game, on fresh connections; the records must verify.
    conns.clear();
    std::mt19937 rng(7);
    {
        WsClient a(port(), friendGame.id), b(port(), friendGame.id);
        a.hello(friendGame.secret);
        b.hello(secondSecret);
        if (a.state().value("phase", "") != "over") playToEnd({{0, &a}, {1, &b}}, {}, rng);
        EXPECT_EQ(a.state().value("phase", ""), "over");
    }
    for (const NewGame* g : {&localGame, &computerGame}) {
        WsClient c(port(), g->id);
        c.hello(g->secret);
        std::map<int, WsClient*> players;
        for (int seat : g->seats) players[seat] = &c;
        if (c.state().value("phase", "") != "over") playToEnd(players, {}, rng);
        EXPECT_EQ(c.state().value("phase", ""), "over") << g->id;
    }
    // And a game nobody fuzzed.
    const NewGame fresh = createGame(port(), "standard", "local", "first");
    {
        WsClient c(port(), fresh.id);
        c.hello(fresh.secret, "honest");
        playToEnd({{0, &c}, {1, &c}}, {}, rng);
        EXPECT_EQ(c.state().value("phase", ""), "over");
    }
    for (const std::string& id : {friendGame.id, localGame.id, computerGame.id, fresh.id}) expectVerified(id);
    expectAlive("the honest games");
}

}  // namespace
}  // namespace senet::testing
