// `--tables DIR`: the endgame tables a folder holds (one "<ruleset>.sntb" per ruleset, as the
// build writes them into build/tables), read for the commands that use exact values.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "cli.hpp"

namespace senet::cli {

std::unique_ptr<ai::TableValues> loadTables(std::string_view dir) {
    const std::string shown(dir.substr(0, 200));
    std::error_code ec;
    if (!std::filesystem::is_directory(std::filesystem::path(std::string(dir)), ec)) {
        error("--tables: '" + shown + "' is not a folder");
        return nullptr;
    }
    auto tables = std::make_unique<ai::TableValues>();
    for (const Ruleset* r : allRulesets()) {
        const auto path = std::filesystem::path(std::string(dir)) / ai::tableFileName(r->id);
        if (!std::filesystem::exists(path, ec)) continue;
        const std::string name = path.string().substr(0, 200);
        // A regular file of a sane size only: not a folder, a device, a pipe or a huge file.
        if (!std::filesystem::is_regular_file(path, ec)) {
            error("--tables: '" + name + "' is not a regular file");
            return nullptr;
        }
        const auto size = std::filesystem::file_size(path, ec);
        if (ec || size > kMaxTableFileBytes) {
            error("--tables: '" + name + "' is larger than a table can be (" + std::to_string(kMaxTableFileBytes) + " bytes)");
            return nullptr;
        }
        std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
        std::ifstream in{path, std::ios::binary};
        if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())) ||
            in.peek() != std::ifstream::traits_type::eof()) {
            error("--tables: cannot read '" + name + "' (or it changed while read)");
            return nullptr;
        }
        const auto added = tables->addBytes(bytes);
        if (!added) {
            error("--tables: bad table '" + path.string().substr(0, 200) + "': " + added.error().message);
            return nullptr;
        }
        if (*added != r->id) {
            error("--tables: '" + path.string().substr(0, 200) + "' holds the " + std::string(ruleset(*added).key) + " table");
            return nullptr;
        }
    }
    if (tables->empty()) {
        error("--tables: '" + shown + "' holds no table (<ruleset>.sntb)");
        return nullptr;
    }
    return tables;
}

}  // namespace senet::cli
