// The JSON form of a game analysis, shared by `senet analyse` and GET /api/games/{id}/analysis.
#include <cmath>

#include <nlohmann/json.hpp>

#include "senet/ai_analysis.hpp"

namespace senet::ai {

namespace {

using nlohmann::json;

double rounded(double p) { return std::round(p * 1e4) / 1e4; }

/// The result an "ending" object of a verifiable record gives, when it names one.
std::optional<Outcome> endingOf(const json& record) {
    const auto e = record.find("ending");
    if (e == record.end() || !e->is_object()) return std::nullopt;
    const auto reason = e->find("reason");
    if (reason != e->end() && *reason == "draw") return Outcome::Draw;
    const auto player = e->find("player");
    if (player == e->end() || !player->is_number_integer()) return std::nullopt;
    if (*player == 1) return Outcome::WinOne;
    if (*player == 2) return Outcome::WinTwo;
    return std::nullopt;
}

}  // namespace

Result<std::string> analyseRecordJson(std::string_view text, const AnalysisOptions& options) {
    auto record = parseRecord(text);
    if (!record) return record.error();
    // parseRecord accepted it, so it is a JSON object.
    const json j = json::parse(text, nullptr, false);
    const auto a = analyseGame(*record, options, endingOf(j));
    if (!a) return a.error();

    json probs = json::array();
    for (double p : a->winProbability) probs.push_back(rounded(p));
    json plies = json::array();
    for (const PlyAnalysis& p : a->plies) {
        json ply = {{"ply", p.ply},
                    {"player", number(p.player)},
                    {"throw", p.throwValue},
                    {"move", formatMove(p.move)},
                    {"legalMoves", p.legalMoves},
                    {"best", p.best ? json(formatMove(*p.best)) : json(nullptr)},
                    {"bestWinProbability", rounded(p.bestWinProbability)},
                    {"loss", rounded(p.loss)},
                    {"mark", p.mark == Mark::None ? json(nullptr) : json(std::string(markName(p.mark)))},
                    {"luck", rounded(p.luck)},
                    {"exact", p.exact}};
        // A Piccione step that spends a remainder makes no throw: no "throw", as in the record.
        if (p.throwValue == kNoThrow) ply.erase("throw");
        plies.push_back(std::move(ply));
    }
    json players = json::array();
    for (const PlayerSummary& s : a->players)
        players.push_back({{"player", number(s.player)},
                           {"decisions", s.decisions},
                           {"accuracy", std::round(s.accuracy * 10) / 10},
                           {"loss", rounded(s.loss)},
                           {"luck", rounded(s.luck)},
                           {"inaccuracies", s.inaccuracies},
                           {"mistakes", s.mistakes},
                           {"blunders", s.blunders}});
    json exact = json::array();
    for (bool e : a->exact) exact.push_back(e);
    json out = {{"ruleset", std::string(ruleset(a->rulesetId).key)},
                {"depth", a->depth},
                {"result", a->result == Outcome::Ongoing ? json(nullptr) : json(std::string(outcomeName(a->result)))},
                {"winProbability", std::move(probs)},
                {"exact", std::move(exact)},
                {"plies", std::move(plies)},
                {"players", std::move(players)},
                {"thresholds", {{"inaccuracy", kInaccuracyLoss}, {"mistake", kMistakeLoss}, {"blunder", kBlunderLoss}}}};
    return out.dump();
}

}  // namespace senet::ai
