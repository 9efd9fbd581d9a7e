// In-process test support: a Registry over FaultyStorage(MemoryStorage) with a ManualScheduler,
// test peers that collect every frame the room sends, and a driver that plays whole games.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.hpp"
#include "manual_clock.hpp"
#include "manual_scheduler.hpp"
#include "memory_storage.hpp"
#include "metrics.hpp"
#include "registry.hpp"
#include "senet/fairness.hpp"

namespace senet::testing {

using nlohmann::json;
using namespace senet::server;

/// A connection that keeps every frame it is sent.
class TestPeer final : public Peer {
public:
    void send(std::shared_ptr<const std::string> frame) override {
        std::lock_guard lock(mutex_);
        frames_.push_back(std::move(frame));
    }
    /// The frames received since the last call.
    std::vector<std::shared_ptr<const std::string>> take() {
        std::lock_guard lock(mutex_);
        return std::exchange(frames_, {});
    }
    void closeWith(std::uint16_t code, const std::string& reason) override {
        std::lock_guard lock(mutex_);
        closes_.emplace_back(code, reason);
    }
    /// Every close the room asked for: (code, reason), in order.
    std::vector<std::pair<int, std::string>> closes() {
        std::lock_guard lock(mutex_);
        return closes_;
    }

private:
    std::mutex mutex_;
    std::vector<std::shared_ptr<const std::string>> frames_;
    std::vector<std::pair<int, std::string>> closes_;
};

/// One client of a room, as the browser would be: sends parsed messages, follows the state.
class Client {
public:
    explicit Client(std::shared_ptr<Room> room) : room_(std::move(room)), peer_(std::make_shared<TestPeer>()) {
        room_->attach(peer_.get(), peer_);
    }
    ~Client() { room_->detach(peer_.get()); }
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    /// Sends {"t":type,"d":d} through the real parser. The room answers before this returns.
    void send(const std::string& type, json d = json::object()) {
        drain();
        errorCursor_ = errors_.size();
        const std::string frame = json{{"t", type}, {"d", d}}.dump();
        auto parsed = protocol::parse(frame);
        if (auto* e = std::get_if<protocol::ParseError>(&parsed)) {
            ADD_FAILURE() << "test sent an invalid frame " << frame << ": " << e->message;
            return;
        }
        room_->handle(peer_.get(), std::get<protocol::ClientMessage>(parsed), std::chrono::steady_clock::now());
        drain();
    }
    /// hello with a secret and a seed ("" = none); returns the snapshot it got. Records a
    /// failure (and returns an empty json) when the room sent no snapshot.
    json hello(const std::string& secret = "", const std::string& seed = "") {
        json d = json::object();
        if (!secret.empty()) d["secret"] = secret;
        if (!seed.empty()) d["clientSeed"] = seed;
        const std::size_t before = snapshots_;
        send("hello", d);
        drain();
        if (snapshots_ == before) {
            ADD_FAILURE() << "hello got no snapshot";
            return json();
        }
        return lastSnapshot_;
    }
    /// The next error the room sent since the last send() (a second call returns the one after).
    /// Records a failure when there is none (and returns an empty json), or when its code is
    /// not `code` (and returns it all the same): a test never reads an error older than its
    /// last message.
    json waitForError(const std::string& code) {
        drain();
        if (errorCursor_ >= errors_.size()) {
            ADD_FAILURE() << "expected the error `" << code << "`, the room sent no error for the last message";
            return json();
        }
        json e = errors_[errorCursor_++];
        if (e.value("code", "") != code) ADD_FAILURE() << "expected the error `" << code << "`, got " << e.dump();
        return e;
    }
    /// Whether the room sent an error since the last send().
    bool hasNewError() { return drain(), errorCursor_ < errors_.size(); }
    /// Reads the frames that arrived.
    void drain() {
        for (auto& f : peer_->take()) {
            raw_.push_back(f);
            json m = json::parse(*f, nullptr, false);
            if (m.is_discarded()) {
                ADD_FAILURE() << "not JSON: " << *f;
                continue;
            }
            const std::string t = m.value("t", "");
            if (t == "snapshot") {
                ++snapshots_;
                lastSnapshot_ = m["d"];
                state_ = m["d"];
                state_.erase("record");
                state_.erase("you");
            } else if (t == "events") {
                if (!state_.is_object()) state_ = json::object();
                state_.update(m["d"]["state"]);  // only the members that changed (PROTOCOL.md "events")
                for (auto& e : m["d"]["events"]) events_.push_back(e);
            } else if (t == "error") {
                errors_.push_back(m["d"]);
            } else if (t == "phrase") {
                phrases_.push_back(m["d"]);
            }
        }
    }
    const json& state() { return drain(), state_; }
    const std::vector<json>& events() { return drain(), events_; }
    const std::vector<json>& errors() { return drain(), errors_; }
    /// The `phrase` frames received ({"phrase", "seat"}), in order.
    const std::vector<json>& phrases() { return drain(), phrases_; }
    /// Every frame received, in order (shared pointers as the room sent them).
    const std::vector<std::shared_ptr<const std::string>>& frames() { return drain(), raw_; }
    Room& room() { return *room_; }
    /// The closes the room asked of this connection: (code, reason).
    std::vector<std::pair<int, std::string>> closes() { return peer_->closes(); }

private:
    std::shared_ptr<Room> room_;
    std::shared_ptr<TestPeer> peer_;
    json state_, lastSnapshot_;
    std::size_t snapshots_ = 0;    ///< snapshots received
    std::size_t errorCursor_ = 0;  ///< errors_[errorCursor_] is the next error waitForError returns
    std::vector<json> events_, errors_, phrases_;
    std::vector<std::shared_ptr<const std::string>> raw_;
};

/// A registry over fault-injecting in-memory storage, with its scheduler, config and clock.
/// Time stands still for its rooms (grace period, idle and unload limits) until the test
/// moves `clock` forward: `f.clock.advance(std::chrono::seconds(301))`.
struct Fixture {
    Fixture() {
        config.computerDelay = std::chrono::milliseconds(0);
        config.aiBudget = std::chrono::milliseconds(5);
        registry = std::make_unique<Registry>(faulty, metrics, scheduler, config, clock);
    }
    std::shared_ptr<Room> room(const std::string& id) {
        Lookup l = registry->find(id);
        EXPECT_EQ(l.status, LookupStatus::Found) << id;
        return l.room;
    }
    Created create(Opponent opponent, int creatorSeat, RulesetId ruleset = RulesetId::Standard,
                   const std::string& level = "") {
        CreateRequest req;
        req.ruleset = ruleset;
        req.opponent = opponent;
        req.creatorSeat = creatorSeat;
        req.level = opponent == Opponent::Computer ? (level.empty() ? std::string("beginner") : level) : "";
        return registry->create(req);
    }
    /// The state as a new spectator sees it (without `you` and `record`).
    json freshState(const std::string& id) {
        Client watcher(room(id));
        json s = watcher.hello();
        s.erase("you");
        return s;
    }
    /// The stored server seed of `id`, hex.
    std::string serverSeedHex(const std::string& id) { return fairness::toHex(memory.loadGame(id)->serverSeed); }

