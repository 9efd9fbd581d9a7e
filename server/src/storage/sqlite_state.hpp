// The SQLite store's state file, DATA/senet.sqlite3.state: what the database beside it should
// hold, kept outside the database so that losing the database (or its WAL) cannot lose it too.
// server/README.md ("Recovery") describes the refusals it leads to.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace senet::server {

/// What the state file records about the database beside it.
struct StoreState {
    std::uint32_t id = 0;     ///< the database's identity: a random number, also its PRAGMA application_id
    bool heldGames = false;   ///< the database has held a game: it must not come back without them
    bool clean = true;        ///< the last stop was clean: a full checkpoint left the WAL with nothing needed
    std::int64_t games = 0;   ///< games it held when last written (at a start, the first game's creation, a clean stop)
};

/// Reads and writes one state file. Every write is atomic: a temporary file, fsync, rename,
/// fsync of the directory, so the file is always the old state or the new one.
class StoreStateFile {
public:
    /// The state file `file` (usually stateFileOf(the database)).
    explicit StoreStateFile(std::filesystem::path file);
    /// The file's path, for messages.
    const std::filesystem::path& path() const { return file_; }
    /// The recorded state; nullopt when there is no state file. Throws StorageError naming the
    /// file when it cannot be read or is not one this server wrote.
    std::optional<StoreState> read() const;
    /// Replaces the file with `state`. Throws StorageError naming the file when it cannot.
    void write(const StoreState& state) const;

private:
    std::filesystem::path file_;
};

/// The state file of the database `db`: `db` + ".state".
std::filesystem::path stateFileOf(const std::filesystem::path& db);

/// A random non-zero database identity.
std::uint32_t newStoreId();

/// The identity in the header of the database file `db` as it lies on disk (its WAL not
/// applied): the application_id at offset 68. nullopt when the file is missing, shorter than a
/// header or not an SQLite database; 0 when none was set.
std::optional<std::uint32_t> storeIdOnDisk(const std::filesystem::path& db);

/// What guardLostGames found: the state the file recorded and whether the start accepted a loss.
struct LostGamesGuard {
    std::optional<StoreState> recorded;  ///< the state file as found (nullopt: none, an older server's directory)
    std::string lost;                    ///< what is missing, "" when nothing
    bool mainLost = false;               ///< the loss is the main file's (missing, empty, another database)
};

/// Run before anything opens or creates `db`: when its state file says the database has held
/// games, refuses (StorageError: one line naming the file, what is missing, server/README.md
/// "Recovery" and the flag) a start whose database file is missing, empty (0 bytes) or another
/// database (identity differs), or whose WAL is missing or empty after an unclean stop. With
/// `acceptLost`, logs a WARNING saying what is lost instead and returns it in `lost`.
LostGamesGuard guardLostGames(const std::filesystem::path& db, const StoreStateFile& file, bool acceptLost);

/// After an accepted loss of the main file: a WAL beside `db` is the lost database's, and
/// SQLite would lay its pages over whatever file is there now. It is copied into `recoveryDir`
/// (copyAside, marked damaged so it is never pruned), then removed with its -shm; logged.
void setAsideForeignWal(const std::filesystem::path& db, const std::filesystem::path& recoveryDir);

}  // namespace senet::server
