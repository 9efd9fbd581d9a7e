// The server's settings from command-line flags and environment variables (flags win).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "config.hpp"

namespace senet::server {

/// Parses argv (and SENET_* variables). Returns the config, or an error message in `error`
/// (and nullopt). `--help` sets `error` to the usage text and `help` to true.
std::optional<Config> parseConfig(int argc, char** argv, std::string& error, bool& help);

/// The web/ directory next to the binary's source tree or the working directory, or empty.
std::filesystem::path findWebRoot(const char* argv0);

}  // namespace senet::server
