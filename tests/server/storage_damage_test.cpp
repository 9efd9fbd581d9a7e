// A damaged database never serves silently: after a SIGKILL leaves a WAL, a WAL cut mid-frame or
// with a garbled header stops the start with a message naming the files, and a copy of both is
// kept; a damaged main file fails PRAGMA quick_check; --accept-damaged-wal serves what SQLite
// recovers. The real server process and real SQLite files throughout.
#include <signal.h>

#include <fstream>

#include "fixture.hpp"
#include "storage_support.hpp"

namespace senet::testing {
namespace {

namespace fs = std::filesystem;

class StorageDamage : public ServerTest {
protected:
    fs::path data() const { return dir_.path() / "data"; }
    fs::path db() const { return data() / "senet.sqlite3"; }
    fs::path wal() const { return data() / "senet.sqlite3-wal"; }
    fs::path recovery() const { return data() / "recovery"; }

    /// Plays games, SIGKILLs the server and checks that a WAL is left holding every action.
    void populateAndKill(int games = 6, int actions = 30) {
        std::mt19937 rng(17);
        total_ = populate(port(), games, actions, rng, &games_);
        ASSERT_GT(total_, games * 10);
        ASSERT_EQ(server_->stop(SIGKILL), 128 + SIGKILL);
        server_.reset();
        ASSERT_TRUE(fs::exists(wal()));
        ASSERT_GT(fs::file_size(wal()), 32u);
        ASSERT_EQ(countRows(db()), std::make_pair(static_cast<long long>(games), total_));
    }

    /// Runs the server on the data directory and expects it to refuse to start.
    std::string expectRefusal(std::vector<std::string> extra = {}) {
        CapturedServer s(data(), web_, std::move(extra));
        const bool started = s.waitFor("listening on", std::chrono::seconds(20));
        if (started) {
            // Let it restore and shut down cleanly, as it would in production.
            s.stop(SIGTERM);
            ADD_FAILURE() << "the server started on damaged files:\n" << s.output();
            return s.output();
        }
        EXPECT_NE(s.waitExit(), 0) << s.output();
        return s.output();
    }

    std::vector<NewGame> games_;
    long long total_ = 0;
};

/// The WAL's page size from its header.
std::uint32_t walPageSize(const std::string& bytes) {
    auto b = [&](int i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)])); };
    return (b(8) << 24) | (b(9) << 16) | (b(10) << 8) | b(11);
}

TEST_F(StorageDamage, WalCutMidFrameRefusesToStartAndIsCopiedAside) {
    populateAndKill();
    const std::string whole = readBytes(wal());
    const std::size_t frame = 24 + walPageSize(whole);
    const std::size_t frames = (whole.size() - 32) / frame;
    ASSERT_GT(frames, 20u);
    // Cut in the middle of a page, away from a 4 KiB boundary: not where a killed write stops.
    std::size_t cut = 32 + (frames / 2) * frame + 24 + 1000;
    if (cut % 4096 == 0) --cut;
    const std::string truncated = whole.substr(0, cut);
    writeBytes(wal(), truncated);
    const std::string mainBytes = readBytes(db());
    const auto recoverable = countRows(db());  // what SQLite itself reads from the cut files
    ASSERT_GT(recoverable.second, 0);
    ASSERT_LT(recoverable.second, total_);

    const std::string out = expectRefusal();
    EXPECT_NE(out.find(db().string()), std::string::npos) << out;
    EXPECT_NE(out.find(wal().string()), std::string::npos) << out;
    EXPECT_NE(out.find("damaged"), std::string::npos) << out;
    // The copy: both files byte for byte, named in the message, and SQLite reads it.
    const auto copies = filesEndingWith(recovery(), ".sqlite3");
    ASSERT_EQ(copies.size(), 1u) << out;
    EXPECT_NE(out.find(copies[0].string()), std::string::npos) << out;
    EXPECT_EQ(readBytes(copies[0].string() + "-wal"), truncated);
    EXPECT_EQ(readBytes(copies[0]), mainBytes);
    EXPECT_EQ(countRows(copies[0]), recoverable);
    // Nothing was touched: the live files are as they were.
    EXPECT_EQ(readBytes(wal()), truncated);
    EXPECT_EQ(readBytes(db()), mainBytes);
    // A second refused start keeps the one copy rather than piling up copies.
    expectRefusal();
    EXPECT_EQ(filesEndingWith(recovery(), ".sqlite3").size(), 1u);
}

