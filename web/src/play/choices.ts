// The move buttons: one per legal move, each saying by icon and words what the move does (a swap,
// a capture, a House of Water landing with the square the piece ends on, a bear-off, a backward
// move), with a whole sentence as its accessible name. The kinds and icons are shared with the
// board's destination marks and the legend.
import type { LegalMove } from "../shared/board";
import { el, svg } from "../shared/dom";
import { t } from "../shared/i18n";

/** What a move does besides moving: the flag the server set, or "" for a plain move. */
export type MoveKind = "" | "swap" | "capture" | "water" | "bearOff" | "backward";

/** The kind of a legal move. A backward move into the House of Water counts as a water move. */
export function kindOf(m: LegalMove): MoveKind {
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
    default: return "";
  }
}

/** The whole sentence a screen reader says for a move. */
export function moveSentence(m: LegalMove): string {
  const p = { from: m.from, to: m.to, dest: m.dest };
  switch (kindOf(m)) {
    case "swap": return t("play.move-swap", p);
    case "capture": return t("play.move-capture", p);
    case "water": return t("play.move-water", p);
    case "bearOff": return t("play.move-off", p);
    case "backward": return t("play.move-backward", p);
    default: return t("play.move-to", p);
  }
}

/** What the buttons report back to the page. */
export interface ChoiceHandlers {
  /** The player chose this move. */
  pick: (m: LegalMove) => void;
  /** The move whose button has focus or the pointer (null when none): the board highlights it. */
  preview: (m: LegalMove | null) => void;
}

/**
 * Replaces the buttons inside `container` with one button per move: the squares ("9 → 11",
 * "27 → off"), then the kind's icon and words when the move does more than move.
 */
export function renderChoices(container: HTMLElement, moves: LegalMove[], on: ChoiceHandlers): void {
  container.replaceChildren();
  for (const m of moves) {
    const kind = kindOf(m);
    const b = el("button", { type: "button", class: `button choice-button${kind ? ` kind-${kind}` : ""}`, "data-move": m.move, "data-dest": String(m.dest) });
    if (kind) b.dataset.kind = kind;
    b.append(el("span", { class: "choice-squares", "aria-hidden": "true" },
      m.bearOff ? t("play.choice-off", { from: m.from }) : t("play.choice-to", { from: m.from, to: m.to })));
    if (kind) {
      const line = el("span", { class: "choice-kind", "aria-hidden": "true" });
      line.append(kindIcon(kind), el("span", {}, kindWords(m)));
      b.append(line);
    }
    b.append(el("span", { class: "visually-hidden" }, moveSentence(m)));
    b.addEventListener("click", () => on.pick(m));
    b.addEventListener("focus", () => on.preview(m));
    b.addEventListener("mouseenter", () => on.preview(m));
    b.addEventListener("blur", () => on.preview(null));
    b.addEventListener("mouseleave", () => on.preview(null));
    container.append(b);
  }
}
