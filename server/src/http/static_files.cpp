#include "static_files.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

namespace senet::server {

namespace fs = std::filesystem;

std::optional<std::string> percentDecode(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%') {
            if (i + 2 >= text.size()) return std::nullopt;
            const int hi = hex(text[i + 1]), lo = hex(text[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            out.push_back(static_cast<char>(hi * 16 + lo));
            i += 2;
        } else {
            out.push_back(text[i]);
        }
    }
    if (out.find('\0') != std::string::npos) return std::nullopt;
    return out;
}

bool isFingerprinted(std::string_view name) {
    // A run of 8 or more [0-9a-zA-Z] containing a digit, between '.' or '-' and '.'.
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] != '.' && name[i] != '-') continue;
        std::size_t j = i + 1;
        bool digit = false;
        while (j < name.size() && std::isalnum(static_cast<unsigned char>(name[j]))) digit |= std::isdigit(static_cast<unsigned char>(name[j++])) != 0;
        if (j - i - 1 >= 8 && digit && j < name.size() && name[j] == '.') return true;
    }
    return false;
}

std::string_view contentTypeFor(std::string_view ext) {
    static const std::pair<std::string_view, std::string_view> kTypes[] = {
        {".js", "text/javascript; charset=utf-8"}, {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},       {".html", "text/html; charset=utf-8"},
        {".json", "application/json"},            {".map", "application/json"},
        {".svg", "image/svg+xml"},                {".png", "image/png"},
        {".jpg", "image/jpeg"},                   {".jpeg", "image/jpeg"},
        {".webp", "image/webp"},                  {".ico", "image/x-icon"},
        {".woff2", "font/woff2"},                 {".woff", "font/woff"},
        {".txt", "text/plain; charset=utf-8"},    {".webmanifest", "application/manifest+json"},
        {".wasm", "application/wasm"}};
    for (const auto& [e, t] : kTypes)
        if (e == ext) return t;
    return "application/octet-stream";
}

bool compressibleType(std::string_view type) {
    return type.starts_with("text/") || type.starts_with("application/json") || type.starts_with("image/svg") ||
           type.starts_with("application/manifest") || type == "application/wasm" || type == "image/x-icon";
}

namespace {

std::optional<std::string> readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return s.str();
}

StaticEntry::Variant variant(std::string bytes, Coding coding, std::string_view identity) {
    StaticEntry::Variant v;
    v.etag = entityTag(identity, coding);
    v.body = std::make_shared<const std::string>(std::move(bytes));
    return v;
}

/// The compressed form of `data` for `coding`: the build's file `beside` when it decompresses
/// to `data`, else made now; nullopt when it would not be smaller. `fromDisk` tells which.
std::optional<std::string> compressedForm(const std::string& data, Coding coding, const fs::path& beside, bool& fromDisk) {
    fromDisk = false;
    std::error_code ec;
    if (fs::is_regular_file(beside, ec)) {
        if (auto bytes = readFile(beside)) {
            const auto plain = coding == Coding::Gzip ? gunzip(*bytes, data.size() + 1) : brotliDecompress(*bytes, data.size() + 1);
            if (plain && *plain == data) {
                fromDisk = true;
                return bytes->size() < data.size() ? std::optional<std::string>(std::move(*bytes)) : std::nullopt;
            }
        }
        std::cerr << "senet-server: " << beside.string() << " does not decompress to the file beside it; compressing anew\n";
    }
    auto made = coding == Coding::Gzip ? gzipCompress(data, 9) : brotliCompress(data, 11);
    if (made && made->size() < data.size()) return made;
    return std::nullopt;
}

StaticEntry makeEntry(const fs::path& file, const std::string& name, std::string data) {
    StaticEntry e;
    e.contentType = std::string(contentTypeFor(fs::path(name).extension().string()));
    e.cacheControl = isFingerprinted(fs::path(name).filename().string()) ? "public, max-age=31536000, immutable" : "no-cache";
    if (compressibleType(e.contentType) && !data.empty()) {
        fs::path gz = file, br = file;
        gz += ".gz";
        br += ".br";
        if (auto z = compressedForm(data, Coding::Gzip, gz, e.gzipFromDisk)) e.gzip = variant(std::move(*z), Coding::Gzip, data);
        if (auto b = compressedForm(data, Coding::Brotli, br, e.brotliFromDisk)) e.brotli = variant(std::move(*b), Coding::Brotli, data);
    }
    e.identity.etag = entityTag(data, Coding::Identity);
    e.identity.body = std::make_shared<const std::string>(std::move(data));
    return e;
}

