// Fuzz target: the lobby (server/src/lobby/lobby.hpp) in-process over a Registry on
// MemoryStorage, a manual clock and scheduler, and four fake connections from two addresses.
// The input is a sequence of steps, one byte choosing the kind (fuzz/README.md "lobby"):
// a raw text frame, a seek with a fuzzed name and one of three browser tokens, a take of an id
// seen in a lobby frame, a cancel, a close and reopen, time moving on and a tick. After each step:
//   - every frame is canonical UTF-8 JSON of a documented type; errors have a string code
//     from the documented set and a string message;
//   - the open seeks are at most the open connections, at most one per connection;
//   - every paired frame names a game whose two seats went to two different connections with
//     different secrets, and that game exists; two seeks of one browser token are never paired;
//   - no lobby frame or GET /api/lobby body holds a seat secret or a browser token.
#include <array>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "check.hpp"
#include "config.hpp"
#include "lobby.hpp"
#include "manual_clock.hpp"
#include "manual_scheduler.hpp"
#include "memory_storage.hpp"
#include "metrics.hpp"

using namespace senet::server;
using nlohmann::json;
using senet::fuzz::check;
using senet::fuzz::checkServerFrame;

namespace {

constexpr int kPeers = 4;
const std::array<std::string, 3> kBrowsers = {"", "browserA", "browserB"};
const std::set<std::string> kTypes = {"lobby", "seeking", "paired", "cancelled", "error", "pong"};
const std::set<std::string> kCodes = {"bad-json", "unknown-type", "bad-field", "bad-ruleset", "bad-name", "bad-browser", "gone",
                                      "same-browser", "no-bots", "too-many-seeks", "wait", "rate-limited", "storage", "internal"};

struct FakePeer : Peer {
    std::vector<std::shared_ptr<const std::string>> frames;
    void send(std::shared_ptr<const std::string> frame) override { frames.push_back(std::move(frame)); }
};

struct Conn {
    std::shared_ptr<SocketTarget> target;
    std::shared_ptr<FakePeer> peer;
    std::size_t checked = 0;
    std::string sent;     ///< the browser token of its last message ("" : none)
    std::string waiting;  ///< the browser token of its open seek (from the message its `seeking` answered)
};

struct World {
    MemoryStorage storage;
    Metrics metrics;
    ManualScheduler scheduler;
    ManualClock clock;
    Config config;
    Registry registry{storage, metrics, scheduler, config, clock};
    std::shared_ptr<lobby::Lobby> lobbyPtr;
    std::array<Conn, kPeers> conns;
    std::vector<std::string> seenIds;
    std::set<std::string> secrets;
    std::map<std::string, std::vector<std::pair<int, std::string>>> games;  ///< id -> (peer, browser)
    int sender = -1;  ///< the connection whose message this step sent

