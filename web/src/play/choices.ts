// The move buttons: one per legal move, each saying by icon and words what the move does (a swap,
// a capture, a House of Water landing with the square the piece ends on, a bear-off, a backward
// move), with a whole sentence as its accessible name. The kinds and icons (shared/moves.ts)
// are the board's destination marks' and the legend's.
import { el } from "../shared/dom";
import { t } from "../shared/i18n";
import { kindIcon, kindOf, kindWords, legalMoveText } from "../shared/moves";
import type { LegalMove } from "../shared/protocol";

/** The whole sentence a screen reader says for a move. */
export function moveSentence(m: LegalMove): string {
  const p = { from: m.from, to: m.to, dest: m.dest };
  switch (kindOf(m)) {
    case "swap": return t("play.move-swap", p);
    case "capture": return t("play.move-capture", p);
    case "water": return t("play.move-water", p);
    case "bearOff": return t("play.move-off", p);
    case "backward": return t("play.move-backward", p);
    case "enter": return t("play.move-enter", p);
    case "toHand": return t("play.move-to-hand", p);
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
      legalMoveText(m)));
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
