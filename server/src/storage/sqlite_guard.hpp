// Checks made before the SQLite database is served: the WAL left by a crash is copied aside and
// validated against SQLite's published WAL format, and the database passes PRAGMA quick_check.
// server/README.md ("Damaged database") describes what counts as damage and how to recover.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

namespace senet::server {

/// What inspectWal found in a WAL file.
struct WalReport {
    bool damaged = false;            ///< SQLite's recovery would drop committed transactions (or the WAL is unreadable)
    std::string problem;             ///< what is wrong, "" when not damaged
    std::uint64_t bytes = 0;         ///< the file's size
    std::uint32_t pageSize = 0;      ///< from the header (0 when the header is bad)
    std::uint64_t wholeFrames = 0;   ///< complete frames in the file (valid or not)
    std::uint64_t validFrames = 0;   ///< frames in the unbroken checksum chain from the start
    std::uint64_t committedFrames = 0;  ///< frames up to and including the last valid commit frame
    std::uint64_t commits = 0;       ///< valid commit frames (transactions SQLite will recover)
    std::uint64_t unusedBytes = 0;   ///< bytes past the last commit frame (an interrupted write, older frames)
};

/// Reads and validates the WAL file `wal` (sqlite.org/fileformat2.html, "WAL File Format").
/// Not damage, because a killed process leaves them: valid frames after the last commit (a
/// transaction being written), one torn frame right after the checksum chain (its header alone,
/// or its page cut at a 4 KiB boundary, where the kernel splits a write), and frames of an
/// earlier WAL generation (other salts). Damage: a header that is short or bad, a file cut
/// anywhere else, or a frame of the current generation committed after a break in the chain.
/// Never throws for bad content; an unreadable file is reported as damaged.
WalReport inspectWal(const std::filesystem::path& wal);

/// Copies `db` and `wal` (if they exist) into `dir` as senet-YYYYMMDDTHHMMSSZ.sqlite3 and
/// ...sqlite3-wal, each written under a temporary name, fsynced, then renamed. When the newest
/// copy in `dir` already holds the same bytes (a server restarted again and again on the same
/// files), that copy is returned instead of a new one. Returns the database copy's path.
/// Throws StorageError naming the files when copying fails.
std::filesystem::path copyAside(const std::filesystem::path& db, const std::filesystem::path& wal,
                                const std::filesystem::path& dir);

/// Renames a copy set made by copyAside to ...-damaged.sqlite3 (and -wal) so that pruning keeps
/// it; returns the new database copy path.
std::filesystem::path markDamaged(const std::filesystem::path& copy);

/// Deletes the oldest copy sets in `dir` that are not marked damaged, keeping `keep`.
void pruneCopies(const std::filesystem::path& dir, int keep);

/// What guardWal found and did.
struct WalGuard {
    bool walLeft = false;              ///< a non-empty WAL was there (the last stop was not clean)
    WalReport report;                  ///< its inspection (when walLeft)
    std::filesystem::path copy;        ///< the database copy (its WAL copy is copy + "-wal")
};

/// Run before SQLite opens `db`: when `db`-wal exists and is not empty, copies both into
/// `recoveryDir` (copyAside) and validates the WAL (inspectWal). A damaged WAL throws StorageError
/// naming the database, the WAL, the problem and the copy, unless `acceptDamaged`, which logs a
/// warning with the figures instead. Also throws when the copy cannot be made.
WalGuard guardWal(const std::filesystem::path& db, const std::filesystem::path& recoveryDir, bool acceptDamaged);

/// Runs PRAGMA quick_check on `db` (the connection to `path`). Throws StorageError naming the
/// file and the first problems found when it does not answer "ok".
void quickCheck(sqlite3* db, const std::string& path);

/// Rows in the games table and of actions (`actions` and `action_log`) at `path`, read through a separate
/// read-only connection; nullopt when they cannot be counted.
std::optional<std::pair<std::int64_t, std::int64_t>> countRows(const std::string& path);

/// Copies `from` to `to` under a temporary name (to + ".tmp"), fsyncs it, renames it and fsyncs
/// the directory, so `to` is either absent or complete. Throws StorageError naming both files.
void copyFileDurably(const std::filesystem::path& from, const std::filesystem::path& to);

/// fsyncs a file or directory; false on failure.
bool syncPath(const std::filesystem::path& path);

/// The UTC time now as 20261130T153000Z.
std::string utcStamp();

}  // namespace senet::server
