// `senet verify RECORD.json [--key KEY]`: checks a finished game's record as the server issued
// it: the signature (with the server's public key), every throw against the revealed seeds,
// every move through the engine, and the ending. Format, derivation and what a verified record
// proves: server/PROTOCOL.md "Fairness", "Verifiable record" and "Signed record".
//
// Exit codes: 0 verified; 1 the record is readable but fails a check (one line "senet: error:
// not verified: ..." on stderr); 2 a malformed command, file or key (one line "senet: error: ...").
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "senet/json_members.hpp"

#if __has_include("senet/fairness.hpp") && __has_include("senet/signer.hpp")
#include "senet/fairness.hpp"
#include "senet/signer.hpp"
#define SENET_HAVE_FAIRNESS 1
#endif

namespace senet::cli {

#ifdef SENET_HAVE_FAIRNESS
namespace {

using nlohmann::json;

/// Exit code for a record that is readable but fails a check.
constexpr int kNotVerified = 1;

/// Prints "senet: error: not verified: MESSAGE" to stderr and returns kNotVerified.
int refuse(const std::string& message) {
    std::cerr << "senet: error: not verified: " << message << '\n';
    return kNotVerified;
}

/// The whole content of a file, or nullopt when it cannot be read.
std::optional<std::string> readFile(std::string_view path) {
    std::ifstream in{std::string(path), std::ios::binary};
    if (!in) return std::nullopt;
    std::stringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return buffer.str();
}

/// The arguments: the record's path and the optional --key value.
struct VerifyArgs {
    std::string_view record;
    std::optional<std::string_view> key;
};

std::optional<VerifyArgs> parseArgs(Args args) {
    VerifyArgs out;
    bool haveRecord = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view a = args[i];
        if (a == "--key") {
            if (out.key) return error("option '--key' given twice"), std::nullopt;
            if (i + 1 >= args.size() || args[i + 1].starts_with("--")) return error("option '--key' needs a value"), std::nullopt;
            out.key = args[++i];
        } else if (a.starts_with("--")) {
            return error("unknown option '" + std::string(a.substr(0, 40)) + "'"), std::nullopt;
        } else if (haveRecord) {
            return error("unexpected argument '" + std::string(a.substr(0, 40)) + "'"), std::nullopt;
        } else {
            out.record = a;
            haveRecord = true;
        }
    }
    if (!haveRecord) return error("usage: senet verify RECORD.json [--key KEYFILE_OR_HEX]"), std::nullopt;
    return out;
}

/// The public key of --key: 64 hex digits given directly, or a file holding hex, base64, PEM or
/// the JSON of GET /api/key. Prints the error and returns nullopt otherwise.
std::optional<std::vector<std::uint8_t>> loadKey(std::string_view value) {
    if (value.size() == 2 * fairness::kPublicKeyBytes && fairness::fromHex(value)) return fairness::fromHex(value);
    const auto text = readFile(value);
    if (!text) {
        error("--key: '" + std::string(value.substr(0, 80)) + "' is neither 64 hex digits nor a readable file");
        return std::nullopt;
    }
    auto key = fairness::parsePublicKey(*text);
    if (!key)
        error("--key: " + std::string(value.substr(0, 80)) +
              " holds no Ed25519 public key (expected hex, base64, PEM or the JSON of GET /api/key)");
    return key;
}

/// Checks the record's "signature" member against `key`; the failure message, or nullopt.
std::optional<std::string> checkSignature(const json& record, const std::vector<std::uint8_t>& key) {
    const auto sig = record.find("signature");
    if (sig == record.end()) return "a key was given but the record has no \"signature\"";
    if (!sig->is_object()) return "\"signature\" is not an object";
    const auto alg = sig->find("algorithm");
    if (alg == sig->end() || *alg != "Ed25519") return "\"signature\" must have \"algorithm\": \"Ed25519\"";
    const auto value = sig->find("value");
    std::optional<std::vector<std::uint8_t>> bytes;
    if (value != sig->end() && value->is_string()) bytes = fairness::fromHex(value->get_ref<const std::string&>());
    if (!bytes || bytes->size() != fairness::kSignatureBytes) return "the signature \"value\" is not 128 hex digits";
    const std::string given = fairness::toHex(key);
    if (const auto pk = sig->find("publicKey"); pk != sig->end() && pk->is_string() && pk->get_ref<const std::string&>() != given)
        return "the record says it is signed by key " + pk->get_ref<const std::string&>().substr(0, 64) +
               ", not by the given key " + given;
    std::string canonical;
    try {
        canonical = fairness::canonicalRecordBytes(record);
    } catch (const json::exception&) {
        return "the record holds text that is not UTF-8, so it cannot have been signed";
    }
    if (!fairness::verifySignature(key, canonical, *bytes))
        return "the signature does not match the record: the record was changed after it was signed, or another key "
               "signed it";
    return std::nullopt;
}

/// Checks "ending" against the game the plies replay to; the failure message, or nullopt.
/// `malformed` is set when the member is missing or ill-typed.
std::optional<std::string> checkEnding(const json& record, const Game& game, bool& malformed) {
    const auto e = record.find("ending");
    auto bad = [&](std::string m) {
        malformed = true;
        return std::optional<std::string>(std::move(m));
    };
    if (e == record.end() || !e->is_object()) return bad("the record has no \"ending\" object");
    const auto reason = e->find("reason");
    const auto winner = e->find("winner");
    const auto player = e->find("player");
    if (reason == e->end() || !reason->is_string()) return bad("\"ending\" needs a \"reason\" string");
    if (winner == e->end() || !(winner->is_null() || *winner == 0 || *winner == 1))
        return bad("\"ending\" needs \"winner\": 0, 1 or null");
    if (player == e->end() || !(player->is_null() || *player == 1 || *player == 2))
        return bad("\"ending\" needs \"player\": 1, 2 or null");
    const std::string why = reason->get<std::string>();
    const Outcome outcome = game.outcome();
    const std::string board(outcomeName(outcome));
    if (why != "bear-off" && why != "draw" && why != "resign" && why != "claim")
        return "unknown ending reason \"" + why.substr(0, 20) + "\"";

    if (outcome != Outcome::Ongoing) {
        // Over on the board: only the board's own ending fits.
        if (outcome == Outcome::Draw) {
            if (why != "draw" || !winner->is_null() || !player->is_null())
                return "the plies end in a draw, but the ending says " + e->dump();
            return std::nullopt;
        }
        const Player won = outcome == Outcome::WinOne ? Player::One : Player::Two;
        if (why != "bear-off")
            return "the ending says \"" + why + "\", but the plies end the game (" + board + ") by bearing off";
        if (*player != number(won) || *winner != game.seatOf(won))
            return "the plies give the win to player " + std::to_string(number(won)) + " (seat " +
                   std::to_string(game.seatOf(won)) + "), but the ending says " + e->dump();
        return std::nullopt;
    }
    // Not over on the board: only a resignation or a claim can have ended it.
    if (why == "bear-off" || why == "draw")
        return "the ending says \"" + why + "\", but after the last ply the game is not over";
    if (winner->is_null()) return "a game ended by " + why + " needs a winning seat";
    const int seat = winner->get<int>();
    const auto expected = game.playerOf(seat);
    if (expected ? *player != number(*expected) : !player->is_null())
        return "seat " + std::to_string(seat) + " plays " +
               (expected ? "player " + std::to_string(number(*expected)) : std::string("no player yet")) +
               ", but the ending says player " + player->dump();
    return std::nullopt;
}

/// The fields of the record's "fairness" object that the throws are checked with.
struct Fairness {
    std::vector<std::uint8_t> serverSeed;
    std::string commitment;
    std::string seed0, seed1;  ///< the seats' client seeds
    json throws;               ///< the throw count declared (a whole number)
};

/// Reads the "fairness" object; its error is a malformed record's, not a failed check.
Result<Fairness> readFairness(const json& j) {
    const auto f = j.find("fairness");
    if (f == j.end() || !f->is_object()) return fail("the record has no \"fairness\" object");
    auto str = [&](const char* name) -> std::optional<std::string> {
        const auto v = f->find(name);
        if (v == f->end() || !v->is_string()) return std::nullopt;
        return v->get<std::string>();
    };
    const auto seedHex = str("serverSeed");
    const auto commit = str("commitment");
    if (!seedHex) return fail("fairness needs a \"serverSeed\" hex string (is the game finished?)");
    if (!commit) return fail("fairness needs a \"commitment\" hex string");
    const auto seeds = f->find("clientSeeds");
    if (seeds == f->end() || !seeds->is_array() || seeds->size() != 2 || !(*seeds)[0].is_string() ||
        !(*seeds)[1].is_string())
        return fail("fairness needs \"clientSeeds\": two strings");
    Fairness out;
    out.seed0 = (*seeds)[0].get<std::string>();
    out.seed1 = (*seeds)[1].get<std::string>();
    const auto serverSeed = fairness::fromHex(*seedHex);
    if (!serverSeed || serverSeed->empty()) return fail("\"serverSeed\" is not hex");
    const auto declared = f->find("throws");
    if (declared == f->end() || !declared->is_number_integer()) return fail("fairness needs \"throws\", a whole number");
    out.serverSeed = *serverSeed;
    out.commitment = *commit;
    out.throws = *declared;
    return out;
}

/// Every throw of the record (the opening's, then the plies' that make one: not Piccione's
/// steps that spend a remainder) against the one the seeds give, counted in `index`; the first
/// that differs, or nullopt.
std::optional<std::string> checkThrows(const Record& record, const Fairness& f, std::uint64_t& index) {
    const Ruleset& rules = ruleset(record.rulesetId);
    auto check = [&](Throw t, const std::string& where) -> std::optional<std::string> {
        const int o = fairness::outcomeIndex(f.serverSeed, f.seed0, f.seed1, index, rules.outcomeCount);
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
    for (std::size_t i = 0; i < record.opening.size(); ++i)
        if (auto bad = check(record.opening[i], "opening throw " + std::to_string(i + 1))) return bad;
    for (std::size_t i = 0; i < record.plies.size(); ++i) {
        // Piccione: a step that spends a remainder (or its pass) draws no throw.
        if (record.plies[i].spendsRemainder()) continue;
        if (auto bad = check(record.plies[i].throw_, "ply " + std::to_string(i + 1))) return bad;
    }
    return std::nullopt;
}

/// The throw count: a resignation or claim may come after a throw whose move was never made;
/// that one throw was drawn (and counted) but is not in the plies.
std::optional<std::string> checkThrowCount(const json& declared, std::uint64_t index, const std::string& reason) {
    const long long n = declared.get<long long>(), counted = static_cast<long long>(index);
    const bool unusedThrow = n == counted + 1 && (reason == "resign" || reason == "claim");
    if (n != counted && !unusedThrow) return "fairness says " + declared.dump() + " throws but the record has " + std::to_string(index);
    return std::nullopt;
}

}  // namespace

/// Arrays and objects inside one another a record may hold (a real one holds 4).
constexpr std::size_t kMaxRecordDepth = 64;

int cmdVerify(Args args) {
    const auto a = parseArgs(args);
    if (!a) return kUsageError;
    std::optional<std::vector<std::uint8_t>> key;
    if (a->key && !(key = loadKey(*a->key))) return kUsageError;
    const auto text = readFile(a->record);
    if (!text) return error("cannot read " + std::string(a->record.substr(0, 200)));
    // JSON has no raw NUL byte; the parser would stop there and read only what comes before it.
    if (const auto nul = text->find('\0'); nul != std::string::npos)
        return error("the record is not JSON: it holds a NUL byte (at byte " + std::to_string(nul) + ")");
    const json j = json::parse(*text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return error("the record is not a JSON object");
    // A record is a few levels deep; the signature check's serializer recurses per level.
    if (nestedDeeperThan(*text, kMaxRecordDepth))
        return refuse("the record is nested deeper than " + std::to_string(kMaxRecordDepth) + " levels");
    // Before the signature: signed bytes with a member twice can be read as another game.
    if (const auto twice = firstDuplicateMember(*text)) return refuse("the record has the member " + *twice + " twice");

    // 1. The signature: the server issued exactly these bytes.
    if (key)
        if (auto bad = checkSignature(j, *key)) return refuse(*bad);

    // 2. The moves: every one legal for its throw, in order, under the rules.
    auto game = replayJson(*text);
    if (!game) return refuse("the record does not replay: " + game.error().message);
    const Record& record = game->record();
    const auto id = j.find("game");
    if (id == j.end() || !id->is_string() || id->get_ref<const std::string&>().empty())
        return error("the record needs a \"game\" id string");

    // 3. The throws: the commitment and the derivation from the seeds.
    const auto f = readFairness(j);
    if (!f) return error(f.error().message);
    if (fairness::commitment(f->serverSeed) != f->commitment)
        return refuse("SHA-256 of the server seed is " + fairness::commitment(f->serverSeed) + ", not the commitment " +
                      f->commitment.substr(0, 64));
    std::uint64_t index = 0;
    if (auto bad = checkThrows(record, *f, index)) return refuse(*bad);

    // 4. The ending: it must be the board's, or a resignation or claim on a board not over.
    bool malformed = false;
    if (auto bad = checkEnding(j, *game, malformed)) return malformed ? error(*bad) : refuse(*bad);
    const std::string reason = j["ending"]["reason"].get<std::string>();
    if (auto bad = checkThrowCount(f->throws, index, reason)) return refuse(*bad);
    // Friend games (since quick phrases): how many phrases each seat sent; older records have none.
    if (const auto ph = j.find("phrases"); ph != j.end()) {
        const bool counts = ph->is_array() && ph->size() == 2 && (*ph)[0].is_number_unsigned() && (*ph)[1].is_number_unsigned();
        if (!counts) return error("\"phrases\" must be two whole numbers, the phrases each seat sent");
    }
    // Lobby games with a program in a seat: which seats a bot played (absent when none did).
    if (const auto b = j.find("bots"); b != j.end()) {
        const bool flags = b->is_array() && b->size() == 2 && (*b)[0].is_boolean() && (*b)[1].is_boolean();
        if (!flags) return error("\"bots\" must be two booleans, whether a program played each seat");
    }
    // Games with take-backs (local and computer games): the plies are the game as it stood at the
    // end, every throw in them drawn at its index (a take-back draws none); each mark says how
    // many plies were left after it and how many it undid.
    if (const auto tb = j.find("takebacks"); tb != j.end()) {
        bool ok = tb->is_array() && !tb->empty();
        for (const json& m : ok ? *tb : json::array()) {
            const auto plies = m.is_object() ? m.find("plies") : m.end();
            const auto undone = m.is_object() ? m.find("undone") : m.end();
            ok = ok && m.is_object() && plies != m.end() && plies->is_number_unsigned() && undone != m.end() &&
                 undone->is_number_unsigned() && undone->get<std::uint64_t>() >= 1;
        }
        if (!ok) return error("\"takebacks\" must be a list of {\"plies\": N, \"undone\": N >= 1}");
        if (j.value("ending", json::object()).value("reason", "") == "claim")
            return refuse("a game with take-backs has no opponent to claim against");
    }
    // Games with hints (local and computer games): the plies, as indices into `plies`, played
    // after the server showed a hint for them; absent when none were.
    if (const auto h = j.find("hints"); h != j.end()) {
        bool ok = h->is_array() && !h->empty();
        std::uint64_t next = 0;
        for (const json& i : ok ? *h : json::array()) {
            ok = ok && i.is_number_unsigned() && i.get<std::uint64_t>() >= next && i.get<std::uint64_t>() < record.plies.size() &&
                 !record.plies[i.get<std::size_t>()].move.isPass();
            if (ok) next = i.get<std::uint64_t>() + 1;
        }
        if (!ok) return error("\"hints\" must be a list of increasing ply indices (from 0), each a ply with a move");
        if (j.contains("phrases")) return refuse("a game between two people has no hints");
    }

    std::cout << "ok: " << index << " throws verified, " << record.plies.size() << " plies replayed, ending " << reason
              << " checked; "
              << (key ? "signature valid (Ed25519 key " + fairness::toHex(*key) + ")"
                      : std::string("signature not checked (no --key)"))
              << '\n';
    return 0;
}
#else
int cmdVerify(Args) { return error("verify is not available in this build (no senet_fairness)"); }
#endif

}  // namespace senet::cli
