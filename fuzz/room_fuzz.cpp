// Fuzz target: one game room handling a sequence of messages in-process (server/src/game/room.hpp).
// The room runs over MemoryStorage wrapped in FaultyStorage (the input may make chosen writes
// fail), a scheduler that runs the computer's turns when the input says so, and fake peers that
// collect every frame. Messages go through protocol::parse like the WebSocket session's. After
// each step:
//   - every frame any peer received is a canonical server frame (valid UTF-8 JSON);
//   - the ply each peer sees, and the room's, never goes back;
//   - the server seed appears in no frame while the game is not over;
//   - a room restored from what storage holds equals the live one (snapshots compared without
//     the connection-dependent fields); a finished game's record replays through the engine.
// SENET_FUZZ_ROOM_NO_FAULTS=1 in the environment turns fault injection off.
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check.hpp"
#include "config.hpp"
#include "memory_storage.hpp"
#include "metrics.hpp"
#include "protocol.hpp"
#include "room.hpp"
#include "senet/fairness.hpp"
#include "senet/record.hpp"

using namespace senet;
using namespace senet::server;
using nlohmann::json;
using senet::fuzz::check;

using senet::fuzz::checkServerFrame;

namespace {

/// Reads the input front to back, one byte per choice (0 when the input is used up), so that
/// seeds can be written by hand: see fuzz/README.md for the layout of a step.
class Input {
public:
    Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    std::size_t remaining_bytes() const { return size_ - pos_; }
    bool ConsumeBool() { return byte() & 1; }
    template <class T = int>
    T ConsumeIntegralInRange(T lo, T hi) {
        std::uint64_t v = byte();
        if (static_cast<std::uint64_t>(hi - lo) > 255) v = (v << 24) | (std::uint64_t{byte()} << 16) | (std::uint64_t{byte()} << 8) | byte();
        return static_cast<T>(lo + static_cast<T>(v % (static_cast<std::uint64_t>(hi - lo) + 1)));
    }
    template <class T>
    T ConsumeIntegral() {
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) v = (v << 8) | byte();
        return static_cast<T>(v);
    }
    /// A length byte (at most `max`), then that many bytes.
    std::string ConsumeRandomLengthString(std::size_t max) {
        const std::size_t n = std::min<std::size_t>(byte(), max);
        std::string s;
        for (std::size_t i = 0; i < n && pos_ < size_; ++i) s += static_cast<char>(byte());
        return s;
    }

private:
    std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
    const std::uint8_t* data_;
    std::size_t size_, pos_ = 0;
};

/// A connection that keeps every frame it is sent.
struct FakePeer : Peer {
    std::vector<std::shared_ptr<const std::string>> frames;
    void send(std::shared_ptr<const std::string> frame) override { frames.push_back(std::move(frame)); }
};

/// Keeps the tasks; the fuzz loop runs them (never from inside a room's lock).
struct QueueScheduler : Scheduler {
    std::deque<std::function<void()>> tasks;
    void after(std::chrono::milliseconds, std::function<void()> fn) override { tasks.push_back(std::move(fn)); }
    /// Runs up to `n` tasks in order (tasks may queue more).
    void run(int n) {
        while (n-- > 0 && !tasks.empty()) {
            auto fn = std::move(tasks.front());
            tasks.pop_front();
            fn();
        }
    }
};

const bool kNoFaults = [] {
    const char* v = std::getenv("SENET_FUZZ_ROOM_NO_FAULTS");
    return v && *v && std::string(v) != "0";
}();

constexpr const char* kSecrets[] = {"seat-zero-secret", "seat-one-secret"};
constexpr const char* kInvite = "the-invite-token";
constexpr int kPeers = 4;

