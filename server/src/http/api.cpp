// The JSON API: create, join, invite, summary, record, key. server/API.md.
#include <nlohmann/json.hpp>

#include "router.hpp"
#include "json_text.hpp"
#include "log_limit.hpp"
#include "senet/fairness.hpp"
#include "senet/json_members.hpp"
#include "senet/result.hpp"
#include "senet/signer.hpp"
#include "senet/site.hpp"

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

/// An optional string field: nullopt when absent or null, an error when present but not a string.
Result<std::optional<std::string>> stringField(const json& body, const char* name) {
    const auto it = body.find(name);
    if (it == body.end() || it->is_null()) return std::optional<std::string>();
    if (!it->is_string()) return fail(std::string("\"") + name + "\" must be a string");
    return std::optional<std::string>(it->get<std::string>());
}

json urls(const std::string& lang, const std::string& id, const std::string& secret, const std::string& invite) {
    const std::string watch = "/" + lang + "/play/" + id;
    json j = {{"watchUrl", watch}, {"resumeUrl", watch + "#seat=" + secret}, {"socket", "/ws/games/" + id}};
    j["inviteUrl"] = invite.empty() ? json(nullptr) : json(watch + "#invite=" + invite);
    return j;
}

/// The "lang" field, one of the site's languages; without it the request's Accept-Language.
Result<std::string> pickLanguage(const site::Site& site, const Request& request, const json& body) {
    const auto lang = stringField(body, "lang");
    if (!lang) return lang.error();
    if (!*lang) return site.negotiate(request.acceptLanguage);
    for (const auto& l : site.languages())
        if (l == **lang) return l;
    return fail("\"lang\" must be one of the site's languages");
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

/// The fields of a form body as a JSON object of strings; a discarded value when the body is
/// malformed or names a field twice (the home page's form never does; either value would be a guess).
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
        if (!name || !value || out.contains(*name)) return json(json::value_t::discarded);
        out[*name] = *value;
    }
    return out;
}

}  // namespace

