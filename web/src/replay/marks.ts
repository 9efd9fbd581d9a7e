// The replay's judgement of the moves: a marked move's badge in the move list (its symbol and
// colour, its name for screen readers, the note what the move gave away and what was better),
// the legend of the marks with the analysis's thresholds, each player's accuracy, marks and luck,
// and the words of the current move's details (its mark, luck and whether its value is exact).
import { MARK_KINDS, MARK_SYMBOLS, type Mark, type PlayerFigures, type Thresholds, accuracyText, luckSign, share, signedShare } from "../shared/analysis";
import { el } from "../shared/dom";
import { t } from "../shared/i18n";
import { bestMoveText } from "./graph";

/** The words of a luck sum for `player`: "The cones were lucky by 9 %" or, for the viewer, "You were unlucky by 12 %". */
export function luckWords(player: number, luck: number, you: boolean): string {
  return t("replay.sum.luck", { player: `p${player}`, you: you ? "yes" : "no", sign: luckSign(luck), amount: share(Math.abs(luck)) });
}

/** The marks a player made, counted in words ("1 blunder, no mistakes, 3 inaccuracies"). */
export function marksWords(p: PlayerFigures): string {
  return t("replay.sum.marks", { blunders: p.blunders, mistakes: p.mistakes, inaccuracies: p.inaccuracies });
}

/** The note under a marked move: "Blunder: 12 % of the win chance given away; 7 → 9 was better." */
export function markNote(m: Mark): string {
  return t("replay.mark.note", { mark: m.kind, loss: share(m.loss), best: bestMoveText(m.best) });
}

/** Marks the move list's line `li` (its step button first): the symbol, the name for screen readers, the note. */
export function markLine(li: HTMLLIElement, m: Mark): void {
  li.classList.add("marked", `mark-${m.kind}`);
  li.dataset.mark = m.kind;
  const button = li.querySelector("button");
  button?.prepend(el("span", { class: "mark-symbol", "aria-hidden": "true" }, MARK_SYMBOLS[m.kind]));
  button?.append(el("span", { class: "visually-hidden" }, ` (${t("replay.mark.name", { mark: m.kind })})`));
  li.append(el("span", { class: "mark-note" }, markNote(m)));
}

/** The legend of the marks: one item per kind with its symbol and its threshold ("inaccuracy: 2 % or more …"). */
export function fillLegend(list: HTMLElement, th: Thresholds): void {
  list.replaceChildren(...MARK_KINDS.map((kind) => {
    const item = el("li", { class: `mark-${kind}`, "data-mark": kind });
    item.append(el("span", { class: "mark-symbol", "aria-hidden": "true" }, MARK_SYMBOLS[kind]), el("span", {}, t("replay.legend.mark", { mark: kind, threshold: share(th[kind]) })));
    return item;
  }));
  list.hidden = false;
}

/** Each player's accuracy, marks and luck; `you` the players the viewer played (none when unknown or both). */
export function fillPlayers(box: HTMLElement, players: PlayerFigures[], you: readonly number[]): void {
  box.replaceChildren(...players.map((p) => {
    const mine = you.includes(p.player);
    const card = el("div", { class: `player-sum side-${p.player}`, "data-player": String(p.player) });
    card.append(el("h3", {}, t("replay.sum.player", { player: `p${p.player}`, you: mine ? "yes" : "no" })),
      el("p", { class: "sum-accuracy" }, t("replay.sum.accuracy", { accuracy: accuracyText(p.accuracy) })),
      el("p", { class: "sum-marks" }, marksWords(p)),
      el("p", { class: "sum-luck" }, luckWords(p.player, p.luck, mine)));
    return card;
  }));
}

/**
 * The current move's judgement for its details line: its mark (name and symbol, in the mark's
 * colour), the throw's luck for the mover, "exact"; `line` gets them, and is hidden without any.
 */
export function showJudgement(line: HTMLElement, mark: Mark | undefined, player: number | undefined, luck: number | null | undefined, exact: boolean): void {
  const items: (HTMLElement | string)[] = [];
  if (mark) {
    const span = el("span", { class: `judge-mark mark-${mark.kind}` }, `${t("replay.mark.name", { mark: mark.kind })} `);
    span.append(el("span", { class: "mark-symbol", "aria-hidden": "true" }, MARK_SYMBOLS[mark.kind]));
    items.push(span);
  }
  if (typeof luck === "number" && player) items.push(t("replay.ply-luck", { player: `p${player}`, luck: signedShare(luck) }));
  if (exact) items.push(t("replay.exact"));
  line.replaceChildren(...items.flatMap((item, i) => (i ? [" · ", item] : [item])));
  line.hidden = !items.length;
}
