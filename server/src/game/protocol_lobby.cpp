// The lobby's client messages (PROTOCOL.md "Lobby"): the same parser module as the game's
// messages (protocol.hpp), the same envelope, the same error codes for the same faults.
#include <nlohmann/json.hpp>

#include "json_text.hpp"
#include "protocol.hpp"
#include "senet/fairness.hpp"
#include "senet/json_members.hpp"
#include "utf8.hpp"

namespace senet::server::protocol::lobby {

using nlohmann::json;

namespace {

ParseError badField(const std::string& type, const std::string& field, const std::string& what) {
    return ParseError{"bad-field", type + ": \"" + field + "\" " + what};
}

bool tokenChars(const std::string& s, std::size_t max) {
    if (s.empty() || s.size() > max) return false;
    for (const char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-')) return false;
    return true;
}

/// Reads the optional `name` and `browser` members shared by seek and take; an error or nullopt.
std::optional<ParseError> readSeeker(const json& d, const std::string& type, std::optional<std::string>& name,
                                     std::optional<std::string>& browser) {
    if (const auto n = d.find("name"); n != d.end() && !n->is_null()) {
        if (!n->is_string()) return badField(type, "name", "must be a string");
        if (n->get_ref<const std::string&>().size() > kMaxNameBytes)
            return ParseError{"bad-name", "the name is too long: at most 20 characters"};
        name = n->get<std::string>();
    }
    if (const auto b = d.find("browser"); b != d.end() && !b->is_null()) {
        if (!b->is_string() || !tokenChars(b->get_ref<const std::string&>(), 64))
            return ParseError{"bad-browser", type + ": \"browser\" must be 1-64 characters of [0-9A-Za-z_-]"};
        browser = b->get<std::string>();
    }
    return std::nullopt;
}

/// Reads the optional boolean member `key` into `out`; an error when it is there and not a boolean.
std::optional<ParseError> readFlag(const json& d, const std::string& type, const char* key, bool& out) {
    const auto f = d.find(key);
    if (f == d.end() || f->is_null()) return std::nullopt;
    if (!f->is_boolean()) return badField(type, key, "must be true or false");
    out = f->get<bool>();
    return std::nullopt;
}

}  // namespace

Result parse(std::string_view frame) {
    const json j = json::parse(frame, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return ParseError{"bad-json", "a message must be a JSON object {\"t\":..., \"d\":...}"};
    // As on the game socket: a member given twice (whose value would be the last one's) is refused.
    if (const auto twice = firstDuplicateMember(frame)) return ParseError{"bad-json", "the message has the member " + *twice + " twice"};
    const auto t = j.find("t");
    if (t == j.end() || !t->is_string()) return ParseError{"unknown-type", "a message needs a string \"t\""};
    const std::string& type = t->get_ref<const std::string&>();
    const std::string shown(utf8::cut(type, 20));
    static const json kEmpty = json::object();
    const json* d = &kEmpty;
    if (const auto it = j.find("d"); it != j.end() && !it->is_null()) {
        if (!it->is_object()) return ParseError{"bad-field", shown + ": \"d\" must be an object"};
        d = &*it;
    }
    if (type == "seek") {
        Seek s;
        const auto r = d->find("ruleset");
        if (r == d->end()) return badField(type, "ruleset", "is missing");
        if (!r->is_string() || r->get_ref<const std::string&>().size() > 32)
            return badField(type, "ruleset", "must be a ruleset's key or \"any\"");
        s.ruleset = r->get<std::string>();
        if (auto e = readSeeker(*d, type, s.name, s.browser)) return *e;
        if (auto e = readFlag(*d, type, "bot", s.bot)) return *e;
        if (auto e = readFlag(*d, type, "bots", s.bots)) return *e;
        return Message{std::move(s)};
    }
    if (type == "take") {
        Take s;
        const auto id = d->find("seek");
        if (id == d->end()) return badField(type, "seek", "is missing");
        if (!id->is_string() || !tokenChars(id->get_ref<const std::string&>(), 32))
            return badField(type, "seek", "must be an open seek's id from the lobby's list");
        s.seek = id->get<std::string>();
        if (auto e = readSeeker(*d, type, s.name, s.browser)) return *e;
        if (auto e = readFlag(*d, type, "bot", s.bot)) return *e;
        return Message{std::move(s)};
    }
    if (type == "cancel") return Message{Cancel{}};
    if (type == "ping") return Message{LobbyPing{}};
    return ParseError{"unknown-type", "unknown lobby message type " + jsonText(json(shown))};
}

}  // namespace senet::server::protocol::lobby
