// inspectWal: validates a WAL file against SQLite's published format (sqlite.org/fileformat2.html,
// "WAL File Format"), written from that description.
//
// Layout: a 32-byte header (magic, version, page size, checkpoint sequence, salt-1, salt-2, two
// checksum words over the first 24 bytes), then frames of a 24-byte header (page number, database
// size after commit or 0, salt-1, salt-2, two checksum words) and one page. Every frame's checksum
// continues the previous one (the header's for the first) over the frame header's first 8 bytes
// and the page. SQLite's recovery keeps the frames of the unbroken chain up to the last commit.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sqlite_guard.hpp"

namespace senet::server {

namespace {

constexpr std::uint32_t kMagicLittle = 0x377f0682;  // checksum words read little-endian
constexpr std::uint32_t kMagicBig = 0x377f0683;     // checksum words read big-endian
constexpr std::uint32_t kVersion = 3007000;
constexpr std::uint64_t kHeader = 32;
constexpr std::uint64_t kFrameHeader = 24;
// The kernel splits a write of a regular file at page boundaries; a killed process can leave a
// write cut at such a boundary (4 KiB, or a multiple of it on larger-page systems).
constexpr std::uint64_t kWriteBoundary = 4096;

std::uint32_t be32(const unsigned char* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}

std::uint32_t le32(const unsigned char* p) {
    return (std::uint32_t{p[3]} << 24) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[1]} << 8) | std::uint32_t{p[0]};
}

/// The running checksum pair of the WAL format over `n` bytes (n a multiple of 8).
struct Checksum {
    bool bigEndian = true;
    std::uint32_t s0 = 0, s1 = 0;
    void add(const unsigned char* p, std::size_t n) {
        for (std::size_t i = 0; i + 8 <= n; i += 8) {
            const std::uint32_t x0 = bigEndian ? be32(p + i) : le32(p + i);
            const std::uint32_t x1 = bigEndian ? be32(p + i + 4) : le32(p + i + 4);
            s0 += x0 + s1;
            s1 += x1 + s0;
        }
    }
    bool matches(const unsigned char* stored) const { return be32(stored) == s0 && be32(stored + 4) == s1; }
};

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

bool readAt(std::FILE* f, std::uint64_t offset, unsigned char* buf, std::size_t n) {
    return std::fseek(f, static_cast<long>(offset), SEEK_SET) == 0 && std::fread(buf, 1, n, f) == n;
}

WalReport damaged(WalReport r, std::string problem) {
    r.damaged = true;
    r.problem = std::move(problem);
    return r;
}

/// What a WAL file's header says, and where its frames are.
struct WalFile {
    std::FILE* file = nullptr;
    std::uint32_t pageSize = 0;
    std::uint32_t salt1 = 0, salt2 = 0;
    Checksum sum;  ///< the chain's checksum over the header, where the first frame's continues
    std::uint64_t frameSize() const { return kFrameHeader + pageSize; }
    std::uint64_t frameAt(std::uint64_t i) const { return kHeader + i * frameSize(); }
};

/// Checks the 32-byte header and fills `w` from it; the problem when it is damaged.
std::optional<std::string> readHeader(WalFile& w) {
    unsigned char h[kHeader];
    if (!readAt(w.file, 0, h, kHeader)) return "its header cannot be read";
    const std::uint32_t magic = be32(h);
    if (magic != kMagicLittle && magic != kMagicBig) return "its header has no WAL magic number";
    if (be32(h + 4) != kVersion) return "its header has an unknown format version " + std::to_string(be32(h + 4));
    const std::uint32_t pageSize = be32(h + 8);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0)
        return "its header has an impossible page size " + std::to_string(pageSize);
    w.sum.bigEndian = magic == kMagicBig;
    w.sum.add(h, 24);
    if (!w.sum.matches(h + 24)) return "its header checksum does not match";
    w.pageSize = pageSize;
    w.salt1 = be32(h + 16);
    w.salt2 = be32(h + 20);
    return std::nullopt;
}

