// In-process lobby tests: a Lobby over the room tests' Fixture (memory storage, manual clock,
// manual scheduler) and lobby clients that collect the frames the lobby sends them.
#pragma once

#include "lobby.hpp"
#include "room_support.hpp"

namespace senet::testing {

/// One lobby connection, as a page's socket would be.
class LobbyClient {
public:
    LobbyClient(server::lobby::Lobby& lobby, const std::string& address = "192.0.2.1")
        : target_(lobby.connect(address)), peer_(std::make_shared<TestPeer>()) {
        target_->attach(peer_.get(), peer_);
    }
    ~LobbyClient() { close(); }
    LobbyClient(const LobbyClient&) = delete;
    LobbyClient& operator=(const LobbyClient&) = delete;

    /// The connection closes (the page's tab closed).
    void close() {
        if (open_) target_->detach(peer_.get());
        open_ = false;
    }
    /// Sends one raw text frame.
    void sendRaw(const std::string& frame) { target_->receive(peer_.get(), frame, std::chrono::steady_clock::now()); }
    /// Sends {"t":type,"d":d}.
    void send(const std::string& type, json d = json::object()) { sendRaw(json{{"t", type}, {"d", d}}.dump()); }
    /// seek{ruleset, name?, browser?}.
    void seek(const std::string& ruleset, const std::string& browser = "", const std::string& name = "") {
        json d = {{"ruleset", ruleset}};
        if (!browser.empty()) d["browser"] = browser;
        if (!name.empty()) d["name"] = name;
        send("seek", d);
    }
    /// Every frame received so far, parsed, in order.
    const std::vector<json>& frames() {
        for (auto& f : peer_->take()) frames_.push_back(json::parse(*f));
        return frames_;
    }
    /// The frames of type `t`.
    std::vector<json> of(const std::string& t) {
        std::vector<json> out;
        for (const json& f : frames())
            if (f["t"] == t) out.push_back(f["d"]);
        return out;
    }
    /// The last frame of type `t` (an empty json when none came).
    json last(const std::string& t) {
        const auto all = of(t);
        return all.empty() ? json() : all.back();
    }
    /// The last frame received (an empty json when none came).
    json lastFrame() { return frames().empty() ? json() : frames().back(); }
    bool paired() { return !of("paired").empty(); }

private:
    std::shared_ptr<server::SocketTarget> target_;
    std::shared_ptr<TestPeer> peer_;
    std::vector<json> frames_;
    bool open_ = true;
};

/// The room tests' Fixture with a lobby whose ticks the test runs itself.
struct LobbyFixture : Fixture {
    LobbyFixture() {
        server::lobby::Options options;
        options.selfTick = false;
        options.seeksPerAddress = 20;
        lobby = std::make_shared<server::lobby::Lobby>(*registry, scheduler, clock, options);
    }
    std::shared_ptr<server::lobby::Lobby> lobby;
};

}  // namespace senet::testing
