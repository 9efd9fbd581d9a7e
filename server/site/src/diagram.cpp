// The board diagram (see diagram.hpp): plain SVG text, no script needed.
#include "diagram.hpp"

#include <string>
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

/// A piece's outline in the 100 × 100 cell at (x, y), at half size in the cell's upper right.
std::string pieceShape(int player, int x, int y) {
    const std::string at = "translate(" + std::to_string(x + 48) + " " + std::to_string(y + 4) + ") scale(0.5)";
    if (player == 1) return "<path class=\"piece piece-1\" transform=\"" + at + "\" d=\"M50 14 L76 78 Q50 90 24 78 Z\"/>";
    return "<path class=\"piece piece-2\" transform=\"" + at + "\" d=\"M26 24 H74 L58 55 L74 86 H26 L42 55 Z\"/>";
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

/// A short mark for a house inside its cell (the full name is in the legend and the description).
std::string houseMark(std::string_view key) {
    if (key == "water") return "≈";
    if (key == "beauty") return "☥";  // no nefer glyph in common fonts; the ankh stands for the house
    if (key == "three-truths") return "III";
    if (key == "re-atoum") return "☉";
    if (key == "return") return "↺";
    if (key == "x") return "X";
    if (key == "iii") return "III";
    if (key == "ii") return "II";
    if (key == "i") return "I";
    if (key == "rebirth") return "↺";      // Kendall's 15: where the water sends a piece back
    if (key == "horus") return "◉";        // the eye of Horus
    if (key == "ankh") return "☥";
    if (key == "nefer") return "♡";        // nefer, "good": no hieroglyph in common fonts
    if (key == "three-birds") return "III";
    if (key == "two-men") return "II";
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
                s += "<text class=\"diagram-house\" text-anchor=\"middle\" x=\"" + std::to_string(x + 50) + "\" y=\"" + std::to_string(y + 64) + "\">" +
                     houseMark(h.key) + "</text>";
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