bool hasSuffix(std::string_view s, std::string_view suffix) { return s.size() > suffix.size() && s.ends_with(suffix); }

}  // namespace

StaticFiles::StaticFiles(const fs::path& distDir) {
    std::error_code ec;
    const fs::path root = fs::weakly_canonical(distDir, ec);
    if (ec || !fs::is_directory(root, ec)) return;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    for (const fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
        const fs::path& path = it->path();
        std::error_code fileEc;
        if (path.filename().string().starts_with('.')) {
            if (it->is_directory(fileEc)) it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file(fileEc)) continue;  // directories (walked), sockets, dangling links
        // A link is served only when it leads to a file inside dist/.
        const fs::path real = fs::canonical(path, fileEc);
        const fs::path inside = real.lexically_relative(root);
        if (fileEc || inside.empty() || inside.native().starts_with("..")) continue;
        const std::string name = path.lexically_relative(root).generic_string();
        if (hasSuffix(name, ".gz") || hasSuffix(name, ".br")) {
            if (fs::is_regular_file(root / name.substr(0, name.size() - 3), fileEc)) continue;  // a form of that file
        }
        auto data = readFile(path);
        if (!data) {
            std::cerr << "senet-server: cannot read " << path.string() << "; it will answer 404\n";
            continue;
        }
        files_.emplace(name, makeEntry(path, name, std::move(*data)));
    }
    if (ec) std::cerr << "senet-server: reading " << root.string() << ": " << ec.message() << '\n';
}

const StaticEntry* StaticFiles::find(const std::string& name) const {
    const auto it = files_.find(name);
    return it == files_.end() ? nullptr : &it->second;
}

Response serveEntity(const StaticEntry& entry, const Request& request, int status) {
    Response r;
    r.status = status;
    r.contentType = entry.contentType;
    if (!entry.cacheControl.empty()) r.headers.emplace_back("Cache-Control", entry.cacheControl);
    if (entry.gzip || entry.brotli) r.headers.emplace_back("Vary", "Accept-Encoding");
    const Coding coding = chooseCoding(request.acceptEncoding, entry.gzip.has_value(), entry.brotli.has_value());
    const StaticEntry::Variant& v = coding == Coding::Brotli ? *entry.brotli : coding == Coding::Gzip ? *entry.gzip : entry.identity;
    r.headers.emplace_back("ETag", v.etag);
    if (status == 200 && !request.ifNoneMatch.empty() && noneMatchHits(request.ifNoneMatch, v.etag)) {
        r.status = 304;
        r.contentType.clear();
        return r;
    }
    if (coding != Coding::Identity) r.headers.emplace_back("Content-Encoding", std::string(codingName(coding)));
    r.sharedBody = v.body;
    return r;
}

Response StaticFiles::serve(std::string_view relative, const Request& request) const {
    Response r;
    const auto decoded = percentDecode(relative.substr(0, relative.find('?')));
    auto bad = [&] {
        r.status = 400;
        r.body = "bad path\n";
        return r;
    };
    if (!decoded || decoded->empty() || decoded->front() == '/' || decoded->find('\\') != std::string::npos) return bad();
    // Every segment must be a plain name: no "..", ".", empty segments or hidden files.
    std::size_t start = 0;
    while (start <= decoded->size()) {
        const std::size_t end = std::min(decoded->find('/', start), decoded->size());
        const std::string_view seg(decoded->data() + start, end - start);
        if (seg.empty() || seg.front() == '.') return bad();
        start = end + 1;
    }
    const StaticEntry* entry = find(*decoded);
    if (!entry) {
        r.status = 404;
        r.body = "not found\n";
        return r;
    }
    return serveEntity(*entry, request);
}

}  // namespace senet::server
