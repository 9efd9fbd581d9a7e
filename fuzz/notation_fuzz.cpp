// Fuzz target: the engine's position notation, throw and move parsers (engine/README.md,
// RULES.md "Position notation"). Input: a position on the first line; then one byte choosing a
// throw value; the rest is move text. Checks the round trips the notation promises:
//   parsePosition(formatPosition(p)) == p; every legal move's text parses back to that move;
//   a parsed move is one of the legal moves; a position after a legal move has a notation too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.hpp"
#include "senet/movegen.hpp"
#include "senet/position.hpp"

using namespace senet;
using senet::fuzz::check;

namespace {

/// The position's notation, checked to parse back to the same position.
std::string roundTrip(const Position& p, std::string_view context) {
    const std::string text = formatPosition(p);
    const auto again = parsePosition(text);
    check(again.ok(), std::string(context) + ": the notation written does not parse: " + (again.ok() ? "" : again.error().message), text);
    check(*again == p, std::string(context) + ": the notation does not parse back to the same position", text);
    check(formatPosition(*again) == text, std::string(context) + ": the notation is not stable", text);
    return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t nl = input.find('\n');
    const std::string_view positionText = input.substr(0, nl);
    const std::string_view rest = nl == std::string_view::npos ? std::string_view() : input.substr(nl + 1);
    const char throwByte = rest.empty() ? '3' : rest[0];
    const std::string_view moveText = rest.empty() ? std::string_view() : rest.substr(1);

    const auto parsed = parsePosition(positionText);
    if (!parsed) {
        check(!parsed.error().message.empty(), "a rejected position without a reason", positionText);
        return 0;
    }
    const Position p = *parsed;
    const std::string text = roundTrip(p, "parsed position");
    const Ruleset& rules = p.rules();
    // The fuzzed throw text, then the move with that throw.
    (void)parseThrow(rules, std::string_view(&throwByte, 1));
    (void)parseThrow(rules, moveText);
    if (outcome(p) != Outcome::Ongoing) return 0;  // nothing moves in a finished game

    // Piccione: while a remainder is to be spent the only throw argument is `-` (kNoThrow).
    (void)parseThrowFor(p, std::string_view(&throwByte, 1));
    check(parseThrowFor(p, "-").ok() == !p.throwDue(), "THROW - accepted exactly when a remainder is spent", text);
    const int chosen = p.throwDue() ? (static_cast<unsigned char>(throwByte) % 6) + 1 : kNoThrow;
    for (int v = p.throwDue() ? 1 : kNoThrow; v <= (p.throwDue() ? 6 : kNoThrow); ++v) {
        if (p.throwDue() && !parseThrow(rules, std::to_string(v))) continue;
        MoveList moves;
        generateMoves(p, v, moves);
        for (const Move& m : moves) {
            const std::string mt = formatMove(m);
            const auto back = parseMove(p, v, mt);
            check(back.ok() && back->sameAs(m), "a legal move's text does not parse back to it", text + " throw " + std::to_string(v) + " " + mt);
            const Position after = applyMove(p, v, m);
            roundTrip(after, "position after " + mt);
        }
        if (moves.empty()) {
            check(parseMove(p, v, "pass").ok(), "pass refused with no legal move", text);
            roundTrip(applyMove(p, v, Move::pass()), "position after a pass");
        }
        if (v != chosen) continue;
        const auto m = parseMove(p, v, moveText);
        if (!m) {
            check(!m.error().message.empty(), "a rejected move without a reason", moveText);
            continue;
        }
        bool legal = m->isPass() && moves.empty();
        for (const Move& l : moves) legal = legal || l.sameAs(*m);
        check(legal, "parseMove accepted a move that is not legal", text + " " + std::string(moveText));
        check(parseMove(p, v, formatMove(*m)).ok(), "an accepted move's text does not parse", formatMove(*m));
    }
    return 0;
}