/// Everything one run uses.
struct World {
    MemoryStorage inner;
    FaultyStorage storage{inner};
    Metrics metrics;
    QueueScheduler scheduler;
    Config config;
    int rematches = 0;
    Services services{storage, metrics, scheduler, config, nullptr};
    std::shared_ptr<Room> room;
    std::string id;
    std::vector<std::uint8_t> serverSeed;
    std::shared_ptr<FakePeer> observer = std::make_shared<FakePeer>();  ///< a watcher that sees every broadcast
    std::array<std::shared_ptr<FakePeer>, kPeers> peers;
    std::array<bool, kPeers> attached{};
    std::array<std::size_t, kPeers + 1> checkedFrames{};
    std::array<std::int64_t, kPeers + 1> lastPly{};
    std::int64_t roomPly = 0;
    json state;  ///< the latest state the observer saw
    std::int64_t checkedWrites = 0;  ///< storage writes attempted before the current step
    bool faultsArmed = false;        ///< some write may fail
    bool checkedOver = false;        ///< whether the game was over at the last restore check
    int uncheckedSteps = 0;          ///< steps since the last restore check

    World() {
        services.createRematch = [this](const GameRow& finished) {
            GameRow row = finished;
            row.id = "rematch" + std::to_string(++rematches);
            row.rematchOf = finished.id;
            row.rematch.clear();
            row.status = GameStatus::Playing;
            row.result.clear();
            row.clientSeeds = {};
            std::swap(row.seatHashes[0], row.seatHashes[1]);
            storage.createGame(row);
            return row.id;
        };
        for (auto& p : peers) p = std::make_shared<FakePeer>();
    }
};

/// Checks the frames `peer` (index `slot`) received since the last call. A broadcast reaches
/// every peer as the same string: `seen` keeps the ones already parsed in this step.
void checkFrames(World& w, FakePeer& peer, int slot, bool over, std::map<const std::string*, json>& seen) {
    const std::string seedHex = fairness::toHex(w.serverSeed);
    for (std::size_t i = w.checkedFrames[slot]; i < peer.frames.size(); ++i) {
        const std::string& f = *peer.frames[i];
        auto [it, fresh] = seen.try_emplace(&f);
        if (fresh) it->second = checkServerFrame(f);
        const json& m = it->second;
        const std::string t = m["t"];
        if (m["d"].contains("ply")) {
            const std::int64_t ply = m["d"]["ply"];
            check(ply >= w.lastPly[slot], "a peer saw the ply go back", f);
            w.lastPly[slot] = ply;
        }
        if (!over) check(f.find(seedHex) == std::string::npos, "the server seed was sent while the game is not over", f);
        if (slot == kPeers) {
            if (t == "snapshot") w.state = m["d"];
            if (t == "events") w.state = m["d"]["state"];
        }
    }
    w.checkedFrames[slot] = peer.frames.size();
}

/// A watcher's snapshot of `room`, without what depends on the connections.
json watcherSnapshot(Room& room) {
    auto peer = std::make_shared<FakePeer>();
    room.attach(peer.get(), peer);
    room.handle(peer.get(), protocol::Hello{}, std::chrono::steady_clock::now());
    room.detach(peer.get());
    json snap;
    for (const auto& f : peer->frames) {
        const json m = checkServerFrame(*f);
        if (m["t"] == "snapshot") snap = m["d"];
    }
    check(snap.is_object(), "hello got no snapshot");
    for (auto& s : snap["seats"]) s.erase("online");
    snap.erase("rematchOffered");
    snap.erase("you");
    return snap;
}

/// Rebuilds the room from a copy of what storage holds and compares it with the live one.
void checkRestore(World& w) {
    const auto row = w.inner.loadGame(w.id);
    check(row.has_value(), "the game is not in storage");
    MemoryStorage copy;
    copy.createGame(*row);
    const auto actions = w.inner.loadActions(w.id);
    for (const auto& a : actions) copy.appendAction(w.id, a);
    Metrics metrics;
    QueueScheduler scheduler;
    Services services{copy, metrics, scheduler, w.config, [](const GameRow&) -> std::string { throw StorageError("no"); }};
    auto restored = Room::restore(services, *row, actions);
    if (auto* err = std::get_if<std::string>(&restored)) senet::fuzz::fail("the stored game does not replay", *err);
    auto& room = *std::get<std::shared_ptr<Room>>(restored);
    const json live = watcherSnapshot(*w.room), back = watcherSnapshot(room);
    const std::int64_t ply = live.value("ply", std::int64_t{-1});
    check(ply >= w.roomPly, "the room's ply went back");
    w.roomPly = ply;
    if (live != back) {
        std::fprintf(stderr, "live:     %s\nrestored: %s\n", live.dump().c_str(), back.dump().c_str());
        senet::fuzz::fail("the room restored from storage differs from the live one");
    }
    if (const auto rec = w.room->verifiableRecord()) {
        const auto parsed = parseRecord(*rec);
        check(parsed.ok(), "the verifiable record does not replay: " + (parsed.ok() ? "" : parsed.error().message), *rec);
        check(room.verifiableRecord() == rec, "the restored room's record differs", *rec);
    }
}

