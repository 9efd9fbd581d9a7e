// Files under /static/ served from memory: every regular file of {web-root}/dist/ is read at
// start with its gzip and brotli forms (the build's name.gz / name.br beside it when they
// decompress to the file, else compressed at start), then answered by content negotiation on
// Accept-Encoding with Vary, an ETag per encoding and 304 on If-None-Match. Long caching for
// fingerprinted names; no traversal (only names in the table exist).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "content_coding.hpp"
#include "http_types.hpp"

namespace senet::server {

/// One file of dist/ in memory, with its compressed forms when they are smaller.
struct StaticEntry {
    /// One encoding of the file: its bytes and entity tag.
    struct Variant {
        std::shared_ptr<const std::string> body;
        std::string etag;
    };
    std::string contentType;
    std::string cacheControl;
    Variant identity;
    std::optional<Variant> gzip, brotli;
    bool gzipFromDisk = false, brotliFromDisk = false;  ///< the build's .gz / .br was used
};

/// The in-memory table of dist/. Built once; serve() is const and safe from several threads
/// without locks (the table never changes after construction).
class StaticFiles {
public:
    /// Reads every regular file under `distDir` (hidden names, .gz/.br beside a file and links
    /// leading out of dist/ left out). A missing dist/ gives an empty table (every file 404);
    /// a file that cannot be read is left out with a warning on standard error.
    explicit StaticFiles(const std::filesystem::path& distDir);

    /// Answers GET/HEAD /static/{relative} (`relative` still percent-encoded): 200 with the
    /// encoding chosen from request.acceptEncoding, 304 when request.ifNoneMatch matches that
    /// encoding's tag, 404 for a name not in the table, 400 for a path that tries to leave dist/.
    Response serve(std::string_view relative, const Request& request) const;

    /// The entry of a dist/-relative name ("i18n/en-1234.json"); nullptr when absent.
    const StaticEntry* find(const std::string& name) const;
    /// The number of files in the table.
    std::size_t size() const { return files_.size(); }

private:
    std::unordered_map<std::string, StaticEntry> files_;
};

/// Answers a request from one entity in memory: chooses the encoding among `identity`, `gzip`
/// and `brotli` (either may be null), sets Content-Type, Cache-Control, Vary (when a compressed
/// form exists), ETag and Content-Encoding, and answers 304 when If-None-Match matches.
Response serveEntity(const StaticEntry& entry, const Request& request, int status = 200);

/// Decodes %XX escapes; nullopt for a malformed escape or a decoded NUL.
std::optional<std::string> percentDecode(std::string_view text);
/// Whether a file name carries a content hash (`app.3f9a1c2b.js`, `app-3F9A1C2B.css`): 8+ hex/base32 chars.
bool isFingerprinted(std::string_view filename);
/// The Content-Type for a file extension (".js" → "text/javascript; charset=utf-8").
std::string_view contentTypeFor(std::string_view extension);
/// Whether files of `contentType` are worth compressing (text, JSON, SVG, WebAssembly).
bool compressibleType(std::string_view contentType);

}  // namespace senet::server
