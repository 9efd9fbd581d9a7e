// The in-memory table of dist/ (server/src/http/static_files.hpp), in-process: what is loaded at
// start, the build's .gz/.br used only when exact, paths that try to leave dist/, and answers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "static_files.hpp"

namespace senet::server {
namespace {

namespace fs = std::filesystem;

void put(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

std::string text(int lines) {
    std::string s;
    for (int i = 0; i < lines; ++i) s += "const value" + std::to_string(i) + " = " + std::to_string(i % 13) + ";\n";
    return s;
}

class StaticTable : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("senet-static-table-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        dist_ = root_ / "dist";
        put(dist_ / "app-1234ABCD.js", text(200));
        put(dist_ / "app-1234ABCD.js.gz", *gzipCompress(text(200), 1));   // exact: used as it is
        put(dist_ / "app-1234ABCD.js.br", "not brotli at all");           // broken: made anew
        put(dist_ / "i18n" / "en-0123456789.json", "{\"k\":\"" + std::string(500, 'v') + "\"}");
        put(dist_ / "engine-0a1b2c3d4e.wasm", std::string("\0asm\1\0\0\0", 8) + std::string(1000, '\0'));
        put(dist_ / "photo.png", std::string(1000, 'p'));
        put(dist_ / "small.css", "a{}");
        put(dist_ / ".secret", "hidden");
        put(dist_ / ".git" / "config", "hidden dir");
        put(dist_ / "orphan.txt.gz", "a .gz with no file beside it");
        put(root_ / "outside.txt", "outside dist");
        std::error_code ec;
        fs::create_symlink(root_ / "outside.txt", dist_ / "link-out.txt", ec);
        fs::create_symlink(dist_ / "small.css", dist_ / "link-in.css", ec);
        fs::create_directory_symlink(root_, dist_ / "up", ec);
    }
    void TearDown() override { fs::remove_all(root_); }
    fs::path root_, dist_;
};

Request withEncoding(std::string acceptEncoding, std::string ifNoneMatch = "") {
    Request r;
    r.method = "GET";
    r.acceptEncoding = std::move(acceptEncoding);
    r.ifNoneMatch = std::move(ifNoneMatch);
    return r;
}

std::string header(const Response& r, const std::string& name) {
    for (const auto& [n, v] : r.headers)
        if (n == name) return v;
    return "";
}

TEST_F(StaticTable, LoadsEveryPlainFileOfDistOnce) {
    const StaticFiles files(dist_);
    for (const char* name : {"app-1234ABCD.js", "i18n/en-0123456789.json", "engine-0a1b2c3d4e.wasm", "photo.png", "small.css",
                             "link-in.css", "orphan.txt.gz"})
        EXPECT_NE(files.find(name), nullptr) << name;
    for (const char* name : {".secret", ".git/config", "link-out.txt", "up/outside.txt", "app-1234ABCD.js.gz", "app-1234ABCD.js.br"})
        EXPECT_EQ(files.find(name), nullptr) << name;
    EXPECT_EQ(files.size(), 7u);
    // Changing dist/ afterwards changes nothing served.
    put(dist_ / "small.css", "b{}");
    put(dist_ / "new.js", text(10));
    EXPECT_EQ(files.serve("small.css", withEncoding("")).content(), "a{}");
    EXPECT_EQ(files.serve("new.js", withEncoding("")).status, 404);
}

TEST_F(StaticTable, UsesTheBuildsFilesOnlyWhenExact) {
    const StaticFiles files(dist_);
    const StaticEntry* e = files.find("app-1234ABCD.js");
    ASSERT_NE(e, nullptr);
    ASSERT_TRUE(e->gzip && e->brotli);
    EXPECT_TRUE(e->gzipFromDisk);
    EXPECT_FALSE(e->brotliFromDisk);
    EXPECT_EQ(*e->gzip->body, *gzipCompress(text(200), 1));
    EXPECT_EQ(brotliDecompress(*e->brotli->body), text(200));
    EXPECT_EQ(e->contentType, "text/javascript; charset=utf-8");
    EXPECT_EQ(e->cacheControl, "public, max-age=31536000, immutable");
    // WebAssembly compresses; a PNG and a file too small to gain do not.
    const StaticEntry* wasm = files.find("engine-0a1b2c3d4e.wasm");
    EXPECT_EQ(wasm->contentType, "application/wasm");
    EXPECT_TRUE(wasm->gzip && wasm->brotli);
    EXPECT_FALSE(files.find("photo.png")->gzip || files.find("photo.png")->brotli);
    EXPECT_FALSE(files.find("small.css")->gzip || files.find("small.css")->brotli);
    EXPECT_EQ(files.find("small.css")->cacheControl, "no-cache");
}

TEST_F(StaticTable, AnswersByAcceptEncoding) {
    const StaticFiles files(dist_);
    const Response br = files.serve("app-1234ABCD.js", withEncoding("gzip, br"));
    EXPECT_EQ(br.status, 200);
    EXPECT_EQ(header(br, "Content-Encoding"), "br");
    EXPECT_EQ(header(br, "Vary"), "Accept-Encoding");
    EXPECT_EQ(brotliDecompress(br.content()), text(200));
    EXPECT_TRUE(br.body.empty());  // shared with the table, not copied
    const Response gz = files.serve("app-1234ABCD.js", withEncoding("gzip"));
    EXPECT_EQ(header(gz, "Content-Encoding"), "gzip");
    EXPECT_EQ(gunzip(gz.content()), text(200));
    EXPECT_EQ(br.sharedBody.get(), files.serve("app-1234ABCD.js", withEncoding("br")).sharedBody.get());
    const Response plain = files.serve("app-1234ABCD.js", withEncoding("br;q=0, gzip;q=0"));
    EXPECT_EQ(header(plain, "Content-Encoding"), "");
    EXPECT_EQ(plain.content(), text(200));
    // No compressed form: no Vary either.
    EXPECT_EQ(header(files.serve("photo.png", withEncoding("br")), "Vary"), "");
    EXPECT_EQ(files.serve("photo.png", withEncoding("br")).contentType, "image/png");
}

TEST_F(StaticTable, NotModifiedForTheSameEncodingOnly) {
    const StaticFiles files(dist_);
    const std::string tag = header(files.serve("app-1234ABCD.js", withEncoding("br")), "ETag");
    const Response again = files.serve("app-1234ABCD.js", withEncoding("br", tag));
    EXPECT_EQ(again.status, 304);
    EXPECT_EQ(again.content(), "");
    EXPECT_EQ(header(again, "ETag"), tag);
    EXPECT_EQ(header(again, "Content-Encoding"), "");
    EXPECT_EQ(files.serve("app-1234ABCD.js", withEncoding("gzip", tag)).status, 200);
    EXPECT_EQ(files.serve("app-1234ABCD.js", withEncoding("gzip", "*")).status, 304);
}

TEST_F(StaticTable, PathsOutOfDistAreRefused) {
    const StaticFiles files(dist_);
    for (const char* path : {"../outside.txt", "%2e%2e/outside.txt", "i18n/../../outside.txt", "..%2foutside.txt", "%2fetc/passwd",
                             "i18n\\..\\..\\outside.txt", ".secret", "app-1234ABCD.js%00.css", "/etc/passwd", "%zz", "", "i18n//x"})
        EXPECT_EQ(files.serve(path, withEncoding("")).status, 400) << path;
    for (const char* path : {"none.js", "up/outside.txt", "link-out.txt", "app-1234ABCD.js.gz", "i18n"})
        EXPECT_EQ(files.serve(path, withEncoding("")).status, 404) << path;
    EXPECT_EQ(files.serve("i18n/en-0123456789.json", withEncoding("")).status, 200);
    EXPECT_EQ(files.serve("i18n%2fen-0123456789.json", withEncoding("")).status, 200);  // an escaped slash is a slash
}

TEST_F(StaticTable, MissingDistIsAnEmptyTable) {
    const StaticFiles files(root_ / "no-such-dir");
    EXPECT_EQ(files.size(), 0u);
    EXPECT_EQ(files.serve("app.js", withEncoding("br")).status, 404);
}

}  // namespace
}  // namespace senet::server
