// Rules told in words from Ruleset data: see site_rules.hpp.
#include "senet/site_rules.hpp"

#include <algorithm>

namespace senet::site {

namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

std::vector<int> squaresOf(Bitboard b) {
    std::vector<int> out;
    for (int s = 1; s <= kSquareCount; ++s)
        if (b & bit(s)) out.push_back(s);
    return out;
}

std::vector<int> valuesOf(std::uint16_t mask) {
    std::vector<int> out;
    for (int v = 0; v < 16; ++v)
        if ((mask >> v) & 1) out.push_back(v);
    return out;
}

std::string numbers(const std::vector<int>& values, const Catalog& c, bool orList) {
    std::vector<std::string> items;
    for (int v : values) items.push_back(std::to_string(v));
    return c.joinList(items, orList);
}

bool alternating(const Ruleset& r) {
    const int n = r.piecesPerSide;
    Bitboard odd = 0, even = 0;
    for (int i = 0; i < n; ++i) { odd |= bit(2 * i + 1); even |= bit(2 * i + 2); }
    return r.openingSetup[0] == odd && r.openingSetup[1] == even;
}

std::string houseName(const Ruleset& r, int square, const Catalog& c) {
    for (const House& h : r.houses)
        if (h.square == square && !h.key.empty()) return c.get("house." + std::string(h.key));
    return "";
}

std::string setup(const Ruleset& r, const Catalog& c) {
    if (r.openingSetup[0] == 0 && r.openingSetup[1] == 0)  // Piccione 1: the board starts empty
        return c.format("rc.setup.hand", {{"count", std::to_string(r.piecesPerSide)}});
    if (alternating(r))
        return c.format("rc.setup.alternating", {{"count", std::to_string(r.piecesPerSide)},
                                                 {"last", std::to_string(2 * r.piecesPerSide)}});
    return c.format("rc.setup.squares", {{"count", std::to_string(r.piecesPerSide)},
                                         {"one", squaresText(r.openingSetup[0], c)},
                                         {"two", squaresText(r.openingSetup[1], c)}});
}

std::string opening(const Ruleset& r, const Catalog& c) {
    if (r.opening == OpeningRule::ThrowForOne) {
        // The piece the opening moves: the square it leaves and the square it reaches.
        const int two = index(Player::Two);
        const Bitboard left = r.openingSetup[two] & ~r.setup[two], reached = r.setup[two] & ~r.openingSetup[two];
        return c.format("rc.opening.throw-for-one", {{"from", left ? std::to_string(lowestSquare(left)) : "?"},
                                                     {"to", reached ? std::to_string(lowestSquare(reached)) : "?"},
                                                     {"squares", squaresText(r.openingSetup[two], c)}});
    }
    if (r.setup[index(r.firstToMove)] == 0) return c.get("rc.opening.none-hand");
    return c.format("rc.opening.none", {{"squares", squaresText(r.setup[index(r.firstToMove)], c)}});
}

std::string throws(const Ruleset& r, const Catalog& c) {
    if (r.implement == Implement::FourSidedDie)
        return c.format("rc.throws.die", {{"values", numbers(valuesOf(r.throwValues), c, true)}});
    return c.format("rc.throws.sticks", {{"none", std::to_string(r.sticksNoneUpValue)}});
}

std::string extra(const Ruleset& r, const Catalog& c) {
    std::string text = r.extraThrowAfter == 0 ? c.get("rc.extra.none")
                                              : c.format("rc.extra.some", {{"values", numbers(valuesOf(r.extraThrowAfter), c, true)}});
    // Piccione 10: landing on these squares owes a throw; owed throws add up.
    if (r.extraThrowSquares) text += " " + c.format("rc.extra.squares", {{"squares", numbers(squaresOf(r.extraThrowSquares), c, true)}});
    return text;
}

std::string landing(const Ruleset& r, const Catalog& c) {
    if (r.turnModel == TurnModel::SplitSteps) return c.get("rc.landing.never");  // Piccione 3: empty squares only
    const bool swap = r.capture == CaptureMode::Swap;
    if (r.neighbourProtection) return c.get(swap ? "rc.landing.swap-protected" : "rc.landing.remove-protected");
    return c.get(swap ? "rc.landing.swap" : "rc.landing.remove");
}

std::string blockade(const Ruleset& r, const Catalog& c) {
    if (r.blockadeLength == 0) return c.get("rc.blockade.none");
    return c.format(r.backwardWhenNoForward ? "rc.blockade.both-ways" : "rc.blockade.forward",
                    {{"count", std::to_string(r.blockadeLength)}});
}

std::string safe(const Ruleset& r, const Catalog& c) {
    if (r.safeSquares == 0)
        return c.get(r.turnModel == TurnModel::SplitSteps ? "rc.safe.none-needed"
                     : r.neighbourProtection             ? "rc.safe.neighbour-only"
                                                         : "rc.safe.none");
    std::string text = c.format("rc.safe.squares", {{"squares", squaresText(r.safeSquares, c)}});
    if (r.neighbourProtection) text += " " + c.get("rc.safe.neighbour");
    return text;
}

std::string water(const Ruleset& r, const Catalog& c) {
    switch (r.waterReturn) {
        case WaterReturn::None: return c.get("rc.water.none");
        case WaterReturn::SquareOrNearestBefore:
            return c.format("rc.water.back-to", {{"square", std::to_string(r.waterSquare)},
                                                 {"target", std::to_string(r.waterReturnSquare)}});
        case WaterReturn::LowestEmpty: return c.format("rc.water.lowest-empty", {{"square", std::to_string(r.waterSquare)}});
        case WaterReturn::ToHand: return c.format("rc.water.to-hand", {{"square", std::to_string(r.waterSquare)}});
    }
    return "";
}

std::string houses(const Ruleset& r, const Catalog& c) {
    std::vector<House> list;
    for (const House& h : r.houses)
        if (h.square != 0) list.push_back(h);
    std::sort(list.begin(), list.end(), [](const House& a, const House& b) { return a.square < b.square; });
    std::vector<std::string> items;
    for (const House& h : list)
        items.push_back(c.format("rc.houses.item", {{"square", std::to_string(h.square)},
                                                    {"name", c.get("house." + std::string(h.key))}}));
    std::string text = c.format("rc.houses", {{"list", c.joinList(items, false)}});
    if (r.waterSquare == 0) text += " " + c.get("rc.water.none");
    return text;
}

std::string backward(const Ruleset& r, const Catalog& c) {
    if (!r.backwardWhenNoForward) return c.get("rc.backward.never");
    std::string text = c.get(r.turnModel == TurnModel::SplitSteps ? "rc.backward.turn"
                             : r.backwardSwaps                     ? "rc.backward.when-stuck-swap"
                                                                   : "rc.backward.when-stuck");
    // Kendall 8 and Piccione 4: pieces on the final houses never move back.
    const Bitboard never = r.noBackwardSquares | r.bearOffOnlySquares;
    if (never) text += " " + c.format("rc.backward.not-from", {{"squares", squaresText(never, c)}});
    return text;
}

std::string stop(const Ruleset& r, const Catalog& c) {
    if (r.stopSquare == 0) return c.get("rc.stop.none");
    const std::string name = houseName(r, r.stopSquare, c);
    return c.format(name.empty() ? "rc.stop.square" : "rc.stop.named",
                    {{"square", std::to_string(r.stopSquare)}, {"before", std::to_string(r.stopSquare - 1)}, {"name", name}});
}

std::string finalHouses(const Ruleset& r, const Catalog& c) {
    if (r.bearOffOnlySquares == 0) return c.get("rc.final.none");
    std::vector<std::string> items;
    for (int s : squaresOf(r.bearOffOnlySquares))
        items.push_back(c.format("rc.final.item", {{"square", std::to_string(s)}, {"values", numbers(valuesOf(r.bearOffThrows[s]), c, true)}}));
    return c.format("rc.final.only-off", {{"squares", squaresText(r.bearOffOnlySquares, c)}, {"list", c.joinList(items, false)}});
}

std::string hand(const Ruleset& r, const Catalog& c) {
    if (r.entrySquare == 0) return c.get("rc.hand.none");
    return c.format("rc.hand.enter", {{"square", std::to_string(r.entrySquare)}});
}

std::string split(const Ruleset& r, const Catalog& c) {
    return c.get(r.turnModel == TurnModel::SplitSteps ? "rc.split.steps" : "rc.split.whole");
}

std::string direction(const Ruleset& r, const Catalog& c) {
    return c.get(r.turnModel == TurnModel::SplitSteps ? "rc.direction.turn" : "rc.direction.each-move");
}

std::string compulsion(const Ruleset& r, const Catalog& c) {
    if (r.compulsionSquares == 0) return c.get("rc.compulsion.none");
    return c.format("rc.compulsion.some", {{"squares", squaresText(r.compulsionSquares, c)}});
}

std::string noMove(const Ruleset& r, const Catalog& c) {
    const std::string values = numbers(valuesOf(r.extraThrowAfter), c, true);
    if (r.extraThrowAfter == 0) return c.get("rc.no-move.pass");
    if (r.extraThrowAfterPass) return c.format("rc.no-move.pass-extra", {{"values", values}});
    std::string text = c.format("rc.no-move.lost", {{"values", values}});
    // Piccione 9: the rest of the throw and the owed throws go too, and a piece on the entry square returns to the hand.
    if (r.turnModel == TurnModel::SplitSteps) text += " " + c.format("rc.no-move.split", {{"square", std::to_string(r.entrySquare)}});
    return text;
}

std::string bearOff(const Ruleset& r, const Catalog& c) {
    // The throws that would carry a piece from `s` to `bearOffAt` or beyond.
    auto natural = [&](int s) {
        std::uint16_t m = 0;
        for (int v : valuesOf(r.throwValues))
            if (s + v >= r.bearOffAt) m |= static_cast<std::uint16_t>(1 << v);
        return m;
    };
    std::vector<int> from, exceptions;
    bool exact = true;
    for (int s = 1; s <= kSquareCount; ++s) {
        const std::uint16_t t = r.bearOffThrows[s];
        if (!t) continue;
        from.push_back(s);
        if (t != natural(s)) exceptions.push_back(s);
        if (t != (1u << (kOffBoard - s))) exact = false;
    }
    if (from.empty()) return "";
    std::string text;
    if (exact && r.bearOffAt == kOffBoard) {
        std::vector<std::string> pairs;
        for (int s : from) {
            const std::string name = houseName(r, s, c);
            pairs.push_back(c.format(name.empty() ? "rc.bear-off.exact-item" : "rc.bear-off.exact-item-named",
                                     {{"value", std::to_string(kOffBoard - s)}, {"square", std::to_string(s)}, {"name", name}}));
        }
        text = c.format("rc.bear-off.exact", {{"list", c.joinList(pairs, false)}});
    } else {
        text = c.format(r.bearOffAt == kOffBoard ? "rc.bear-off.past" : "rc.bear-off.reach",
                        {{"from", std::to_string(from.front())}, {"square", std::to_string(std::min(r.bearOffAt, kSquareCount))}});
        std::vector<std::string> only;
        for (int s : exceptions)
            only.push_back(c.format("rc.bear-off.only-item", {{"square", std::to_string(s)},
                                                              {"values", numbers(valuesOf(r.bearOffThrows[s]), c, true)}}));
        if (!only.empty()) text += c.format("rc.bear-off.only", {{"list", c.joinList(only, false)}});
        text += ".";
    }
    if (r.bearOffZone != kAllSquares) text += " " + c.format("rc.bear-off.zone", {{"squares", squaresText(r.bearOffZone, c)}});
    return text;
}

std::string win(const Ruleset& r, const Catalog& c) {
    if (r.win == WinRule::Majority) return c.get("rc.win.majority");
    return c.format("rc.win.all", {{"count", std::to_string(r.piecesPerSide)}});
}

}  // namespace

