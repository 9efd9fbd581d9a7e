// HTML pages sent compressed. The content pages are the same for every request to their path
// (the language is in the path, nothing is per request: no nonce, the CSP is a fixed header),
// so each is compressed once (gzip 9, brotli 11, on its first request, not at start: tests and
// fuzzers start many servers) and then served from memory with an ETag per encoding; every
// other page (play pages name their game, error pages) is compressed per request at a fast level.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "http_types.hpp"
#include "senet/site.hpp"
#include "static_files.hpp"

namespace senet::server {

/// The per-request compression levels of pages not in the cache.
inline constexpr int kPageGzipLevel = 6;
inline constexpr int kPageBrotliQuality = 5;
/// Pages smaller than this are sent as they are.
inline constexpr std::size_t kMinCompressedPage = 256;

/// The content pages of a Site, compressed. Built once; compress() is const and lock-free.
class PageCache {
public:
    /// Renders nothing: takes every content page the site rendered at start
    /// (Site::contentPaths()); compresses each on its first request.
    explicit PageCache(const site::Site& site);
    ~PageCache();
    PageCache(const PageCache&) = delete;
    PageCache& operator=(const PageCache&) = delete;

    /// Compresses an HTML response of the router for `request` in place: the cached forms when
    /// `path` is a cached page and the body is that page, else compressed now when the client
    /// accepts br or gzip. Adds Accept-Encoding to Vary (and Accept-Language when `negotiated`:
    /// the page's language came from that header). Responses that are not text/html, already
    /// encoded, or small are left as they are (apart from Vary).
    void compress(Response& response, const Request& request, std::string_view path, bool negotiated) const;

    /// The number of cached pages.
    std::size_t size() const { return pages_.size(); }

private:
    /// One content page: its HTML and, once made, its compressed forms (published once with a
    /// compare-and-swap; readers never lock).
    struct Cached {
        std::shared_ptr<const std::string> html;
        std::string etag;
        mutable std::atomic<const StaticEntry*> forms{nullptr};
    };
    const StaticEntry& formsOf(const Cached& page) const;
    std::unordered_map<std::string, std::unique_ptr<Cached>> pages_;  ///< URL path → the page
};

}  // namespace senet::server
