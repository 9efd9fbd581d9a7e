#include "senet/position.hpp"

#include <charconv>
#include <vector>

namespace senet {

namespace {

std::vector<std::string_view> splitFields(std::string_view text) {
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    for (;;) {
        const std::size_t colon = text.find(':', start);
        fields.push_back(text.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
        if (colon == std::string_view::npos) return fields;
        start = colon + 1;
    }
}

std::optional<int> parseSmallInt(std::string_view s) {
    if (s.empty() || s.size() > 3) return std::nullopt;
    for (char c : s)
        if (c < '0' || c > '9') return std::nullopt;  // digits only: from_chars would take a '-'
    int v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

std::string quoted(std::string_view s) { return "'" + std::string(s.substr(0, 40)) + (s.size() > 40 ? "...'" : "'"); }

}  // namespace

Position startPosition(RulesetId id) {
    const Ruleset& r = ruleset(id);
    Position p;
    p.rulesetId = id;
    p.board = r.setup;
    p.turn = r.firstToMove;
    return p;
}

Result<Position> parsePosition(std::string_view text) {
    const auto fields = splitFields(text);
    if (fields.size() != 5)
        return fail("position needs 5 fields RULESET:BOARD:TURN:OFF1:OFF2, got " + std::to_string(fields.size()));
    const auto id = rulesetByKey(fields[0]);
    if (!id) return fail("unknown ruleset " + quoted(fields[0]) + " (expected standard, jequier or bell)");
    const Ruleset& r = ruleset(*id);

    Position p;
    p.rulesetId = *id;
    const std::string_view board = fields[1];
    if (board.size() != kSquareCount)
        return fail("board must have " + std::to_string(kSquareCount) + " characters, got " + std::to_string(board.size()));
    for (int i = 0; i < kSquareCount; ++i) {
        const char c = board[i];
        if (c == '1') p.board[0] |= bit(i + 1);
        else if (c == '2') p.board[1] |= bit(i + 1);
        else if (c != '.')
            return fail("board square " + std::to_string(i + 1) + " has unknown character '" + std::string(1, c) +
                        "' (expected 1, 2 or .)");
    }

    if (fields[2] != "1" && fields[2] != "2") return fail("turn must be 1 or 2, got " + quoted(fields[2]));
    p.turn = fields[2] == "1" ? Player::One : Player::Two;

    for (int side = 0; side < 2; ++side) {
        const auto off = parseSmallInt(fields[3 + side]);
        const std::string who = "player " + std::to_string(side + 1);
        if (!off) return fail(who + " borne-off count must be a number, got " + quoted(fields[3 + side]));
        const int onBoard = std::popcount(p.board[side]);
        if (onBoard > r.piecesPerSide)
            return fail(who + " has " + std::to_string(onBoard) + " pieces on the board; " + std::string(r.key) +
                        " has " + std::to_string(r.piecesPerSide) + " per side");
        if (*off > r.piecesPerSide)
            return fail(who + " has borne off " + std::to_string(*off) + " pieces; " + std::string(r.key) + " has " +
                        std::to_string(r.piecesPerSide) + " per side");
        // Only Bell removes pieces from the game; elsewhere every piece is on the board or borne off.
        const bool exact = r.capture != CaptureMode::Remove;
        if ((exact && onBoard + *off != r.piecesPerSide) || (!exact && onBoard + *off > r.piecesPerSide))
            return fail(who + " has " + std::to_string(onBoard) + " on the board and " + std::to_string(*off) +
                        " borne off, which does not add up to " + (exact ? "" : "at most ") +
                        std::to_string(r.piecesPerSide));
        p.off[side] = static_cast<std::uint8_t>(*off);
    }

    // Squares where no piece can ever stand: the House of Water sends every piece on at once,
    // and in Jéquier no piece rests on 30 (rule 8).
    if (r.waterSquare && (p.occupied() & bit(r.waterSquare)))
        return fail("a piece stands on square " + std::to_string(r.waterSquare) +
                    ", the House of Water, where no piece can stay");
    if (r.bearOffAt <= kSquareCount && (p.occupied() & squareRange(r.bearOffAt, kSquareCount)))
        return fail("a piece stands on square " + std::to_string(r.bearOffAt) + ", which in " + std::string(r.key) +
                    " bears pieces off");
    return p;
}

std::string formatPosition(const Position& p) {
    std::string s(p.rules().key);
    s += ':';
    for (int sq = 1; sq <= kSquareCount; ++sq) s += "." "12"[p.ownerAt(sq)];
    s += ':';
    s += static_cast<char>('0' + number(p.turn));
    s += ':' + std::to_string(p.off[0]) + ':' + std::to_string(p.off[1]);
    return s;
}

Result<int> parseThrow(const Ruleset& rules, std::string_view text) {
    const auto v = parseSmallInt(text);
    if (!v || !rules.canThrow(*v)) {
        std::string allowed;
        for (int value = 0; value < 16; ++value)
            if (rules.canThrow(value)) {
                if (!allowed.empty()) allowed += ", ";
                allowed += std::to_string(value);
            }
        return fail("throw " + quoted(text) + " cannot be thrown in " + std::string(rules.key) + " (expected one of " +
                    allowed + ")");
    }
    return *v;
}

}  // namespace senet
