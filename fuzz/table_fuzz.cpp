// Fuzz target: reading an endgame table file of any ruleset with tables (engine/tables,
// EndgameTable::fromBytes; the format in senet/endgame_table.hpp). Input: one flag byte, then
// the table's bytes. With the flag's low bit set the target first writes the right checksum
// over the last 8 bytes, so the fuzzer reaches the header, layer and size checks behind it.
// Checks: a refusal is an error value (never a crash); an accepted table is of a ruleset with
// tables, writes back to exactly the bytes it was read from, answers a position of each of its
// layers with a value in [0, 1], and a finished game with 1 or 0.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "check.hpp"
#include "senet/endgame_table.hpp"
#include "senet/position.hpp"

using namespace senet;
using senet::fuzz::check;

namespace {

/// The FNV-1a 64-bit hash the format's checksum is (written here apart from the library's).
std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::uint8_t b : bytes) {
        h ^= b;
        h *= 0x100000001b3ull;
    }
    return h;
}

/// A position of ruleset `id` with player 1 to throw: `mover` pieces of player 1 on the first
/// squares, `other` of player 2 after them, the rest borne off (squares 1..10 hold a piece in
/// every ruleset with tables).
Position layerPosition(RulesetId id, int mover, int other) {
    Position p = startPosition(id);
    p.board = {0, 0};
    int square = 1;
    for (int k = 0; k < mover; ++k) p.board[0] |= bit(square++);
    for (int k = 0; k < other; ++k) p.board[1] |= bit(square++);
    p.off = {static_cast<std::uint8_t>(5 - mover), static_cast<std::uint8_t>(5 - other)};
    p.turn = Player::One;
    return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    std::vector<std::uint8_t> bytes(data + 1, data + size);
    if ((data[0] & 1) && bytes.size() >= 8) {
        const std::uint64_t h = fnv1a(std::span(bytes).first(bytes.size() - 8));
        for (int i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<std::uint8_t>(h >> (8 * i));
    }
    const auto table = tables::EndgameTable::fromBytes(bytes);
    if (!table.ok()) {
        check(!table.error().message.empty(), "a refused table names what is wrong");
        return 0;
    }
    check(table->toBytes() == bytes, "an accepted table writes back to the bytes it was read from");
    const RulesetId id = table->spec().ruleset;
    check(tables::supportsRuleset(id), "an accepted table is of a ruleset with tables");
    for (const tables::LayerStats& layer : table->layers()) {
        const Position p = layerPosition(id, layer.mover, layer.other);
        check(table->contains(p), "a position of a listed layer is in the table");
        const auto v = table->value(p);
        check(v.has_value() && *v >= 0.0 && *v <= 1.0, "a table value is a probability");
    }
    Position won = layerPosition(id, 0, 2);
    check(table->value(won) == 1.0, "a game player 1 has won is worth 1 to player 1");
    won.turn = Player::Two;
    check(table->value(won) == 0.0, "a game player 1 has won is worth 0 to player 2");
    return 0;
}