/// Sends `frame` from `peer` the way the WebSocket session does: parse, then handle or reject.
void deliver(World& w, FakePeer& peer, const std::string& frame) {
    const auto parsed = protocol::parse(frame);
    if (const auto* e = std::get_if<protocol::ParseError>(&parsed)) w.room->reject(&peer, *e);
    else w.room->handle(&peer, std::get<protocol::ClientMessage>(parsed), std::chrono::steady_clock::now());
}

std::int64_t pickPly(World& w, Input& in) {
    const std::int64_t ply = w.state.is_object() ? w.state.value("ply", std::int64_t{0}) : 0;
    switch (in.ConsumeIntegralInRange(0, 7)) {
        case 5: return ply + 1;
        case 6: return ply - 1;
        case 7: return in.ConsumeIntegral<std::int64_t>();
        default: return ply;
    }
}

std::string pickMove(World& w, Input& in) {
    const json moves = w.state.is_object() ? w.state.value("legalMoves", json::array()) : json::array();
    switch (in.ConsumeIntegralInRange(0, 9)) {
        case 6: return in.ConsumeRandomLengthString(12);
        case 7: return "pass";
        case 8: return std::to_string(in.ConsumeIntegralInRange(-2, 33)) + "-" + std::to_string(in.ConsumeIntegralInRange(-2, 33));
        case 9: return std::to_string(in.ConsumeIntegralInRange(0, 31)) + "-off";
        default: {
            const std::size_t i = in.ConsumeIntegralInRange(0, 255);
            return moves.empty() ? std::string("1-2") : moves[i % moves.size()].value("move", "");
        }
    }
}