    MemoryStorage memory;
    FaultyStorage faulty{memory};
    Metrics metrics;
    ManualScheduler scheduler;
    ManualClock clock;
    Config config;
    std::unique_ptr<Registry> registry;
};

/// The last error `c` got, after checking that exactly one more arrived than `before`.
inline json newError(Client& c, std::size_t before) {
    const auto& e = c.errors();
    EXPECT_EQ(e.size(), before + 1);
    return e.size() > before ? e.back() : json();
}

/// Throws for the human at `seat` (the computer's turns, if any, run on the scheduler in
/// between) until a move is due to it; returns the state then, null when the game ends first.
inline json throwUntilMove(Fixture& f, Client& c, int seat = 0) {
    for (int guard = 0; guard < 200; ++guard) {
        f.scheduler.runAll();
        const json s = c.state();
        if (s["phase"] == "over") return json();
        if (s["seatToAct"] != seat) continue;
        if (s["phase"] == "move") return s;
        c.send("throw", {{"ply", s["ply"]}});
    }
    ADD_FAILURE() << "no move became due";
    return json();
}

/// The last event named `name` that `c` received (null when none).
inline json lastEvent(Client& c, const std::string& name) {
    const auto& all = c.events();
    for (auto it = all.rbegin(); it != all.rend(); ++it)
        if (it->value("e", "") == name) return *it;
    return json();
}

/// Writes a finished game's verifiable record to a file and runs `senet verify` on it: the
/// throws are recomputed from the revealed seeds and the moves replayed.
inline void expectVerifies(Room& room, const std::string& name) {
    auto record = room.verifiableRecord();
    ASSERT_TRUE(record.has_value()) << "no record: the game is not over";
    // A name of this process's own: test processes of other builds may run at the same time.
    const auto file = std::filesystem::temp_directory_path() /
                      ("senet-room-test-" + std::to_string(::getpid()) + "-" + name + ".json");
    std::ofstream(file) << *record;
    const std::string cmd = std::string(SENET_CLI_BINARY) + " verify '" + file.string() + "' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[256];
    while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int status = pclose(p);
    std::filesystem::remove(file);
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0) << out;
    EXPECT_NE(out.find("ok:"), std::string::npos) << out;
}

