// HTTP content codings: choosing one from Accept-Encoding (RFC 9110 12.5.3), gzip and brotli
// compression and decompression, and entity tags with If-None-Match. Used by the static files
// (static_files.cpp) and the compressed HTML pages (page_cache.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace senet::server {

/// A content coding the server can send.
enum class Coding { Identity, Gzip, Brotli };

/// The Content-Encoding token of `coding` ("" for identity, "gzip", "br").
std::string_view codingName(Coding coding);

/// The coding to send for an Accept-Encoding value, among identity and those available
/// (`haveGzip`, `haveBrotli`). The highest q-value wins; on a tie br before gzip before
/// identity. q=0 refuses a coding; "*" stands for every coding not listed (identity included);
/// "x-gzip" is gzip; identity not listed counts as acceptable below every listed coding. An
/// element that does not parse (bad token, bad or repeated q, other parameters) is ignored; an
/// empty, malformed or all-refusing header yields Identity. Never throws.
Coding chooseCoding(std::string_view acceptEncoding, bool haveGzip, bool haveBrotli);

/// `data` as a gzip member (zlib, `level` 1–9); nullopt when zlib fails.
std::optional<std::string> gzipCompress(std::string_view data, int level);
/// `data` as a brotli stream (`quality` 0–11, text mode); nullopt when the encoder fails.
std::optional<std::string> brotliCompress(std::string_view data, int quality);
/// The bytes of a gzip member (one or more concatenated); nullopt when `data` is not valid
/// gzip or inflates to more than `limit` bytes.
std::optional<std::string> gunzip(std::string_view data, std::size_t limit = 64u << 20);
/// The bytes of a brotli stream; nullopt when `data` is not valid brotli or decodes to more
/// than `limit` bytes.
std::optional<std::string> brotliDecompress(std::string_view data, std::size_t limit = 64u << 20);

/// A strong entity tag for `content` sent with `coding`: `"<16 hex digits of a 64-bit FNV-1a
/// hash>-<length>"` with a suffix "-gz" or "-br" for the compressed forms, so each encoding
/// has its own tag (RFC 9110 8.8.3).
std::string entityTag(std::string_view content, Coding coding);
/// Whether an If-None-Match value matches `etag` by weak comparison (RFC 9110 13.1.2): "*"
/// or any listed tag equal to it, with or without "W/". A value that does not parse matches
/// nothing.
bool noneMatchHits(std::string_view ifNoneMatch, std::string_view etag);

}  // namespace senet::server
