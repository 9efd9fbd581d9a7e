#include "senet/movegen.hpp"

#include <algorithm>
#include <charconv>

namespace senet {

namespace {

/// Squares r where `length` opponent pieces stand in a row on r, r+1, ..., r+length-1.
inline Bitboard blockadeStarts(Bitboard opp, int length) {
    Bitboard run = opp;
    for (int i = 1; i < length; ++i) run &= run >> 1;
    return run;
}

/// Where a piece landing on the House of Water ends up, given the occupied squares with the
/// mover's start square already vacated. Standard rule 7, Jéquier rule 5.
inline int waterDestination(const Ruleset& r, Bitboard occupiedWithoutMover) {
    const Bitboard empty = ~occupiedWithoutMover & kAllSquares;
    if (r.waterReturn == WaterReturn::LowestEmpty) return lowestSquare(empty);
    // The return square, or the nearest empty square before it. With at most 2 x 5 pieces on the
    // board, squares 1..15 are never all full.
    return highestSquare(empty & squareRange(1, r.waterReturnSquare));
}

}  // namespace

Bitboard forwardFroms(const Ruleset& r, Bitboard own, Bitboard opp, int v) {
    // Moves that stay on the board: not onto an own piece (standard 3, Bell 3), not onto a
    // protected or safe opponent piece (standard 4 and 6, Jéquier 4, Bell 4).
    const int lastLanding = std::min(kSquareCount, r.bearOffAt - 1);
    Bitboard landings = (own & squareRange(1, lastLanding - v)) << v;
    Bitboard shielded = opp & r.safeSquares;
    if (r.neighbourProtection) shielded |= opp & ((opp << 1) | (opp >> 1));
    landings &= ~(own | shielded);
    Bitboard froms = landings >> v;
    // Bearing off: only from the squares and with the throws the ruleset lists, and only when
    // every piece stands in the bear-off zone (standard 8, Jéquier 8, Bell 5).
    if (!(own & ~r.bearOffZone)) froms |= own & r.bearOffFroms[v];
    // Blockade: a move from s passes s+1 .. s+v-1 (Jéquier 3); a row of `length` starting at
    // s+k blocks it for k = 1 .. v-length.
    if (r.blockadeLength) {
        const Bitboard starts = blockadeStarts(opp, r.blockadeLength);
        for (int k = 1; k <= v - r.blockadeLength; ++k) froms &= ~(starts >> k);
    }
    return froms;
}

Bitboard backwardFroms(const Ruleset& r, Bitboard own, Bitboard opp, int v) {
    // Jéquier 6: exactly the throw back, to an empty square, not below 1, blockade included.
    Bitboard froms = (((own & squareRange(v + 1, kSquareCount)) >> v) & ~(own | opp)) << v;
    if (r.blockadeLength) {
        const Bitboard starts = blockadeStarts(opp, r.blockadeLength);
        for (int k = r.blockadeLength; k <= v - 1; ++k) froms &= ~(starts << k);
    }
    return froms;
}

Bitboard legalFroms(const Position& p, int v, bool& backward) {
    const Ruleset& r = p.rules();
    const Bitboard own = p.board[index(p.turn)];
    const Bitboard opp = p.board[index(opponent(p.turn))];
    Bitboard froms = forwardFroms(r, own, opp, v);
    backward = false;
    if (!froms && r.backwardWhenNoForward) {
        froms = backwardFroms(r, own, opp, v);
        backward = froms != 0;
    }
    // Bell 6: when a piece on 26-30 can move, one of them must.
    if (froms & r.compulsionSquares) froms &= r.compulsionSquares;
    return froms;
}

Move makeMove(const Position& p, int from, int v, bool backward) {
    const Ruleset& r = p.rules();
    const Bitboard own = p.board[index(p.turn)];
    const Bitboard opp = p.board[index(opponent(p.turn))];
    const int to = backward ? from - v : from + v;
    if (to >= r.bearOffAt) return Move{static_cast<std::uint8_t>(from), kOffBoard, kOffBoard, kBearOff};
    std::uint8_t flags = backward ? kBackward : 0;
    if (opp & bit(to)) flags |= r.capture == CaptureMode::Swap ? kSwap : kCapture;
    int dest = to;
    if (to == r.waterSquare) {
        flags |= kWater;
        dest = waterDestination(r, (own | opp) & ~bit(from));
    }
    return Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(dest), flags};
}

void generateMoves(const Position& p, int v, MoveList& moves) {
    moves.clear();
    bool backward = false;
    for (Bitboard b = legalFroms(p, v, backward); b; b &= b - 1) moves.push(makeMove(p, lowestSquare(b), v, backward));
}

bool keepsTurn(const Ruleset& r, int v, Move move) {
    if (!r.givesExtraThrow(v)) return false;
    return !move.isPass() || r.extraThrowAfterPass;
}

Position applyMove(const Position& p, int v, Move move) {
    Position q = p;
    const int me = index(p.turn);
    const int op = me ^ 1;
    if (!move.isPass()) {
        q.board[me] &= ~bit(move.from);
        if (move.has(kBearOff)) {
            ++q.off[me];
        } else {
            if (move.has(kSwap)) q.board[op] ^= bit(move.to) | bit(move.from);
            else if (move.has(kCapture)) q.board[op] &= ~bit(move.to);
            q.board[me] |= bit(move.dest);
        }
    }
    if (!keepsTurn(p.rules(), v, move)) q.turn = opponent(p.turn);
    return q;
}