const std::vector<std::string>& ruleAspects() {
    static const std::vector<std::string> aspects{"setup",    "hand",     "opening",  "throws",     "split",   "direction",
                                                  "extra",    "landing",  "blockade", "safe",       "water",   "houses",
                                                  "stop",     "backward", "compulsion", "no-move",  "final",   "bear-off",
                                                  "win"};
    return aspects;
}

bool aspectDiffers(const std::string& a, const Ruleset& x, const Ruleset& y) {
    if (a == "setup") return x.piecesPerSide != y.piecesPerSide || x.openingSetup != y.openingSetup;
    if (a == "opening") return x.opening != y.opening || x.firstToMove != y.firstToMove;
    if (a == "throws") return x.implement != y.implement || x.sticksNoneUpValue != y.sticksNoneUpValue || x.throwValues != y.throwValues;
    if (a == "hand") return x.entrySquare != y.entrySquare;
    if (a == "split" || a == "direction") return x.turnModel != y.turnModel;
    if (a == "extra") return x.extraThrowAfter != y.extraThrowAfter || x.extraThrowSquares != y.extraThrowSquares;
    if (a == "landing")
        return x.turnModel != y.turnModel || x.capture != y.capture || x.neighbourProtection != y.neighbourProtection;
    if (a == "blockade") return x.blockadeLength != y.blockadeLength;
    if (a == "safe")
        return x.safeSquares != y.safeSquares || x.neighbourProtection != y.neighbourProtection || x.turnModel != y.turnModel;
    if (a == "stop") return x.stopSquare != y.stopSquare;
    if (a == "final") return x.bearOffOnlySquares != y.bearOffOnlySquares || (x.bearOffOnlySquares && x.bearOffThrows != y.bearOffThrows);
    if (a == "water")  // when one side has no House of Water at all, the "houses" row says so
        return x.waterSquare != 0 && y.waterSquare != 0 &&
               (x.waterSquare != y.waterSquare || x.waterReturn != y.waterReturn || x.waterReturnSquare != y.waterReturnSquare);
    if (a == "houses") {
        auto named = [](const Ruleset& r) {
            std::vector<std::pair<int, std::string_view>> v;
            for (const House& h : r.houses)
                if (h.square) v.emplace_back(h.square, h.key);
            std::sort(v.begin(), v.end());
            return v;
        };
        return named(x) != named(y);
    }
    if (a == "backward")
        return x.backwardWhenNoForward != y.backwardWhenNoForward ||
               (x.backwardWhenNoForward &&
                (x.backwardSwaps != y.backwardSwaps || x.turnModel != y.turnModel ||
                 (x.noBackwardSquares | x.bearOffOnlySquares) != (y.noBackwardSquares | y.bearOffOnlySquares)));
    if (a == "compulsion") return x.compulsionSquares != y.compulsionSquares;
    if (a == "no-move")  // without extra throws the "extra" row already tells it
        return x.extraThrowAfter != 0 && y.extraThrowAfter != 0 &&
               (x.extraThrowAfterPass != y.extraThrowAfterPass || x.extraThrowAfter != y.extraThrowAfter ||
                x.turnModel != y.turnModel);
    if (a == "bear-off") return x.bearOffAt != y.bearOffAt || x.bearOffThrows != y.bearOffThrows || x.bearOffZone != y.bearOffZone;
    if (a == "win") return x.win != y.win || x.piecesPerSide != y.piecesPerSide;
    return false;
}

