// Fuzz target: the static file table (server/src/http/static_files.cpp) for GET /static/{path}.
// Input: the still percent-encoded path after "/static/" on the first line, the
// Accept-Encoding value on the second, If-None-Match on the third. Whatever the input, the
// answer is 200, 304, 400 or 404, and a 200 serves exactly one regular file of dist/ (gzip,
// brotli or as it is, as Content-Encoding says), never the file beside dist/ (also not through a
// symbolic link).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.hpp"
#include "content_coding.hpp"
#include "static_dir.hpp"
#include "static_files.hpp"

using namespace senet::server;
using senet::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static std::map<std::string, std::string> files;
    static const auto root = senet::fuzz::staticWebRoot(&files);
    static const StaticFiles table(root / "dist");
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t nl = input.find('\n');
    const std::string_view relative = input.substr(0, nl);
    Request request;
    request.method = "GET";
    request.target = "/static/" + std::string(relative);
    if (nl != std::string_view::npos) {
        const std::string_view rest = input.substr(nl + 1);
        const std::size_t nl2 = rest.find('\n');
        request.acceptEncoding = std::string(rest.substr(0, nl2));
        if (nl2 != std::string_view::npos) request.ifNoneMatch = std::string(rest.substr(nl2 + 1));
    }

    (void)percentDecode(relative);
    (void)isFingerprinted(relative);
    (void)contentTypeFor(relative.substr(std::min(relative.size(), relative.rfind('.'))));

    (void)chooseCoding(request.acceptEncoding, true, true);
    (void)noneMatchHits(request.ifNoneMatch, "\"0123-4\"");

    const Response r = table.serve(relative, request);
    check(r.status == 200 || r.status == 304 || r.status == 400 || r.status == 404, "static answer with status " + std::to_string(r.status), relative);
    if (r.status == 304) check(!request.ifNoneMatch.empty() && r.content().empty(), "a 304 without If-None-Match or with a body", relative);
    if (r.status != 200) return 0;
    std::string body(r.content());
    std::string encoding;
    for (const auto& [name, value] : r.headers) {
        check(value.find_first_of("\r\n") == std::string::npos, "a header value with a line break", value);
        if (name == "Content-Encoding") encoding = value;
    }
    if (!encoding.empty()) {
        check(encoding == "gzip" || encoding == "br", "an unknown Content-Encoding", encoding);
        auto plain = encoding == "gzip" ? gunzip(body) : brotliDecompress(body);
        check(plain.has_value(), "a compressed answer that does not decompress", relative);
        body = *plain;
    }
    check(body.find(senet::fuzz::kOutsideSecret) == std::string::npos, "served the file outside dist/", relative);
    bool known = false;
    for (const auto& [name, content] : files) known = known || (content == body && name.front() != '.');
    check(known, "served something that is not a plain file of dist/", relative);
    return 0;
}
