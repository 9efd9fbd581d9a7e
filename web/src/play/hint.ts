// The hint (server/PROTOCOL.md "Hints"): on one device and against the computer, never between
// two people, the seat to act may ask for every legal move of its throw with its win chance,
// best first. The button stays in its place in those games (disabled while no move is due), the
// list opens below it and closes once a move is made; a move in the list is shown on the board
// (tap, focus or pointer), never played from there.
import { el } from "../shared/dom";
import { percent, t } from "../shared/i18n";
import { legalMoveText } from "../shared/moves";
import type { HintMove, LegalMove, State } from "../shared/protocol";
import { moveSentence } from "./choices";

/** What the hint needs from the page. */
export interface HintHandlers {
  /** Sends the request for the move due at `ply`. */
  ask: (ply: number) => void;
  /** Shows a move on the board (null: none). */
  preview: (m: LegalMove | null) => void;
}

/** Whether a game offers hints at all: on one device and against the computer, to a seat. */
export const offersHints = (s: State | null, you: readonly number[]): boolean =>
  !!s && s.opponent !== "friend" && you.length > 0 && s.phase !== "over" && s.phase !== "waiting";

/** The hint button and its list. */
export class Hint {
  /** The ply the open list is for; -1 while closed. */
  private ply = -1;
  private legal: LegalMove[] = [];
  private shown: HTMLButtonElement | null = null;

  constructor(private readonly button: HTMLButtonElement, private readonly panel: HTMLElement,
    private readonly list: HTMLOListElement, private readonly status: HTMLElement, private readonly on: HintHandlers) {
    button.addEventListener("click", () => this.toggle());
  }

  private state: State | null = null;
  private canAsk = false;

  /** After every render: shown in the games that offer hints, usable while a move is due to this page; the list of another ply closes. */
  sync(s: State | null, offered: boolean, canAsk: boolean): void {
    this.state = s;
    this.canAsk = canAsk;
    this.button.hidden = !offered;
    this.button.disabled = !canAsk && this.ply < 0;
    if (this.ply >= 0 && (!canAsk || s?.ply !== this.ply)) this.close();
  }

  /** The button: opens the list (asking the server) or closes it. */
  toggle(): void {
    if (this.ply >= 0) { this.close(); return; }
    const s = this.state;
    if (!s || !this.canAsk || s.phase !== "move") return;
    this.ply = s.ply;
    this.legal = s.legalMoves;
    this.list.replaceChildren();
    this.status.textContent = t("play.hint.working");
    this.panel.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    this.on.ask(s.ply);
  }

  /** The server's list for `ply` (a list for another ply is old news). */
  received(ply: number, moves: HintMove[]): void {
    if (ply !== this.ply) return;
    this.status.textContent = t("play.hint.title", { count: moves.length });
    const items = moves.map((h) => {
      const legal = this.legal.find((l) => l.move === h.move);
      const chance = percent(h.winChance, 1, true);
      const b = el("button", { type: "button", class: "hint-move", "data-move": h.move, "aria-pressed": "false" });
      b.append(el("span", { class: "hint-squares", "aria-hidden": "true" }, legal ? legalMoveText(legal) : h.move),
        el("span", { class: "hint-chance", "aria-hidden": "true" }, chance));
      if (h.exact) b.append(el("span", { class: "hint-exact", "aria-hidden": "true" }, t("play.hint.exact")));
      b.append(el("span", { class: "visually-hidden" },
        t(h.exact ? "play.hint.item-exact" : "play.hint.item", { move: legal ? moveSentence(legal) : h.move, chance })));
      b.addEventListener("click", () => this.show(b, legal ?? null));
      b.addEventListener("focus", () => { if (legal) this.on.preview(legal); });
      b.addEventListener("mouseenter", () => { if (legal) this.on.preview(legal); });
      b.addEventListener("mouseleave", () => this.on.preview(this.shownMove()));
      b.addEventListener("blur", () => this.on.preview(this.shownMove()));
      const li = el("li");
      li.append(b);
      return li;
    });
    this.list.replaceChildren(...items);
    this.reveal();
  }

  /** Scrolls the page (not the table) so that the list's heading and best move are on the
   *  screen: on a phone the list opens below the fold. Nothing moves when it already shows. */
  private reveal(): void {
    const panel = this.panel.getBoundingClientRect();
    const first = this.list.firstElementChild?.getBoundingClientRect();
    const bottom = first ? first.bottom : panel.bottom;
    const below = bottom + 8 - window.innerHeight;
    if (below > 0) window.scrollBy({ top: Math.min(below, Math.max(0, panel.top - 8)), behavior: "instant" });
  }

  /** The request was refused or failed: the reason in the list's place. */
  failed(text: string): void {
    if (this.ply < 0 || this.list.children.length) return;
    this.status.textContent = text;
  }

  /** Whether the list waits for the server's answer. */
  get waiting(): boolean { return this.ply >= 0 && !this.list.children.length; }

  private shownMove(): LegalMove | null {
    return this.shown ? this.legal.find((l) => l.move === this.shown?.dataset.move) ?? null : null;
  }

  /** A tap on a move: it stays marked on the board (a second tap clears it). */
  private show(b: HTMLButtonElement, legal: LegalMove | null): void {
    const again = this.shown === b;
    this.shown?.setAttribute("aria-pressed", "false");
    this.shown = again ? null : b;
    this.shown?.setAttribute("aria-pressed", "true");
    this.on.preview(again ? null : legal);
  }

  /** Closes the list (a move was made, the button pressed again, the turn passed). */
  close(): void {
    if (this.ply < 0) return;
    this.ply = -1;
    this.shown = null;
    this.panel.hidden = true;
    this.list.replaceChildren();
    this.status.textContent = "";
    this.button.setAttribute("aria-expanded", "false");
    this.button.disabled = !this.canAsk;
    this.on.preview(null);
  }
}
