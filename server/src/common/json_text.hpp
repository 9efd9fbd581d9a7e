// The one way the server turns a JSON tree into text: ill-formed UTF-8 in any string becomes
// U+FFFD instead of an exception, so no visitor's input can make a reply throw.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace senet::server {

/// `j` as compact JSON text; never throws for bad UTF-8 (replaced with U+FFFD).
inline std::string jsonText(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

}  // namespace senet::server
