// The cluster client's notion of an acknowledged action (bench/server/cluster_acks.hpp), fed the
// frames the real server sends. The cluster test (scripts/cluster-test.sh) counts an
// acknowledged action missing from the game's record as lost: a client that counts a frame as
// an acknowledgement when it is none reports a loss that did not happen.
#include "fixture.hpp"

#include "../../bench/server/cluster_acks.hpp"

namespace senet::testing {
namespace {

using senet::cluster::Action;
using senet::cluster::acknowledged;

/// A fixed server seed: with the fixed client seeds below, every throw is known (a first throw
/// with a legal move).
class ClusterAcks : public ServerTest {
    std::vector<std::string> flags() const override {
        return {"--test-seed", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"};
    }
};

/// A friend game with both seats connected and said hello. `actor` holds the seat to act.
struct FriendGame {
    NewGame game;
    std::string secrets[2];
    std::unique_ptr<WsClient> clients[2];
    int actor = 0;      ///< index into clients/secrets of the connection whose seat is to act
    int actorSeat = 0;  ///< that seat
};

FriendGame friendGame(unsigned short port) {
    FriendGame f;
    f.game = createGame(port, "standard", "friend");
    f.secrets[0] = f.game.secret;
    const auto [status, secret] = joinGame(port, f.game.id, f.game.inviteToken);
    EXPECT_EQ(status, 200);
    f.secrets[1] = secret;
    json snapshots[2];
    for (int i = 0; i < 2; ++i) {
        f.clients[i] = std::make_unique<WsClient>(port, f.game.id);
        snapshots[i] = f.clients[i]->hello(f.secrets[i], "ackseed" + std::to_string(i));
    }
    // The second hello fixed the last seed: the first connection hears of it; drain both.
    for (auto& c : f.clients) EXPECT_TRUE(c->roundTrip());
    f.actorSeat = f.clients[1]->state()["seatToAct"].get<int>();
    f.actor = snapshots[1]["you"][0].get<int>() == f.actorSeat ? 1 : 0;
    return f;
}

// The plain case: the events frame carrying a throw acknowledges it with the value thrown, the
// one carrying a move acknowledges that move.
TEST_F(ClusterAcks, AnActionsOwnEventsAcknowledgeIt) {
    FriendGame f = friendGame(port());
    WsClient& actor = *f.clients[f.actor];
    const std::int64_t ply = actor.state()["ply"];
    actor.send("throw", {{"ply", ply}});
    auto frame = actor.receiveType("events");
    ASSERT_TRUE(frame);
    const json thrown = (*frame)["d"]["events"][0];
    ASSERT_EQ(thrown["e"], "thrown") << frame->dump();
    const auto ack = acknowledged((*frame)["d"], Action{'t', "", -1}, ply);
    ASSERT_TRUE(ack) << frame->dump();
    EXPECT_EQ(ack->kind, 't');
    EXPECT_EQ(ack->value, thrown["value"].get<int>());
    EXPECT_GE(ack->value, 1);
    // The same frame acknowledges nothing sent at another ply, and no move.
    EXPECT_FALSE(acknowledged((*frame)["d"], Action{'t', "", -1}, ply + 1));
    EXPECT_FALSE(acknowledged((*frame)["d"], Action{'m', "9-11", -1}, ply));

    // The move's frame acknowledges that move, not another one.
    const json state = (*frame)["d"]["state"];
    ASSERT_EQ(state["phase"], "move") << state.dump();
    const std::string move = state["legalMoves"][0]["move"];
    actor.send("move", {{"ply", ply + 1}, {"move", move}});
    auto moved = actor.receiveType("events");
    ASSERT_TRUE(moved);
    const auto ackMove = acknowledged((*moved)["d"], Action{'m', move, -1}, ply + 1);
    ASSERT_TRUE(ackMove) << moved->dump();
    EXPECT_EQ(ackMove->kind, 'm');
    EXPECT_EQ(ackMove->move, move);
    EXPECT_FALSE(acknowledged((*moved)["d"], Action{'m', "1-2", -1}, ply + 1)) << moved->dump();
    EXPECT_FALSE(acknowledged((*moved)["d"], Action{'t', "", -1}, ply + 1)) << moved->dump();
}

// An instance dies after storing a throw and before its events frame reaches the client (the
// cluster test's SIGKILL). The throw was applied, its acknowledgement lost: the frames about the
// game that follow are at the next ply without the throw's events. The other seat hears the
// actor's seat go offline and, after the reconnection, online again (`presence` frames at the
// next ply); the reconnection's own first frame of game state is the snapshot at the next ply
// (its seat's presence is in it, never in an events frame before it). Counted as the throw's
// acknowledgement, such a presence frame "acknowledged" the throw with no value and the cluster
// test reported it lost.
TEST_F(ClusterAcks, APresenceFrameAtTheNextPlyAfterAReconnectIsNoAcknowledgement) {
    FriendGame f = friendGame(port());
    WsClient& actor = *f.clients[f.actor];
    WsClient& other = *f.clients[1 - f.actor];
    const std::int64_t ply = actor.state()["ply"];
    const Action pending{'t', "", -1};
    actor.send("throw", {{"ply", ply}});
    // Stored and applied: its events reach the other seat. The actor's own copy is the frame the
    // dead instance never delivered: read here only to drain the socket, never shown to the
    // client's bookkeeping.
    const json thrown = other.waitForEvent("thrown", {{"seat", f.actorSeat}});
    ASSERT_FALSE(thrown.is_null());
    ASSERT_TRUE(actor.receiveUntilPly(ply + 1));
    actor.close();
    // The other seat's next frame: the actor's presence (`online`) at the next ply, no throw in
    // it, which the bookkeeping must not take for the throw's acknowledgement.
    const auto expectPresence = [&](bool online) {
        const auto frame = other.receiveType("events");
        ASSERT_TRUE(frame);
        EXPECT_EQ((*frame)["d"]["ply"], ply + 1) << frame->dump();
        EXPECT_EQ((*frame)["d"]["events"][0], json({{"e", "presence"}, {"online", online}, {"seat", f.actorSeat}})) << frame->dump();
        EXPECT_FALSE(acknowledged((*frame)["d"], pending, ply)) << "a frame without the throw's events counted as its acknowledgement";
    };
    expectPresence(false);

    // The reconnection: every frame up to the snapshot goes through the bookkeeping.
    WsClient again(port(), f.game.id);
    again.send("hello", {{"secret", f.secrets[f.actor]}, {"clientSeed", "ackseed" + std::to_string(f.actor)}});
    std::vector<json> before;  // the events frames that came before the snapshot
    while (true) {
        auto m = again.receive();
        ASSERT_TRUE(m) << "no snapshot after hello";
        if ((*m)["t"] == "snapshot") {
            EXPECT_EQ((*m)["d"]["ply"], ply + 1);
            EXPECT_EQ((*m)["d"]["seats"][f.actorSeat]["online"], true) << m->dump();
            break;
        }
        if ((*m)["t"] != "events") continue;
        before.push_back(*m);
        EXPECT_FALSE(acknowledged((*m)["d"], pending, ply)) << "acknowledged from " << m->dump();
    }
    // The connection's first frame of game state is the snapshot (PROTOCOL.md "events").
    EXPECT_TRUE(before.empty()) << "an events frame before the snapshot: " << before[0].dump();
    // The other seat hears of the seat online again, at the next ply: no acknowledgement either.
    expectPresence(true);
}

}  // namespace
}  // namespace senet::testing
