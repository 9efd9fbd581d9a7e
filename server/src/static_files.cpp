#include "static_files.hpp"

#include <zlib.h>

#include <fstream>
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

namespace {

bool compressible(std::string_view type) {
    return type.starts_with("text/") || type.starts_with("application/json") || type.starts_with("image/svg") ||
           type.starts_with("application/manifest") || type == "application/wasm";
}

std::optional<std::string> readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// gzip-compresses `data` (zlib, level 6); nullopt on failure.
std::optional<std::string> gzip(const std::string& data) {
    z_stream z{};
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return std::nullopt;
    std::string out(deflateBound(&z, data.size()) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) return std::nullopt;
    out.resize(z.total_out);
    return out;
}

bool acceptsGzip(std::string_view acceptEncoding) { return acceptEncoding.find("gzip") != std::string_view::npos; }

}  // namespace

Response serveStatic(const fs::path& distDir, std::string_view relative, const Request& request) {
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
    std::error_code ec;
    const fs::path root = fs::weakly_canonical(distDir, ec);
    const fs::path file = fs::weakly_canonical(root / *decoded, ec);
    if (ec) return bad();
    const auto rel = file.lexically_relative(root);
    if (rel.empty() || rel.native().starts_with("..")) return bad();
    auto unreadable = [&] {
        Response u;
        u.status = 503;
        u.body = "the file could not be read just now; try again\n";
        u.headers.emplace_back("Cache-Control", "no-store");
        u.headers.emplace_back("Retry-After", "1");
        return u;
    };
    if (!fs::is_regular_file(file, ec)) {
        r.status = 404;
        r.body = "not found\n";
        return r;
    }
    const std::string ext = file.extension().string();
    r.contentType = std::string(contentTypeFor(ext));
    r.headers.emplace_back("Cache-Control", isFingerprinted(file.filename().string()) ? "public, max-age=31536000, immutable"
                                                                                      : "no-cache");
    const bool mayCompress = compressible(r.contentType);
    if (mayCompress) r.headers.emplace_back("Vary", "Accept-Encoding");
    if (mayCompress && acceptsGzip(request.acceptEncoding)) {
        fs::path gz = file;
        gz += ".gz";
        if (fs::is_regular_file(gz, ec)) {
            auto body = readFile(gz);
            if (!body) return unreadable();
            r.body = std::move(*body);
            r.headers.emplace_back("Content-Encoding", "gzip");
            return r;
        }
    }
    auto body = readFile(file);
    if (!body) {
        // The file is there but could not be read (out of descriptors, I/O error): a passing
        // failure, never to be cached as the fingerprinted file's answer.
        return unreadable();
    }
    if (mayCompress && acceptsGzip(request.acceptEncoding) && body->size() >= 256) {
        if (auto z = gzip(*body)) {
            r.body = std::move(*z);
            r.headers.emplace_back("Content-Encoding", "gzip");
            return r;
        }
    }
    r.body = std::move(*body);
    return r;
}

}  // namespace senet::server