/// What the driver does for one human action: `actor` sends (type, data).
using ActFn = std::function<void(Client& actor, const std::string& type, const json& data)>;

/// Plays the room's game to the end: the client in `players` for the seat to act throws or
/// makes a random legal move through `act`; the computer's turns run on the scheduler through
/// `computerTurn`. `follower` is any client of the room (its state drives the loop).
inline void playToEnd(Fixture& f, std::map<int, Client*> players, Client& follower, std::mt19937& rng, const ActFn& act,
                      const std::function<void()>& computerTurn = {}) {
    for (int guard = 0; guard < 5000; ++guard) {
        const json s = follower.state();
        if (s.value("phase", "") == "over") return;
        ASSERT_FALSE(s["seatToAct"].is_null()) << s.dump();
        const int seat = s["seatToAct"];
        const std::int64_t ply = s["ply"];
        auto it = players.find(seat);
        if (it == players.end()) {
            if (computerTurn) computerTurn();
            else f.scheduler.runAll();
            ASSERT_GT(follower.state()["ply"].get<std::int64_t>(), ply) << "the computer did not act";
            continue;
        }
        if (s["phase"] == "move") {
            // Among the moves that take a piece furthest, at random: pure random play in
            // Jéquier can last thousands of actions.
            const auto& moves = s["legalMoves"];
            std::vector<std::size_t> pick;
            int best = -1;
            for (std::size_t i = 0; i < moves.size(); ++i) {
                const int dest = moves[i].value("dest", 0);
                if (dest > best) pick.clear(), best = dest;
                if (dest == best) pick.push_back(i);
            }
            act(*it->second, "move", {{"ply", ply}, {"move", moves[pick[rng() % pick.size()]]["move"]}});
        } else {
            act(*it->second, "throw", {{"ply", ply}});
        }
        if (!computerTurn) f.scheduler.runAll();  // else the computer's turn runs in the branch above
        ASSERT_GT(follower.state()["ply"].get<std::int64_t>(), ply) << "no progress at ply " << ply;
    }
    FAIL() << "the game did not end";
}

/// The default action: send it; no error expected.
inline ActFn plainAct() {
    return [](Client& actor, const std::string& type, const json& data) {
        actor.send(type, data);
        EXPECT_FALSE(actor.hasNewError()) << actor.errors().back().dump();
    };
}

}  // namespace senet::testing
