#include "senet/json_members.hpp"

#include <nlohmann/json.hpp>

#include <set>
#include <vector>

namespace senet {

namespace {

/// A SAX handler that keeps the member names of each open object and stops at the first one
/// seen twice; `duplicate` then holds its path.
class DuplicateFinder final : public nlohmann::json_sax<nlohmann::json> {
public:
    std::optional<std::string> duplicate;

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override {
        open_.push_back(Level{true, {}, {}, 0});
        return true;
    }
    bool key(string_t& name) override {
        Level& level = open_.back();
        level.current = name;
        if (!level.names.insert(name).second) {
            duplicate = path();
            return false;
        }
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override {
        open_.push_back(Level{false, {}, {}, 0});
        return true;
    }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    struct Level {
        bool object;
        std::set<std::string> names;  ///< an object's members so far
        std::string current;          ///< an object's member being read
        std::size_t index;            ///< an array's element being read
    };

    /// A scalar value ended: the next array element follows.
    bool value() {
        if (!open_.empty() && !open_.back().object) ++open_.back().index;
        return true;
    }
    bool close() {
        open_.pop_back();
        return value();
    }
    std::string path() const {
        std::string out;
        for (const Level& level : open_) {
            std::string step;
            if (level.object) {
                if (!out.empty()) step += '.';
                step += level.current.substr(0, 40);
            } else {
                step = '[' + std::to_string(level.index) + ']';
            }
            // Cut between steps, never inside one.
            if (out.size() + step.size() > 200) return out + "…";
            out += step;
        }
        return open_.size() == 1 ? '"' + out + '"' : out;
    }

    std::vector<Level> open_;
};

}  // namespace

std::optional<std::string> firstDuplicateMember(std::string_view text) {
    DuplicateFinder finder;
#if defined(__cpp_exceptions)
    try {
        nlohmann::json::sax_parse(text, &finder, nlohmann::json::input_format_t::json, /*strict=*/true);
    } catch (...) {
        // sax_parse reports errors through parse_error; nothing else is expected. An exception
        // (allocation) means no answer: the caller's own parse decides.
        return std::nullopt;
    }
#else
    // The WebAssembly build has no exceptions: parse errors come through parse_error all the same.
    nlohmann::json::sax_parse(text, &finder, nlohmann::json::input_format_t::json, /*strict=*/true);
#endif
    return finder.duplicate;
}

bool nestedDeeperThan(std::string_view text, std::size_t depth) {
    std::size_t open = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++open > depth) return true;
        } else if ((c == ']' || c == '}') && open > 0) {
            --open;
        }
    }
    return false;
}

}  // namespace senet
