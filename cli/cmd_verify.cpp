// `senet verify RECORD.json`: checks a finished game's throws against its revealed seeds.
// Format and derivation: server/PROTOCOL.md "Fairness" and "Verifiable record".
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli.hpp"

#if __has_include("senet/fairness.hpp")
#include "senet/fairness.hpp"
#define SENET_HAVE_FAIRNESS 1
#endif

namespace senet::cli {

#ifdef SENET_HAVE_FAIRNESS
namespace {

/// Prints "senet: verify: MESSAGE" to stdout and returns 1 (the record is readable but wrong).
int mismatch(const std::string& message) {
    std::cout << "senet: verify: FAILED: " << message << '\n';
    return 1;
}

}  // namespace

int cmdVerify(Args args) {
    if (args.size() != 1) return error("usage: senet verify RECORD.json");
    std::ifstream in{std::string(args[0]), std::ios::binary};
    if (!in) return error("cannot read " + std::string(args[0]));
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();

    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return error("the record is not a JSON object");
    auto record = parseRecord(text);
    if (!record) return mismatch("the record does not replay: " + record.error().message);

    const auto f = j.find("fairness");
    if (f == j.end() || !f->is_object()) return error("the record has no \"fairness\" object");
    auto str = [&](const char* key) -> std::optional<std::string> {
        const auto v = f->find(key);
        if (v == f->end() || !v->is_string()) return std::nullopt;
        return v->get<std::string>();
    };
    const auto seedHex = str("serverSeed");
    const auto commit = str("commitment");
    if (!seedHex) return error("fairness needs a \"serverSeed\" hex string (is the game finished?)");
    if (!commit) return error("fairness needs a \"commitment\" hex string");
    const auto seeds = f->find("clientSeeds");
    if (seeds == f->end() || !seeds->is_array() || seeds->size() != 2 || !(*seeds)[0].is_string() ||
        !(*seeds)[1].is_string())
        return error("fairness needs \"clientSeeds\": two strings");
    const std::string seed0 = (*seeds)[0].get<std::string>(), seed1 = (*seeds)[1].get<std::string>();
    const auto serverSeed = fairness::fromHex(*seedHex);
    if (!serverSeed || serverSeed->empty()) return error("\"serverSeed\" is not hex");

    if (fairness::commitment(*serverSeed) != *commit)
        return mismatch("SHA-256 of the server seed is " + fairness::commitment(*serverSeed) + ", not the commitment " +
                        commit->substr(0, 64));

    const Ruleset& rules = ruleset(record->rulesetId);
    std::uint64_t index = 0;
    auto check = [&](Throw t, const std::string& where) -> std::optional<std::string> {
        const int o = fairness::outcomeIndex(*serverSeed, seed0, seed1, index, rules.outcomeCount);
        const Throw expected = throwOfOutcome(rules, o);
        ++index;
        if (expected == t) return std::nullopt;
        std::string got = std::to_string(t.value), want = std::to_string(expected.value);
        if (rules.implement == Implement::FourSticks) {
            got += " (sticks " + sticksString(rules, t) + ")";
            want += " (sticks " + sticksString(rules, expected) + ")";
        }
        return where + " (throw index " + std::to_string(index - 1) + ") is " + got + " but the seeds give " + want;
    };
    for (std::size_t i = 0; i < record->opening.size(); ++i)
        if (auto bad = check(record->opening[i], "opening throw " + std::to_string(i + 1))) return mismatch(*bad);
    for (std::size_t i = 0; i < record->plies.size(); ++i)
        if (auto bad = check(record->plies[i].throw_, "ply " + std::to_string(i + 1))) return mismatch(*bad);

    if (const auto n = f->find("throws"); n != f->end()) {
        if (!n->is_number_integer() || n->get<long long>() != static_cast<long long>(index))
            return mismatch("fairness says " + n->dump() + " throws but the record has " + std::to_string(index));
    }
    std::cout << "ok: " << index << " throws verified\n";
    return 0;
}
#else
int cmdVerify(Args) { return error("verify is not available in this build (no senet_fairness)"); }
#endif

}  // namespace senet::cli
