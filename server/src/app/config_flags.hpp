// The server's settings from command-line flags and environment variables (flags win).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"

namespace senet::server {

/// Parses argv (and SENET_* variables). Returns the config, or an error message in `error`
/// (and nullopt). `--help` sets `error` to the usage text and `help` to true.
std::optional<Config> parseConfig(int argc, char** argv, std::string& error, bool& help);

/// One flag parseConfig knows, as spelled: `--name`, the environment variable that sets it too
/// ("" if none) and its other spelling ("" if none).
struct FlagInfo {
    std::string name, env, alias;
};

/// Every flag parseConfig knows, in the order of the usage text (tests check --help against it).
std::vector<FlagInfo> flagTable();

/// The web/ directory next to the binary's source tree or the working directory, or empty.
std::filesystem::path findWebRoot(const char* argv0);

/// The build's endgame tables folder beside the binary (build/server/senet-server ->
/// build/tables) when it exists, else "none".
std::filesystem::path findTables(const char* argv0);

}  // namespace senet::server
