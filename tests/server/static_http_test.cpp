// Static files and HTML pages over real HTTP: served from memory with gzip and brotli chosen by
// Accept-Encoding, Vary, an ETag per encoding, 304 on If-None-Match, HEAD, and compressed pages.
#include <fstream>

#include "content_coding.hpp"
#include "fixture.hpp"
#include "raw_client.hpp"

namespace senet::testing {
namespace {

namespace fs = std::filesystem;
using server::brotliDecompress;
using server::gunzip;

void writeFile(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

/// A JavaScript text that compresses well and is large enough to be worth it.
std::string bundleText() {
    std::string js = "// bundle\n";
    for (int i = 0; i < 300; ++i) js += "export function f" + std::to_string(i) + "() { return " + std::to_string(i * 7) + "; }\n";
    return js;
}

/// The test web root plus files of this suite, written before the server starts.
class StaticHttp : public ServerTest {
protected:
    void SetUp() override {
        web_ = makeWebRoot(dir_.path());
        const fs::path dist = web_ / "dist";
        writeFile(dist / "bundle-ABCD1234.js", bundleText());
        // A stale precompressed file (of other text) must never be served for this file.
        writeFile(dist / "stale-1234abcd.css", std::string(600, 'a') + "body{color:red}\n");
        writeFile(dist / "stale-1234abcd.css.gz", *server::gzipCompress("something else entirely\n", 9));
        // A brotli file made beforehand at a low quality: served as it is (byte for byte).
        prebuiltBr_ = *server::brotliCompress(bundleText() + "// pre\n", 1);
        writeFile(dist / "pre-5678ABCD.js", bundleText() + "// pre\n");
        writeFile(dist / "pre-5678ABCD.js.br", prebuiltBr_);
        std::string wasm("\0asm\1\0\0\0", 8);
        wasm += std::string(2000, '\0');
        writeFile(dist / "engine-0a1b2c3d4e.wasm", wasm);
        writeFile(dist / "deleted-later.js", bundleText());
        server_ = std::make_unique<ServerProcess>(dir_.path() / "data", web_, flags());
    }
    HttpReply get(const std::string& target, const std::string& acceptEncoding, std::map<std::string, std::string> more = {}) {
        if (!acceptEncoding.empty()) more["Accept-Encoding"] = acceptEncoding;
        return httpRequest(port(), "GET", target, "", more);
    }
    std::string prebuiltBr_;
};

TEST_F(StaticHttp, BrotliPreferredThenGzipThenIdentity) {
    const auto plain = get("/static/bundle-ABCD1234.js", "");
    ASSERT_EQ(plain.status, 200);
    EXPECT_EQ(plain.body, bundleText());
    EXPECT_EQ(plain.header("content-encoding"), "");
    EXPECT_EQ(plain.header("vary"), "Accept-Encoding");
    EXPECT_EQ(plain.header("content-length"), std::to_string(plain.body.size()));

    const auto br = get("/static/bundle-ABCD1234.js", "gzip, deflate, br");
    ASSERT_EQ(br.status, 200);
    EXPECT_EQ(br.header("content-encoding"), "br");
    EXPECT_EQ(br.header("vary"), "Accept-Encoding");
    EXPECT_EQ(br.header("content-type"), "text/javascript; charset=utf-8");
    EXPECT_EQ(br.header("cache-control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(br.header("content-length"), std::to_string(br.body.size()));
    EXPECT_LT(br.body.size(), plain.body.size() / 4);
    EXPECT_EQ(brotliDecompress(br.body).value_or("not brotli"), bundleText());

    const auto gz = get("/static/bundle-ABCD1234.js", "gzip");
    EXPECT_EQ(gz.header("content-encoding"), "gzip");
    EXPECT_EQ(gunzip(gz.body).value_or("not gzip"), bundleText());
}

TEST_F(StaticHttp, QValuesAreHonoured) {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"br;q=0, gzip", "gzip"},
        {"gzip;q=0.9, br;q=0.8", "gzip"},
        {"gzip;q=0.8, br;q=0.8", "br"},
        {"identity;q=1, gzip;q=0.5", ""},
        {"*", "br"},
        {"*;q=0", ""},
        {"br;q=0, gzip;q=0", ""},
        {"x-gzip", "gzip"},
        {"deflate", ""},
        {"GZIP;Q=0.5", "gzip"},
    };
    for (const auto& [header, expected] : cases) {
        const auto r = get("/static/bundle-ABCD1234.js", header);
        EXPECT_EQ(r.status, 200) << header;
        EXPECT_EQ(r.header("content-encoding"), expected) << header;
        const std::string body = expected == "br" ? brotliDecompress(r.body).value_or("?")
                                 : expected == "gzip" ? gunzip(r.body).value_or("?") : r.body;
        EXPECT_EQ(body, bundleText()) << header;
    }
}

TEST_F(StaticHttp, MalformedAcceptEncodingGetsTheFileUncompressed) {
    for (const char* header : {"gzip;q=2", "br;q=abc", ";;;", ",,,", "br;level=5", "gzip;q=0.5;q=1", "\"br\"", "br gzip"}) {
        const auto r = get("/static/bundle-ABCD1234.js", header);
        EXPECT_EQ(r.status, 200) << header;
        EXPECT_EQ(r.header("content-encoding"), "") << header;
        EXPECT_EQ(r.body, bundleText()) << header;
    }
}

TEST_F(StaticHttp, EachEncodingHasItsOwnETagAndRevalidates) {
    const auto plain = get("/static/bundle-ABCD1234.js", "");
    const auto gz = get("/static/bundle-ABCD1234.js", "gzip");
    const auto br = get("/static/bundle-ABCD1234.js", "br");
    ASSERT_FALSE(plain.header("etag").empty());
    EXPECT_EQ(plain.header("etag").front(), '"');
    EXPECT_NE(plain.header("etag"), gz.header("etag"));
    EXPECT_NE(plain.header("etag"), br.header("etag"));
    EXPECT_NE(gz.header("etag"), br.header("etag"));

    const auto notModified = get("/static/bundle-ABCD1234.js", "br", {{"If-None-Match", br.header("etag")}});
    EXPECT_EQ(notModified.status, 304);
    EXPECT_EQ(notModified.body, "");
    EXPECT_EQ(notModified.header("etag"), br.header("etag"));
    EXPECT_EQ(notModified.header("vary"), "Accept-Encoding");
    EXPECT_EQ(notModified.header("cache-control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(notModified.header("content-length"), "");
    // A list, a weak tag and "*" match too; another encoding's tag does not.
    EXPECT_EQ(get("/static/bundle-ABCD1234.js", "br", {{"If-None-Match", "\"x\", W/" + br.header("etag")}}).status, 304);
    EXPECT_EQ(get("/static/bundle-ABCD1234.js", "gzip", {{"If-None-Match", "*"}}).status, 304);
    const auto other = get("/static/bundle-ABCD1234.js", "gzip", {{"If-None-Match", br.header("etag")}});
    EXPECT_EQ(other.status, 200);
    EXPECT_EQ(other.header("content-encoding"), "gzip");
    EXPECT_EQ(get("/static/bundle-ABCD1234.js", "", {{"If-None-Match", "garbage"}}).status, 200);
}

TEST_F(StaticHttp, HeadGivesTheLengthOfTheChosenEncoding) {
    const auto br = get("/static/bundle-ABCD1234.js", "br");
    const auto head = httpRequest(port(), "HEAD", "/static/bundle-ABCD1234.js", "", {{"Accept-Encoding", "br"}});
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(head.body, "");
    EXPECT_EQ(head.header("content-encoding"), "br");
    EXPECT_EQ(head.header("content-length"), std::to_string(br.body.size()));
    EXPECT_EQ(head.header("etag"), br.header("etag"));
}

TEST_F(StaticHttp, PrecompressedFilesAreServedOnlyWhenTheyMatch) {
    const auto pre = get("/static/pre-5678ABCD.js", "br");
    EXPECT_EQ(pre.header("content-encoding"), "br");
    EXPECT_EQ(pre.body, prebuiltBr_);  // the file made beforehand, byte for byte
    const auto stale = get("/static/stale-1234abcd.css", "gzip");
    EXPECT_EQ(stale.header("content-encoding"), "gzip");
    EXPECT_EQ(gunzip(stale.body).value_or("?"), std::string(600, 'a') + "body{color:red}\n");
    // A variant is not a file of its own.
    EXPECT_EQ(get("/static/pre-5678ABCD.js.br", "").status, 404);
}

TEST_F(StaticHttp, FilesAreReadOnceAtStart) {
    fs::remove(web_ / "dist" / "deleted-later.js");
    writeFile(web_ / "dist" / "added-later.js", "late\n");
    const auto kept = get("/static/deleted-later.js", "");
    EXPECT_EQ(kept.status, 200);
    EXPECT_EQ(kept.body, bundleText());
    EXPECT_EQ(get("/static/added-later.js", "").status, 404);
}

TEST_F(StaticHttp, WasmIsServedCompressedWithItsType) {
    const auto plain = get("/static/engine-0a1b2c3d4e.wasm", "");
    EXPECT_EQ(plain.status, 200);
    EXPECT_EQ(plain.header("content-type"), "application/wasm");
    EXPECT_EQ(plain.body.size(), 2008u);
    const auto br = get("/static/engine-0a1b2c3d4e.wasm", "br");
    EXPECT_EQ(br.header("content-encoding"), "br");
    EXPECT_EQ(brotliDecompress(br.body).value_or("?"), plain.body);
}

TEST_F(StaticHttp, IncompressibleFilesHaveNoVariants) {
    const auto r = get("/static/plain.css", "br, gzip");  // 23 bytes: smaller than any compressed form
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("content-encoding"), "");
    EXPECT_EQ(r.body, "body { color: black; }\n");
}

/// The bytes of a reply decoded by its Content-Encoding.
std::string decoded(const HttpReply& r) {
    const std::string enc = r.header("content-encoding");
    if (enc == "br") return brotliDecompress(r.body).value_or("not brotli");
    if (enc == "gzip") return gunzip(r.body).value_or("not gzip");
    return enc.empty() ? r.body : "unknown encoding " + enc;
}

TEST_F(StaticHttp, ContentPagesAreSentCompressed) {
    for (const char* path : {"/en/", "/nl/rules", "/ar/variants/bell", "/de/fairness"}) {
        const auto plain = get(path, "");
        ASSERT_EQ(plain.status, 200) << path;
        EXPECT_EQ(plain.header("content-encoding"), "") << path;
        EXPECT_NE(plain.header("vary").find("Accept-Encoding"), std::string::npos) << path;
        for (const char* enc : {"br", "gzip"}) {
            const auto r = get(path, enc);
            EXPECT_EQ(r.status, 200) << path;
            EXPECT_EQ(r.header("content-encoding"), enc) << path;
            EXPECT_EQ(r.header("content-type"), "text/html; charset=utf-8") << path;
            EXPECT_NE(r.header("vary").find("Accept-Encoding"), std::string::npos) << path;
            EXPECT_EQ(r.header("content-length"), std::to_string(r.body.size())) << path;
            EXPECT_LT(r.body.size(), plain.body.size() / 2) << path;
            EXPECT_EQ(decoded(r), plain.body) << path << ' ' << enc;
        }
    }
}

TEST_F(StaticHttp, PlayAndErrorPagesAreSentCompressed) {
    const NewGame g = createGame(port(), "jequier", "friend");
    const std::string path = "/fi/play/" + g.id;
    const auto plain = get(path, "");
    ASSERT_EQ(plain.status, 200);
    EXPECT_NE(plain.body.find(g.id), std::string::npos);
    const auto br = get(path, "gzip, deflate, br");
    EXPECT_EQ(br.header("content-encoding"), "br");
    EXPECT_EQ(decoded(br), plain.body);
    const auto gz = get(path, "gzip");
    EXPECT_EQ(gz.header("content-encoding"), "gzip");
    EXPECT_EQ(decoded(gz), plain.body);
    std::cout << "play page: " << plain.body.size() << " B, gzip " << gz.body.size() << " B, br " << br.body.size() << " B\n";
    EXPECT_LT(br.body.size(), plain.body.size() / 2);

    // A page in the language of Accept-Language varies on it as well.
    const auto missing = get("/nowhere", "br", {{"Accept-Language", "nl"}});
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(missing.header("content-encoding"), "br");
    EXPECT_NE(missing.header("vary").find("Accept-Language"), std::string::npos);
    EXPECT_NE(missing.header("vary").find("Accept-Encoding"), std::string::npos);
    EXPECT_NE(decoded(missing).find("lang=\"nl\""), std::string::npos);
    // HEAD of a page: the compressed length, no body.
    const auto head = httpRequest(port(), "HEAD", "/en/rules", "", {{"Accept-Encoding", "br"}});
    EXPECT_EQ(head.header("content-encoding"), "br");
    EXPECT_EQ(head.header("content-length"), std::to_string(get("/en/rules", "br").body.size()));
}

TEST_F(StaticHttp, ContentPagesRevalidate) {
    const auto first = get("/en/rules", "br");
    ASSERT_FALSE(first.header("etag").empty());
    const auto again = get("/en/rules", "br", {{"If-None-Match", first.header("etag")}});
    EXPECT_EQ(again.status, 304);
    EXPECT_EQ(again.body, "");
    EXPECT_EQ(get("/en/rules", "gzip", {{"If-None-Match", first.header("etag")}}).status, 200);
}

}  // namespace
}  // namespace senet::testing

namespace senet::testing {
namespace {

// Accept-Encoding sent on two lines is one list (RFC 9110 5.3): "gzip" and "br" choose br, as
// "gzip, br" does; only the first line was read, so these got gzip and the plain file.
TEST_F(StaticHttp, AcceptEncodingOnSeveralLinesIsOneList) {
    auto two = [&](const std::string& first, const std::string& second) {
        return rawExchange(port(), "GET /static/bundle-ABCD1234.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: " + first +
                                       "\r\nAccept-Encoding: " + second + "\r\nConnection: close\r\n\r\n");
    };
    const RawReply a = two("gzip", "br");
    EXPECT_EQ(a.status, 200);
    EXPECT_EQ(a.header("content-encoding"), "br");
    const RawReply b = two("identity", "br");
    EXPECT_EQ(b.header("content-encoding"), "br");
    // Accept-Language on two lines too: the first language the site has wins.
    const RawReply page = rawExchange(port(), "GET / HTTP/1.1\r\nHost: x\r\nAccept-Language: xx\r\nAccept-Language: fi\r\n"
                                              "Connection: close\r\n\r\n");
    EXPECT_EQ(page.status, 302) << page.body;
    EXPECT_EQ(page.header("location"), "/fi/");
}

}  // namespace
}  // namespace senet::testing
