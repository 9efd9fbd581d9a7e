// No silent start without the games: after games were played, each of the store's files is
// deleted, emptied or replaced after a SIGKILL and after a clean stop (SIGTERM), and the real
// server either refuses (exit 1, one line naming the file) or starts with every game;
// --accept-lost-games starts anyway and re-bases the state file. A data directory that never
// held a game starts whatever happened to its database.
#include <signal.h>

#include "fixture.hpp"
#include "storage_support.hpp"

namespace senet::testing {
namespace {

namespace fs = std::filesystem;

/// What is done to the store's files while the server is down.
enum class Damage { DeleteWal, EmptyWal, HeaderOnlyWal, DeleteMain, EmptyMain, ReplaceMain, DeleteStateAndWal };

const char* damageName(Damage d) {
    switch (d) {
        case Damage::DeleteWal: return "DeleteWal";
        case Damage::EmptyWal: return "EmptyWal";
        case Damage::HeaderOnlyWal: return "HeaderOnlyWal";
        case Damage::DeleteStateAndWal: return "DeleteStateAndWal";
        case Damage::DeleteMain: return "DeleteMain";
        case Damage::EmptyMain: return "EmptyMain";
        case Damage::ReplaceMain: return "ReplaceMain";
    }
    return "?";
}

/// One case: the damage, how the server stopped before it, and whether a start must be refused.
struct Case {
    Damage damage;
    int signal;
    bool refused;
    const char* what;  ///< a word of the refusal line ("missing", "empty", "different")
};

std::ostream& operator<<(std::ostream& o, const Case& c) { return o << damageName(c.damage) << "/" << c.signal; }

class StartGuard : public ServerTest {
protected:
    fs::path data() const { return dir_.path() / "data"; }
    fs::path db() const { return data() / "senet.sqlite3"; }
    fs::path wal() const { return data() / "senet.sqlite3-wal"; }
    fs::path state() const { return data() / "senet.sqlite3.state"; }

    /// Plays games and stops the server with `signal`.
    void populateAndStop(int signal) {
        std::mt19937 rng(29);
        total_ = populate(port(), 4, 20, rng, &games_);
        ASSERT_GT(total_, 40);
        ASSERT_EQ(server_->stop(signal), signal == SIGKILL ? 128 + SIGKILL : 0);
        server_.reset();
        if (signal == SIGKILL) ASSERT_GT(fs::file_size(wal()), 32u);  // nearly everything is in the WAL
        else ASSERT_FALSE(fs::exists(wal()));                           // a clean stop folds it and removes it
    }

    /// A database of another server (a game of its own, stopped cleanly).
    std::string otherDatabase() {
        const fs::path other = dir_.path() / "other";
        {
            ServerProcess s(other, web_);
            createGame(s.port(), "standard", "local");
            EXPECT_EQ(s.stop(SIGTERM), 0);
        }
        return readBytes(other / "senet.sqlite3");
    }

    void apply(Damage d) {
        switch (d) {
            case Damage::DeleteWal: fs::remove(wal()); break;
            case Damage::EmptyWal: writeBytes(wal(), ""); break;
            case Damage::HeaderOnlyWal:  // the WAL's 32-byte header without a frame
                fs::resize_file(wal(), 32);
                fs::remove(data() / "senet.sqlite3-shm");
                break;
            case Damage::DeleteStateAndWal:
                fs::remove(state());
                fs::remove(wal());
                break;
            case Damage::DeleteMain: fs::remove(db()); break;
            case Damage::EmptyMain: writeBytes(db(), ""); break;
            case Damage::ReplaceMain: writeBytes(db(), otherDatabase()); break;
        }
    }

    /// Starts the server and expects exit 1 with one line naming `file` ("the WAL PATH" or "the
    /// database PATH"), what is wrong and the recovery section; returns that line.
    std::string expectRefusal(const fs::path& file, const std::string& what) {
        const std::string named = (file == wal() ? "the WAL " : "the database ") + file.string() + " is ";
        CapturedServer s(data(), web_);
        if (s.waitFor("listening on")) {
            ADD_FAILURE() << "started without its games:\n" << s.output();
            s.stop(SIGTERM);
            return {};
        }
        EXPECT_EQ(s.waitExit(), 1) << s.output();
        const std::string& out = s.output();
        const std::size_t at = out.find("refusing to start");
        if (at == std::string::npos) {
            ADD_FAILURE() << "no refusal line:\n" << out;
            return {};
        }
        const std::string line = out.substr(at, out.find('\n', at) - at);
        EXPECT_NE(line.find(named), std::string::npos) << line;
        EXPECT_NE(line.find(what), std::string::npos) << line;
        EXPECT_NE(line.find("Recovery"), std::string::npos) << line;
        EXPECT_NE(line.find("--accept-lost-games"), std::string::npos) << line;
        return line;
    }

    /// Every game is served with every acknowledged action by the server at `port`.
    void expectEveryGame(unsigned short port) {
        long long plies = 0;
        for (const auto& g : games_) {
            WsClient c(port, g.id);
            plies += c.hello(g.secret)["ply"].get<long long>();
        }
        EXPECT_EQ(plies, total_);
    }

