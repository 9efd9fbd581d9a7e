// A web root for the router and static-file fuzz targets: a dist/ with known files, a file
// beside dist/ that must never be served, and symbolic links that point out of dist/.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "content_coding.hpp"

namespace senet::fuzz {

/// The secret text of the file outside dist/.
inline constexpr const char* kOutsideSecret = "SECRET-OUTSIDE-DIST";

/// Creates (once per process) the web root under the temporary directory and returns it.
/// `files` receives dist/-relative name → content of every regular file in dist/.
inline std::filesystem::path staticWebRoot(std::map<std::string, std::string>* files = nullptr) {
    namespace fs = std::filesystem;
    static std::map<std::string, std::string> contents;
    static const fs::path root = [] {
        const fs::path r = fs::temp_directory_path() / ("senet-fuzz-web-" + std::to_string(::getpid()));
        fs::create_directories(r / "dist" / "img");
        auto put = [&](const std::string& rel, const std::string& text) {
            std::ofstream(r / "dist" / rel, std::ios::binary) << text;
            contents[rel] = text;
        };
        put("app.3f9a1c2b.js", "console.log('app');\n" + std::string(400, '/') + "\n");
        put("site.css", "body { color: #222; }\n");
        put("img/logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n");
        put("manifest.json", "{\"play.js\":\"/static/app.3f9a1c2b.js\"}\n");
        put("data.bin", std::string("\0\1\2\3", 4));
        put(".hidden", "hidden file\n");
        // The build's compressed forms beside the text files, as web/scripts/compress.mjs writes
        // them: the server takes them instead of compressing at start (brotli at quality 11 for
        // every Router the router target builds per input was most of its time).
        for (const std::string rel : {"app.3f9a1c2b.js", "site.css", "img/logo.svg", "manifest.json"}) {
            const std::string text = contents[rel];
            if (auto gz = senet::server::gzipCompress(text, 9)) put(rel + ".gz", *gz);
            if (auto br = senet::server::brotliCompress(text, 11)) put(rel + ".br", *br);
        }
        std::ofstream(r / "secret.txt") << kOutsideSecret << '\n';
        std::error_code ec;
        fs::create_symlink(r / "secret.txt", r / "dist" / "link.txt", ec);
        fs::create_directory_symlink(r, r / "dist" / "up", ec);
        return r;
    }();
    if (files) *files = contents;
    return root;
}

}  // namespace senet::fuzz
