// The JSON API: create, join, summary, record. server/API.md.
#include <nlohmann/json.hpp>

#include "router.hpp"
#include "json_text.hpp"
#include "log_limit.hpp"
#include "senet/fairness.hpp"
#include "senet/signer.hpp"

namespace senet::server {

using nlohmann::json;

Response apiError(int status, std::string_view code, std::string_view message) {
    return jsonResponse(status, jsonText(json({{"error", code}, {"message", message}})));
}

namespace {

Response retryLater(std::string_view code, std::string_view message, const char* seconds) {
    Response r = apiError(503, code, message);
    r.headers.emplace_back("Retry-After", seconds);
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

}  // namespace

Response gameMovingAnswer() {
    return retryLater("moved", "this game is moving between servers; try again in a moment", "1");
}

Response storageDownAnswer() {
    return retryLater("storage", "the game's storage is unavailable; try again in a moment", "2");
}

namespace {

/// Reads an optional string field; sets `error` when present but not a string.
std::optional<std::string> stringField(const json& body, const char* name, std::string& error) {
    const auto it = body.find(name);
    if (it == body.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) {
        error = std::string("\"") + name + "\" must be a string";
        return std::nullopt;
    }
    return it->get<std::string>();
}

json urls(const std::string& lang, const std::string& id, const std::string& secret, const std::string& invite) {
    const std::string watch = "/" + lang + "/play/" + id;
    json j = {{"watchUrl", watch}, {"resumeUrl", watch + "#seat=" + secret}, {"socket", "/ws/games/" + id}};
    j["inviteUrl"] = invite.empty() ? json(nullptr) : json(watch + "#invite=" + invite);
    return j;
}

std::optional<std::string> pickLanguage(const site::Site& site, const Request& request, const json& body, std::string& error) {
    auto lang = stringField(body, "lang", error);
    if (!error.empty()) return std::nullopt;
    if (!lang) return site.negotiate(request.acceptLanguage);
    for (const auto& l : site.languages())
        if (l == *lang) return lang;
    error = "\"lang\" must be one of the site's languages";
    return std::nullopt;
}

/// The value of one hex digit, or -1.
int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// Decodes one application/x-www-form-urlencoded component ('+' is a space, %XX a byte);
/// nullopt when a %-escape is malformed.
std::optional<std::string> formDecode(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out += ' ';
        } else if (text[i] == '%') {
            if (i + 2 >= text.size()) return std::nullopt;
            const int hi = hexDigit(text[i + 1]), lo = hexDigit(text[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

/// The fields of a form body as a JSON object of strings (a repeated name keeps its last
/// value); a discarded value when the body is malformed.
json formToJson(std::string_view body) {
    json out = json::object();
    while (!body.empty()) {
        const std::size_t amp = body.find('&');
        const std::string_view pair = body.substr(0, amp);
        body = amp == std::string_view::npos ? std::string_view() : body.substr(amp + 1);
        if (pair.empty()) continue;
        const std::size_t eq = pair.find('=');
        const auto name = formDecode(pair.substr(0, eq));
        const auto value = formDecode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
        if (!name || !value) return json(json::value_t::discarded);
        out[*name] = *value;
    }
    return out;
}

}  // namespace

Response apiCreateGame(Registry& registry, const site::Site& site, const Request& request, const CreateGate& gate) {
    // The home page's form posts here directly when its script does not run: it sends every
    // field, "level" included, and expects to be taken to the new game's page.
    const bool form = request.contentType.rfind("application/x-www-form-urlencoded", 0) == 0;
    json body = form ? formToJson(request.body) : json::parse(request.body, nullptr, false);
    if (body.is_discarded() || !body.is_object())
        return apiError(400, "bad-body", form ? "the form body is malformed" : "the body must be a JSON object");
    if (form && parseOpponent(body.value("opponent", "")) != Opponent::Computer) body.erase("level");
    std::string error;
    CreateRequest req;

    const auto ruleset = stringField(body, "ruleset", error);
    if (!error.empty()) return apiError(400, "ruleset", error);
    if (!ruleset) return apiError(400, "ruleset", "\"ruleset\" is required: \"standard\", \"jequier\" or \"bell\"");
    const auto id = rulesetByKey(*ruleset);
    if (!id) return apiError(400, "ruleset", "\"ruleset\" must be \"standard\", \"jequier\" or \"bell\"");
    req.ruleset = *id;

    const auto opponent = stringField(body, "opponent", error);
    if (!error.empty()) return apiError(400, "opponent", error);
    const auto kind = opponent ? parseOpponent(*opponent) : std::nullopt;
    if (!kind) return apiError(400, "opponent", "\"opponent\" must be \"friend\", \"computer\" or \"local\"");
    req.opponent = *kind;

    const auto side = stringField(body, "side", error);
    if (!error.empty()) return apiError(400, "side", error);
    const std::string s = side.value_or("random");
    if (s == "first") req.creatorSeat = 0;
    else if (s == "second") req.creatorSeat = 1;
    else if (s == "random") req.creatorSeat = fairness::randomBytes(1)[0] & 1;
    else return apiError(400, "side", "\"side\" must be \"first\", \"second\" or \"random\"");

    const auto level = stringField(body, "level", error);
    if (!error.empty()) return apiError(400, "level", error);
    if (req.opponent == Opponent::Computer) {
        req.level = level.value_or("intermediate");
        if (req.level != "beginner" && req.level != "intermediate" && req.level != "expert")
            return apiError(400, "level", "\"level\" must be \"beginner\", \"intermediate\" or \"expert\"");
    } else if (level) {
        return apiError(400, "level", "\"level\" applies only to games against the computer");
    }
    const auto lang = pickLanguage(site, request, body, error);
    if (!lang) return apiError(400, "lang", error);

    if (gate)
        if (auto refused = gate(req)) return std::move(*refused);
    Created created;
    try {
        created = registry.create(req);
    } catch (const BusyError& e) {
        Response r = apiError(503, "busy", e.what());
        r.headers.emplace_back("Retry-After", "5");
        return r;
    } catch (const std::exception& e) {
        // The details (they name the database file) go to the log, not to the visitor.
        logLimited("storage", std::string("a new game could not be stored: ") + e.what());
        return apiError(503, "storage", "the game could not be stored; try again later");
    }
    json out = urls(*lang, created.id, created.secret, created.inviteToken);
    out["game"] = created.id;
    out["secret"] = created.secret;
    out["seats"] = created.seats;
    out["commitment"] = created.commitment;
    out["ruleset"] = *ruleset;
    out["opponent"] = toString(req.opponent);
    out["level"] = req.level.empty() ? json(nullptr) : json(req.level);
    out["lang"] = *lang;
    if (form) {
        Response r;
        r.status = 303;
        // The fragment carries the seat secret and, for a friend game, the invite token the
        // play page shows in its share panel (see web/src/seat.ts).
        std::string location = out["resumeUrl"].get<std::string>();
        if (!created.inviteToken.empty()) location += "&share=" + created.inviteToken;
        r.headers.emplace_back("Location", location);
        r.headers.emplace_back("Cache-Control", "no-store");
        return r;
    }
    Response r = jsonResponse(201, jsonText(out));
    r.headers.emplace_back("Location", "/api/games/" + created.id);
    return r;
}

Response apiJoinGame(Registry& registry, const site::Site& site, const Request& request, const std::string& id) {
    const json body = json::parse(request.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return apiError(400, "bad-body", "the body must be a JSON object");
    std::string error;
    const auto invite = stringField(body, "invite", error);
    if (!error.empty() || !invite || invite->empty() || invite->size() > 128)
        return apiError(400, "invite", "\"invite\" must be the invite token from the link");
    const auto lang = pickLanguage(site, request, body, error);
    if (!lang) return apiError(400, "lang", error);
    Lookup found = registry.find(id);
    if (found.status == LookupStatus::Expired) return apiError(410, "expired", "this game has expired");
    if (!found.room) return apiError(404, "unknown-game", "there is no such game");
    JoinOutcome j;
    try {
        j = found.room->join(*invite);
    } catch (const std::exception& e) {
        logLimited("storage", "game " + id + ": the seat could not be stored: " + e.what());
        return apiError(503, "storage", "the seat could not be stored; try again later");
    }
    if (j.status == JoinStatus::BadInvite) return apiError(403, "bad-invite", "this invite token is not the game's");
    if (j.status == JoinStatus::Over) return apiError(409, "over", "this game ended before anyone joined it");
    if (j.status == JoinStatus::Full) return apiError(409, "full", "both seats are taken; you can watch the game");
    json out = urls(*lang, id, j.secret, "");
    out.erase("inviteUrl");
    out["game"] = id;
    out["secret"] = j.secret;
    out["seats"] = {j.seat};
    out["commitment"] = j.commitment;
    return jsonResponse(200, jsonText(out));
}

Response apiGameInvite(Registry& registry, const site::Site& site, const Request& request, const std::string& id) {
    const json body = json::parse(request.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return apiError(400, "bad-body", "the body must be a JSON object");
    std::string error;
    const auto secret = stringField(body, "secret", error);
    if (!error.empty() || !secret || secret->empty() || secret->size() > 128)
        return apiError(400, "secret", "\"secret\" must be the seat secret from the #seat= link");
    const auto lang = pickLanguage(site, request, body, error);
    if (!lang) return apiError(400, "lang", error);
    Lookup found = registry.find(id);
    if (found.status == LookupStatus::Expired) return apiError(410, "expired", "this game has expired");
    if (!found.room) return apiError(404, "unknown-game", "there is no such game");
    InviteOutcome o;
    try {
        o = found.room->invite(*secret);
    } catch (const std::exception& e) {
        logLimited("internal", "game " + id + ": the invite could not be derived: " + e.what());
        return apiError(500, "internal", "the invite could not be made; try again later");
    }
    switch (o.status) {
        case InviteStatus::BadSecret: return apiError(403, "bad-secret", "this secret holds no seat of this game");
        case InviteStatus::NoInvite: return apiError(409, "no-invite", "this game has no invite to share");
        case InviteStatus::Full: return apiError(409, "full", "both seats are taken: the invite is used");
        case InviteStatus::Over: return apiError(409, "over", "the game is over");
        case InviteStatus::Found: break;
    }
    const json out = {{"game", id}, {"invite", o.token}, {"inviteUrl", "/" + *lang + "/play/" + id + "#invite=" + o.token}};
    Response r = jsonResponse(200, jsonText(out));
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

Response apiGameSummary(Registry& registry, const std::string& id) {
    Lookup found = registry.find(id);
    if (found.status == LookupStatus::Expired) return apiError(410, "expired", "this game has expired");
    if (!found.room) return apiError(404, "unknown-game", "there is no such game");
    return jsonResponse(200, jsonText(found.room->summary()));
}

Response apiGameRecord(Registry& registry, const std::string& id, const fairness::Signer* signer) {
    Lookup found = registry.find(id);
    if (found.status == LookupStatus::Expired) return apiError(410, "expired", "this game has expired");
    if (!found.room) return apiError(404, "unknown-game", "there is no such game");
    auto record = found.room->verifiableRecord();
    if (!record) return apiError(409, "not-finished", "the record is served once the game is over");
    if (signer) {
        json j = json::parse(*record);
        fairness::signRecord(*signer, j);
        *record = jsonText(j);
    }
    Response r = jsonResponse(200, std::move(*record));
    r.headers.clear();
    r.headers.emplace_back("Cache-Control", "public, max-age=3600");
    r.headers.emplace_back("Content-Disposition", "inline; filename=\"senet-" + id + ".json\"");
    return r;
}

Response apiKey(const fairness::Signer* signer) {
    if (!signer) return apiError(503, "no-key", "this server does not sign its records");
    const json out = {{"algorithm", "Ed25519"},
                      {"publicKey", fairness::toHex(signer->publicKey())},
                      {"publicKeyBase64", fairness::toBase64(signer->publicKey())},
                      {"pem", signer->publicKeyPem()}};
    Response r = jsonResponse(200, jsonText(out));
    r.headers.emplace_back("Cache-Control", "no-cache");
    return r;
}

}  // namespace senet::server
