// The checks made before the database is served: recovery copies of a crash's WAL, the WAL
// verdict, PRAGMA quick_check. See sqlite_guard.hpp.
#include "sqlite_guard.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <thread>
#include <vector>

#include "storage.hpp"

namespace senet::server {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "senet-";
constexpr const char* kDbSuffix = ".sqlite3";
constexpr const char* kDamaged = "-damaged";

/// Names in `dir` of the form senet-<stamp>[-damaged].sqlite3, oldest first.
std::vector<std::string> copyNames(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string n = e.path().filename().string();
        if (n.rfind(kPrefix, 0) == 0 && n.size() > std::strlen(kDbSuffix) &&
            n.compare(n.size() - std::strlen(kDbSuffix), std::string::npos, kDbSuffix) == 0)
            out.push_back(n);
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// Whether two files hold the same bytes (both absent counts as the same).
bool sameBytes(const fs::path& a, const fs::path& b) {
    std::error_code ea, eb;
    const bool hasA = fs::exists(a, ea), hasB = fs::exists(b, eb);
    if (hasA != hasB) return false;
    if (!hasA) return true;
    if (fs::file_size(a, ea) != fs::file_size(b, eb) || ea || eb) return false;
    std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
    std::vector<char> ba(1 << 16), bb(1 << 16);
    while (fa && fb) {
        fa.read(ba.data(), static_cast<std::streamsize>(ba.size()));
        fb.read(bb.data(), static_cast<std::streamsize>(bb.size()));
        if (fa.gcount() != fb.gcount() || !std::equal(ba.begin(), ba.begin() + fa.gcount(), bb.begin())) return false;
    }
    return fa.eof() && fb.eof();
}

fs::path walOf(const fs::path& db) { return fs::path(db.string() + "-wal"); }

std::string sqliteText(sqlite3* db) { return db ? sqlite3_errmsg(db) : "out of memory"; }

}  // namespace

std::string utcStamp() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
    return buf;
}

bool syncPath(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}

void copyFileDurably(const fs::path& from, const fs::path& to) {
    const fs::path tmp = to.string() + ".tmp";
    auto fail = [&](const std::string& what) {
        std::error_code ec;
        fs::remove(tmp, ec);
        throw StorageError("cannot copy " + from.string() + " to " + to.string() + ": " + what);
    };
    const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) fail(std::strerror(errno));
    const int out = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0) {
        const std::string why = std::strerror(errno);
        ::close(in);
        fail(why);
    }
    std::vector<char> buf(1 << 16);
    std::string error;
    for (;;) {
        const ssize_t n = ::read(in, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) error = std::strerror(errno);
        if (n <= 0) break;
        for (ssize_t done = 0; done < n && error.empty();) {
            const ssize_t w = ::write(out, buf.data() + done, static_cast<std::size_t>(n - done));
            if (w < 0 && errno == EINTR) continue;
            if (w < 0) error = std::strerror(errno);
            else done += w;
        }
        if (!error.empty()) break;
    }
    if (error.empty() && ::fsync(out) != 0) error = std::strerror(errno);
    ::close(in);
    if (::close(out) != 0 && error.empty()) error = std::strerror(errno);
    if (!error.empty()) fail(error);
    std::error_code ec;
    fs::rename(tmp, to, ec);
    if (ec) fail(ec.message());
    syncPath(to.parent_path());
}

fs::path copyAside(const fs::path& db, const fs::path& wal, const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw StorageError("cannot create the recovery directory " + dir.string() + ": " + ec.message());
    // The same files copied before (a server restarted again and again on a damaged WAL):
    // keep the one copy.
    if (const auto names = copyNames(dir); !names.empty()) {
        const fs::path newest = dir / names.back();
        if (sameBytes(db, newest) && sameBytes(wal, walOf(newest))) return newest;
    }
    fs::path copy;
    for (;;) {
        copy = dir / (kPrefix + utcStamp() + kDbSuffix);
        const fs::path damagedName = dir / (kPrefix + utcStamp() + kDamaged + kDbSuffix);
        if (!fs::exists(copy) && !fs::exists(walOf(copy)) && !fs::exists(damagedName)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));  // one set per second
    }
    // The WAL first: the database copy's presence marks a complete set.
    if (fs::exists(wal)) copyFileDurably(wal, walOf(copy));
    if (fs::exists(db)) copyFileDurably(db, copy);
    return copy;
}

fs::path markDamaged(const fs::path& copy) {
    const std::string name = copy.filename().string();
    if (name.find(kDamaged) != std::string::npos) return copy;
    const fs::path to = copy.parent_path() / (name.substr(0, name.size() - std::strlen(kDbSuffix)) + kDamaged + kDbSuffix);
    std::error_code ec;
    if (fs::exists(walOf(copy))) fs::rename(walOf(copy), walOf(to), ec);
    if (!ec && fs::exists(copy)) fs::rename(copy, to, ec);
    if (ec) return copy;
    syncPath(copy.parent_path());
    return to;
}

