#include "senet/position.hpp"

#include <charconv>
#include <optional>
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

namespace {

/// Reads Piccione's REM:DIR:BONUS:ENTRY into `p` and checks the rules (c)-(f) of RULES.md
/// "Piccione position notation" ((a) and (b) are the common checks).
std::optional<Error> parseTurnFields(Position& p, const std::vector<std::string_view>& f) {
    const auto rem = parseSmallInt(f[5]);
    if (!rem || f[5].size() != 1 || *rem > 4) return Error{"remainder REM must be 0 to 4, got " + quoted(f[5])};
    p.remainder = static_cast<std::uint8_t>(*rem);
    if (f[6] == "-") p.direction = TurnDirection::Unset;
    else if (f[6] == "f") p.direction = TurnDirection::Forward;
    else if (f[6] == "b") p.direction = TurnDirection::Backward;
    else return Error{"direction DIR must be -, f or b, got " + quoted(f[6])};
    const auto bonus = parseSmallInt(f[7]);
    if (!bonus || *bonus > 255 || (f[7].size() > 1 && f[7][0] == '0'))
        return Error{"owed throws BONUS must be a number 0 to 255 without leading zeros, got " + quoted(f[7])};
    p.owedThrows = static_cast<std::uint8_t>(*bonus);
    if (f[8] != "0" && f[8] != "1") return Error{"entry throw ENTRY must be 0 or 1, got " + quoted(f[8])};
    p.entryThrowDue = f[8] == "1";

    const bool unset = p.direction == TurnDirection::Unset;
    if (unset && (p.remainder || p.owedThrows || p.entryThrowDue))
        return Error{"a turn that has not begun (DIR -) has no remainder, owed throws or entry throw"};
    if (p.entryThrowDue && (p.remainder || p.direction != TurnDirection::Forward || !(p.pieces(p.turn) & bit(1))))
        return Error{"an entry throw (ENTRY 1) needs REM 0, DIR f and a piece of the player to move on square 1"};
    if (!unset && !p.remainder && !p.entryThrowDue && !p.owedThrows)
        return Error{"a begun turn with nothing left to spend and no entry throw must owe a throw (BONUS 1 or more)"};
    for (int side = 0; side < 2; ++side)
        if (p.off[side] == 5 && (index(p.turn) != side || !unset))
            return Error{"player " + std::to_string(side + 1) + " has borne off all 5 pieces: the game is over, so TURN must be " +
                         std::to_string(side + 1) + " and the turn fields 0:-:0:0"};
    return std::nullopt;
}

}  // namespace

Result<Position> parsePosition(std::string_view text) {
    const auto fields = splitFields(text);
    const auto id = fields.empty() ? std::nullopt : rulesetByKey(fields[0]);
    const bool split = id && ruleset(*id).turnModel == TurnModel::SplitSteps;
    // With the field count of some ruleset (5, or Piccione's 9) the unknown key is the mistake;
    // with any other count the field count is (below), so past these checks the key is known.
    if (!id && (fields.size() == 5 || fields.size() == 9))
        return fail("unknown ruleset " + quoted(fields[0]) + " (expected standard, jequier, bell, kendall or piccione)");
    if (split && fields.size() != 9)
        return fail("a " + std::string(fields[0]) + " position needs 9 fields RULESET:BOARD:TURN:OFF1:OFF2:REM:DIR:BONUS:ENTRY, got " +
                    std::to_string(fields.size()));
    if (!split && fields.size() != 5)
        return fail("position needs 5 fields RULESET:BOARD:TURN:OFF1:OFF2, got " + std::to_string(fields.size()));
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
        // Only Bell removes pieces from the game and only Piccione keeps pieces in hand; elsewhere
        // every piece is on the board or borne off.
        const bool exact = r.capture != CaptureMode::Remove && !r.entrySquare;
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
    if (split)
        if (auto e = parseTurnFields(p, fields)) return *e;
    return p;
}

std::string formatPosition(const Position& p) {
    std::string s(p.rules().key);
    s += ':';
    for (int sq = 1; sq <= kSquareCount; ++sq) s += "." "12"[p.ownerAt(sq)];
    s += ':';
    s += static_cast<char>('0' + number(p.turn));
    s += ':' + std::to_string(p.off[0]) + ':' + std::to_string(p.off[1]);
    if (p.rules().turnModel == TurnModel::SplitSteps) {
        s += ':' + std::to_string(p.remainder) + ':';
        s += p.direction == TurnDirection::Forward ? 'f' : p.direction == TurnDirection::Backward ? 'b' : '-';
        s += ':' + std::to_string(p.owedThrows) + ':' + (p.entryThrowDue ? '1' : '0');
    }
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

Result<int> parseThrowFor(const Position& p, std::string_view text) {
    if (!p.throwDue()) {
        if (text == "-") return kNoThrow;
        return fail("throw " + quoted(text) + " is not possible: the position has a remainder of " + std::to_string(p.remainder) +
                    " to spend, so THROW must be -");
    }
    if (text == "-") return fail("throw '-' is only for a position with a remainder to spend (REM above 0); this one needs a new throw");
    return parseThrow(p.rules(), text);
}

}  // namespace senet
