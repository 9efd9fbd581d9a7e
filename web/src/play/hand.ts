// Piccione's turn beside the board (RULES.md "Piccione"): each seat's hand (its count and its
// pieces, a button that enters one when `in-1` is the viewer's move), and below the sticks the
// throw's unspent remainder ("2 of 4 left"), the turn's direction, a due entry throw and the
// extra throws owed. Both take their room from the first render on, so nothing moves when a
// piece goes to the hand or a remainder appears.
import { pieceIcon } from "../shared/board";
import { el } from "../shared/dom";
import { t } from "../shared/i18n";
import type { LegalMove, Snapshot } from "../shared/protocol";
import { isEnter, stepsOf, stepsWords } from "../shared/steps";

// The words of the steps are the replay's too: they live in shared/steps.ts.
export { stepsWords };

/**
 * Draws the hand of each seat in its box (`players[seat]` its player, null before the sides are
 * known); `offered` the viewer's legal moves, `enter` what the hand's button does.
 */
export function renderHands(s: Snapshot, players: (number | null)[], offered: LegalMove[], enter: () => void): void {
  const steps = stepsOf(s);
  for (const seat of [0, 1]) {
    const box = document.getElementById(`seat-${seat}`);
    if (!box) continue;
    let hand = box.querySelector<HTMLButtonElement>(".seat-hand");
    if (!steps) { hand?.remove(); continue; }
    if (!hand) {
      hand = el("button", { type: "button", class: "seat-hand" });
      hand.addEventListener("click", enter);
      box.querySelector(".seat-off")?.before(hand);
    }
    const player = players[seat] ?? null;
    const count = player ? steps.hand[player - 1] ?? 0 : 0;
    const canEnter = !!player && offered.some(isEnter) && s.turn === player;
    hand.disabled = !canEnter;
    hand.classList.toggle("can-enter", canEnter);
    const pieces = el("span", { class: "hand-pieces", "aria-hidden": "true" });
    for (let i = 0; i < count; i++) {
      const one = el("span", { class: `hand-piece p${player ?? 1}` });
      one.append(pieceIcon(player ?? 1));
      pieces.append(one);
    }
    const words = el("span", { class: "hand-count" }, t("play.hand", { count }));
    hand.replaceChildren(pieces, words);
    if (canEnter) hand.append(el("span", { class: "visually-hidden" }, t("play.move-enter")));
  }
}

/** Draws the turn's steps in the throw row (Piccione only: the line is removed for the other rulesets). */
export function renderSteps(s: Snapshot): void {
  const steps = stepsOf(s);
  let line = document.getElementById("steps");
  if (!steps) { line?.remove(); return; }
  if (!line) {
    line = el("p", { id: "steps", class: "steps" });
    document.getElementById("throw-value")?.after(line);
  }
  const words = s.phase === "over" ? [] : stepsWords(steps, s.lastThrow?.value ?? 0, s.phase === "throw");
  line.classList.toggle("has-remainder", steps.remainder > 0 && s.phase !== "over");
  line.replaceChildren(...words.map((w, i) => el("span", { class: i === 0 && steps.remainder > 0 ? "steps-left" : "" }, w)));
}