Outcome outcome(const Position& p) {
    const Ruleset& r = p.rules();
    if (r.win == WinRule::AllBorneOff) {
        if (p.off[0] >= r.piecesPerSide) return Outcome::WinOne;
        if (p.off[1] >= r.piecesPerSide) return Outcome::WinTwo;
        return Outcome::Ongoing;
    }
    const int on1 = p.onBoard(Player::One), on2 = p.onBoard(Player::Two);
    if (p.off[0] > p.off[1] + on2) return Outcome::WinOne;
    if (p.off[1] > p.off[0] + on1) return Outcome::WinTwo;
    if (on1 == 0 && on2 == 0) return Outcome::Draw;  // equal scores, or one side would have won above
    return Outcome::Ongoing;
}

std::string_view outcomeName(Outcome o) {
    switch (o) {
        case Outcome::WinOne: return "win 1";
        case Outcome::WinTwo: return "win 2";
        case Outcome::Draw: return "draw";
        case Outcome::Ongoing: break;
    }
    return "ongoing";
}

std::string formatMove(Move move) {
    if (move.isPass()) return "pass";
    return std::to_string(move.from) + '-' + (move.to == kOffBoard ? std::string("off") : std::to_string(move.to));
}

namespace {

std::optional<int> parseSquare(std::string_view s) {
    if (s.empty() || s.size() > 2) return std::nullopt;
    int v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || ptr != s.data() + s.size() || v < 1 || v > kSquareCount) return std::nullopt;
    return v;
}

/// Why `from-to` is not among the legal moves: the first rule it breaks.
std::string whyIllegal(const Position& p, int v, int from, int to, const MoveList& legal) {
    const Ruleset& r = p.rules();
    const Bitboard own = p.board[index(p.turn)];
    const Bitboard opp = p.board[index(opponent(p.turn))];
    const std::string move = std::to_string(from) + '-' + (to == kOffBoard ? std::string("off") : std::to_string(to));
    const std::string who = "player " + std::to_string(number(p.turn));
    if (!(own & bit(from))) return "square " + std::to_string(from) + " holds no piece of " + who;
    const bool backward = to != kOffBoard && to < from;
    if (to == kOffBoard ? from + v < r.bearOffAt : (backward ? from - to != v : to - from != v)) {
        if (to != kOffBoard && from + v >= r.bearOffAt && !backward)
            return move + " does not match the throw " + std::to_string(v) + ": that piece would leave the board";
        return move + " does not move " + std::to_string(v) + (v == 1 ? " square" : " squares");
    }
    if (backward) {
        if (!r.backwardWhenNoForward) return move + " goes backward; pieces only move forward in " + std::string(r.key);
        if (forwardFroms(r, own, opp, v)) return move + " goes backward, but a forward move exists";
        if ((own | opp) & bit(to)) return move + " goes backward onto an occupied square";
        return move + " passes a blockade of " + std::to_string(r.blockadeLength) + " opponent pieces";
    }
    if (to != kOffBoard && to >= r.bearOffAt)
        return "a piece that reaches square " + std::to_string(r.bearOffAt) + " is borne off: write " +
               std::to_string(from) + "-off";
    if (forwardFroms(r, own, opp, v) & bit(from)) {
        if (!legal.empty() && r.compulsionSquares)
            return move + " is not allowed: a piece on squares 26-30 that can move must move";
        return move + " is not legal";
    }
    if (to == kOffBoard) {
        if (!((r.bearOffThrows[from] >> v) & 1))
            return "a throw of " + std::to_string(v) + " cannot bear off from square " + std::to_string(from);
        if (own & ~r.bearOffZone) return move + " bears off before all of " + who + "'s pieces stand on 21-30";
        return move + " passes a blockade of " + std::to_string(r.blockadeLength) + " opponent pieces";
    }
    if (own & bit(to)) return move + " lands on " + who + "'s own piece";
    if (r.blockadeLength)
        return move + " passes a blockade of " + std::to_string(r.blockadeLength) + " opponent pieces";
    if (r.safeSquares & bit(to)) return move + " lands on an opponent's piece on a safe square";
    return move + " lands on an opponent's piece protected by a neighbour";
}

}  // namespace

Result<Move> parseMove(const Position& p, int v, std::string_view text) {
    MoveList legal;
    generateMoves(p, v, legal);
    if (text == "pass") {
        if (legal.empty()) return Move::pass();
        return fail("pass is not allowed: " + std::to_string(legal.size()) + " legal move" +
                    (legal.size() == 1 ? "" : "s") + " exist");
    }
    const std::size_t dash = text.find('-');
    const std::string shown(text.substr(0, 40));
    if (dash == std::string_view::npos)
        return fail("move '" + shown + "' is malformed (expected FROM-TO, FROM-off or pass)");
    const auto from = parseSquare(text.substr(0, dash));
    const std::string_view toText = text.substr(dash + 1);
    const auto to = toText == "off" ? std::optional<int>(kOffBoard) : parseSquare(toText);
    if (!from || !to) return fail("move '" + shown + "' is malformed (expected FROM-TO with squares 1-30, FROM-off or pass)");
    for (const Move& m : legal)
        if (m.from == *from && m.to == *to) return m;
    return fail("illegal move: " + whyIllegal(p, v, *from, *to, legal));
}

}  // namespace senet
