// The replay's stepping: the board at one position of the game, chosen with ← and → (Home,
// End), the buttons, the slider, a click in the move list or on the graph; the URL fragment
// keeps the position (#ply=N), so a link or a reload opens the same one.
import { Board } from "../shared/board";
import { byId, el } from "../shared/dom";
import { fragmentValue, setFragment } from "../shared/fragment";
import { percent, t } from "../shared/i18n";
import type { BoardInfo } from "../shared/model";
import { type Entry, entryText, replay as listEntries } from "../shared/movelist";
import { readPosition } from "../shared/position";
import { stepsOf, stepsWords } from "../shared/steps";
import { hintedPlies, type Replay } from "./data";
import { WinGraph } from "./graph";
import { fillLegend, fillPlayers, markLine, showJudgement } from "./marks";

/** The position the fragment names (#ply=N), within 0..last; 0 (the start) when it names none. */
export function plyFromFragment(last: number): number {
  const n = Number(fragmentValue("ply"));
  return fragmentValue("ply") !== null && Number.isInteger(n) && n >= 0 ? Math.min(n, last) : 0;
}

/** One replayed game on the page. */
export class ReplayView {
  private readonly board: Board;
  private readonly slider = byId<HTMLInputElement>("replay-slider");
  private readonly list = byId<HTMLOListElement>("replay-moves");
  private graph: WinGraph | null = null;
  private entries: Entry[] = [];
  private current = -1;

  /** `you`: the players the viewer played in this game (from this browser's note of it), else none. */
  constructor(private readonly root: HTMLElement, private readonly info: BoardInfo, private readonly game: Replay, narrow: MediaQueryList, you: readonly number[] = []) {
    this.board = new Board(byId("board"), info, narrow.matches);
    narrow.addEventListener("change", () => this.board.setDown(narrow.matches));
    const last = game.positions.length - 1;
    this.slider.max = String(last);
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    byId("replay-first").addEventListener("click", () => this.go(0));
    byId("replay-prev").addEventListener("click", () => this.go(this.current - 1));
    byId("replay-next").addEventListener("click", () => this.go(this.current + 1));
    byId("replay-last").addEventListener("click", () => this.go(last));
    document.addEventListener("keydown", (ev) => this.key(ev));
    // The move list's words come from the record as the play page words them (shared/movelist.ts).
    this.entries = listEntries(info, { opening: game.record.opening ?? [], players: [1, 2], record: { plies: game.record.plies } }).entries;
    this.fillList();
    this.showGraph(game.curve);
    if (game.marks.size) fillLegend(byId("mark-legend"), game.thresholds);
    if (game.players) { fillPlayers(byId("summary-players"), game.players, you); byId("replay-summary").hidden = false; }
    this.go(plyFromFragment(last), false);
  }

  private showGraph(curve: number[]): void {
    byId("replay-graph-panel").hidden = false;
    byId("graph-source").textContent = t(this.game.source === "server" ? "replay.source.server" : "replay.source.browser");
    byId("graph-exact").hidden = !this.game.exact.some(Boolean);
    this.graph = new WinGraph(byId("replay-graph"), byId("graph-table"), (n) => this.go(n));
    this.graph.draw(curve, this.game.marks, this.game.exact, this.entries.map(entryText), this.game.source);
  }

  private fillList(): void {
    const items: HTMLLIElement[] = [];
    const hinted = hintedPlies(this.game.record);
    const add = (n: number, text: string) => {
      const li = el("li", { "data-n": String(n) });
      const button = el("button", { type: "button", class: "replay-step" }, text);
      // A move played after a hint: a small mark, said in words to a screen reader.
      if (hinted.has(n)) {
        li.classList.add("hinted");
        const mark = el("span", { class: "hint-mark", title: t("replay.hinted") });
        mark.append(el("span", { "aria-hidden": "true" }, t("replay.hint-mark")), el("span", { class: "visually-hidden" }, t("replay.hinted")));
        button.append(" ", mark);
      }
      button.addEventListener("click", () => this.go(n));
      li.append(button);
      const mark = this.game.marks.get(n);
      if (mark) markLine(li, mark);
      items.push(li);
    };
    add(0, t("replay.start"));
    this.entries.forEach((e, i) => add(i + 1, entryText(e)));
    this.list.replaceChildren(...items);
  }

