// The board diagram (see diagram.hpp): plain SVG text, no script needed.
#include "diagram.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace senet::site {

namespace {

constexpr int kCell = 100;
constexpr int kMargin = 30;  ///< room around the board for the start label and the exit arrow

/// Top-left corner of a square's cell: row 1 is 1..10 left to right, row 2 20..11, row 3 21..30.
std::pair<int, int> cellOf(int square) {
    const int lane = (square - 1) / 10;
    const int k = (square - 1) % 10;
    return {kMargin + (lane == 1 ? 9 - k : k) * kCell, kMargin + lane * kCell};
}

/// A piece in the 100 × 100 cell at (x, y), at half size in the cell's upper right: the cone
/// and the spool of the play page's board (web/src/shared/board.ts piece), body, rim and band.
std::string pieceShape(int player, int x, int y) {
    const std::string at = "translate(" + std::to_string(x + 48) + " " + std::to_string(y + 4) + ") scale(0.5)";
    if (player == 1)
        return "<g class=\"piece piece-1\" transform=\"" + at + "\"><path class=\"piece-body\" d=\"M46 20 L24 76 C24 86 76 86 76 76 L54 20 C52 15 48 15 46 20 Z\"/>"
               "<path class=\"piece-rim\" d=\"M25 76 C30 81 70 81 75 76\"/></g>";
    return "<g class=\"piece piece-2\" transform=\"" + at + "\"><path class=\"piece-body\" d=\"M26 30 C26 22 74 22 74 30 C74 34 60 42 58 55 C60 68 74 76 74 80 "
           "C74 88 26 88 26 80 C26 76 40 68 42 55 C40 42 26 34 26 30 Z\"/><path class=\"piece-rim\" d=\"M27 30 C32 35 68 35 73 30\"/>"
           "<path class=\"piece-band\" d=\"M41 55 H59\"/></g>";
}

/// The throws that bear a piece off from `square` when it may move only off the board (Kendall's
/// final houses, rule 8), as "3" or "2 or 3"; "" for every other square.
std::string exitThrows(const Ruleset& r, int square, const Catalog& c) {
    if (!(r.bearOffOnlySquares & bit(square))) return "";
    std::vector<std::string> values;
    for (int v = 0; v < 16; ++v)
        if ((r.bearOffThrows[square] >> v) & 1) values.push_back(std::to_string(v));
    return c.joinList(values, true);
}

/// A house's sign as the play page's board draws it, in the 100 × 100 cell: filled paths, then
/// stroked ones. The same paths as web/src/shared/board.ts SIGNS (change both).
struct Sign {
    std::string_view key;
    std::vector<std::string_view> fill, line;
};

const std::vector<Sign>& signs() {
    static const std::vector<Sign> table = {
        {"water", {}, {"M20 38 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7", "M20 54 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7", "M20 70 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7"}},
        {"beauty", {"M50 84 C34 76 30 66 30 60 C30 50 38 46 44 48 C47 49 49 51 50 53 C51 51 53 49 56 48 C62 46 70 50 70 60 C70 66 66 76 50 84 Z"}, {"M50 52 V20", "M42 30 H58", "M42 40 H58"}},
        {"three-truths", {}, {"M34 30 V74", "M50 30 V74", "M66 30 V74"}},
        {"re-atoum", {"M50 48 A6 6 0 1 1 49.9 48 Z"}, {"M50 32 A22 22 0 1 1 49.9 32 Z"}},
        {"two-men", {"M38 28 A6 6 0 1 1 37.9 28 Z", "M62 28 A6 6 0 1 1 61.9 28 Z"}, {"M38 44 V74 M30 52 H46", "M62 44 V74 M54 52 H70"}},
        {"horus", {"M50 40 A8 8 0 1 1 49.9 40 Z"}, {"M24 48 Q50 28 78 48 Q50 64 24 48 Z", "M26 36 Q50 24 76 34", "M46 60 l-6 20", "M62 58 q4 14 14 14 q6 0 4 -6"}},
        {"return", {"M50 22 C40 22 37 32 40 40 C42 44 45 47 47 49 H30 V56 H46 V86 H54 V56 H70 V49 H53 C55 47 58 44 60 40 C63 32 60 22 50 22 Z M50 29 C55 29 56 35 54 39 C53 42 51 44 50 45 C49 44 47 42 46 39 C44 35 45 29 50 29 Z"}, {}},
        {"iii", {}, {"M36 32 V72", "M50 32 V72", "M64 32 V72"}},
        {"ii", {}, {"M42 32 V72", "M58 32 V72"}},
        {"i", {}, {"M50 32 V72"}},
        {"x", {}, {"M32 74 V50 A18 18 0 0 1 68 50 V74"}},
    };
    return table;
}

/// The sign of house `key` drawn in the cell at (x, y), at 70 % above the path's line; "" for a
/// key with no sign. Houses that share a sign (board.ts SAME_SIGN) draw the other's.
std::string houseSignSvg(std::string_view key, int x, int y) {
    if (key == "rebirth" || key == "ankh") key = "return";
    if (key == "nefer") key = "beauty";
    if (key == "three-birds") key = "three-truths";
    for (const Sign& sign : signs()) {
        if (sign.key != key) continue;
        std::string g = "<g class=\"diagram-house\" data-sign=\"" + std::string(key) + "\" transform=\"translate(" + std::to_string(x + 15) + " " +
                        std::to_string(y + 18) + ") scale(0.7)\">";
        for (std::string_view d : sign.fill) g += "<path class=\"sign-fill\" fill-rule=\"evenodd\" d=\"" + std::string(d) + "\"/>";
        for (std::string_view d : sign.line) g += "<path class=\"sign-line\" d=\"" + std::string(d) + "\"/>";
        return g + "</g>";
    }
    return "";
}

}  // namespace

