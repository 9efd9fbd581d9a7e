#include "protocol.hpp"

#include <nlohmann/json.hpp>

#include "phrases.hpp"
#include "senet/fairness.hpp"
#include "senet/json_members.hpp"
#include "utf8.hpp"
#include "json_text.hpp"

namespace senet::server::protocol {

using nlohmann::json;

namespace {

/// The message type as shown in error messages: at most 20 bytes, cut on a character boundary.
std::string shownType(const std::string& type) { return std::string(utf8::cut(type, 20)); }


ParseError badField(const std::string& type, const std::string& field, const std::string& what) {
    return ParseError{"bad-field", type + ": \"" + field + "\" " + what};
}

/// Reads a required non-negative integer `ply`.
std::variant<std::int64_t, ParseError> readPly(const json& d, const std::string& type) {
    const auto it = d.find("ply");
    if (it == d.end()) return badField(type, "ply", "is missing");
    if (!it->is_number_integer()) return badField(type, "ply", "must be an integer");
    if (it->is_number_unsigned() ? it->get<std::uint64_t>() > 1'000'000'000ull : it->get<std::int64_t>() < 0)
        return badField(type, "ply", "is out of range");
    return it->get<std::int64_t>();
}

}  // namespace

namespace {

/// Consumes `prefix` from the front of `s`; false (s unchanged) when it does not start with it.
bool eat(std::string_view& s, std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix) return false;
    s.remove_prefix(prefix.size());
    return true;
}

/// Reads a ply written as JSON allows (no sign, no leading zero, no fraction or exponent)
/// within 0..1,000,000,000; nullopt otherwise (the full parser then gives the error).
std::optional<std::int64_t> eatPly(std::string_view& s) {
    std::size_t n = 0;
    std::int64_t value = 0;
    while (n < s.size() && s[n] >= '0' && s[n] <= '9' && n < 10) value = value * 10 + (s[n++] - '0');
    if (n == 0 || (n > 1 && s[0] == '0') || value > 1'000'000'000) return std::nullopt;
    if (n < s.size() && (s[n] >= '0' && s[n] <= '9')) return std::nullopt;  // more than 10 digits
    s.remove_prefix(n);
    return value;
}

}  // namespace

std::optional<ClientMessage> parseFast(std::string_view s) {
    if (!eat(s, R"({"t":")")) return std::nullopt;
    if (eat(s, R"(throw","d":{"ply":)")) {
        const auto ply = eatPly(s);
        if (!ply || s != "}}") return std::nullopt;
        return ClientMessage{ThrowRequest{*ply}};
    }
    if (eat(s, R"(move","d":{"ply":)")) {
        const auto ply = eatPly(s);
        if (!ply || !eat(s, R"(,"move":")")) return std::nullopt;
        std::size_t n = 0;
        while (n < s.size() && n <= 8) {
            const char c = s[n];
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-')) break;
            ++n;
        }
        if (n == 0 || n > 8 || s.substr(n) != "\"}}") return std::nullopt;
        return ClientMessage{MoveRequest{*ply, std::string(s.substr(0, n))}};
    }
    return std::nullopt;
}

ParseResult parse(std::string_view frame) {
    if (auto fast = parseFast(frame)) return std::move(*fast);
    return parseFull(frame);
}

ParseResult parseFull(std::string_view frame) {
    const json j = json::parse(frame, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return ParseError{"bad-json", "a message must be a JSON object {\"t\":..., \"d\":...}"};
    if (const auto twice = firstDuplicateMember(frame)) return ParseError{"bad-json", "the message has the member " + *twice + " twice"};
    const auto t = j.find("t");
    if (t == j.end() || !t->is_string()) return ParseError{"unknown-type", "a message needs a string \"t\""};
    const std::string& type = t->get_ref<const std::string&>();
    static const json kEmpty = json::object();
    const json* d = &kEmpty;
    if (const auto it = j.find("d"); it != j.end() && !it->is_null()) {
        if (!it->is_object()) return ParseError{"bad-field", shownType(type) + ": \"d\" must be an object"};
        d = &*it;
    }
    if (type == "hello") {
        Hello h;
        if (const auto s = d->find("secret"); s != d->end() && !s->is_null()) {
            if (!s->is_string() || s->get_ref<const std::string&>().size() > 128) return badField(type, "secret", "must be a string of at most 128 characters");
            h.secret = s->get<std::string>();
        }
        if (const auto s = d->find("clientSeed"); s != d->end() && !s->is_null()) {
            if (!s->is_string()) return badField(type, "clientSeed", "must be a string");
            const auto& seed = s->get_ref<const std::string&>();
            if (seed.empty() || !fairness::isValidClientSeed(seed))
                return ParseError{"bad-seed", "hello: \"clientSeed\" must be 1-64 characters of [0-9A-Za-z_-]"};
            h.clientSeed = seed;
        }
        return ClientMessage{std::move(h)};
    }
    if (type == "throw") {
        auto ply = readPly(*d, type);
        if (auto* e = std::get_if<ParseError>(&ply)) return *e;
        return ClientMessage{ThrowRequest{std::get<std::int64_t>(ply)}};
    }
    if (type == "move") {
        auto ply = readPly(*d, type);
        if (auto* e = std::get_if<ParseError>(&ply)) return *e;
        const auto m = d->find("move");
        if (m == d->end()) return badField(type, "move", "is missing");
        if (!m->is_string()) return badField(type, "move", "must be a string like \"9-11\"");
        const auto& text = m->get_ref<const std::string&>();
        if (text.empty() || text.size() > 8) return badField(type, "move", "must be \"FROM-TO\", \"FROM-off\" or \"in-1\"");
        return ClientMessage{MoveRequest{std::get<std::int64_t>(ply), text}};
    }
    if (type == "resign") return ClientMessage{Resign{}};
    if (type == "rematch") return ClientMessage{Rematch{}};
    if (type == "claim") return ClientMessage{Claim{}};
    if (type == "ping") return ClientMessage{Ping{}};
    if (type == "takeback") {
        auto ply = readPly(*d, type);
        if (auto* e = std::get_if<ParseError>(&ply)) return *e;
        return ClientMessage{TakeBack{std::get<std::int64_t>(ply)}};
    }
    if (type == "hint") {
        auto ply = readPly(*d, type);
        if (auto* e = std::get_if<ParseError>(&ply)) return *e;
        return ClientMessage{HintRequest{std::get<std::int64_t>(ply)}};
    }
    if (type == "phrase") {
        const auto ph = d->find("phrase");
        if (ph == d->end()) return badField(type, "phrase", "is missing");
        if (!ph->is_string()) return badField(type, "phrase", "must be a string like \"good-luck\"");
        const auto& id = ph->get_ref<const std::string&>();
        if (!isPhraseId(id)) {
            std::string known;
            for (const auto k : kPhraseIds) known += (known.empty() ? "" : ", ") + std::string(k);
            return ParseError{"bad-phrase", "phrase: " + jsonText(json(std::string(utf8::cut(id, 20)))) + " is not one of " + known};
        }
        return ClientMessage{PhraseRequest{id}};
    }
    return ParseError{"unknown-type", "unknown message type " + jsonText(json(shownType(type)))};
}

std::string_view typeName(const ClientMessage& m) {
    static constexpr std::string_view kNames[] = {"hello", "throw", "move", "resign", "rematch", "claim", "ping", "phrase", "takeback", "hint"};
    return kNames[m.index()];
}

std::string envelope(std::string_view type, std::string_view dataJson) {
    std::string out;
    out.reserve(dataJson.size() + type.size() + 16);
    out.append("{\"t\":\"").append(type).append("\",\"d\":").append(dataJson).append("}");
    return out;
}

std::string errorMessage(std::string_view code, std::string_view message, std::int64_t ply) {
    json d = {{"code", code}, {"message", message}, {"ply", ply}};
    return envelope("error", jsonText(d));
}

}  // namespace senet::server::protocol
