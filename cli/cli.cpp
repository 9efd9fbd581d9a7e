#include "cli.hpp"

#include <charconv>
#include <iostream>

namespace senet::cli {

int error(const std::string& message) {
    std::cerr << "senet: error: " << message << '\n';
    return kUsageError;
}

std::optional<std::map<std::string, std::string, std::less<>>> parseFlags(Args args, std::initializer_list<std::string_view> allowed) {
    std::map<std::string, std::string, std::less<>> flags;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view a = args[i];
        if (a.size() < 3 || a.substr(0, 2) != "--") {
            error("unexpected argument '" + std::string(a.substr(0, 40)) + "'");
            return std::nullopt;
        }
        const std::string_view name = a.substr(2);
        bool known = false;
        for (std::string_view n : allowed) known |= n == name;
        if (!known) {
            error("unknown option '" + std::string(a.substr(0, 40)) + "'");
            return std::nullopt;
        }
        if (flags.count(name)) {
            error("option '" + std::string(a) + "' given twice");
            return std::nullopt;
        }
        // No value ever starts with "--", so "--games --seed 1" lacks the value of --games.
        if (i + 1 >= args.size() || args[i + 1].substr(0, 2) == "--") {
            error("option '" + std::string(a) + "' needs a value");
            return std::nullopt;
        }
        flags.emplace(std::string(name), std::string(args[++i]));
    }
    return flags;
}

std::optional<std::int64_t> parseInteger(std::string_view text, std::string_view what, std::int64_t min, std::int64_t max) {
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size() || v < min || v > max) {
        error(std::string(what) + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
              ", got '" + std::string(text.substr(0, 40)) + "'");
        return std::nullopt;
    }
    return v;
}

std::optional<RulesetId> parseRuleset(std::string_view text) {
    const auto id = rulesetByKey(text);
    if (!id) error("unknown ruleset '" + std::string(text.substr(0, 40)) + "' (expected standard, jequier, bell, kendall or piccione)");
    return id;
}

}  // namespace senet::cli
