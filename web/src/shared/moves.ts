// What a legal move does, in pictures and short words: its kind (a swap, a capture, a House of
// Water landing, a bear-off, a backward move), the kind's icon and words, and the squares of a
// move ("9 → 11"). Shared by the board's destination marks, the play page's move buttons and
// legend, and the replay's notes on better moves.
import { svg } from "./dom";
import { t } from "./i18n";
import { OFF_SQUARE } from "./model";
import type { LegalMove } from "./protocol";
import { isEnter, isToHand } from "./steps";

/** What a move does besides moving: the flag the server set, or "" for a plain move. */
export type MoveKind = "" | "swap" | "capture" | "water" | "bearOff" | "backward" | "enter" | "toHand";

/** The kind of a legal move. A backward move into the House of Water counts as a water move. */
export function kindOf(m: LegalMove): MoveKind {
  if (isEnter(m)) return "enter";
  if (isToHand(m)) return "toHand";
  if (m.bearOff) return "bearOff";
  if (m.water) return "water";
  if (m.swap) return "swap";
  if (m.capture) return "capture";
  if (m.backward) return "backward";
  return "";
}

/** The icons' strokes in a 24 × 24 box. */
const ICONS: Record<Exclude<MoveKind, "">, string> = {
  swap: "M4 8h15M15 4l4 4-4 4M20 16H5M9 12l-4 4 4 4",
  capture: "M6 6l12 12M18 6L6 18",
  water: "M2 9q2.5-3 5 0t5 0t5 0t5 0M2 16q2.5-3 5 0t5 0t5 0t5 0",
  bearOff: "M5 3v18M9 12h11M16 8l4 4-4 4",
  backward: "M9 4L4 9l5 5M4 9h10a6 6 0 0 1 0 12h-4",
  enter: "M3 12h11M10 8l4 4-4 4M19 3v18",
  toHand: "M12 3v10M8 9l4 4 4-4M4 15v3a3 3 0 0 0 3 3h10a3 3 0 0 0 3-3v-3",
};

/** The icon of a kind, as an SVG element of class `kind-icon` (decorative: words go with it). */
export function kindIcon(kind: Exclude<MoveKind, "">, attrs: Record<string, string | number> = {}): SVGSVGElement {
  const icon = svg("svg", { viewBox: "0 0 24 24", class: `kind-icon kind-${kind}`, "aria-hidden": "true", focusable: "false", ...attrs });
  icon.append(svg("path", { d: ICONS[kind] }));
  return icon;
}

/** The icon's strokes alone, for drawing it inside the board's SVG. */
export function kindPath(kind: Exclude<MoveKind, "">): string {
  return ICONS[kind];
}

/** The short visible words of a move's kind ("Swap", "House of Water → 15"); "" for a plain move. */
export function kindWords(m: LegalMove): string {
  switch (kindOf(m)) {
    case "swap": return t("play.kind.swap");
    case "capture": return t("play.kind.capture");
    case "water": return t("play.kind.water", { dest: m.dest });
    case "bearOff": return t("play.kind.bear-off");
    case "backward": return t("play.kind.backward");
    case "enter": return t("play.kind.enter");
    case "toHand": return t("play.kind.to-hand");
    default: return "";
  }
}

/** The short label of a move: "9 → 11", "27 → off". */
export const moveText = (from: number, to: number) => (to >= OFF_SQUARE ? t("play.choice-off", { from }) : t("play.choice-to", { from, to }));

/** The short label of a legal move: "9 → 11", "27 → off", "hand → 1" for Piccione's entry. */
export const legalMoveText = (m: LegalMove) => (isEnter(m) ? t("play.choice-enter") : moveText(m.from, m.bearOff ? OFF_SQUARE : m.to));