void pruneCopies(const fs::path& dir, int keep) {
    std::vector<std::string> names = copyNames(dir);
    names.erase(std::remove_if(names.begin(), names.end(), [](const std::string& n) { return n.find(kDamaged) != std::string::npos; }),
                names.end());
    const std::size_t k = static_cast<std::size_t>(std::max(keep, 0));
    for (std::size_t i = 0; i + k < names.size(); ++i) {
        std::error_code ec;
        fs::remove(walOf(dir / names[i]), ec);
        fs::remove(dir / names[i], ec);
    }
}

WalGuard guardWal(const fs::path& db, const fs::path& recoveryDir, bool acceptDamaged) {
    WalGuard g;
    const fs::path wal = walOf(db);
    std::error_code ec;
    const auto size = fs::file_size(wal, ec);
    if (ec || size == 0) return g;  // no WAL, or an empty one: the last stop was clean
    g.walLeft = true;
    g.copy = copyAside(db, wal, recoveryDir);
    g.report = inspectWal(wal);
    if (g.report.damaged && !fs::exists(wal)) {
        // Gone while it was read: another process's last SQLite connection to the database
        // closed, folding the WAL into the main file (the copy keeps what it held).
        std::cerr << "senet-server: " << wal.string() << " was removed while it was checked (another process closed the "
                  << "database); copied to " << walOf(g.copy).string() << std::endl;
        g.walLeft = false;
        g.report = WalReport{};
        return g;
    }
    if (!fs::exists(db) && !g.report.damaged) {
        g.report.damaged = true;
        g.report.problem = "its database file is missing";
    }
    const WalReport& r = g.report;
    const std::string figures = std::to_string(r.bytes) + " bytes, " + std::to_string(r.wholeFrames) + " whole frames, " +
                                std::to_string(r.validFrames) + " in the checksum chain, " + std::to_string(r.commits) +
                                " committed transactions, " + std::to_string(r.unusedBytes) + " bytes past the last commit";
    if (!r.damaged) {
        std::cerr << "senet-server: " << wal.string() << " was left by an unclean stop (" << figures
                  << "); it is intact; copied to " << g.copy.string() << " and " << walOf(g.copy).string() << std::endl;
        return g;
    }
    g.copy = markDamaged(g.copy);
    const std::string where = "the database " + db.string() + " and its WAL " + wal.string() + " are copied to " +
                              g.copy.string() + " and " + walOf(g.copy).string();
    if (!acceptDamaged)
        throw StorageError("refusing to start: the WAL " + wal.string() + " is damaged: " + r.problem + " (" + figures + "); " +
                           where + "; see server/README.md (Damaged database) to recover, or start with " +
                           "--accept-damaged-wal to serve what SQLite recovers");
    std::cerr << "senet-server: WARNING: --accept-damaged-wal: the WAL " << wal.string() << " is damaged: " << r.problem << " ("
              << figures << "); serving what SQLite recovers (" << r.commits << " transactions, " << r.committedFrames
              << " frames); " << where << std::endl;
    return g;
}

void quickCheck(sqlite3* db, const std::string& path) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, nullptr) != SQLITE_OK)
        throw StorageError("refusing to start: PRAGMA quick_check of " + path + " failed: " + sqliteText(db));
    std::vector<std::string> rows;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const auto* t = sqlite3_column_text(st, 0);
        rows.emplace_back(t ? reinterpret_cast<const char*>(t) : "");
    }
    const std::string error = rc == SQLITE_DONE ? std::string() : sqliteText(db);
    sqlite3_finalize(st);
    if (error.empty() && rows.size() == 1 && rows[0] == "ok") return;
    // One line: the first problems (a row may hold several lines), then how many there were.
    std::vector<std::string> lines;
    if (!error.empty()) lines.push_back(error);
    for (const std::string& row : rows) {
        std::size_t at = 0;
        while (at <= row.size()) {
            const std::size_t end = std::min(row.find('\n', at), row.size());
            const std::string line = row.substr(at, end - at);
            if (!line.empty() && line.rfind("***", 0) != 0) lines.push_back(line);
            at = end + 1;
        }
    }
    std::string found;
    for (std::size_t i = 0; i < lines.size() && i < 3; ++i) found += (i ? "; " : "") + lines[i];
    if (lines.size() > 3) found += "; ... (" + std::to_string(lines.size()) + " lines in all)";
    throw StorageError("refusing to start: the database " + path + " is damaged (PRAGMA quick_check: " + found +
                       "); restore it from a backup or a recovery copy, see server/README.md (Damaged database)");
}

std::optional<std::pair<std::int64_t, std::int64_t>> countRows(const std::string& path) {
    sqlite3* db = nullptr;
    std::optional<std::pair<std::int64_t, std::int64_t>> out;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM actions) + (SELECT count(*) FROM action_log)", -1, &st, nullptr) ==
                SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            out = std::make_pair(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1));
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return out;
}

}  // namespace senet::server
