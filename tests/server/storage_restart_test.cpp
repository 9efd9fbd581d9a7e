// No false alarm: an intact WAL left by a SIGKILL — idle, or with writes in flight — starts the
// server and restores every acknowledged action, round after round. Online backups appear on
// schedule, whole, pruned to --backup-keep, and hold the games.
#include <signal.h>
#include <sqlite3.h>

#include <atomic>
#include <thread>

#include "fixture.hpp"
#include "storage_support.hpp"

namespace senet::testing {
namespace {

namespace fs = std::filesystem;

class StorageRestart : public ServerTest {
protected:
    fs::path data() const { return dir_.path() / "data"; }
    fs::path db() const { return data() / "senet.sqlite3"; }
    fs::path wal() const { return data() / "senet.sqlite3-wal"; }
};

/// A game played by a thread until told to stop or the server goes away; `acked` is the last
/// acknowledged ply.
struct Player {
    NewGame game;
    std::atomic<long long> acked{0};
    std::thread thread;
};

TEST_F(StorageRestart, IntactWalAfterSigkillRestoresEveryActionRoundAfterRound) {
    std::mt19937 rng(23);
    std::vector<std::unique_ptr<Player>> players;
    long long idleTotal = 0;
    std::vector<NewGame> idleGames;
    for (int round = 0; round < 6; ++round) {
        // Even rounds: kill while idle. Odd rounds: kill while three games write as fast as they
        // can, so the kill may land inside a commit (a torn last frame is not damage).
        if (round % 2 == 0) {
            idleTotal += populate(port(), 2, 15, rng, &idleGames);
        } else {
            for (int i = 0; i < 3; ++i) {
                auto p = std::make_unique<Player>();
                p->game = createGame(port(), i == 0 ? "standard" : i == 1 ? "jequier" : "bell", "local");
                const unsigned short at = port();
                Player* raw = p.get();
                raw->thread = std::thread([raw, at, seed = rng()] {
                    try {
                        std::mt19937 r(seed);
                        WsClient c(at, raw->game.id);
                        if (!c.tryHello(raw->game.secret, "w").is_object()) return;
                        while (!c.closed() && c.state()["phase"] != "over") {
                            const long long before = c.state()["ply"].get<long long>();
                            const long long ply = tryPlayActions(c, 1, r)["ply"].get<long long>();
                            if (ply == before) break;  // not acknowledged: the server is gone
                            raw->acked = ply;
                        }
                    } catch (const std::exception&) {
                        // the server was killed under this client: what was acknowledged is recorded
                    }
                });
                players.push_back(std::move(p));
            }
            // Every writer under way, then the kill at a random moment.
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            for (auto& p : players)
                while (p->thread.joinable() && p->acked.load() < 2 && std::chrono::steady_clock::now() < until)
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
            std::this_thread::sleep_for(std::chrono::milliseconds(20 + rng() % 200));
        }
        ASSERT_EQ(server_->stop(SIGKILL), 128 + SIGKILL);
        for (auto& p : players)
            if (p->thread.joinable()) p->thread.join();
        ASSERT_TRUE(fs::exists(wal()) && fs::file_size(wal()) > 32) << "round " << round;
        const std::string walBefore = readBytes(wal());

        // It starts, says the WAL is intact, and every acknowledged action is back.
        CapturedServer s(data(), web_);
        ASSERT_TRUE(s.waitFor("listening on")) << "round " << round << ": false alarm?\n" << s.output();
        EXPECT_NE(s.output().find("intact"), std::string::npos) << s.output();
        for (const auto& g : idleGames) {
            WsClient c(s.port(), g.id);
            EXPECT_GT(c.hello(g.secret)["ply"].get<long long>(), 0) << g.id;
        }
        for (const auto& p : players) {
            WsClient c(s.port(), p->game.id);
            const long long ply = c.hello(p->game.secret)["ply"].get<long long>();
            EXPECT_GE(ply, p->acked.load()) << "round " << round << " game " << p->game.id;
            EXPECT_LE(ply, p->acked.load() + 1) << "round " << round << " game " << p->game.id;
        }
        ASSERT_EQ(s.stop(SIGTERM), 0);
        // The recovery copy of this round holds the WAL as it was.
        const auto copies = filesEndingWith(data() / "recovery", ".sqlite3");
        ASSERT_FALSE(copies.empty());
        EXPECT_LE(copies.size(), 3u);  // intact copies are pruned to the newest three
        EXPECT_EQ(readBytes(copies.back().string() + "-wal"), walBefore) << "round " << round;
        restart();
    }
    // The idle games' every action, counted in the final database.
    std::mt19937 unused(1);
    long long idleNow = 0;
    for (const auto& g : idleGames) {
        WsClient c(port(), g.id);
        idleNow += c.hello(g.secret)["ply"].get<long long>();
    }
    EXPECT_EQ(idleNow, idleTotal);
}

/// A second server on the same data directory is refused (status 3: a restart cannot help)
/// before it touches the database or its WAL, which it would otherwise take for a crash's and
/// copy aside; the first one serves on, untouched.
TEST_F(StorageRestart, ASecondServerOnTheSameDataDirectoryIsRefused) {
    std::mt19937 rng(5);
    const NewGame g = createGame(port(), "standard", "local");
    WsClient c(port(), g.id);
    c.hello(g.secret, "a");
    const long long ply = playActions(c, 9, rng)["ply"].get<long long>();
    {
        CapturedServer second(dir_.path() / "data", web_);
        EXPECT_EQ(second.waitExit(std::chrono::seconds(30)), 3) << second.output();
        const std::string& out = second.output();
        EXPECT_EQ(out.find("listening on"), std::string::npos) << out;
        EXPECT_NE(out.find("in use by another process (pid "), std::string::npos) << out;
        EXPECT_NE(out.find("--data-dir"), std::string::npos) << "the message says how to fix it: " << out;
        EXPECT_EQ(out.find("unclean stop"), std::string::npos) << "the first server's WAL was taken for a crash's: " << out;
    }
    EXPECT_FALSE(fs::exists(dir_.path() / "data" / "recovery")) << "the live WAL was copied aside";
    // The first server goes on: the game is there and takes actions.
    const long long more = playActions(c, 3, rng)["ply"].get<long long>();
    EXPECT_EQ(more, ply + 3);
    ASSERT_EQ(server_->stop(SIGTERM), 0);
    restart();
    WsClient again(port(), g.id);
    EXPECT_EQ(again.hello(g.secret)["ply"].get<long long>(), more);
}

class Backups : public ServerTest {
protected:
    std::vector<std::string> flags() const override {
        return {"--backup-dir", (dir_.path() / "backups").string(), "--backup-minutes", "0.02", "--backup-keep", "3",
                // The writer creates games faster than one address may: limits lifted.
                "--create-rate", "1000000", "--create-burst", "1000000", "--max-connections-per-address", "100000"};
    }
};

/// games and actions in a backup file, opened read-only where it lies; also its quick_check.
struct BackupContent {
    long long games = -1, actions = -1;
    std::string check;
};

BackupContent readBackup(const fs::path& file) {
    BackupContent out;
    sqlite3* h = nullptr;
    if (sqlite3_open_v2(file.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(h, "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM actions) + (SELECT count(*) FROM action_log)", -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW) {
            out.games = sqlite3_column_int64(st, 0);
            out.actions = sqlite3_column_int64(st, 1);
        }
        sqlite3_finalize(st);
        if (sqlite3_prepare_v2(h, "PRAGMA quick_check", -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
            out.check = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

TEST_F(Backups, AppearOnScheduleWholeAndPrunedAndHoldTheGames) {
    const fs::path dir = dir_.path() / "backups";
    std::mt19937 rng(8);
    const long long total = populate(port(), 4, 20, rng);
    // Wait for backups made after the games: the interval is 1.2 s.
    const auto names = [&] { return filesEndingWith(dir, ".sqlite3"); };
    const auto start = std::chrono::steady_clock::now();
    std::vector<fs::path> seen;
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(30)) {
        for (const auto& f : names())
            if (std::find(seen.begin(), seen.end(), f) == seen.end()) seen.push_back(f);
        if (seen.size() >= 5) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_GE(seen.size(), 5u) << "backups seen in 30 s";
    const BackupContent newest = readBackup(names().back());
    EXPECT_EQ(newest.check, "ok");
    EXPECT_EQ(newest.games, 4);
    EXPECT_EQ(newest.actions, total);
    // Play on, stop cleanly: the shutdown backup holds the last actions too.
    const NewGame g = createGame(port(), "bell", "local");
    WsClient c(port(), g.id);
    c.hello(g.secret, "b");
    const long long more = playActions(c, 7, rng)["ply"].get<long long>();
    ASSERT_EQ(server_->stop(SIGTERM), 0);
    // Stopped: no backup in progress. The newest three are kept, no temporary file is left.
    EXPECT_EQ(names().size(), 3u);  // --backup-keep 3
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos);
    const BackupContent last = readBackup(names().back());
    EXPECT_EQ(last.check, "ok");
    EXPECT_EQ(last.games, 5);
    EXPECT_EQ(last.actions, total + more);
}

/// Games whose stored actions have a gap (a torn snapshot would show some), or -1.
long long gappedGames(const fs::path& file) {
    sqlite3* h = nullptr;
    long long out = -1;
    if (sqlite3_open_v2(file.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(h,
                               "SELECT count(*) FROM (SELECT game_id, max(seq) + 1 AS n, count(*) AS c FROM "
                               "(SELECT game_id, seq FROM actions UNION ALL SELECT game_id, seq FROM action_log) "
                               "GROUP BY game_id) WHERE n != c",
                               -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            out = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

TEST_F(Backups, StayConsistentWhileGamesAreWritten) {
    // A database of some 10 MB (finished filler games), so that a backup takes many steps, and
    // games played all the while.
    ASSERT_EQ(server_->stop(SIGTERM), 0);
    {
        sqlite3* h = nullptr;
        ASSERT_EQ(sqlite3_open((dir_.path() / "data" / "senet.sqlite3").c_str(), &h), SQLITE_OK);
        const char* fill =
            "WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < 999) "
            "INSERT INTO games SELECT printf('filler%06d', i), 'standard', 'local', '', randomblob(32), 's', 's', 'h', 'h', '', "
            "1, 1, 'over', '{}', '', '' FROM g;"
            "WITH RECURSIVE a(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM a WHERE i < 199999) "
            "INSERT INTO actions SELECT printf('filler%06d', i / 200), i % 200, 'm', 0, '10-14', 1 FROM a;";
        ASSERT_EQ(sqlite3_exec(h, fill, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(h);
        sqlite3_close(h);
    }
    const fs::path dir = dir_.path() / "backups";
    std::vector<fs::path> seen = filesEndingWith(dir, ".sqlite3");  // the first server's, at its stop
    const std::size_t before = seen.size();
    restart();
    std::atomic<bool> stop{false};
    std::atomic<long long> played{0};
    std::thread writer([&, at = port()] {
        std::mt19937 r(12);
        try {
            while (!stop) {
                const NewGame g = createGame(at, "standard", "local");
                WsClient c(at, g.id);
                if (!c.tryHello(g.secret, "c").is_object()) return;
                while (!stop && c.state()["phase"] != "over") {
                    const long long before = c.state()["ply"].get<long long>();
                    if (tryPlayActions(c, 1, r)["ply"].get<long long>() == before) return;
                    ++played;
                }
            }
        } catch (const std::exception& e) {
            ADD_FAILURE() << "the writer stopped: " << e.what();
        }
    });
    const auto start = std::chrono::steady_clock::now();
    while (seen.size() < before + 2 && std::chrono::steady_clock::now() - start < std::chrono::seconds(40)) {
        for (const auto& f : filesEndingWith(dir, ".sqlite3"))
            if (std::find(seen.begin(), seen.end(), f) == seen.end()) {
                seen.push_back(f);
                const BackupContent content = readBackup(f);
                if (!fs::exists(f)) continue;  // pruned meanwhile (a very slow test machine)
                EXPECT_EQ(content.check, "ok") << f;
                EXPECT_GE(content.actions, 200000) << f;
                EXPECT_EQ(gappedGames(f), 0) << f;
            }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    stop = true;
    writer.join();
    EXPECT_GE(seen.size(), before + 2);
    EXPECT_GT(played.load(), 100);
}

TEST_F(Backups, AFailedBackupIsLoggedAndPlayGoesOn) {
    // The backup directory turns into a file: backups fail, the games do not notice.
    server_->stop(SIGKILL);
    const fs::path dir = dir_.path() / "backups";
    fs::remove_all(dir);
    CapturedServer s(dir_.path() / "data", web_, flags());
    ASSERT_TRUE(s.waitFor("listening on")) << s.output();
    fs::remove_all(dir);
    writeBytes(dir, "not a directory");
    ASSERT_TRUE(s.waitFor("failed", std::chrono::seconds(15))) << s.output();
    std::mt19937 rng(9);
    EXPECT_GT(populate(s.port(), 1, 10, rng), 0);
    // And the next backup succeeds once the directory is back.
    fs::remove(dir);
    fs::create_directories(dir);
    EXPECT_TRUE(s.waitFor("backup " + dir.string(), std::chrono::seconds(15))) << s.output();
    EXPECT_EQ(s.stop(SIGTERM), 0);
}

}  // namespace
}  // namespace senet::testing
