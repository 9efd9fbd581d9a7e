// Fuzz target: the static file resolver (server/src/static_files.cpp) for GET /static/{path}.
// Input: the still percent-encoded path after "/static/" on the first line, the
// Accept-Encoding value on the second. Whatever the path, the answer is 200, 400 or 404, and a
// 200 serves exactly one regular file of dist/ (gzip-compressed or not), never the file beside
// dist/ (also not through a symbolic link).
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.hpp"
#include "static_dir.hpp"
#include "static_files.hpp"

using namespace senet::server;
using senet::fuzz::check;

namespace {

/// Inflates a gzip body; nullopt when it is not one.
std::optional<std::string> gunzip(const std::string& data) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK) return std::nullopt;
    std::string out(1 << 16, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&z, Z_FINISH);
    inflateEnd(&z);
    if (rc != Z_STREAM_END) return std::nullopt;
    out.resize(z.total_out);
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static std::map<std::string, std::string> files;
    static const auto root = senet::fuzz::staticWebRoot(&files);
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t nl = input.find('\n');
    const std::string_view relative = input.substr(0, nl);
    Request request;
    request.method = "GET";
    request.target = "/static/" + std::string(relative);
    if (nl != std::string_view::npos) request.acceptEncoding = std::string(input.substr(nl + 1));

    (void)percentDecode(relative);
    (void)isFingerprinted(relative);
    (void)contentTypeFor(relative.substr(std::min(relative.size(), relative.rfind('.'))));

    const Response r = serveStatic(root / "dist", relative, request);
    check(r.status == 200 || r.status == 400 || r.status == 404, "static answer with status " + std::to_string(r.status), relative);
    if (r.status != 200) return 0;
    std::string body = r.body;
    bool gzipped = false;
    for (const auto& [name, value] : r.headers) {
        check(value.find_first_of("\r\n") == std::string::npos, "a header value with a line break", value);
        gzipped = gzipped || (name == "Content-Encoding" && value == "gzip");
    }
    if (gzipped) {
        auto plain = gunzip(body);
        check(plain.has_value(), "a gzip answer that does not inflate", relative);
        body = *plain;
    }
    check(body.find(senet::fuzz::kOutsideSecret) == std::string::npos, "served the file outside dist/", relative);
    bool known = false;
    for (const auto& [name, content] : files) known = known || (content == body && name.front() != '.');
    check(known, "served something that is not a plain file of dist/", relative);
    return 0;
}
