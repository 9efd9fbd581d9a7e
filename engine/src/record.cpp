#include "senet/record.hpp"

#include "senet/json_members.hpp"

#include <nlohmann/json.hpp>

namespace senet {

using nlohmann::json;

std::string sticksString(const Ruleset& rules, Throw t) {
    if (rules.implement != Implement::FourSticks) return {};
    std::string s(4, '0');
    for (int i = 0; i < 4; ++i)
        if ((t.sticks >> i) & 1) s[i] = '1';
    return s;
}

namespace {

json throwJson(const Ruleset& r, Throw t) {
    json j = {{"throw", t.value}};
    if (r.implement == Implement::FourSticks) j["sticks"] = sticksString(r, t);
    return j;
}

/// Reads {"throw":V,"sticks":"0101"} into a Throw; `where` prefixes the error.
Result<Throw> readThrow(const Ruleset& r, const json& j, const std::string& where, int ply) {
    if (!j.is_object()) return fail(where + "must be an object", ply);
    const auto v = j.find("throw");
    if (v == j.end() || !v->is_number_integer()) return fail(where + "needs an integer \"throw\"", ply);
    const long long value = v->get<long long>();
    if (value < 0 || value > 15 || !r.canThrow(static_cast<int>(value)))
        return fail(where + "throw " + v->dump() + " cannot be thrown in " + std::string(r.key), ply);
    Throw t{static_cast<std::uint8_t>(value), 0};
    if (r.implement == Implement::FourSticks) {
        const auto s = j.find("sticks");
        if (s == j.end() || !s->is_string()) return fail(where + "needs \"sticks\", four characters 0 or 1", ply);
        const std::string& text = s->get_ref<const std::string&>();
        if (text.size() != 4 || text.find_first_not_of("01") != std::string::npos)
            return fail(where + "sticks must be four characters 0 or 1, got " + s->dump().substr(0, 40), ply);
        for (int i = 0; i < 4; ++i)
            if (text[i] == '1') t.sticks |= static_cast<std::uint8_t>(1 << i);
        if (sticksValue(t.sticks, r.sticksNoneUpValue) != t.value)
            return fail(where + "sticks " + text + " count " + std::to_string(sticksValue(t.sticks, r.sticksNoneUpValue)) +
                            ", not " + std::to_string(t.value),
                        ply);
    }
    return t;
}

}  // namespace

std::string recordToJson(const Record& record, Outcome outcome) {
    const Ruleset& r = ruleset(record.rulesetId);
    json j;
    j["ruleset"] = r.key;
    if (r.opening != OpeningRule::None) {
        json opening = json::array();
        for (const Throw& t : record.opening) opening.push_back(throwJson(r, t));
        j["opening"] = std::move(opening);
    }
    json plies = json::array();
    for (const Ply& p : record.plies) {
        json e = p.spendsRemainder() ? json::object() : throwJson(r, p.throw_);
        e["player"] = number(p.player);
        e["move"] = formatMove(p.move);
        plies.push_back(std::move(e));
    }
    j["plies"] = std::move(plies);
    j["result"] = outcomeName(outcome);
    return j.dump();
}

namespace {

/// A parsed record plus the optional fields checked during replay.
struct Checks {
    std::vector<int> players;       // 0 when absent
    std::vector<std::string> moves;
    std::optional<std::string> result;
};

Result<Record> parseRecordWithChecks(std::string_view text, Checks& checks) {
    // JSON has no raw NUL byte; the parser would stop there and read only what comes before it.
    if (text.find('\0') != std::string_view::npos) return fail("record is not valid JSON: it holds a NUL byte");
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return fail("record is not valid JSON");
    if (!j.is_object()) return fail("record must be a JSON object");
    // Read one way only: with a member twice, another reader could show another game.
    if (const auto twice = firstDuplicateMember(text)) return fail("record has the member " + *twice + " twice");
    const auto rs = j.find("ruleset");
    if (rs == j.end() || !rs->is_string()) return fail("record needs a \"ruleset\" string");
    const auto id = rulesetByKey(rs->get_ref<const std::string&>());
    if (!id) return fail("unknown ruleset " + rs->dump().substr(0, 40));
    const Ruleset& r = ruleset(*id);

    Record rec;
    rec.rulesetId = *id;
    if (const auto op = j.find("opening"); op != j.end()) {
        if (r.opening == OpeningRule::None) return fail(std::string(r.key) + " has no opening; remove \"opening\"");
        if (!op->is_array()) return fail("\"opening\" must be an array");
        int n = 0;
        for (const json& e : *op) {
            auto t = readThrow(r, e, "opening throw " + std::to_string(++n) + ": ", 0);
            if (!t) return t.error();
            rec.opening.push_back(*t);
        }
    }
    const auto plies = j.find("plies");
    if (plies == j.end() || !plies->is_array()) return fail("record needs a \"plies\" array");
    int n = 0;
    for (const json& e : *plies) {
        ++n;
        const std::string where = "ply " + std::to_string(n) + ": ";
        // Piccione: a step that spends a remainder has no "throw" (and no "sticks").
        const bool remainderStep = r.turnModel == TurnModel::SplitSteps && e.is_object() && !e.contains("throw");
        if (remainderStep && e.contains("sticks")) return fail(where + "has \"sticks\" but no \"throw\"", n);
        auto t = remainderStep ? Result<Throw>(Throw{}) : readThrow(r, e, where, n);
        if (!t) return t.error();
        const auto mv = e.find("move");
        if (mv == e.end() || !mv->is_string()) return fail(where + "needs a \"move\" string", n);
        int player = 0;
        if (const auto pl = e.find("player"); pl != e.end()) {
            if (!pl->is_number_integer() || (pl->get<long long>() != 1 && pl->get<long long>() != 2))
                return fail(where + "\"player\" must be 1 or 2", n);
            player = static_cast<int>(pl->get<long long>());
        }
        rec.plies.push_back(Ply{Player::One, *t, Move::pass()});
        checks.players.push_back(player);
        checks.moves.push_back(mv->get<std::string>());
    }
    if (const auto res = j.find("result"); res != j.end()) {
        if (!res->is_string()) return fail("\"result\" must be a string");
        checks.result = res->get<std::string>();
    }
    return rec;
}

/// After the move of ply `i`: when the game passed at once because no step was left for the
/// remainder (Piccione 9), the record's next ply must be that pass, without a throw. Returns the
/// index of the last ply consumed.
Result<std::size_t> checkAutomaticPass(const Game& g, const Record& rec, const Checks* checks, std::size_t i) {
    if (!g.passedAfterLastMove()) return i;
    const int ply = static_cast<int>(i) + 2;
    const std::string where = "ply " + std::to_string(ply) + ": ";
    if (i + 1 >= rec.plies.size()) return fail(where + "missing: no step is left for the remainder, so the record must pass", ply);
    const Ply& next = rec.plies[i + 1];
    const std::string text = checks ? checks->moves[i + 1] : formatMove(next.move);
    if (!next.spendsRemainder() || text != "pass")
        return fail(where + "no step is left for the remainder, so the ply must be a pass without a throw", ply);
    if (checks && checks->players[i + 1] && checks->players[i + 1] != number(g.record().plies[i + 1].player))
        return fail(where + "the pass is player " + std::to_string(number(g.record().plies[i + 1].player)) + "'s", ply);
    return i + 1;
}

/// Replays `rec`, whose moves are given as text in `checks` (or already in rec when checks is null).
Result<Game> replayImpl(const Record& rec, const Checks* checks) {
    Game g(rec.rulesetId);
    int n = 0;
    for (const Throw& t : rec.opening) {
        ++n;
        if (g.phase() != Phase::Opening)
            return fail("opening throw " + std::to_string(n) + ": the opening was already decided by a 1");
        if (auto ev = g.applyThrow(t); !ev) return fail("opening throw " + std::to_string(n) + ": " + ev.error().message);
    }
    if (g.phase() == Phase::Opening && !rec.plies.empty())
        return fail("ply 1: the opening is not decided: no opening throw of 1", 1);
    for (std::size_t i = 0; i < rec.plies.size(); ++i) {
        const int ply = static_cast<int>(i) + 1;
        const std::string where = "ply " + std::to_string(ply) + ": ";
        const Ply& p = rec.plies[i];
        if (g.phase() == Phase::Over) return fail(where + "the game is already over", ply);
        if (checks && checks->players[i] && checks->players[i] != number(g.position().turn))
            return fail(where + "it is player " + std::to_string(number(g.position().turn)) + "'s turn, not player " +
                            std::to_string(checks->players[i]) + "'s",
                        ply);
        const Position before = g.position();
        const std::string moveText = checks ? checks->moves[i] : formatMove(p.move);
        if (!before.throwDue() || p.spendsRemainder()) {
            // Piccione: a step that spends the remainder of the last throw.
            if (before.throwDue()) return fail(where + "a throw is due: the ply needs \"throw\"", ply);
            if (!p.spendsRemainder())
                return fail(where + "the remainder " + std::to_string(before.remainder) + " of the last throw is spent next: the ply has no \"throw\"", ply);
            auto m = parseMove(before, kNoThrow, moveText);
            if (!m) return fail(where + m.error().message, ply);
            if (auto applied = g.applyMove(*m); !applied) return fail(where + applied.error().message, ply);
            if (auto skipped = checkAutomaticPass(g, rec, checks, i); !skipped) return skipped.error();
            else i = *skipped;
            continue;
        }
        auto ev = g.applyThrow(p.throw_);
        if (!ev) return fail(where + ev.error().message, ply);
        if (ev->noMove) {
            if (moveText != "pass")
                return fail(where + "move " + moveText.substr(0, 40) + " is not legal: with a throw of " +
                                std::to_string(p.throw_.value) + " there is no legal move, only pass",
                            ply);
            continue;
        }
        auto m = parseMove(before, p.throw_.value, moveText);
        if (!m) return fail(where + m.error().message, ply);
        if (auto applied = g.applyMove(*m); !applied) return fail(where + applied.error().message, ply);
        if (auto skipped = checkAutomaticPass(g, rec, checks, i); !skipped) return skipped.error();
        else i = *skipped;
    }
    if (checks && checks->result && *checks->result != outcomeName(g.outcome()))
        return fail("record says the result is \"" + checks->result->substr(0, 20) + "\" but its plies give \"" +
                    std::string(outcomeName(g.outcome())) + "\"");
    return g;
}

}  // namespace

Result<Game> replayJson(std::string_view text) {
    Checks checks;
    auto rec = parseRecordWithChecks(text, checks);
    if (!rec) return rec.error();
    // The move texts are resolved against the positions they were played in.
    return replayImpl(*rec, &checks);
}

Result<Record> parseRecord(std::string_view text) {
    auto g = replayJson(text);
    if (!g) return g.error();
    return g->record();
}

Result<Game> replay(const Record& record) { return replayImpl(record, nullptr); }

}  // namespace senet
