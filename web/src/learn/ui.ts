// The tutorial's small view pieces: the throw as it fell, the odds table, the piece buttons
// (Piccione: the step buttons).
import type { ThrowOdds } from "../engine/wasm";
import { el } from "../shared/dom";
import { percent, t } from "../shared/i18n";
import { drawThrow } from "../shared/sticks";

/** Draws a throw of `value` (sticks: that many marked side up, none for 5 or 6; or Bell's die) and its words. */
export function showThrow(sticks: HTMLElement, words: HTMLElement, value: number, die: boolean): void {
  const up = value >= 5 ? 0 : value;
  drawThrow(sticks, "1111".slice(0, up).padEnd(4, "0"), value, die, false);
  words.textContent = t(die ? "learn.throw.die" : "learn.throw.sticks", { value, up });
}

/** The table of a ruleset's throws: value, chance, extra throw. */
export function oddsTable(odds: readonly ThrowOdds[]): HTMLElement {
  const wrap = el("div", { class: "table-wrap" });
  const table = el("table", { class: "rule-table odds-table" });
  table.append(el("caption", {}, t("learn.odds.caption")));
  const head = el("tr");
  for (const key of ["learn.odds.throw", "learn.odds.chance", "learn.odds.extra"]) head.append(el("th", { scope: "col" }, t(key)));
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  for (const o of odds) {
    const row = el("tr");
    row.append(el("th", { scope: "row" }, String(o.throwValue)), el("td", {}, percent(o.probability, 2)),
      el("td", {}, t(o.extraThrow ? "learn.odds.yes" : "learn.odds.no")));
    body.append(row);
  }
  table.append(body);
  wrap.append(table);
  return wrap;
}

/** One button per piece of the player to move (on `squares`), named for screen readers; `pick` gets its square. */
export function pieceButtons(container: HTMLElement, squares: readonly number[], pick: (square: number) => void): void {
  container.replaceChildren(...squares.map((square) => {
    const b = el("button", { type: "button", class: "button piece-button", "data-square": String(square) }, t("learn.piece", { square }));
    b.addEventListener("click", () => pick(square));
    return b;
  }));
}

/**
 * Piccione: one button per legal step in `moves` (`in-1`, `FROM-TO`, `FROM-off`, as the engine
 * lists them), named for screen readers; `pick` gets the step's text.
 */
export function stepButtons(container: HTMLElement, moves: readonly string[], pick: (move: string) => void): void {
  container.replaceChildren(...moves.map((move) => {
    const [from = "", to = ""] = move.split("-");
    const label = move === "in-1" ? t("learn.step-enter") : to === "off" ? t("learn.step-off", { from: Number(from) }) : t("learn.step", { from: Number(from), to: Number(to) });
    const b = el("button", { type: "button", class: "button piece-button", "data-move": move }, label);
    b.addEventListener("click", () => pick(move));
    return b;
  }));
}
