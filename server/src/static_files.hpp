// Files under /static/ served from {web-root}/dist/: content types, long caching for
// fingerprinted names, gzip (a precompressed .gz beside the file, else zlib), no traversal.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

#include "http_types.hpp"

namespace senet::server {

/// Serves GET/HEAD /static/{path}. `relative` is the part after "/static/", still percent-encoded.
/// Returns 404 for a missing file and 400 for a path that tries to leave dist/.
Response serveStatic(const std::filesystem::path& distDir, std::string_view relative, const Request& request);

/// Decodes %XX escapes; nullopt for a malformed escape or a decoded NUL.
std::optional<std::string> percentDecode(std::string_view text);
/// Whether a file name carries a content hash (`app.3f9a1c2b.js`, `app-3F9A1C2B.css`): 8+ hex/base32 chars.
bool isFingerprinted(std::string_view filename);
/// The Content-Type for a file extension (".js" → "text/javascript; charset=utf-8").
std::string_view contentTypeFor(std::string_view extension);

}  // namespace senet::server
