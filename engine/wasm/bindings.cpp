// The WebAssembly build's interface (scripts/build-wasm.sh; the TypeScript side is
// web/src/engine/wasm.ts): extern "C" functions taking UTF-8 strings as (pointer, length) in the
// module's memory. Each returns 0 when it succeeded and 1 when the input was rejected; either way
// the answer (or the error's message) is left in one buffer read with senet_result_ptr() and
// senet_result_len(), valid until the next call. No input can throw or abort: every parser of the
// engine reports errors as values (senet/result.hpp), and the build has no exceptions.
#include <cstring>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "senet/ai_win_probability.hpp"
#include "senet/record_positions.hpp"
#include "senet/senet.hpp"

namespace {

std::string g_result;

int ok(std::string text) {
    g_result = std::move(text);
    return 0;
}

int rejected(std::string message) {
    g_result = std::move(message);
    return 1;
}

/// The 8 bytes of a double (little-endian, as the module's memory): read exactly by the
/// caller, without pulling a float formatter into the module.
std::string rawDouble(double v) {
    std::string out(sizeof v, '\0');
    std::memcpy(out.data(), &v, sizeof v);
    return out;
}

/// Parses a position of a game still going and checks the throw, with the messages of
/// `senet moves` (cli/cmd_position.cpp): a throw value when one is due, or kNoThrow (0, the
/// CLI's `-`) when a Piccione position has a remainder to spend (parseThrowFor). Returns false
/// after setting the error.
bool positionAndThrow(std::string_view text, int throwValue, senet::Position& p) {
    auto parsed = senet::parsePosition(text);
    if (!parsed) return rejected("bad position: " + parsed.error().message), false;
    if (const senet::Outcome o = senet::outcome(*parsed); o != senet::Outcome::Ongoing)
        return rejected("the game in this position is over (" + std::string(senet::outcomeName(o)) + ")"), false;
    const std::string throwText = throwValue == senet::kNoThrow ? "-" : std::to_string(throwValue);
    if (auto v = senet::parseThrowFor(*parsed, throwText); !v) return rejected(v.error().message), false;
    p = *parsed;
    return true;
}

}  // namespace

extern "C" {

/// Memory for an argument string (at least 1 byte); free with senet_free.
void* senet_alloc(std::size_t size) { return std::malloc(size ? size : 1); }
void senet_free(void* p) { std::free(p); }

const char* senet_result_ptr() { return g_result.data(); }
std::size_t senet_result_len() { return g_result.size(); }

/// `senet moves POSITION THROW`: the legal moves one per line, or "pass". THROW 0 is `-`.
int senet_moves(const char* pos, std::size_t posLen, int throwValue) {
    senet::Position p;
    if (!positionAndThrow({pos, posLen}, throwValue, p)) return 1;
    senet::MoveList moves;
    senet::generateMoves(p, throwValue, moves);
    std::string out;
    if (moves.empty()) out = "pass\n";
    for (const senet::Move& m : moves) out += senet::formatMove(m) + '\n';
    return ok(std::move(out));
}

/// `senet apply POSITION THROW MOVE`: the position after the move (one step), then the game's
/// state. THROW 0 is `-`.
int senet_apply(const char* pos, std::size_t posLen, int throwValue, const char* move, std::size_t moveLen) {
    senet::Position p;
    if (!positionAndThrow({pos, posLen}, throwValue, p)) return 1;
    const auto m = senet::parseMove(p, throwValue, {move, moveLen});
    if (!m) return rejected(m.error().message);
    const senet::Position q = senet::applyMove(p, throwValue, *m);
    return ok(senet::formatPosition(q) + '\n' + std::string(senet::outcomeName(senet::outcome(q))) + '\n');
}

/// The throw values of a ruleset as JSON, each with its exact weight out of the ruleset's total:
/// {"total":16,"values":[{"throwValue":1,"weight":4,"extraThrow":true}, ...]}.
int senet_throw_odds(const char* key, std::size_t keyLen) {
    const auto id = senet::rulesetByKey({key, keyLen});
    if (!id)
        return rejected("unknown ruleset '" + std::string(std::string_view(key, keyLen).substr(0, 40)) +
                        "' (expected standard, jequier, bell, kendall or piccione)");
    const senet::Ruleset& r = senet::ruleset(*id);
    std::string out = "{\"total\":" + std::to_string(r.outcomeWeightTotal) + ",\"values\":[";
    for (int v = 0; v < 16; ++v) {
        if (!r.canThrow(v)) continue;
        if (out.back() != '[') out += ',';
        out += "{\"throwValue\":" + std::to_string(v) +
               ",\"weight\":" + std::to_string(r.weightOfValue(v)) +
               ",\"extraThrow\":" + (r.givesExtraThrow(v) ? "true" : "false") + '}';
    }
    return ok(out + "]}");
}

/// `senet winprob POSITION`: player 1's chance to win, as the 8 bytes of a double.
int senet_win_probability(const char* pos, std::size_t posLen) {
    auto p = senet::parsePosition({pos, posLen});
    if (!p) return rejected("bad position: " + p.error().message);
    return ok(rawDouble(senet::ai::winProbability(*p)));
}

/// Replays a record (`senet replay`): JSON {"positions":[...],"plies":[{"throwValue","move",
/// "player"}],"opening":[values],"status":"..."}.
int senet_replay(const char* json, std::size_t jsonLen) {
    const auto game = senet::replayJson({json, jsonLen});
    if (!game) return rejected("bad record: " + game.error().message);
    const senet::Record& rec = game->record();
    nlohmann::json out;
    auto& positions = out["positions"] = nlohmann::json::array();
    for (const senet::Position& p : senet::recordPositions(rec)) positions.push_back(senet::formatPosition(p));
    auto& plies = out["plies"] = nlohmann::json::array();
    for (const senet::Ply& ply : rec.plies)
        plies.push_back({{"throwValue", ply.throw_.value}, {"move", senet::formatMove(ply.move)}, {"player", senet::number(ply.player)}});
    auto& opening = out["opening"] = nlohmann::json::array();
    for (const senet::Throw& t : rec.opening) opening.push_back(t.value);
    out["status"] = senet::outcomeName(game->outcome());
    return ok(out.dump());
}

}  // extern "C"