namespace {

/// POST /api/games's body: a JSON object, or the home page's form when its script does not run
/// (it sends every field, "level" included, and expects to be taken to the new game's page).
Result<json> createBody(const Request& request, bool form) {
    json body = form ? formToJson(request.body) : json::parse(request.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return fail(form ? "the form body is malformed" : "the body must be a JSON object");
    if (const auto twice = form ? std::nullopt : firstDuplicateMember(request.body))
        return fail("the body has the member " + *twice + " twice");
    if (form && parseOpponent(body.value("opponent", "")) != Opponent::Computer) body.erase("level");
    return body;
}

/// The keys of the rulesets the site offers, quoted: "\"standard\", \"jequier\" or \"bell\"".
std::string offeredKeys() {
    const auto offered = site::offeredRulesets();
    std::string out;
    for (std::size_t i = 0; i < offered.size(); ++i) {
        if (i) out += i + 1 == offered.size() ? " or " : ", ";
        out += '"' + std::string(offered[i]->key) + '"';
    }
    return out;
}

/// "ruleset": its key as given and the rule set it names (one the site offers, site::isOffered).
Result<std::pair<std::string, RulesetId>> rulesetOf(const json& body) {
    const auto ruleset = stringField(body, "ruleset");
    if (!ruleset) return ruleset.error();
    if (!*ruleset) return fail("\"ruleset\" is required: " + offeredKeys());
    const auto id = rulesetByKey(**ruleset);
    if (!id || !site::isOffered(*id)) return fail("\"ruleset\" must be " + offeredKeys());
    return std::make_pair(**ruleset, *id);
}

/// "opponent": who plays the other seat.
Result<Opponent> opponentOf(const json& body) {
    const auto opponent = stringField(body, "opponent");
    if (!opponent) return opponent.error();
    const auto kind = *opponent ? parseOpponent(**opponent) : std::nullopt;
    if (!kind) return fail("\"opponent\" must be \"friend\", \"computer\" or \"local\"");
    return *kind;
}

/// "side": the creator's seat (0 first, 1 second), drawn when "random" or absent.
Result<int> creatorSeatOf(const json& body) {
    const auto side = stringField(body, "side");
    if (!side) return side.error();
    const std::string s = side->value_or("random");
    if (s == "first") return 0;
    if (s == "second") return 1;
    if (s == "random") return fairness::randomBytes(1)[0] & 1;
    return fail("\"side\" must be \"first\", \"second\" or \"random\"");
}

/// "level": the computer's level ("" for a game without the computer).
Result<std::string> levelOf(const json& body, Opponent opponent) {
    const auto level = stringField(body, "level");
    if (!level) return level.error();
    if (opponent != Opponent::Computer) {
        if (*level) return fail("\"level\" applies only to games against the computer");
        return std::string();
    }
    std::string l = level->value_or("intermediate");
    if (l != "beginner" && l != "intermediate" && l != "expert")
        return fail("\"level\" must be \"beginner\", \"intermediate\" or \"expert\"");
    return l;
}

/// The answer to a game created: 201 with its JSON, or for the form 303 to its page.
Response createdAnswer(const Created& created, const CreateRequest& req, const std::string& ruleset, const std::string& lang,
                       bool form) {
    json out = urls(lang, created.id, created.secret, created.inviteToken);
    out["game"] = created.id;
    out["secret"] = created.secret;
    out["seats"] = created.seats;
    out["commitment"] = created.commitment;
    out["ruleset"] = ruleset;
    out["opponent"] = toString(req.opponent);
    out["level"] = req.level.empty() ? json(nullptr) : json(req.level);
    out["lang"] = lang;
    if (form) {
        Response r;
        r.status = 303;
        // The fragment carries the seat secret and, for a friend game, the invite token the
        // play page shows in its share panel (see web/src/play/seat.ts).
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

}  // namespace

Response apiCreateGame(Registry& registry, const site::Site& site, const Request& request, const CreateGate& gate) {
    const bool form = request.contentType.rfind("application/x-www-form-urlencoded", 0) == 0;
    const auto body = createBody(request, form);
    if (!body) return apiError(400, "bad-body", body.error().message);
    CreateRequest req;
    const auto ruleset = rulesetOf(*body);
    if (!ruleset) return apiError(400, "ruleset", ruleset.error().message);
    req.ruleset = ruleset->second;
    const auto opponent = opponentOf(*body);
    if (!opponent) return apiError(400, "opponent", opponent.error().message);
    req.opponent = *opponent;
    const auto seat = creatorSeatOf(*body);
    if (!seat) return apiError(400, "side", seat.error().message);
    req.creatorSeat = *seat;
    const auto level = levelOf(*body, req.opponent);
    if (!level) return apiError(400, "level", level.error().message);
    req.level = *level;
    const auto lang = pickLanguage(site, request, *body);
    if (!lang) return apiError(400, "lang", lang.error().message);

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
    return createdAnswer(created, req, ruleset->first, *lang, form);
}

namespace {

/// A request about a seat of one game (join, invite): a token from the JSON body, the language
/// and the game's room; or, in `refusal`, the answer that refuses it.
struct SeatRequest {
    std::optional<Response> refusal;
    std::string token;  ///< member `field` of the body: 1 to 128 bytes
    std::string lang;
    Lookup found;       ///< with a room (unless refused)
};

/// Reads a seat request for game `id` whose token is the body's member `field`, refused with
/// 400 `field` and `fieldMessage` when it is missing, empty or over 128 bytes. The checks in
/// order: the body (400 bad-body), the token, the language (400 lang), the game (410 expired,
/// 404 unknown-game). Storage errors of the look-up propagate to the router.
SeatRequest readSeatRequest(Registry& registry, const site::Site& site, const Request& request, const std::string& id,
                            const char* field, const char* fieldMessage) {
    SeatRequest out;
    const json body = json::parse(request.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
        out.refusal = apiError(400, "bad-body", "the body must be a JSON object");
        return out;
    }
    if (const auto twice = firstDuplicateMember(request.body)) {
        out.refusal = apiError(400, "bad-body", "the body has the member " + *twice + " twice");
        return out;
    }
    const auto token = stringField(body, field);
    if (!token || !*token || (*token)->empty() || (*token)->size() > 128) {
        out.refusal = apiError(400, field, fieldMessage);
        return out;
    }
    const auto lang = pickLanguage(site, request, body);
    if (!lang) {
        out.refusal = apiError(400, "lang", lang.error().message);
        return out;
    }
    out.found = registry.find(id);
    if (out.found.status == LookupStatus::Expired) out.refusal = apiError(410, "expired", "this game has expired");
    else if (!out.found.room) out.refusal = apiError(404, "unknown-game", "there is no such game");
    out.token = **token;
    out.lang = *lang;
    return out;
}

}  // namespace

Response apiJoinGame(Registry& registry, const site::Site& site, const Request& request, const std::string& id) {
    SeatRequest seat = readSeatRequest(registry, site, request, id, "invite", "\"invite\" must be the invite token from the link");
    if (seat.refusal) return std::move(*seat.refusal);
    JoinOutcome j;
    try {
        j = seat.found.room->join(seat.token);
    } catch (const std::exception& e) {
        logLimited("storage", "game " + id + ": the seat could not be stored: " + e.what());
        return apiError(503, "storage", "the seat could not be stored; try again later");
    }
    if (j.status == JoinStatus::BadInvite) return apiError(403, "bad-invite", "this invite token is not the game's");
    if (j.status == JoinStatus::Over) return apiError(409, "over", "this game ended before anyone joined it");
    if (j.status == JoinStatus::Full) return apiError(409, "full", "both seats are taken; you can watch the game");
    json out = urls(seat.lang, id, j.secret, "");
    out.erase("inviteUrl");
    out["game"] = id;
    out["secret"] = j.secret;
    out["seats"] = {j.seat};
    out["commitment"] = j.commitment;
    return jsonResponse(200, jsonText(out));
}

Response apiGameInvite(Registry& registry, const site::Site& site, const Request& request, const std::string& id) {
    SeatRequest seat = readSeatRequest(registry, site, request, id, "secret", "\"secret\" must be the seat secret from the #seat= link");
    if (seat.refusal) return std::move(*seat.refusal);
    InviteOutcome o;
    try {
        o = seat.found.room->invite(seat.token);
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
    const json out = {{"game", id}, {"invite", o.token}, {"inviteUrl", "/" + seat.lang + "/play/" + id + "#invite=" + o.token}};
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