std::string describeAspect(const std::string& a, const Ruleset& r, const Catalog& c) {
    if (a == "setup") return setup(r, c);
    if (a == "hand") return hand(r, c);
    if (a == "opening") return opening(r, c);
    if (a == "split") return split(r, c);
    if (a == "direction") return direction(r, c);
    if (a == "stop") return stop(r, c);
    if (a == "final") return finalHouses(r, c);
    if (a == "throws") return throws(r, c);
    if (a == "extra") return extra(r, c);
    if (a == "landing") return landing(r, c);
    if (a == "blockade") return blockade(r, c);
    if (a == "safe") return safe(r, c);
    if (a == "water") return water(r, c);
    if (a == "houses") return houses(r, c);
    if (a == "backward") return backward(r, c);
    if (a == "compulsion") return compulsion(r, c);
    if (a == "no-move") return noMove(r, c);
    if (a == "bear-off") return bearOff(r, c);
    if (a == "win") return win(r, c);
    return "";
}

std::vector<RuleChange> ruleChanges(const Ruleset& standard, const Ruleset& variant, const Catalog& c) {
    std::vector<RuleChange> rows;
    for (const std::string& a : ruleAspects())
        if (aspectDiffers(a, standard, variant))
            rows.push_back({a, c.get("rc.label." + a), describeAspect(a, standard, c), describeAspect(a, variant, c)});
    return rows;
}

std::string squaresText(Bitboard squares, const Catalog& c) {
    const std::vector<int> s = squaresOf(squares);
    if (s.size() >= 3 && s.back() - s.front() + 1 == static_cast<int>(s.size()))
        return c.format("squares.range", {{"from", std::to_string(s.front())}, {"to", std::to_string(s.back())}});
    return numbers(s, c, false);
}

}  // namespace senet::site