std::string boardDiagram(const Ruleset& r, const Catalog& c, const std::string& id) {
    const int width = kMargin * 2 + kCell * 10 + 40, height = kMargin * 2 + kCell * 3;
    // A house's name, with its exit throw where it lets a piece only off the board ("House of Horus
    // (off with 1)") and a note where landing owes a throw ("ankh (extra throw)").
    auto houseText = [&](const House& h) {
        std::string name = c.get("house." + std::string(h.key));
        if (const std::string exit = exitThrows(r, h.square, c); !exit.empty())
            name += " (" + c.format("learn.diagram.exit", {{"value", exit}}) + ")";
        if (r.extraThrowSquares & bit(h.square)) name += " (" + c.get("learn.diagram.extra") + ")";  // Piccione 10
        return name;
    };
    std::vector<std::string> houseLines;
    for (const House& h : r.houses)
        if (h.square)
            houseLines.push_back(c.format("learn.diagram.house", {{"square", std::to_string(h.square)}, {"name", houseText(h)}}));
    const int startSquares = r.piecesPerSide * 2;
    const bool inHand = r.openingSetup[0] == 0 && r.openingSetup[1] == 0;  // Piccione 1: the board starts empty
    const std::string start = inHand ? c.format("learn.diagram.start-hand", {{"count", std::to_string(r.piecesPerSide)}})
                                     : c.format("learn.diagram.start-desc", {{"count", std::to_string(r.piecesPerSide)}, {"last", std::to_string(startSquares)}});
    const std::string desc = c.get("learn.diagram.path") + " " + start + " " +
                             c.format("learn.diagram.houses", {{"list", c.joinList(houseLines, false)}});
    std::string s;
    s += "<figure class=\"board-diagram\" data-ruleset=\"" + std::string(r.key) + "\">\n";
    s += "<svg dir=\"ltr\" direction=\"ltr\" role=\"img\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) +
         "\" aria-labelledby=\"" + id + "-title " + id + "-desc\">\n";
    s += "<title id=\"" + id + "-title\">" + escapeHtml(c.format("learn.diagram.title", {{"ruleset", c.get("ruleset." + std::string(r.key))}})) + "</title>\n";
    s += "<desc id=\"" + id + "-desc\">" + escapeHtml(desc) + "</desc>\n";
    s += "<defs><marker id=\"" + id + "-arrow\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
         "<path d=\"M0 0 L10 5 L0 10 Z\" class=\"diagram-arrowhead\"/></marker></defs>\n";
    for (int sq = 1; sq <= kSquareCount; ++sq) {
        const auto [x, y] = cellOf(sq);
        std::string cls = "diagram-cell";
        if (r.isSafe(sq)) cls += " safe";
        if (sq == r.waterSquare) cls += " water";
        s += "<rect class=\"" + cls + "\" x=\"" + std::to_string(x + 2) + "\" y=\"" + std::to_string(y + 2) + "\" width=\"96\" height=\"96\" rx=\"6\"/>";
        s += "<text class=\"diagram-number\" x=\"" + std::to_string(x + 8) + "\" y=\"" + std::to_string(y + 22) + "\">" + std::to_string(sq) + "</text>";
        for (const House& h : r.houses)
            if (h.square == sq)
                s += houseSignSvg(h.key, x, y);
        if (const std::string exit = exitThrows(r, sq, c); !exit.empty())
            s += "<text class=\"diagram-exit\" text-anchor=\"end\" x=\"" + std::to_string(x + 92) + "\" y=\"" + std::to_string(y + 22) + "\">→" +
                 escapeHtml(exit) + "</text>";
        for (int p = 0; p < 2; ++p)  // the pieces as the game starts (before any opening throw)
            if (r.openingSetup[p] & bit(sq)) s += pieceShape(p + 1, x, y);
        s += "\n";
    }
    // The path: a line through every square's lower part, an arrowhead between each two squares.
    auto along = [](int sq) {
        const auto [x, y] = cellOf(sq);
        return std::pair<int, int>{x + 50, y + 82};
    };
    std::string points;
    for (int sq = 1; sq <= kSquareCount; ++sq) {
        const auto [x, y] = along(sq);
        points += std::to_string(x) + "," + std::to_string(y) + " ";
    }
    const auto [x30, y30] = along(kSquareCount);
    points += std::to_string(x30 + 90) + "," + std::to_string(y30);
    s += "<polyline class=\"diagram-path\" points=\"" + points + "\" marker-end=\"url(#" + id + "-arrow)\"/>\n";
    for (int sq = 1; sq < kSquareCount; ++sq) {
        const auto [ax, ay] = along(sq);
        const auto [bx, by] = along(sq + 1);
        const int dx = (bx > ax) - (bx < ax), dy = (by > ay) - (by < ay);  // one of them is 0
        const int mx = (ax + bx) / 2, my = (ay + by) / 2;
        auto pt = [](int x, int y) { return std::to_string(x) + "," + std::to_string(y) + " "; };
        s += "<polygon class=\"diagram-arrowhead\" points=\"" + pt(mx + 8 * dx, my + 8 * dy) + pt(mx - 6 * dx - 6 * dy, my - 6 * dy - 6 * dx) +
             pt(mx - 6 * dx + 6 * dy, my - 6 * dy + 6 * dx) + "\"/>";
    }
    s += "\n";
    const auto [x1, y1] = cellOf(1);
    s += "<text class=\"diagram-start\" x=\"" + std::to_string(x1 + 2) + "\" y=\"" + std::to_string(y1 - 8) + "\">" + escapeHtml(c.get("learn.diagram.start")) + " ↓</text>\n";
    // The baseline 10 units above the bottom: the 20-unit label's descent (Arabic's letters reach
    // deepest) stays inside the picture, which clips what overflows it.
    s += "<text class=\"diagram-start\" text-anchor=\"end\" x=\"" + std::to_string(width - 8) + "\" y=\"" + std::to_string(height - 10) + "\">" +
         escapeHtml(c.get("learn.diagram.off")) + "</text>\n";
    s += "</svg>\n<figcaption><ul class=\"diagram-legend\">";
    for (const House& h : r.houses)
        if (h.square)
            s += "<li><strong>" + std::to_string(h.square) + "</strong> " + escapeHtml(houseText(h)) + "</li>";
    s += "</ul></figcaption>\n</figure>\n";
    return s;
}

}  // namespace senet::site
