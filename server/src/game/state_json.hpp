// The game state as JSON (PROTOCOL.md "Snapshot" without `record` and `you`), written straight
// into a string: it goes out with every events message, so it must be cheap. Used by StateFrames.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "json_out.hpp"
#include "senet/fairness.hpp"
#include "senet/game.hpp"
#include "senet/record.hpp"
#include "storage.hpp"

namespace senet::server {

/// What the state is made of besides the engine's game.
struct StateFields {
    const Game& game;
    const GameRow& row;
    std::string_view commitment;  ///< SHA-256 of the server seed, hex
    std::int64_t ply;
    std::int64_t throwIndex;
    int lastThrowSeat;
    bool over;     ///< the game has ended (any way)
    bool waiting;  ///< a friend game one of whose seats is free
    bool seedsPending;  ///< before the first throw, a seat's client seed is not fixed yet (no seat may act)
    std::array<bool, 2> online;
    std::array<bool, 2> rematchOffered;
    std::string_view resultText;  ///< the result JSON, "" while playing
    std::int64_t grace;           ///< seconds
    std::array<std::string_view, 2> names{};  ///< lobby games' guest names ("" : no `name` member)
    std::array<bool, 2> bots{};               ///< lobby games: the seats a program holds (`bot` member)
    bool canTakeBack = false;     ///< the seat to act may take back its last move (local and computer games)
};

/// The name of an engine phase in the protocol.
inline const char* phaseName(Phase p) {
    switch (p) {
        case Phase::Opening: return "opening";
        case Phase::Throw: return "throw";
        case Phase::Move: return "move";
        case Phase::Over: return "over";
    }
    return "over";
}

/// Who made a move, for the `moved` event (its keys sort among the move's own).
struct Mover {
    int seat;
    int player;
};

/// Writes a move's members (PROTOCOL.md "Snapshot"): from, to, dest, its text and its flags
/// (Piccione's `in-1` with "enter", a step onto 27 with "toHand"); with `by`, those of the
/// `moved` event.
inline void writeMove(jsonout::Object& o, Move m, const Mover* by) {
    if (m.has(kBackward)) o.boolean("backward", true);
    if (m.has(kBearOff)) o.boolean("bearOff", true);
    if (m.has(kCapture)) o.boolean("capture", true);
    o.num("dest", m.dest);
    if (by) o.str("e", "moved");
    if (m.has(kEnter)) o.boolean("enter", true);
    o.num("from", m.from);
    o.str("move", formatMove(m));
    if (by) o.num("player", by->player).num("seat", by->seat);
    if (m.has(kSwap)) o.boolean("swap", true);
    o.num("to", m.to);
    if (m.has(kToHand)) o.boolean("toHand", true);
    if (m.has(kWater)) o.boolean("water", true);
}

/// Where each top-level member of a state object written by writeStateJson starts: at[i] is the
/// offset (in that string) of member i's separator or key, at[count] the offset of the closing
/// brace. The members are always the same 24, in the same (sorted) order.
struct StateMarks {
    static constexpr std::size_t kMembers = 25;
    std::array<std::uint32_t, kMembers + 1> at{};
    std::size_t count = 0;  ///< members recorded (kMembers after a complete write)
};

/// The parts of the state object that take more than one call to write (writeStateJson): each
/// appends one member's value.
namespace state_parts {

/// `board`: squares 1..30, each 0 (empty), 1 or 2.
inline void writeBoard(std::string& out, const Position& pos) {
    out += '[';
    for (int sq = 1; sq <= kSquareCount; ++sq) {
        if (sq > 1) out += ',';
        jsonout::appendInt(out, pos.ownerAt(sq));
    }
    out += ']';
}

/// `fairness`: the client seeds, the commitment, the server seed once the game is over.
inline void writeFairness(std::string& out, const StateFields& f) {
    jsonout::Object fair(out);
    fair.key("clientSeeds");
    out += '[';
    for (int seat = 0; seat < 2; ++seat) {
        if (seat) out += ',';
        if (f.row.clientSeeds[seat]) jsonout::appendString(out, *f.row.clientSeeds[seat]);
        else out += "null";
    }
    out += ']';
    fair.str("commitment", f.commitment);
    if (f.over) fair.str("serverSeed", fairness::toHex(f.row.serverSeed));
    else fair.null("serverSeed");
}

/// `lastThrow`: the last throw and who threw it, null before the first.
inline void writeLastThrow(std::string& out, const StateFields& f) {
    if (const auto t = f.game.lastThrow(); t && f.throwIndex > 0)
        jsonout::Object(out)
            .num("index", f.throwIndex - 1)
            .num("seat", f.lastThrowSeat)
            .str("sticks", sticksString(f.game.rules(), *t))
            .num("value", t->value);
    else
        out += "null";
}

/// `legalMoves`: the moves of the pending throw (none once the game is over).
inline void writeLegalMoves(std::string& out, const StateFields& f) {
    out += '[';
    if (!f.over) {
        bool first = true;
        for (const Move& m : f.game.legalMoves()) {
            if (!first) out += ',';
            first = false;
            jsonout::Object o(out);
            writeMove(o, m, nullptr);
        }
    }
    out += ']';
}

/// `off`: pieces borne off by player 1 and player 2.
inline void writeOff(std::string& out, const Position& pos) {
    out += '[';
    jsonout::appendInt(out, pos.off[0]);
    out += ',';
    jsonout::appendInt(out, pos.off[1]);
    out += ']';
}

/// `opening`: the throws of Jéquier's opening, seats alternating.
inline void writeOpening(std::string& out, const Game& game) {
    out += '[';
    for (std::size_t i = 0; i < game.record().opening.size(); ++i) {
        const Throw t = game.record().opening[i];
        if (i) out += ',';
        jsonout::Object(out).num("seat", static_cast<int>(i % 2)).str("sticks", sticksString(game.rules(), t)).num("value", t.value);
    }
    out += ']';
}

/// `players`: the player number of each seat, null during Jéquier's opening.
inline void writePlayers(std::string& out, const Game& game) {
    if (game.phase() == Phase::Opening) {
        out += "null";
        return;
    }
    out += '[';
    jsonout::appendInt(out, number(*game.playerOf(0)));
    out += ',';
    jsonout::appendInt(out, number(*game.playerOf(1)));
    out += ']';
}

/// `seats`: each seat's kind, guest name (lobby games), presence and whether it is taken.
inline void writeSeats(std::string& out, const StateFields& f) {
    out += '[';
    for (int seat = 0; seat < 2; ++seat) {
        if (seat) out += ',';
        jsonout::Object o(out);
        o.str("kind", toString(seatKindOf(f.row.seatHashes[seat])));
        if (!f.names[seat].empty()) o.str("name", f.names[seat]);  // a lobby game's guest name, text only
        if (f.bots[seat]) o.boolean("bot", true);                   // a program plays this seat
        o.boolean("online", f.online[seat]).boolean("taken", !f.row.seatHashes[seat].empty());
    }
    out += ']';
}

/// `steps`: null for the rulesets with one move per throw; for Piccione (TurnModel::SplitSteps)
/// the turn's state within its steps, RULES.md "Piccione position notation": the direction
/// fixed for the turn, whether the entry throw is due, the pieces in hand of player 1 and 2,
/// the extra throws owed (Game::owedThrows: counting the throw made and not yet spent,
/// PROTOCOL.md "not yet made") and the remainder of the current throw.
inline void writeSteps(std::string& out, const Game& game) {
    const Position& pos = game.position();
    if (pos.rules().turnModel != TurnModel::SplitSteps) {
        out += "null";
        return;
    }
    const char* direction = pos.direction == TurnDirection::Forward ? "f" : pos.direction == TurnDirection::Backward ? "b" : "-";
    jsonout::Object o(out);
    o.str("direction", direction).boolean("entry", pos.entryThrowDue).key("hand");
    out += '[';
    jsonout::appendInt(out, pos.inHand(Player::One));
    out += ',';
    jsonout::appendInt(out, pos.inHand(Player::Two));
    out += ']';
    o.num("owed", game.owedThrows()).num("remainder", pos.remainder);
}

}  // namespace state_parts

/// Appends the state object; its keys are written in sorted order (json_out.hpp). With `marks`,
/// records where each member starts (for appendChangedMembers).
inline void writeStateJson(std::string& out, const StateFields& f, StateMarks* marks = nullptr) {
    using namespace state_parts;
    const Position& pos = f.game.position();
    const std::size_t start = out.size();
    jsonout::Object s(out, marks ? marks->at.data() : nullptr, marks ? StateMarks::kMembers : 0);
    s.key("board");
    writeBoard(out, pos);
    s.key("fairness");
    writeFairness(out, f);
    s.str("game", f.row.id);
    s.num("grace", f.grace);
    s.key("lastThrow");
    writeLastThrow(out, f);
    s.key("legalMoves");
    writeLegalMoves(out, f);
    s.strOrNull("level", f.row.level);
    s.key("off");
    writeOff(out, pos);
    s.key("opening");
    writeOpening(out, f.game);
    s.str("opponent", toString(f.row.opponent));
    s.str("phase", f.over ? "over" : f.waiting ? "waiting" : phaseName(f.game.phase()));
    s.key("players");
    writePlayers(out, f.game);
    s.num("ply", f.ply);
    s.str("position", formatPosition(pos));
    s.strOrNull("rematch", f.row.rematch);
    s.strOrNull("rematchOf", f.row.rematchOf);
    s.key("rematchOffered");
    out += f.rematchOffered[0] ? "[true," : "[false,";
    out += f.rematchOffered[1] ? "true]" : "false]";
    s.raw("result", f.resultText.empty() ? std::string_view("null") : f.resultText);
    s.str("ruleset", f.game.rules().key);
    if (f.over || f.waiting || f.seedsPending) s.null("seatToAct");
    else s.num("seatToAct", f.game.seatToAct());
    s.key("seats");
    writeSeats(out, f);
    s.key("steps");
    writeSteps(out, f.game);
    s.boolean("takeback", f.canTakeBack);
    s.num("throwIndex", f.throwIndex);
    if (f.game.phase() == Phase::Opening) s.null("turn");
    else s.num("turn", number(pos.turn));
    if (marks) {
        // Relative to the object's start; the last mark is where `s` writes its closing brace.
        marks->count = StateMarks::kMembers;
        for (std::size_t i = 0; i < StateMarks::kMembers; ++i) marks->at[i] -= static_cast<std::uint32_t>(start);
        marks->at[StateMarks::kMembers] = static_cast<std::uint32_t>(out.size() - start);
    }
}

/// Member i of a state object `state` cut by `marks`: `"key":value`, without a separator.
inline std::string_view stateMember(std::string_view state, const StateMarks& marks, std::size_t i) {
    std::string_view m = state.substr(marks.at[i], marks.at[i + 1] - marks.at[i]);
    if (!m.empty() && m.front() == ',') m.remove_prefix(1);
    return m;
}

/// Appends, as one JSON object, the members of `next` whose text differs from the same member of
/// `previous` (PROTOCOL.md "events": the state members that changed); every member when
/// `previous` is null. Both were written by writeStateJson with marks.
inline void appendChangedMembers(std::string& out, std::string_view next, const StateMarks& nextMarks,
                                 const std::string_view* previous, const StateMarks& previousMarks) {
    out += '{';
    bool first = true;
    for (std::size_t i = 0; i < nextMarks.count; ++i) {
        const std::string_view member = stateMember(next, nextMarks, i);
        if (previous && previousMarks.count == nextMarks.count && member == stateMember(*previous, previousMarks, i))
            continue;
        if (!first) out += ',';
        first = false;
        out += member;
    }
    out += '}';
}

}  // namespace senet::server