TEST_F(StorageDamage, GarbledWalHeaderRefusesAndTheCopyHoldsEveryAction) {
    populateAndKill();
    const std::string whole = readBytes(wal());
    std::string garbled = whole;
    for (int i = 0; i < 4; ++i) garbled[static_cast<std::size_t>(i)] = static_cast<char>(0x5a);  // the magic number
    writeBytes(wal(), garbled);
    EXPECT_LE(countRows(db()).second, 0);  // SQLite alone would start with none of the actions (not even the tables)

    const std::string out = expectRefusal();
    EXPECT_NE(out.find(db().string()), std::string::npos) << out;
    EXPECT_NE(out.find(wal().string()), std::string::npos) << out;
    const auto copies = filesEndingWith(recovery(), ".sqlite3");
    ASSERT_EQ(copies.size(), 1u) << out;
    EXPECT_NE(out.find(copies[0].string()), std::string::npos) << out;
    // Mend the copy's header: every action is in it.
    std::string copyWal = readBytes(copies[0].string() + "-wal");
    ASSERT_EQ(copyWal, garbled);
    copyWal.replace(0, 4, whole.substr(0, 4));
    writeBytes(copies[0].string() + "-wal", copyWal);
    EXPECT_EQ(countRows(copies[0]), std::make_pair(static_cast<long long>(games_.size()), total_));
}

/// Overwrites pages [from, to) of a database file with a pattern.
void garblePages(const fs::path& db, std::size_t from, std::size_t to) {
    std::string bytes = readBytes(db);
    const std::size_t page = 4096;
    ASSERT_GE(bytes.size(), to * page);
    for (std::size_t i = from * page; i < to * page; ++i) bytes[i] = static_cast<char>(0xa5 ^ (i * 31));
    writeBytes(db, bytes);
}

TEST_F(StorageDamage, DamagedMainFileFailsQuickCheckAndNamesTheFile) {
    std::mt19937 rng(3);
    populate(port(), 6, 30, rng);
    ASSERT_EQ(server_->stop(SIGTERM), 0);  // a clean stop: everything is in the main file
    server_.reset();
    ASSERT_FALSE(fs::exists(wal()) && fs::file_size(wal()) > 0);
    const std::size_t pages = fs::file_size(db()) / 4096;
    ASSERT_GE(pages, 6u);
    garblePages(db(), 2, pages);  // every page but the schema's
    const std::string out = expectRefusal();
    EXPECT_NE(out.find(db().string()), std::string::npos) << out;
    EXPECT_NE(out.find("quick_check"), std::string::npos) << out;
}

TEST_F(StorageDamage, StorageErrorsNameTheFileWhenTheCheckIsSkipped) {
    std::mt19937 rng(4);
    populate(port(), 6, 30, rng);
    ASSERT_EQ(server_->stop(SIGTERM), 0);
    server_.reset();
    garblePages(db(), 2, fs::file_size(db()) / 4096);
    // Without the check the damage shows when the games are read: the error names the file.
    const std::string out = expectRefusal({"--skip-quick-check"});
    EXPECT_EQ(out.find("quick_check"), std::string::npos) << out;
    EXPECT_NE(out.find(db().string()), std::string::npos) << out;
}

TEST_F(StorageDamage, AcceptDamagedWalServesWhatSqliteRecoversAndKeepsTheCopy) {
    populateAndKill();
    const std::string whole = readBytes(wal());
    const std::size_t frame = 24 + walPageSize(whole);
    std::size_t cut = 32 + ((whole.size() - 32) / frame / 2) * frame + 24 + 777;
    if (cut % 4096 == 0) --cut;
    writeBytes(wal(), whole.substr(0, cut));
    const auto recoverable = countRows(db());

    CapturedServer s(data(), web_, {"--accept-damaged-wal"});
    ASSERT_TRUE(s.waitFor("listening on")) << s.output();
    const std::string out = s.output();
    EXPECT_NE(out.find("WARNING"), std::string::npos) << out;
    EXPECT_NE(out.find(wal().string()), std::string::npos) << out;
    EXPECT_NE(out.find(std::to_string(recoverable.first) + " games and " + std::to_string(recoverable.second) + " actions"),
              std::string::npos)
        << out;
    // The first game was created before the cut: it is served.
    EXPECT_EQ(httpRequest(s.port(), "GET", "/api/games/" + games_[0].id).status, 200);
    EXPECT_EQ(s.stop(SIGTERM), 0);
    // The clean stop folds the WAL into the main file and removes it; the copy stays.
    EXPECT_FALSE(fs::exists(wal()) && fs::file_size(wal()) > 0);
    const auto copies = filesEndingWith(recovery(), ".sqlite3");
    ASSERT_EQ(copies.size(), 1u);
    EXPECT_EQ(readBytes(copies[0].string() + "-wal"), whole.substr(0, cut));
    EXPECT_EQ(countRows(copies[0]), recoverable);
}

}  // namespace
}  // namespace senet::testing
