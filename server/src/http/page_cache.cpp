#include "page_cache.hpp"

namespace senet::server {

namespace {

/// Adds each of `tokens` (comma-separated) to the response's Vary header unless already there.
void addVary(Response& r, std::string_view tokens) {
    std::string* vary = nullptr;
    for (auto& [name, value] : r.headers)
        if (name == "Vary") vary = &value;
    if (!vary) {
        r.headers.emplace_back("Vary", std::string(tokens));
        return;
    }
    std::size_t start = 0;
    while (start < tokens.size()) {
        const std::size_t comma = std::min(tokens.find(',', start), tokens.size());
        std::string_view token = tokens.substr(start, comma - start);
        while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
        if (!token.empty() && vary->find(token) == std::string::npos) *vary += (vary->empty() ? "" : ", ") + std::string(token);
        start = comma + 1;
    }
}

}  // namespace

PageCache::PageCache(const site::Site& site) {
    for (const std::string& path : site.contentPaths()) {
        auto page = site.content(path);
        if (!page || page->status != 200) continue;
        auto c = std::make_unique<Cached>();
        c->etag = entityTag(page->body, Coding::Identity);
        c->html = std::make_shared<const std::string>(std::move(page->body));
        pages_.emplace(path, std::move(c));
    }
}

PageCache::~PageCache() {
    for (auto& [path, page] : pages_) delete page->forms.load();
}

const StaticEntry& PageCache::formsOf(const Cached& page) const {
    if (const StaticEntry* made = page.forms.load(std::memory_order_acquire)) return *made;
    auto e = std::make_unique<StaticEntry>();
    e->contentType = "text/html; charset=utf-8";
    const std::string& html = *page.html;
    if (html.size() >= kMinCompressedPage) {
        if (auto z = gzipCompress(html, 9); z && z->size() < html.size())
            e->gzip = StaticEntry::Variant{std::make_shared<const std::string>(std::move(*z)), entityTag(html, Coding::Gzip)};
        if (auto b = brotliCompress(html, 11); b && b->size() < html.size())
            e->brotli = StaticEntry::Variant{std::make_shared<const std::string>(std::move(*b)), entityTag(html, Coding::Brotli)};
    }
    e->identity = StaticEntry::Variant{page.html, page.etag};
    // Two first requests at once both compress; the first to publish wins, the other's is dropped.
    const StaticEntry* expected = nullptr;
    if (page.forms.compare_exchange_strong(expected, e.get(), std::memory_order_acq_rel, std::memory_order_acquire)) return *e.release();
    return *expected;
}

void PageCache::compress(Response& r, const Request& request, std::string_view path, bool negotiated) const {
    if (!r.contentType.starts_with("text/html")) return;
    for (const auto& [name, value] : r.headers)
        if (name == "Content-Encoding") return;
    addVary(r, negotiated ? "Accept-Language, Accept-Encoding" : "Accept-Encoding");
    if (r.status == 200 && !r.sharedBody) {
        const auto it = pages_.find(std::string(path));
        // The cached forms only for the very page the router rendered.
        if (it != pages_.end() && *it->second->html == r.body) {
            const StaticEntry& e = formsOf(*it->second);
            const Coding coding = chooseCoding(request.acceptEncoding, e.gzip.has_value(), e.brotli.has_value());
            const StaticEntry::Variant& v = coding == Coding::Brotli ? *e.brotli : coding == Coding::Gzip ? *e.gzip : e.identity;
            r.headers.emplace_back("ETag", v.etag);
            r.body.clear();
            if (!request.ifNoneMatch.empty() && noneMatchHits(request.ifNoneMatch, v.etag)) {
                r.status = 304;
                r.contentType.clear();
                return;
            }
            if (coding != Coding::Identity) r.headers.emplace_back("Content-Encoding", std::string(codingName(coding)));
            r.sharedBody = v.body;
            return;
        }
    }
    if (r.sharedBody || r.body.size() < kMinCompressedPage) return;
    const Coding coding = chooseCoding(request.acceptEncoding, true, true);
    if (coding == Coding::Identity) return;
    auto packed = coding == Coding::Brotli ? brotliCompress(r.body, kPageBrotliQuality) : gzipCompress(r.body, kPageGzipLevel);
    if (!packed || packed->size() >= r.body.size()) return;
    r.body = std::move(*packed);
    r.headers.emplace_back("Content-Encoding", std::string(codingName(coding)));
}

}  // namespace senet::server