  private key(ev: KeyboardEvent): void {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    // The slider steps by itself with the arrows; text fields keep their keys.
    if (ev.target instanceof Element && ev.target.closest("input, textarea, select, [contenteditable]")) return;
    const last = this.game.positions.length - 1;
    const to = { ArrowLeft: this.current - 1, ArrowRight: this.current + 1, Home: 0, End: last }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.go(to);
  }

  /**
   * Scrolls the list to `li` when it is out of view: about the middle of the box, with the box's
   * top on a line's top, so the line shown first is never cut in half.
   */
  private scrollTo(li: HTMLElement): void {
    const box = this.list;
    // A line's top inside the scrolled content (offsetTop would count from another offsetParent).
    const edge = box.getBoundingClientRect().top + box.clientTop - box.scrollTop;
    const topOf = (e: Element) => e.getBoundingClientRect().top - edge;
    const top = topOf(li);
    if (top >= box.scrollTop && top <= box.scrollTop + box.clientHeight - li.offsetHeight) return;
    // The last line that starts at or above the wanted top: never past the end, where the
    // browser would stop the scroll short of it.
    const wanted = Math.min(top - box.clientHeight / 2, box.scrollHeight - box.clientHeight);
    const first = [...box.children].filter((c) => topOf(c) <= wanted).pop();
    box.scrollTop = first ? Math.round(topOf(first)) : 0;
  }

  /**
   * Piccione: under the board, the pieces in each hand and the turn's steps at position `n` (the
   * remainder of the throw last made, the direction, the throws owed), read from its notation.
   */
  private showSteps(n: number, text: string, pos: { board: number[]; off: [number, number] }): void {
    const line = byId("replay-steps");
    const steps = stepsOf({ ruleset: this.info.ruleset, position: text, board: pos.board, off: pos.off });
    line.hidden = !steps;
    if (!steps) return;
    const thrown = this.entries.slice(0, n).reverse().find((e) => !e.rest);
    const hands = t("replay.hands", { side1: t("play.side.1"), hand1: t("play.hand", { count: steps.hand[0] }), side2: t("play.side.2"), hand2: t("play.hand", { count: steps.hand[1] }) });
    line.textContent = [hands, ...stepsWords(steps, thrown?.value ?? 0, steps.remainder === 0)].join(" · ");
  }

  /** Shows position `n` (clamped to the game); `keepUrl` false leaves the address as it came. */
  go(n: number, keepUrl = true): void {
    const last = this.game.positions.length - 1;
    n = Math.max(0, Math.min(last, Math.trunc(n)));
    if (n === this.current) return;
    this.current = n;
    const text = this.game.positions[n] ?? "";
    const pos = readPosition(text);
    const e = n > 0 ? this.entries[n - 1] : undefined;
    const lastMove = e?.kind === "move" ? { from: e.from ?? 0, to: e.dest ?? e.to ?? 0 } : null;
    this.board.render(pos.board, pos.off, [], lastMove);
    this.root.dataset.position = text;
    this.root.dataset.ply = String(n);
    this.slider.value = String(n);
    this.slider.setAttribute("aria-valuetext", t("replay.position", { n, total: last }));
    byId("replay-position").textContent = t("replay.position", { n, total: last });
    const chance = this.game.curve[n];
    byId("replay-ply").textContent = [e ? entryText(e) : t("replay.start"), chance === undefined ? "" : t("replay.chance", { p1: percent(chance), p2: percent(1 - chance) })]
      .filter(Boolean).join(" · ");
    // Its judgement on a line of its own: the mark, the throw's luck for the mover, "exact".
    showJudgement(byId("replay-judge"), this.game.marks.get(n), e?.player, n > 0 ? this.game.luck[n - 1] : null, this.game.exact[n] === true);
    this.showSteps(n, text, pos);
    let here: HTMLElement | null = null;
    for (const li of this.list.children) {
      const button = li.querySelector("button");
      if ((li as HTMLElement).dataset.n === String(n)) { here = li as HTMLElement; button?.setAttribute("aria-current", "step"); }
      else button?.removeAttribute("aria-current");
    }
    // The list scrolls inside its own box (scrollIntoView would scroll the page as well).
    if (here) this.scrollTo(here);
    this.graph?.setCurrent(n);
    if (keepUrl) setFragment({ ply: String(n) });
  }
}