    World() {
        lobby::Options o;
        o.selfTick = false;
        o.seeksPerAddress = 3;
        lobbyPtr = std::make_shared<lobby::Lobby>(registry, scheduler, clock, o);
        for (int i = 0; i < kPeers; ++i) open(i);
    }
    void open(int i) {
        conns[i].target = lobbyPtr->connect(i % 2 ? "192.0.2.1" : "198.51.100.2");
        conns[i].peer = std::make_shared<FakePeer>();
        conns[i].checked = 0;
        conns[i].target->attach(conns[i].peer.get(), conns[i].peer);
    }
    void close(int i) {
        conns[i].target->detach(conns[i].peer.get());
        checkFrames(i);
    }
    void send(int i, const std::string& frame) {
        // The token this message carries, as the lobby reads it (a message it refuses changes nothing).
        const json m = json::parse(frame, nullptr, false);
        conns[i].sent.clear();
        if (m.is_object() && m.contains("d") && m["d"].is_object() && m["d"].contains("browser") && m["d"]["browser"].is_string())
            conns[i].sent = m["d"]["browser"].get<std::string>();
        sender = i;
        conns[i].target->receive(conns[i].peer.get(), frame, std::chrono::steady_clock::now());
    }
    void checkFrames(int i) {
        Conn& c = conns[i];
        for (; c.checked < c.peer->frames.size(); ++c.checked) {
            const std::string& text = *c.peer->frames[c.checked];
            const json f = checkServerFrame(text);
            check(f.contains("t") && kTypes.count(f["t"].get<std::string>()), "a documented type", text);
            const json& d = f["d"];
            const std::string t = f["t"];
            if (t == "error") {
                check(d["code"].is_string() && kCodes.count(d["code"].get<std::string>()), "a documented error code", text);
                check(d["message"].is_string(), "an error message", text);
            } else if (t == "lobby") {
                for (const auto& s : secrets) check(text.find(s) == std::string::npos, "no secret in the lobby frame", text);
                // A browser token could only hide in an entry's members; a guest name may be any text.
                for (const auto& o : d["open"]) {
                    // A bot's seek also has "bot": true, one that accepts bots "bots": true (PROTOCOL.md "Bots").
                    const bool bot = o.contains("bot"), bots = o.contains("bots");
                    check(!bot || o["bot"] == true, "an open seek's bot mark is true", text);
                    check(!bots || o["bots"] == true, "an open seek's bots mark is true", text);
                    check(o.size() == 4u + bot + bots && o.contains("id") && o.contains("name") && o.contains("ruleset") &&
                              o.contains("since"),
                          "an open seek is {id, name, ruleset, since, bot?, bots?}", text);
                    for (const auto& b : kBrowsers) check(o["id"] != b, "no browser token as an id", text);
                    seenIds.push_back(o["id"]);
                }
            } else if (t == "seeking") {
                seenIds.push_back(d["id"]);
                c.waiting = c.sent;
            } else if (t == "paired") {
                const std::string id = d["game"], secret = d["secret"];
                check(secret.size() == 43, "a seat secret", text);
                check(secrets.insert(secret).second, "a secret given once", text);
                check(registry.find(id).room != nullptr, "the paired game exists", text);
                auto& seats = games[id];
                // The seeker whose message made the pair carries that message's token; the other one, its open seek's.
                seats.emplace_back(i, i == sender ? c.sent : c.waiting);
                check(seats.size() <= 2, "two seats a game", text);
                if (seats.size() == 2) {
                    check(seats[0].first != seats[1].first, "two connections a game", text);
                    check(seats[0].second.empty() || seats[0].second != seats[1].second, "never one browser twice", text);
                }
            }
        }
    }
};

struct Input {
    const std::uint8_t* data;
    std::size_t size, pos = 0;
    std::uint8_t byte() { return pos < size ? data[pos++] : 0; }
    std::string string(std::size_t max) {
        const std::size_t n = std::min<std::size_t>(byte(), max);
        std::string s;
        for (std::size_t i = 0; i < n && pos < size; ++i) s += static_cast<char>(byte());
        return s;
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    World w;
    Input in{data, size};
    static const char* kRulesets[] = {"standard", "bell", "any", "jequier", "chess", ""};
    for (int step = 0; step < 64 && in.pos < in.size; ++step) {
        const int kind = in.byte() % 7, peer = in.byte() % kPeers;
        w.sender = -1;
        switch (kind) {
            case 0: w.send(peer, in.string(255)); break;
            case 1: {
                json d = {{"ruleset", kRulesets[in.byte() % 6]}};
                const std::string browser = kBrowsers[in.byte() % 3];
                if (!browser.empty()) d["browser"] = browser;
                const std::string name = in.string(40);
                if (!name.empty()) d["name"] = name;
                // A program's seek and the acceptance of bots (PROTOCOL.md "Bots").
                const int flags = in.byte();
                if (flags & 1) d["bot"] = true;
                if (flags & 2) d["bots"] = true;
                w.send(peer, json{{"t", "seek"}, {"d", d}}.dump(-1, ' ', false, json::error_handler_t::replace));
                break;
            }
            case 2: {
                const std::string id = w.seenIds.empty() ? "AAAAAAAAAAAAAAAA" : w.seenIds[in.byte() % w.seenIds.size()];
                const std::string browser = kBrowsers[in.byte() % 3];
                json d = {{"seek", id}};
                if (!browser.empty()) d["browser"] = browser;
                w.send(peer, json{{"t", "take"}, {"d", d}}.dump());
                break;
            }
            case 3: w.send(peer, R"({"t":"cancel","d":{}})"); break;
            case 4: w.close(peer), w.open(peer); break;
            case 5: w.clock.advance(std::chrono::seconds(in.byte() % 40)), w.lobbyPtr->tick(); break;
            default: w.conns[peer].target->reject(w.conns[peer].peer.get(), protocol::ParseError{"rate-limited", "too many"}); break;
        }
        for (int i = 0; i < kPeers; ++i) w.checkFrames(i);
        const auto stats = w.lobbyPtr->stats();
        check(stats.openSeeks <= stats.connections, "at most one seek per connection");
        const std::string counts = w.lobbyPtr->countsJson();
        checkServerFrame(senet::server::protocol::envelope("lobby", counts));
        for (const auto& s : w.secrets) check(counts.find(s) == std::string::npos, "no secret in GET /api/lobby", counts);
    }
    for (int i = 0; i < kPeers; ++i) w.close(i);
    check(w.lobbyPtr->stats().openSeeks == 0, "every seek died with its connection");
    return 0;
}