    std::vector<NewGame> games_;
    long long total_ = 0;
};

class StartGuardCase : public StartGuard, public ::testing::WithParamInterface<Case> {};

TEST_P(StartGuardCase, RefusesOrStartsWithEveryGame) {
    const Case c = GetParam();
    populateAndStop(c.signal);
    apply(c.damage);
    const bool walDamage = c.damage == Damage::DeleteWal || c.damage == Damage::EmptyWal || c.damage == Damage::HeaderOnlyWal;
    if (!c.refused) {
        CapturedServer s(data(), web_);
        ASSERT_TRUE(s.waitFor("listening on")) << s.output();
        expectEveryGame(s.port());
        EXPECT_EQ(s.stop(SIGTERM), 0);
        return;
    }
    const bool mainThere = fs::exists(db());
    const std::string mainBytes = readBytes(db());
    expectRefusal(walDamage ? wal() : db(), c.what);
    // The refusal changed nothing: a missing file is not made, the others are as they were.
    EXPECT_EQ(fs::exists(db()), mainThere);
    EXPECT_EQ(readBytes(db()), mainBytes);
    // Asked again, the same answer.
    expectRefusal(walDamage ? wal() : db(), c.what);
}

TEST_P(StartGuardCase, AcceptLostGamesStartsAndRebasesTheStateFile) {
    const Case c = GetParam();
    if (!c.refused) GTEST_SKIP() << "this case starts without the flag";
    populateAndStop(c.signal);
    apply(c.damage);
    {
        CapturedServer s(data(), web_, {"--accept-lost-games"});
        ASSERT_TRUE(s.waitFor("listening on")) << s.output();
        EXPECT_NE(s.output().find("WARNING: --accept-lost-games"), std::string::npos) << s.output();
        EXPECT_EQ(s.stop(SIGTERM), 0);
    }
    // Re-based on what is there: the next start needs no flag.
    CapturedServer s(data(), web_);
    ASSERT_TRUE(s.waitFor("listening on")) << s.output();
    EXPECT_EQ(s.output().find("WARNING"), std::string::npos) << s.output();
    EXPECT_EQ(s.stop(SIGTERM), 0);
}

// An empty WAL after a SIGKILL is refused: SQLite would read it as "no transactions", but the
// server commits a start mark into its WAL before it serves, so a WAL it left is never empty.
// After a clean stop the main file holds everything and an empty WAL loses nothing.
INSTANTIATE_TEST_SUITE_P(Files, StartGuardCase,
                         ::testing::Values(Case{Damage::DeleteWal, SIGKILL, true, "missing"},
                                           Case{Damage::DeleteWal, SIGTERM, false, ""},
                                           Case{Damage::EmptyWal, SIGKILL, true, "empty"},
                                           Case{Damage::EmptyWal, SIGTERM, false, ""},
                                           Case{Damage::HeaderOnlyWal, SIGKILL, true, "only a header"},
                                           Case{Damage::DeleteStateAndWal, SIGKILL, true, "state file"},
                                           Case{Damage::DeleteStateAndWal, SIGTERM, true, "state file"},
                                           Case{Damage::DeleteMain, SIGKILL, true, "missing"},
                                           Case{Damage::DeleteMain, SIGTERM, true, "missing"},
                                           Case{Damage::EmptyMain, SIGKILL, true, "empty"},
                                           Case{Damage::EmptyMain, SIGTERM, true, "empty"},
                                           Case{Damage::ReplaceMain, SIGKILL, true, "different database"},
                                           Case{Damage::ReplaceMain, SIGTERM, true, "different database"}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                             return std::string(damageName(info.param.damage)) + (info.param.signal == SIGKILL ? "AfterKill" : "AfterStop");
                         });

TEST_F(StartGuard, AFreshDataDirectoryStartsAndKeepsAStateFile) {
    EXPECT_TRUE(fs::exists(state()));
    createGame(port(), "standard", "local");
    ASSERT_EQ(server_->stop(SIGTERM), 0);
    restart();
    EXPECT_TRUE(fs::exists(state()));
}

TEST_F(StartGuard, ADirectoryThatNeverHeldAGameStartsAfterItsDatabaseIsDeleted) {
    for (const int signal : {SIGTERM, SIGKILL}) {
        ASSERT_EQ(server_->stop(signal), signal == SIGKILL ? 128 + SIGKILL : 0);
        server_.reset();
        fs::remove(db());
        fs::remove(wal());
        CapturedServer s(data(), web_);
        ASSERT_TRUE(s.waitFor("listening on")) << s.output();
        EXPECT_EQ(s.stop(SIGTERM), 0);
        restart();
    }
}

TEST_F(StartGuard, AMissingStateFileBesideADatabaseWithGamesIsMadeAgain) {
    // A data directory of an older server: no state file, and a database without an identity
    // (application_id 0, bytes 68 to 71 of its header).
    populateAndStop(SIGTERM);
    fs::remove(state());
    std::string bytes = readBytes(db());
    ASSERT_GT(bytes.size(), 100u);
    bytes.replace(68, 4, std::string(4, '\0'));
    writeBytes(db(), bytes);
    {
        CapturedServer s(data(), web_);
        ASSERT_TRUE(s.waitFor("listening on")) << s.output();
        expectEveryGame(s.port());
        EXPECT_EQ(s.stop(SIGKILL), 128 + SIGKILL);
    }
    EXPECT_TRUE(fs::exists(state()));
    // From now on the games are guarded.
    fs::remove(wal());
    expectRefusal(wal(), "missing");
}

}  // namespace
}  // namespace senet::testing
