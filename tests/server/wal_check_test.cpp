// inspectWal on real WAL files written by SQLite, then cut, torn or garbled the ways a crash or
// a damaged disk would: what a killed process leaves is not damage, anything else is.
#include <sqlite3.h>

#include <gtest/gtest.h>

#include "harness.hpp"
#include "sqlite_guard.hpp"
#include "storage_support.hpp"

namespace senet::testing {
namespace {

namespace fs = std::filesystem;
using senet::server::inspectWal;

constexpr std::size_t kPage = 4096;
constexpr std::size_t kFrame = 24 + kPage;

/// A WAL holding `commits` transactions of one row each (written while the connection is open,
/// before any checkpoint), as bytes. With `thenRestart`, the WAL is then checkpointed and
/// `thenRestart` more transactions start it over: a new generation over the old frames.
std::string makeWal(const fs::path& dir, int commits, int thenRestart = 0) {
    const fs::path db = dir / "w.sqlite3";
    sqlite3* h = nullptr;
    EXPECT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(h,
                           "PRAGMA page_size=4096; PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                           "CREATE TABLE t(x TEXT);",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    for (int i = 0; i < commits; ++i) {
        const std::string sql = "INSERT INTO t VALUES ('" + std::string(300, static_cast<char>('a' + i % 26)) + "')";
        EXPECT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    }
    if (thenRestart > 0) {
        EXPECT_EQ(sqlite3_exec(h, "PRAGMA wal_checkpoint(FULL)", nullptr, nullptr, nullptr), SQLITE_OK);
        for (int i = 0; i < thenRestart; ++i)
            EXPECT_EQ(sqlite3_exec(h, "INSERT INTO t VALUES ('again')", nullptr, nullptr, nullptr), SQLITE_OK);
    }
    std::string bytes = readBytes(db.string() + "-wal");
    sqlite3_close(h);
    return bytes;
}

class WalCheck : public ::testing::Test {
protected:
    void SetUp() override {
        whole_ = makeWal(dir_.path(), 40);
        ASSERT_EQ((whole_.size() - 32) % kFrame, 0u);
        frames_ = (whole_.size() - 32) / kFrame;
        ASSERT_GT(frames_, 40u);
    }
    senet::server::WalReport check(const std::string& bytes) {
        const fs::path p = dir_.path() / "test-wal";
        writeBytes(p, bytes);
        return inspectWal(p);
    }
    static std::size_t frameAt(std::size_t i) { return 32 + i * kFrame; }

    TempDir dir_;
    std::string whole_;
    std::size_t frames_ = 0;
};

TEST_F(WalCheck, AnIntactWalIsNotDamage) {
    const auto r = check(whole_);
    EXPECT_FALSE(r.damaged) << r.problem;
    EXPECT_EQ(r.pageSize, kPage);
    EXPECT_EQ(r.wholeFrames, frames_);
    EXPECT_EQ(r.validFrames, frames_);
    EXPECT_EQ(r.committedFrames, frames_);
    EXPECT_EQ(r.commits, 41u);  // CREATE TABLE and 40 inserts
    EXPECT_EQ(r.unusedBytes, 0u);
}

TEST_F(WalCheck, WhatAKilledWriteLeavesIsNotDamage) {
    // The last frame's header written, its page not yet (SQLite writes them in two calls).
    auto r = check(whole_.substr(0, frameAt(frames_ - 1) + 24));
    EXPECT_FALSE(r.damaged) << r.problem;
    EXPECT_EQ(r.commits, 40u);
    EXPECT_GE(r.unusedBytes, 24u);
    // The page cut at a 4 KiB boundary, where the kernel splits a write.
    const std::size_t boundary = (frameAt(frames_) - 1) / 4096 * 4096;
    ASSERT_GT(boundary, frameAt(frames_ - 1) + 24);
    r = check(whole_.substr(0, boundary));
    EXPECT_FALSE(r.damaged) << r.problem;
    EXPECT_EQ(r.commits, 40u);
    // The last frame's page partly overwritten (a write over an older frame, cut).
    std::string torn = whole_;
    torn[frameAt(frames_ - 1) + 24 + 100] ^= 0x40;
    r = check(torn);
    EXPECT_FALSE(r.damaged) << r.problem;
    EXPECT_EQ(r.validFrames, frames_ - 1);
}

TEST_F(WalCheck, FramesOfAnEarlierGenerationAreNotDamage) {
    TempDir other;
    const std::string bytes = makeWal(other.path(), 40, 3);
    ASSERT_EQ(bytes.size(), whole_.size());  // the file was not shortened: the old frames follow
    auto r = check(bytes);
    EXPECT_FALSE(r.damaged) << r.problem;
    EXPECT_EQ(r.commits, 3u);
    EXPECT_EQ(r.validFrames, 3u);
    EXPECT_EQ(r.unusedBytes, bytes.size() - frameAt(3));
    // An old generation's torn end (not on a write boundary) is not this generation's concern.
    std::size_t at = bytes.size() - 1000;
    if (at % 4096 == 0) --at;
    r = check(bytes.substr(0, at));
    EXPECT_FALSE(r.damaged) << r.problem;
    // But a corrupt frame of the new generation before its last commit is damage.
    std::string bad = bytes;
    bad[frameAt(0) + 24 + 50] ^= 0x02;
    EXPECT_TRUE(check(bad).damaged);
}

TEST_F(WalCheck, AFileCutAnywhereElseIsDamage) {
    for (std::size_t at : {frameAt(frames_ / 2) + 24 + 1000, frameAt(frames_ - 1) + 24 + 1000, frameAt(3) + 10}) {
        if (at % 4096 == 0) --at;
        const auto r = check(whole_.substr(0, at));
        EXPECT_TRUE(r.damaged) << "cut at " << at;
        EXPECT_NE(r.problem.find("cut"), std::string::npos) << r.problem;
    }
    EXPECT_TRUE(check(whole_.substr(0, 20)).damaged);
}

TEST_F(WalCheck, ACorruptFrameBeforeLaterCommitsIsDamage) {
    std::string bad = whole_;
    bad[frameAt(frames_ / 2) + 24 + 2000] ^= 0x01;
    const auto r = check(bad);
    EXPECT_TRUE(r.damaged);
    EXPECT_EQ(r.validFrames, frames_ / 2);
    EXPECT_NE(r.problem.find("lost"), std::string::npos) << r.problem;
}

TEST_F(WalCheck, ABadHeaderIsDamage) {
    for (std::size_t at : {0u, 5u, 10u, 17u, 27u}) {  // magic, version, page size, salt, checksum
        std::string bad = whole_;
        bad[at] ^= 0x10;
        EXPECT_TRUE(check(bad).damaged) << "byte " << at;
    }
}

}  // namespace
}  // namespace senet::testing