json pickSecret(Input& in) {
    switch (in.ConsumeIntegralInRange(0, 5)) {
        case 2: return kSecrets[1];
        case 3: return nullptr;
        case 4: return "wrong-secret";
        case 5: return in.ConsumeRandomLengthString(40);
        default: return kSecrets[0];
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Input in(data, size);
    World w;
    w.config.computerDelay = std::chrono::milliseconds(0);
    w.config.aiBudget = std::chrono::milliseconds(5);
    w.config.grace = std::chrono::seconds(in.ConsumeBool() ? 0 : 300);

    static const char* kRulesets[] = {"standard", "jequier", "bell", "kendall", "piccione"};
    static constexpr Opponent kOpponents[] = {Opponent::Friend, Opponent::Computer, Opponent::Local};
    static const char* kLevels[] = {"random", "beginner", "intermediate"};
    GameRow row;
    row.id = "FuzzGame0123456789abcd";
    row.ruleset = kRulesets[in.ConsumeIntegralInRange(0, 4)];
    row.opponent = kOpponents[in.ConsumeIntegralInRange(0, 2)];
    for (int i = 0; i < 32; ++i) row.serverSeed.push_back(static_cast<std::uint8_t>(i * 7 + 1));
    const int creator = in.ConsumeIntegralInRange(0, 1);
    if (row.opponent == Opponent::Local) {
        row.seatHashes = {fairness::sha256Hex(kSecrets[0]), fairness::sha256Hex(kSecrets[0])};
    } else {
        row.seatHashes[creator] = fairness::sha256Hex(kSecrets[creator]);
        if (row.opponent == Opponent::Computer) {
            row.level = kLevels[in.ConsumeIntegralInRange(0, 2)];
            row.seatHashes[1 - creator] = kComputerSeatHash;
            row.clientSeeds[1 - creator] = "computer";
        } else {
            row.inviteHash = fairness::sha256Hex(kInvite);
        }
    }
    w.id = row.id;
    w.serverSeed = row.serverSeed;
    w.storage.createGame(row);
    {
        auto made = Room::restore(w.services, row, {});
        check(std::holds_alternative<std::shared_ptr<Room>>(made), "a new game does not restore");
        w.room = std::get<std::shared_ptr<Room>>(made);
    }
    w.room->attach(w.observer.get(), w.observer);
    w.room->handle(w.observer.get(), protocol::Hello{}, std::chrono::steady_clock::now());
    w.room->kick();

    for (int step = 0; step < 200 && in.remaining_bytes() > 0; ++step) {
        const int k = in.ConsumeIntegralInRange(0, kPeers - 1);
        FakePeer& peer = *w.peers[k];
        switch (in.ConsumeIntegralInRange(0, 15)) {
            case 0:
                if (!w.attached[k]) w.room->attach(&peer, w.peers[k]);
                w.attached[k] = true;
                break;
            case 1:
                w.room->detach(&peer);
                w.attached[k] = false;
                break;
            case 2: {
                json d = json::object();
                if (json s = pickSecret(in); !s.is_null()) d["secret"] = s;
                if (in.ConsumeBool()) d["clientSeed"] = in.ConsumeBool() ? std::string("seed") + std::to_string(k) : in.ConsumeRandomLengthString(8);
                deliver(w, peer, json({{"t", "hello"}, {"d", d}}).dump(-1, ' ', false, json::error_handler_t::replace));
                break;
            }
            case 3:
            case 4:
            case 5: deliver(w, peer, json({{"t", "throw"}, {"d", {{"ply", pickPly(w, in)}}}}).dump()); break;
            case 6:
            case 7:
            case 8: {
                const std::int64_t ply = pickPly(w, in);
                const std::string move = pickMove(w, in);
                deliver(w, peer, json({{"t", "move"}, {"d", {{"move", move}, {"ply", ply}}}}).dump(-1, ' ', false, json::error_handler_t::replace));
                break;
            }
            case 9: deliver(w, peer, R"({"t":"resign","d":{}})"); break;
            case 10: deliver(w, peer, R"({"t":"claim","d":{}})"); break;
            case 11: deliver(w, peer, R"({"t":"rematch","d":{}})"); break;
            case 12: w.scheduler.run(in.ConsumeIntegralInRange(1, 4)); break;
            case 13: {
                // The API answers 503 when the seat cannot be stored (Room::join throws StorageError).
                try {
                    const auto out = w.room->join(in.ConsumeBool() ? in.ConsumeRandomLengthString(16) : std::string(kInvite));
                    check(out.status != JoinStatus::Joined || !out.secret.empty(), "joined without a secret");
                } catch (const StorageError&) {
                }
                break;
            }
            case 14:
                if (kNoFaults) break;
                switch (in.ConsumeIntegralInRange(0, 3)) {
                    case 0: w.storage.failNth(in.ConsumeIntegralInRange(1, 3)); w.faultsArmed = true; break;
                    case 1: w.storage.failAll(); w.faultsArmed = true; break;
                    default: w.storage.setFault({}); w.faultsArmed = false; break;
                }
                break;
            case 15: deliver(w, peer, in.ConsumeRandomLengthString(64)); break;
        }
        const bool over = w.room->over();
        std::map<const std::string*, json> seen;
        checkFrames(w, *w.observer, kPeers, over, seen);
        for (int i = 0; i < kPeers; ++i) checkFrames(w, *w.peers[i], i, over, seen);
        // Restoring is the costly check: after every write while faults are armed, when the game
        // ends, and every 16 steps otherwise (and at the end).
        const bool wrote = w.storage.writes() != w.checkedWrites;
        if ((wrote && w.faultsArmed) || over != w.checkedOver || ++w.uncheckedSteps >= 16) {
            checkRestore(w);
            w.uncheckedSteps = 0;
            w.checkedOver = over;
        }
        w.checkedWrites = w.storage.writes();
    }
    checkRestore(w);
    for (int i = 0; i < kPeers; ++i) w.room->detach(w.peers[i].get());
    w.room->detach(w.observer.get());
    return 0;
}
