// The legend of the board: what its markings mean (last move, possible destination, the kinds
// of move, safe squares, the House of Water and each house's sign with its name), each with a
// small drawing in the board's own colours. A <details> element: open on a wide screen, folded
// on a phone so that it never pushes the board or the controls off the first screen.
import { drawHouseSign, squareName } from "../shared/board";
import { el, svg } from "../shared/dom";
import { formatList, t } from "../shared/i18n";
import type { BoardInfo } from "../shared/model";
import { kindIcon, type MoveKind } from "../shared/moves";

/** A 100 × 100 board cell drawn as a swatch, with `extra` drawn inside it. */
function swatch(cellClass: string, ...extra: SVGElement[]): SVGSVGElement {
  const s = svg("svg", { viewBox: "0 0 100 100", class: "board swatch", "aria-hidden": "true", focusable: "false" });
  const square = svg("g", { class: "square" });
  square.append(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, class: `cell ${cellClass}` }));
  s.append(square, ...extra);
  return s;
}

function item(picture: SVGSVGElement, text: string): HTMLLIElement {
  const li = el("li");
  li.append(picture, el("span", {}, text));
  return li;
}

/** The kinds of move this ruleset has (from its board facts), in the order the legend lists them. */
function kindsOf(info: BoardInfo): Exclude<MoveKind, "">[] {
  // Piccione has no swaps and no House of Water: its 27 sends a piece back to the hand (RULES.md Piccione 3, 11).
  if (info.ruleset === "piccione") return ["enter", "toHand", "bearOff", "backward"];
  const kinds: Exclude<MoveKind, "">[] = [info.ruleset === "bell" ? "capture" : "swap"];
  if (info.water) kinds.push("water");
  kinds.push("bearOff");
  if (info.ruleset === "jequier" || info.ruleset === "kendall") kinds.push("backward");
  return kinds;
}

/** The legend's words for the House of Water: where a piece that lands there goes. */
function waterText(info: BoardInfo): string {
  const back = info.houses.find(([, key]) => key === "return" || key === "rebirth")?.[0];
  const name = squareName(info, info.water);
  if (info.ruleset === "piccione") return t("play.legend.water-hand", { name });
  return back ? t("play.legend.water-return", { name, square: back }) : t("play.legend.water-lowest", { name });
}

/** Builds the legend for a board; `open` unfolds it (a wide screen). */
export function createLegend(info: BoardInfo, open: boolean): HTMLDetailsElement {
  const details = el("details", { class: "legend", id: "legend" });
  details.open = open;
  details.append(el("summary", {}, t("play.legend.title")));
  const list = el("ul");
  const mark = (cls: string) => {
    const g = svg("g", { class: cls });
    g.append(svg("rect", { x: 6, y: 6, width: 88, height: 88, rx: 5 }));
    return g;
  };
  list.append(item(swatch("", mark("last-move")), t("play.legend.last")));
  list.append(item(swatch("", mark("destination")), t("play.legend.destination")));
  // Each kind of move: a destination with the kind's icon on it, as on the board.
  for (const kind of kindsOf(info)) {
    const icon = kindIcon(kind, { x: 22, y: 22, width: 56, height: 56, class: `kind-icon kind-${kind} legend-icon` });
    list.append(item(swatch("", mark("destination"), icon), t(`play.legend.${{ bearOff: "bear-off", toHand: "to-hand" }[kind as string] ?? kind}`)));
  }
  if (info.safe.length) list.append(item(swatch("safe"), t("play.legend.safe", { squares: formatList(info.safe) })));
  for (const [square, key] of info.houses) {
    const cls = square === info.water ? "water" : info.safe.includes(square) ? "safe" : "";
    const sign = drawHouseSign(key);
    const text = square === info.water ? waterText(info) : squareName(info, square);
    list.append(item(swatch(cls, sign), text));
  }
  details.append(list);
  return details;
}
