// Hints (PROTOCOL.md "Hints"): in local and computer games the seat to act may ask for every
// legal move of its throw with its win chance, computed once per ply on the scheduler and
// answered to the asking connections only; refused in friend and lobby games (nothing changes);
// the record marks the plies played after a hint (`hints`), keeps them across a reload and a
// take-back, and verifies.
#include "room_support.hpp"
#include "senet/ai_search.hpp"

namespace senet::testing {
namespace {

/// The `hint` frames `c` received, in order (their `d`).
std::vector<json> hintsOf(Client& c) {
    std::vector<json> out;
    for (const auto& f : c.frames()) {
        const json m = json::parse(*f);
        if (m["t"] == "hint") out.push_back(m["d"]);
    }
    return out;
}

/// How many plies the game's record has now (a spectator's snapshot).
std::size_t recordPlies(Fixture& f, const std::string& id) {
    Client w(f.room(id));
    return w.hello()["record"]["plies"].size();
}

/// Checks a hint list against the state it was asked at: every legal move once, best first,
/// chances in [0, 1], not exact (these rooms have no endgame tables).
void expectHintFor(const json& hint, const json& state) {
    EXPECT_EQ(hint["ply"], state["ply"]);
    ASSERT_TRUE(hint["moves"].is_array());
    std::vector<std::string> hinted, legal;
    double previous = 2;
    for (const json& m : hint["moves"]) {
        hinted.push_back(m["move"]);
        const double w = m["winChance"];
        EXPECT_GE(w, 0.0);
        EXPECT_LE(w, 1.0);
        EXPECT_LE(w, previous) << "best first: " << hint.dump();
        previous = w;
        EXPECT_EQ(m["exact"], false);
    }
    for (const json& m : state["legalMoves"]) legal.push_back(m["move"]);
    std::sort(hinted.begin(), hinted.end());
    std::sort(legal.begin(), legal.end());
    EXPECT_EQ(hinted, legal);
}

/// Runs `senet verify` (no key) on `record`; returns (exit status, output).
std::pair<int, std::string> verify(const json& record, const std::string& name) {
    const auto file = std::filesystem::temp_directory_path() /
                      ("senet-hint-test-" + std::to_string(::getpid()) + "-" + name + ".json");
    std::ofstream(file) << record.dump();
    FILE* p = popen((std::string(SENET_CLI_BINARY) + " verify '" + file.string() + "' 2>&1").c_str(), "r");
    std::string out;
    char buf[256];
    while (p && fread(buf, 1, 1, p) == 1) out += buf[0];
    const int status = p ? pclose(p) : -1;
    std::filesystem::remove(file);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(RoomHint, ComputerGameOneComputationPerPlyAnsweredToTheAskersAndMarkedInTheRecord) {
    Fixture f;
    const Created g = f.create(Opponent::Computer, 0);
    auto room = f.room(g.id);
    Client c(room), tab(room), watcher(room);
    c.hello(g.secret, "hint-seed");
    tab.hello(g.secret, "hint-seed");
    watcher.hello();
    // Before a move is due: refused, nothing queued.
    const json first = c.state();
    ASSERT_EQ(first["phase"], "throw");
    c.send("hint", {{"ply", first["ply"]}});
    EXPECT_EQ(c.waitForError("wrong-phase").value("message", ""), "a hint is for a move: throw first");
    EXPECT_EQ(f.scheduler.pending(), 0u);
    // A move is due with at least two choices (a single legal move is hinted all the same).
    json s = throwUntilMove(f, c, 0);
    ASSERT_TRUE(s.is_object());
    const std::size_t pliesBefore = recordPlies(f, g.id);
    f.scheduler.runAll();  // the spectator count's flush: nothing else is queued now
    ASSERT_EQ(f.scheduler.pending(), 0u);
    const std::size_t framesBefore = watcher.frames().size();
    c.send("hint", {{"ply", s["ply"]}});
    EXPECT_FALSE(c.hasNewError());
    c.send("hint", {{"ply", s["ply"]}});  // again while it is computed: no second computation
    tab.send("hint", {{"ply", s["ply"]}});
    EXPECT_EQ(f.scheduler.pending(), 1u) << "one computation per ply";
    EXPECT_TRUE(hintsOf(c).empty()) << "computed off the room's thread, not at once";
    f.scheduler.runAll();
    ASSERT_EQ(hintsOf(c).size(), 1u) << "one answer per connection that asked";
    ASSERT_EQ(hintsOf(tab).size(), 1u);
    const json hint = hintsOf(c)[0];
    expectHintFor(hint, s);
    EXPECT_EQ(hintsOf(tab)[0], hint);
    // Cached: a later request at the same ply is answered at once, with the same list.
    c.send("hint", {{"ply", s["ply"]}});
    EXPECT_EQ(f.scheduler.pending(), 0u);
    ASSERT_EQ(hintsOf(c).size(), 2u);
    EXPECT_EQ(hintsOf(c)[1], hint);
    // Nothing changed and nobody else was told: the state is the same, the spectator got nothing.
    EXPECT_EQ(c.state(), s);
    EXPECT_EQ(watcher.frames().size(), framesBefore);
    EXPECT_TRUE(hintsOf(watcher).empty());
    watcher.send("hint", {{"ply", s["ply"]}});
    watcher.waitForError("not-seated");
    c.send("hint", {{"ply", s["ply"].get<int>() + 1}});
    c.waitForError("wrong-ply");
    // The best move is played: that ply is marked; the computer's plies and later unhinted
    // moves of the human are not.
    c.send("move", {{"ply", s["ply"]}, {"move", hint["moves"][0]["move"]}});
    ASSERT_FALSE(c.hasNewError()) << c.errors().back().dump();
    for (int guard = 0; guard < 50 && c.state()["seatToAct"] != 0 && c.state()["phase"] != "over"; ++guard) f.scheduler.runAll();
    if (c.state()["phase"] != "over") {
        const json later = throwUntilMove(f, c, 0);
        if (later.is_object()) c.send("move", {{"ply", later["ply"]}, {"move", later["legalMoves"][0]["move"]}});
    }
    if (c.state()["phase"] != "over") c.send("resign");
    const json record = json::parse(*room->verifiableRecord());
    ASSERT_TRUE(record.contains("hints")) << record.dump();
    EXPECT_EQ(record["hints"], json::array({pliesBefore}));
    EXPECT_EQ(record["plies"][pliesBefore]["move"], hint["moves"][0]["move"]);
    expectVerifies(*room, "hint-computer");
    // Stored with the move: a room loaded again from storage has the same record.
    Registry again(f.faulty, f.metrics, f.scheduler, f.config, f.clock);
    Lookup l = again.find(g.id);
    ASSERT_EQ(l.status, LookupStatus::Found);
    EXPECT_EQ(json::parse(*l.room->verifiableRecord()), record);
    // A record whose marks are not ply indices with a move is malformed for `senet verify`.
    json bad = record;
    bad["hints"] = json::array({record["plies"].size()});
    const auto [status, out] = verify(bad, "bad-hints");
    EXPECT_EQ(status, 2) << out;
    EXPECT_NE(out.find("\"hints\" must be a list of increasing ply indices"), std::string::npos) << out;
    json friendly = record;
    friendly["phrases"] = json::array({0, 0});
    EXPECT_EQ(verify(friendly, "friend-hints").first, 1) << "a friend game with hints is refused";
    json none = record;
    none.erase("hints");
    EXPECT_EQ(verify(none, "no-hints").first, 0) << "a record without hints (an older one) verifies";
}

/// Exact values that know every position: the player to throw wins a quarter of the time.
class QuarterForTheThrower final : public ai::ExactValues {
public:
    std::optional<double> winChance(const Position&) const override { return 0.25; }
};

TEST(RoomHint, ExactValuesFromTheTablesAreMarkedExact) {
    Fixture f;
    QuarterForTheThrower exact;
    f.registry->setExactValues(&exact);
    const Created g = f.create(Opponent::Local, 0);
    Client c(f.room(g.id));
    c.hello(g.secret, "exact-hint");
    const json s = throwUntilMove(f, c, c.state()["seatToAct"]);
    ASSERT_TRUE(s.is_object());
    c.send("hint", {{"ply", s["ply"]}});
    f.scheduler.runAll();
    ASSERT_EQ(hintsOf(c).size(), 1u);
    const json hint = hintsOf(c)[0];
    ASSERT_EQ(hint["moves"].size(), s["legalMoves"].size());
    // After a move the other player throws (0.75 for the mover), or the mover again after a 1, 4 or 5 (0.25).
    const double expected = s["lastThrow"]["value"].get<int>() % 4 == 1 || s["lastThrow"]["value"] == 4 ? 0.25 : 0.75;
    for (const json& m : hint["moves"]) {
        EXPECT_EQ(m["exact"], true) << hint.dump();
        EXPECT_DOUBLE_EQ(m["winChance"].get<double>(), expected) << hint.dump();
    }
}

TEST(RoomHint, LocalGameEitherSeatAndATakeBackKeepsTheMarkOfTheDecisionItReturnsTo) {
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    auto room = f.room(g.id);
    Client c(room);
    c.hello(g.secret, "local-hint");
    const json s = throwUntilMove(f, c, 0);
    ASSERT_TRUE(s.is_object());
    const std::size_t index = recordPlies(f, g.id);
    c.send("hint", {{"ply", s["ply"]}});
    f.scheduler.runAll();
    ASSERT_EQ(hintsOf(c).size(), 1u);
    expectHintFor(hintsOf(c)[0], s);
    c.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
    ASSERT_FALSE(c.hasNewError());
    // Take it back: the same decision comes again, still seen with its hint; moving again marks it.
    c.send("takeback", {{"ply", c.state()["ply"]}});
    ASSERT_FALSE(c.hasNewError()) << c.errors().back().dump();
    EXPECT_EQ(c.state()["position"], s["position"]);
    const json again = c.state();
    c.send("move", {{"ply", again["ply"]}, {"move", again["legalMoves"].back()["move"]}});
    ASSERT_FALSE(c.hasNewError());
    // The other seat (same device) asks too, at its own move.
    const int other = c.state()["seatToAct"];
    const json t = throwUntilMove(f, c, other);
    std::size_t otherIndex = 0;
    if (t.is_object()) {
        otherIndex = recordPlies(f, g.id);
        c.send("hint", {{"ply", t["ply"]}});
        f.scheduler.runAll();
        ASSERT_EQ(hintsOf(c).size(), 2u);
        expectHintFor(hintsOf(c)[1], t);
        c.send("move", {{"ply", t["ply"]}, {"move", t["legalMoves"][0]["move"]}});
    }
    if (c.state()["phase"] != "over") c.send("resign");
    const json record = json::parse(*room->verifiableRecord());
    json expected = json::array({index});
    if (t.is_object() && otherIndex != index) expected.push_back(otherIndex);
    EXPECT_EQ(record["hints"], expected) << record.dump();
    EXPECT_EQ(record["plies"][index]["move"], again["legalMoves"].back()["move"]);
    expectVerifies(*room, "hint-local");
}

TEST(RoomHint, TakingBackPastAHintedPlyKeepsItsMark) {
    // A move, then a hinted move; two take-backs; the first move again, and the hinted decision
    // comes back (throws follow the ply's index): moved again, it is still marked.
    Fixture f;
    const Created g = f.create(Opponent::Local, 0);
    auto room = f.room(g.id);
    Client c(room);
    c.hello(g.secret, "local-hint-twice");
    const json first = throwUntilMove(f, c, c.state()["seatToAct"]);
    ASSERT_TRUE(first.is_object());
    c.send("move", {{"ply", first["ply"]}, {"move", first["legalMoves"][0]["move"]}});
    ASSERT_FALSE(c.hasNewError());
    const json second = throwUntilMove(f, c, c.state()["seatToAct"]);
    ASSERT_TRUE(second.is_object());
    const std::size_t hintedIndex = recordPlies(f, g.id);
    c.send("hint", {{"ply", second["ply"]}});
    f.scheduler.runAll();
    ASSERT_EQ(hintsOf(c).size(), 1u);
    c.send("move", {{"ply", second["ply"]}, {"move", second["legalMoves"][0]["move"]}});
    ASSERT_FALSE(c.hasNewError());
    for (int k = 0; k < 2; ++k) {
        c.send("takeback", {{"ply", c.state()["ply"]}});
        ASSERT_FALSE(c.hasNewError()) << c.errors().back().dump();
    }
    EXPECT_EQ(c.state()["position"], first["position"]);
    c.send("move", {{"ply", c.state()["ply"]}, {"move", first["legalMoves"][0]["move"]}});
    ASSERT_FALSE(c.hasNewError());
    const json again = throwUntilMove(f, c, second["seatToAct"]);
    ASSERT_TRUE(again.is_object());
    EXPECT_EQ(again["position"], second["position"]);
    ASSERT_EQ(recordPlies(f, g.id), hintedIndex);
    c.send("move", {{"ply", again["ply"]}, {"move", again["legalMoves"][0]["move"]}});  // no hint asked this time
    ASSERT_FALSE(c.hasNewError());
    c.send("resign");
    const json record = json::parse(*room->verifiableRecord());
    EXPECT_EQ(record["hints"], json::array({hintedIndex})) << record.dump();
    expectVerifies(*room, "hint-twice");
}

TEST(RoomHint, RefusedInFriendAndLobbyGamesAndNothingChanges) {
    Fixture f;
    for (const bool lobby : {false, true}) {
        SCOPED_TRACE(lobby ? "lobby game" : "friend game");
        const Created g = f.create(Opponent::Friend, 0);
        auto room = f.room(g.id);
        const JoinOutcome j = room->join(g.inviteToken);
        if (lobby) room->setGuestNames({"Nefertari", "Guest 4821"});
        Client a(room), b(room);
        a.hello(g.secret, "friend-a");
        b.hello(j.secret, "friend-b");
        const json s = throwUntilMove(f, a, 0);
        ASSERT_TRUE(s.is_object());
        const std::size_t framesOfB = b.frames().size();
        a.send("hint", {{"ply", s["ply"]}});
        EXPECT_EQ(a.waitForError("no-hint").value("message", ""),
                  "a game between two people has no hints: each player plays unaided");
        b.send("hint", {{"ply", s["ply"]}});
        b.waitForError("no-hint");
        EXPECT_EQ(f.scheduler.pending(), 0u) << "nothing computed";
        EXPECT_TRUE(hintsOf(a).empty());
        EXPECT_EQ(a.state(), s);
        EXPECT_EQ(b.frames().size(), framesOfB + 1) << "only b's own error";
        a.send("move", {{"ply", s["ply"]}, {"move", s["legalMoves"][0]["move"]}});
        ASSERT_FALSE(a.hasNewError());
        a.send("resign");
        const json record = json::parse(*room->verifiableRecord());
        EXPECT_FALSE(record.contains("hints")) << record.dump();
        expectVerifies(*room, lobby ? "hint-lobby" : "hint-friend");
    }
}

}  // namespace
}  // namespace senet::testing
