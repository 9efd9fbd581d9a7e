// The state file beside the SQLite database and the start-up check it serves. See sqlite_state.hpp.
#include "sqlite_state.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <tuple>
#include <utility>

#include "sqlite_guard.hpp"
#include "storage.hpp"

namespace senet::server {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFirstLine = "senet-server store state 1";

/// Writes all of `text` to the new file `path` and fsyncs it; "" or the error.
std::string writeSynced(const fs::path& path, const std::string& text) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return std::strerror(errno);
    std::string error;
    for (std::size_t done = 0; done < text.size() && error.empty();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) error = std::strerror(errno);
        else done += static_cast<std::size_t>(n);
    }
    if (error.empty() && ::fsync(fd) != 0) error = std::strerror(errno);
    if (::close(fd) != 0 && error.empty()) error = std::strerror(errno);
    return error;
}

/// The size of `p`, nullopt when it does not exist.
std::optional<std::uintmax_t> sizeOf(const fs::path& p) {
    std::error_code ec;
    const auto n = fs::file_size(p, ec);
    if (ec) return std::nullopt;
    return n;
}

std::string hex(std::uint32_t id) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", id);
    return buf;
}

/// What is missing, by the files as they lie ("" when nothing), and whether it is the main file.
std::pair<std::string, bool> findLoss(const fs::path& db, const StoreState& s) {
    const fs::path wal = db.string() + "-wal";
    const auto mainBytes = sizeOf(db);
    if (!mainBytes) return {"the database " + db.string() + " is missing", true};
    if (*mainBytes == 0) return {"the database " + db.string() + " is empty (0 bytes)", true};
    const auto id = storeIdOnDisk(db);
    if (id != s.id)
        return {"the database " + db.string() + " is a different database (identity " + (id ? hex(*id) : std::string("none")) +
                    ", expected " + hex(s.id) + ")",
                true};
    if (s.clean) return {"", false};
    const auto walBytes = sizeOf(wal);
    if (!walBytes) return {"the WAL " + wal.string() + " is missing after an unclean stop", false};
    if (*walBytes == 0) return {"the WAL " + wal.string() + " is empty (0 bytes) after an unclean stop", false};
    // SQLite writes a WAL's header with its first frame: a header alone was cut, never left.
    if (const WalReport r = inspectWal(wal); !r.damaged && r.wholeFrames == 0)
        return {"the WAL " + wal.string() + " is only a header (no frame) after an unclean stop", false};
    return {"", false};
}

}  // namespace

StoreStateFile::StoreStateFile(fs::path file) : file_(std::move(file)) {}

std::optional<StoreState> StoreStateFile::read() const {
    std::error_code ec;
    if (!fs::exists(file_, ec) && !ec) return std::nullopt;
    std::ifstream in(file_);
    std::string first;
    if (!in || !std::getline(in, first))
        throw StorageError("refusing to start: cannot read the state file " + file_.string() + "; see server/README.md (Recovery)");
    StoreState s;
    std::string id;
    int held = -1, clean = -1;
    std::string key;
    while (in >> key) {
        if (key == "id") in >> id;
        else if (key == "held-games") in >> held;
        else if (key == "clean") in >> clean;
        else if (key == "games") in >> s.games;
        else in.ignore(1 << 20, '\n');
    }
    char* end = nullptr;
    const unsigned long n = id.size() == 8 ? std::strtoul(id.c_str(), &end, 16) : 0;
    if (first != kFirstLine || n == 0 || end != id.c_str() + 8 || (held != 0 && held != 1) || (clean != 0 && clean != 1))
        throw StorageError("refusing to start: the state file " + file_.string() +
                           " is not one this server wrote; see server/README.md (Recovery): remove it to start afresh");
    s.id = static_cast<std::uint32_t>(n);
    s.heldGames = held == 1;
    s.clean = clean == 1;
    return s;
}