/// Follows the checksum chain from the start, as SQLite's recovery reads it, counting r's valid
/// and committed frames; `broken` when a whole frame breaks it. The problem when a frame cannot be read.
std::optional<std::string> followChain(const WalFile& w, WalReport& r, bool& broken) {
    std::vector<unsigned char> frame(w.frameSize());
    Checksum sum = w.sum;
    for (std::uint64_t i = 0; i < r.wholeFrames; ++i) {
        if (!readAt(w.file, w.frameAt(i), frame.data(), frame.size())) return "frame " + std::to_string(i + 1) + " cannot be read";
        Checksum next = sum;
        next.add(frame.data(), 8);
        next.add(frame.data() + kFrameHeader, w.pageSize);
        if (be32(frame.data() + 8) != w.salt1 || be32(frame.data() + 12) != w.salt2 || !next.matches(frame.data() + 16)) {
            broken = true;
            return std::nullopt;
        }
        sum = next;
        ++r.validFrames;
        if (be32(frame.data() + 4) != 0) {
            r.committedFrames = r.validFrames;
            ++r.commits;
        }
    }
    return std::nullopt;
}

/// Past a break in the chain only a torn frame (or frames of an earlier generation, with other
/// salts) may follow. A commit frame of this generation there means transactions that were
/// committed after the break would be dropped.
std::optional<std::string> committedAfterBreak(const WalFile& w, const WalReport& r) {
    unsigned char fh[kFrameHeader];
    for (std::uint64_t i = r.validFrames + 1; i < r.wholeFrames; ++i) {
        if (!readAt(w.file, w.frameAt(i), fh, kFrameHeader)) return "frame " + std::to_string(i + 1) + " cannot be read";
        if (be32(fh + 8) == w.salt1 && be32(fh + 12) == w.salt2 && be32(fh + 4) != 0)
            return "frame " + std::to_string(r.validFrames + 1) + " of " + std::to_string(r.wholeFrames) +
                   " is corrupt and committed frame " + std::to_string(i + 1) + " follows it: the transactions after it would be lost";
    }
    return std::nullopt;
}

/// A file that does not end on a frame boundary (`rest` bytes into the next frame): a write cut
/// by a kill, or a cut file.
std::optional<std::string> cutTail(const WalFile& w, const WalReport& r, bool broken, std::uint64_t rest) {
    bool staleTail = false;
    if (rest >= kFrameHeader) {
        unsigned char fh[kFrameHeader];
        if (!readAt(w.file, w.frameAt(r.wholeFrames), fh, kFrameHeader)) return "its last frame cannot be read";
        staleTail = be32(fh + 8) != w.salt1 || be32(fh + 12) != w.salt2;
    }
    const bool atWriteBoundary = rest == kFrameHeader || r.bytes % kWriteBoundary == 0;
    if (!staleTail && (broken || !atWriteBoundary))
        return "it ends " + std::to_string(rest) + " bytes into frame " + std::to_string(r.wholeFrames + 1) +
               ", which is not where an interrupted write stops: the file was cut, and what followed the cut is lost";
    return std::nullopt;
}

}  // namespace

WalReport inspectWal(const std::filesystem::path& wal) {
    WalReport r;
    std::error_code ec;
    r.bytes = std::filesystem::file_size(wal, ec);
    if (ec) return damaged(r, "cannot read its size: " + ec.message());
    std::unique_ptr<std::FILE, FileCloser> f(std::fopen(wal.c_str(), "rb"));
    if (!f) return damaged(r, "cannot be opened for reading");
    if (r.bytes < kHeader) return damaged(r, "it is " + std::to_string(r.bytes) + " bytes, shorter than the 32-byte WAL header");
    WalFile w;
    w.file = f.get();
    if (auto problem = readHeader(w)) return damaged(r, *problem);
    r.pageSize = w.pageSize;
    r.wholeFrames = (r.bytes - kHeader) / w.frameSize();
    const std::uint64_t rest = (r.bytes - kHeader) % w.frameSize();
    bool broken = false;
    if (auto problem = followChain(w, r, broken)) return damaged(r, *problem);
    r.unusedBytes = r.bytes - w.frameAt(r.committedFrames);
    if (broken)
        if (auto problem = committedAfterBreak(w, r)) return damaged(r, *problem);
    if (rest != 0)
        if (auto problem = cutTail(w, r, broken, rest)) return damaged(r, *problem);
    return r;
}

}  // namespace senet::server
