// Fuzz target: the WebSocket message parser (server/src/game/protocol.cpp). Any frame a visitor can
// send goes through protocol::parse; whatever it returns, the answers the server builds from
// it (errorMessage, envelope) must be valid UTF-8 JSON in the canonical form, and no exception
// may escape.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "check.hpp"
#include "phrases.hpp"
#include "protocol.hpp"
#include "senet/fairness.hpp"

using namespace senet::server;
using senet::fuzz::check;
using senet::fuzz::checkServerFrame;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view frame(reinterpret_cast<const char*>(data), size);
    const protocol::ParseResult result = protocol::parse(frame);
    // The fast path (hot throw and move frames) answers only where the full parser gives the same message.
    if (const auto fast = protocol::parseFast(frame)) {
        const protocol::ParseResult full = protocol::parseFull(frame);
        const auto* m = std::get_if<protocol::ClientMessage>(&full);
        check(m && m->index() == fast->index(), "fast path accepted what the full parser does not", frame);
        if (const auto* t = std::get_if<protocol::ThrowRequest>(&*fast))
            check(std::get<protocol::ThrowRequest>(*m).ply == t->ply, "fast path read another throw ply", frame);
        if (const auto* mv = std::get_if<protocol::MoveRequest>(&*fast))
            check(std::get<protocol::MoveRequest>(*m).ply == mv->ply && std::get<protocol::MoveRequest>(*m).move == mv->move,
                  "fast path read another move", frame);
    }
    if (const auto* e = std::get_if<protocol::ParseError>(&result)) {
        check(e->code == "bad-json" || e->code == "unknown-type" || e->code == "bad-field" || e->code == "bad-seed" ||
                  e->code == "bad-phrase",
              "parse error with a code PROTOCOL.md does not list", e->code);
        check(!e->message.empty(), "parse error without a message");
        // What the room sends back (Room::reject → errorMessage), at any ply.
        for (std::int64_t ply : {std::int64_t{0}, std::int64_t{1'000'000'000}}) {
            const std::string text = protocol::errorMessage(e->code, e->message, ply);
            const auto m = checkServerFrame(text);
            check(m["t"] == "error" && m["d"]["code"] == e->code && m["d"]["ply"] == ply, "error message content", text);
        }
        return 0;
    }
    const auto& message = std::get<protocol::ClientMessage>(result);
    const std::string_view type = protocol::typeName(message);
    // A parsed message came from a JSON object whose "t" is exactly its type name.
    const auto j = nlohmann::json::parse(frame, nullptr, false);
    check(j.is_object() && j.value("t", "") == type, "parsed type differs from \"t\"", frame);
    if (const auto* h = std::get_if<protocol::Hello>(&message)) {
        if (h->clientSeed) check(senet::fairness::isValidClientSeed(*h->clientSeed), "accepted an invalid client seed", frame);
        if (h->secret) check(h->secret->size() <= 128, "accepted a secret over 128 bytes", frame);
    } else if (const auto* t = std::get_if<protocol::ThrowRequest>(&message)) {
        check(t->ply >= 0 && t->ply <= 1'000'000'000, "throw ply out of range", frame);
    } else if (const auto* m = std::get_if<protocol::MoveRequest>(&message)) {
        check(m->ply >= 0 && m->ply <= 1'000'000'000, "move ply out of range", frame);
        check(!m->move.empty() && m->move.size() <= 8, "move text length", frame);
    } else if (const auto* tb = std::get_if<protocol::TakeBack>(&message)) {
        check(tb->ply >= 0 && tb->ply <= 1'000'000'000, "takeback ply out of range", frame);
    } else if (const auto* hr = std::get_if<protocol::HintRequest>(&message)) {
        check(hr->ply >= 0 && hr->ply <= 1'000'000'000, "hint ply out of range", frame);
    } else if (const auto* ph = std::get_if<protocol::PhraseRequest>(&message)) {
        check(senet::server::isPhraseId(ph->phrase), "accepted a phrase that is not one of the ids", frame);
    }
    // An envelope around a JSON text stays a server frame.
    checkServerFrame(protocol::envelope("pong", nlohmann::json({{"type", type}}).dump()));
    return 0;
}