void StoreStateFile::write(const StoreState& s) const {
    std::ostringstream text;
    text << kFirstLine << "\n# what " << file_.filename().replace_extension().string()
         << " should hold; see server/README.md (Recovery)\nid " << hex(s.id) << "\nheld-games " << (s.heldGames ? 1 : 0)
         << "\nclean " << (s.clean ? 1 : 0) << "\ngames " << s.games << "\n";
    const fs::path tmp = file_.string() + ".tmp";
    std::string error = writeSynced(tmp, text.str());
    std::error_code ec;
    if (error.empty()) fs::rename(tmp, file_, ec);
    if (ec) error = ec.message();
    if (!error.empty()) {
        fs::remove(tmp, ec);
        throw StorageError("cannot write the state file " + file_.string() + ": " + error);
    }
    syncPath(file_.parent_path().empty() ? fs::path(".") : file_.parent_path());
}

fs::path stateFileOf(const fs::path& db) { return db.string() + ".state"; }

std::uint32_t newStoreId() {
    std::random_device random;
    std::uint32_t id = 0;
    while (id == 0) id = random();
    return id;
}

std::optional<std::uint32_t> storeIdOnDisk(const fs::path& db) {
    std::ifstream in(db, std::ios::binary);
    char header[100];
    if (!in.read(header, sizeof header)) return std::nullopt;
    if (std::memcmp(header, "SQLite format 3", 16) != 0) return std::nullopt;
    auto byte = [&](int i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(header[i])); };
    return (byte(68) << 24) | (byte(69) << 16) | (byte(70) << 8) | byte(71);
}

LostGamesGuard guardLostGames(const fs::path& db, const StoreStateFile& file, bool acceptLost) {
    LostGamesGuard g;
    g.recorded = file.read();
    if (!g.recorded) {
        // No state file: a directory of an older server (a database without an identity) gets one
        // at this start. A database with an identity was set up beside a state file: without it
        // nothing tells whether its WAL is whole, so the start needs the operator's word.
        const auto id = storeIdOnDisk(db);
        if (!id || *id == 0) return g;
        const std::string lost = "the database " + db.string() + " is guarded (identity " + hex(*id) + ") but its state file " +
                                 file.path().string() + " is missing, so its WAL cannot be checked";
        if (!acceptLost)
            throw StorageError("refusing to start: " + lost + "; restore the state file or the store as server/README.md (Recovery) "
                               "says, or start with --accept-lost-games to serve what is there");
        std::cerr << "senet-server: WARNING: --accept-lost-games: " << lost << "; serving what is there and making the state file anew"
                  << std::endl;
        return g;
    }
    if (!g.recorded->heldGames) return g;
    std::tie(g.lost, g.mainLost) = findLoss(db, *g.recorded);
    if (g.lost.empty()) return g;
    const std::string held = file.path().string() + " says it has held games (" + std::to_string(g.recorded->games) +
                             " when last written; the last stop was " + (g.recorded->clean ? "clean" : "unclean") + ")";
    if (!acceptLost)
        throw StorageError("refusing to start: " + g.lost + ", but " + held +
                           "; restore it as server/README.md (Recovery) says, or start with --accept-lost-games to serve "
                           "what is there");
    std::cerr << "senet-server: WARNING: --accept-lost-games: " << g.lost << ", but " << held
              << "; those games are lost; serving what is there and re-basing the state file on it" << std::endl;
    return g;
}

void setAsideForeignWal(const fs::path& db, const fs::path& recoveryDir) {
    const fs::path wal = db.string() + "-wal";
    std::error_code ec;
    if (!fs::exists(wal, ec)) return;
    const fs::path copy = markDamaged(copyAside(db, wal, recoveryDir));
    fs::remove(wal, ec);
    if (ec) throw StorageError("cannot remove " + wal.string() + ": " + ec.message());
    fs::remove(db.string() + "-shm", ec);
    std::cerr << "senet-server: --accept-lost-games: the WAL " << wal.string() << " belongs to the lost database; moved to "
              << copy.string() << "-wal" << std::endl;
}

}  // namespace senet::server
