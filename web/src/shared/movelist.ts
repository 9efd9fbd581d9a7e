// The move list: one line per throw that moved a piece or could not, in whole sentences of the
// catalog: where the piece ended (a House of Water landing "25 → 15 (House of Water)"), swaps and
// captures ("swapped with the spool on 14"), bear-offs, backward moves, passes ("no move") and
// lost turns ("turn lost"). Built the same way from live events and from a snapshot's record;
// the record holds only "FROM-TO", so the list replays it on the board to know the rest.
import { el } from "./dom";
import { t } from "./i18n";
import { type BoardInfo, type LastMove, OFF_SQUARE } from "./model";
import type { GameEvent, RecordPly, Snapshot } from "./protocol";

/** One line of the list: a move (with what happened) or a throw without a move. */
export interface Entry {
  player: number;
  value: number;
  /** "move", "pass" (no legal move) or "lost" (Jéquier: no legal move, the turn is lost). */
  kind: "move" | "pass" | "lost";
  from?: number;
  /** The square the throw landed on (OFF_SQUARE: borne off). */
  to?: number;
  /** The square the piece ended on (differs from `to` after the House of Water). */
  dest?: number;
  water?: boolean;
  backward?: boolean;
  /** The opponent's piece on `to` was swapped back to `from`. */
  swapped?: boolean;
  /** Bell: the opponent's piece on `to` left the game. */
  captured?: boolean;
  /** Piccione: a piece from the hand onto square 1 (`in-1`). */
  entered?: boolean;
  /** Piccione: the step ended on 27 and the piece went back to the hand. */
  toHand?: boolean;
  /** Piccione: the step spent the rest of a throw already begun (no throw of its own). */
  rest?: boolean;
}

/** The words of an entry in the viewer's language. */
export function entryText(e: Entry): string {
  const p = { side: t(`play.side.${e.player}`), value: e.value, from: e.from ?? 0, to: e.to ?? 0, dest: e.dest ?? 0 };
  const other = e.player === 1 ? 2 : 1;
  if (e.rest) return restText(e, p);
  if (e.entered) return t("play.list.enter", p);
  if (e.toHand) return t("play.list.to-hand", p);
  if (e.kind === "pass") return t("play.list.pass", p);
  if (e.kind === "lost") return t("play.list.turn-lost", p);
  if ((e.to ?? 0) >= OFF_SQUARE) return t("play.list.bear-off", p);
  if (e.water) return t("play.list.water", p);
  if (e.swapped) return t(`play.list.swap-${other}`, p);
  if (e.captured) return t(`play.list.capture-${other}`, p);
  if (e.backward) return t("play.list.backward", p);
  return t("play.list.move", p);
}

/** The words of a Piccione step that spent the rest of a throw (RULES.md Piccione 4): it has no throw of its own. */
function restText(e: Entry, p: Record<string, string | number>): string {
  if (e.kind !== "move") return t("play.list.rest-pass", p);
  if ((e.to ?? 0) >= OFF_SQUARE) return t("play.list.rest-off", p);
  if (e.toHand) return t("play.list.rest-hand", p);
  if (e.backward) return t("play.list.rest-backward", p);
  return t("play.list.rest-move", p);
}

/** The board before the first move: pieces alternating on 1..2n; Jéquier's opening moved 10 to 11. */
function startBoard(info: BoardInfo, openingDone: boolean): number[] {
  const b = new Array<number>(30).fill(0);
  // Piccione starts with every piece in hand (RULES.md Piccione 1).
  if (info.ruleset === "piccione") return b;
  for (let i = 0; i < 2 * info.pieces; i++) b[i] = (i % 2) + 1;
  if (info.ruleset === "jequier" && openingDone) [b[9], b[10]] = [0, 2];
  return b;
}

/**
 * Where a piece that landed on the House of Water ends: the return square, else the nearest
 * empty square before it (standard, the return square is a house of the board); with no return
 * square the lowest empty square (Jéquier). `b` already has the moving piece lifted.
 */
function waterDest(info: BoardInfo, b: number[]): number {
  const back = info.houses.find(([, key]) => key === "return" || key === "rebirth")?.[0];
  if (back) {
    for (let s = back; s >= 1; s--) if (!b[s - 1]) return s;
    return back;
  }
  const lowest = b.findIndex((o) => !o);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the moving piece is already lifted, so an empty square exists (lowest >= 0), and lowest = 0 gives square 1 either way
  return lowest >= 0 ? lowest + 1 : 1;
}

/**
 * What replay() reads of a game: a snapshot, or a record file on the replay page (whose
 * `opening` only Jéquier's records carry): whether opening throws were made, the sides, the plies.
 */
export interface Played {
  opening?: readonly unknown[];
  players: readonly number[] | null;
  record?: { plies: readonly Pick<RecordPly, "player" | "throw" | "move">[] };
}

/**
 * Replays the record's plies from the start and returns one entry per ply (RULES.md: a swap on
 * an opponent's piece, Bell's capture, the House of Water, bear-offs), with the last move made.
 */
/**
 * Whether a throw without a move is worded as a lost turn: in Jéquier's game (its extra throw
 * is lost with it), not in the standard game (a pass, the extra throw kept) nor in Bell's, which
 * has no extra throws and whose rules call it a pass (RULES.md, Bell 7).
 */
function losesTurn(info: BoardInfo): boolean {
  return info.ruleset !== "bell" && (info.passLoses ?? info.ruleset !== "standard");
}

export function replay(info: BoardInfo, s: Played): { entries: Entry[]; last: LastMove | null } {
  const b = startBoard(info, (s.opening ?? []).length > 0 && !!s.players);
  const entries: Entry[] = [];
  let last: LastMove | null = null;
  for (const ply of s.record?.plies ?? []) {
    const player = ply.player;
    // A Piccione ply that spends a remainder has no throw (PROTOCOL.md "Verifiable record").
    const rest = info.ruleset === "piccione" && !ply.throw ? { rest: true } : {};
    const value = ply.throw ?? 0;
    if (ply.move === "pass") {
      // Piccione's pass sends the player's piece on square 1 back to the hand (RULES.md Piccione 9).
      if (info.ruleset === "piccione" && b[0] === player) b[0] = 0;
      entries.push({ player, value, kind: losesTurn(info) ? "lost" : "pass", ...rest });
      continue;
    }
    if (ply.move === "in-1") {
      b[0] = player;
      last = { from: 1, to: 1 };
      entries.push({ player, value, kind: "move", from: 0, to: 1, dest: 1, entered: true, ...rest });
      continue;
    }
    const [a, z] = ply.move.split("-");
    const from = Number(a);
    const to = z === "off" ? OFF_SQUARE : Number(z);
    const e: Entry = { player, value, kind: "move", from, to, dest: to, ...rest };
    b[from - 1] = 0;
    if (info.ruleset === "piccione") {
      // No swaps, no water: 27 sends the piece back to the hand (RULES.md Piccione 3, 11).
      if (to < from) e.backward = true;
      if (to === 27) { e.toHand = true; e.dest = 0; }
      else if (to <= 30) b[to - 1] = player;
      last = { from, to: e.toHand ? from : to };
      entries.push(e);
      continue;
    }
    if (to <= 30) {
      const there = b[to - 1] ?? 0;
      if (there && there !== player) {
        if (info.ruleset === "bell") e.captured = true;
        else { e.swapped = true; b[from - 1] = there; }
      }
      // Stryker disable next-line EqualityOperator: no move ends on the square it started from
      if (to < from) e.backward = true;
      if (to === info.water) { e.water = true; e.dest = waterDest(info, b); }
      b[(e.dest ?? to) - 1] = player;
    }
    last = { from, to: e.dest ?? to };
    entries.push(e);
  }
  return { entries, last };
}

/** The move list on the page: rebuilt from a snapshot, extended by events. */
export class MoveList {
  private entries = 0;
  private lastEntry: { entry: Entry; li: HTMLLIElement } | null = null;
  private throwValue = 0;
  /** Moves since the last throw: in Piccione a second one spends the rest of that throw. */
  private movesSinceThrow = 0;
  /** False while a snapshot rebuilds the list: it scrolls to its end once, not once a line (each a layout of the page). */
  private scrolls = true;

  /** True when the next move or pass spends the rest of a throw already begun (Piccione only). */
  private get rest(): boolean {
    return this.info.ruleset === "piccione" && this.movesSinceThrow > 0;
  }

  /**
   * `list` is the page's <ol>; `seatName` words a seat before the sides are known (Jéquier's
   * opening throws).
   */
  constructor(private readonly list: HTMLElement, private readonly info: BoardInfo, private readonly seatName: (seat: number) => string) {}

  /** Rebuilds the whole list from a snapshot; returns the last move made (for the board's marking). */
  rebuild(s: Snapshot): LastMove | null {
    this.list.replaceChildren();
    this.entries = 0;
    this.lastEntry = null;
    this.scrolls = false;
    let last: LastMove | null;
    try {
      for (const o of s.opening) this.line(t("play.list.opening", { name: this.seatName(o.seat), value: o.value }));
      if (s.opening.length && s.players) this.add({ player: 2, value: 1, kind: "move", from: 10, to: 11, dest: 11 });
      const replayed = replay(this.info, s);
      for (const e of replayed.entries) this.add(e);
      last = replayed.last;
    } finally {
      this.scrolls = true;
    }
    if (!this.entries) this.list.append(el("li", { class: "empty" }, t("play.no-moves-yet")));
    else this.scrollToEnd();
    return last;
  }

  /** Adds what one event changes to the list (throws are remembered for the move that follows). */
  onEvent(ev: GameEvent): void {
    switch (ev.e) {
      case "thrown":
        if (ev.opening) this.line(t("play.list.opening", { name: this.seatName(ev.seat), value: ev.value }));
        else { this.throwValue = ev.value; this.movesSinceThrow = 0; }
        break;
      case "opening-decided":
        this.add({ player: 2, value: 1, kind: "move", from: 10, to: 11, dest: 11 });
        break;
      case "moved": {
        const to = ev.bearOff ? OFF_SQUARE : ev.to;
        const entered = !!ev.enter || ev.move === "in-1";
        const toHand = !!ev.toHand || (ev.to === 27 && ev.dest === 0);
        this.add({ player: ev.player, value: this.throwValue, kind: "move", from: ev.from, to, dest: ev.bearOff ? OFF_SQUARE : ev.dest,
          ...(ev.water ? { water: true } : {}), ...(ev.backward || (this.info.ruleset === "piccione" && to < ev.from) ? { backward: true } : {}),
          ...(ev.swap ? { swapped: true } : {}), ...(ev.capture ? { captured: true } : {}),
          ...(entered ? { entered: true } : {}), ...(toHand ? { toHand: true } : {}), ...(this.rest ? { rest: true } : {}) });
        this.movesSinceThrow++;
        break;
      }
      case "swapped": this.amend({ swapped: true }); break;
      case "captured": this.amend({ captured: true }); break;
      // A pass or a lost turn always has its player: only the opening's throws have none.
      case "passed": this.add({ player: ev.player ?? 0, value: ev.value, kind: "pass", ...(this.rest ? { rest: true } : {}) }); break;
      case "turn-lost": this.add({ player: ev.player ?? 0, value: ev.value, kind: losesTurn(this.info) ? "lost" : "pass", ...(this.rest || ev.remainder ? { rest: true } : {}) }); break;
      default: break;
    }
  }

  private add(e: Entry): void {
    const li = this.line(entryText(e));
    this.lastEntry = { entry: e, li };
  }

  /** A swap or capture follows its move's event: the move's line says it. */
  private amend(change: Partial<Entry>): void {
    if (!this.lastEntry) return;
    Object.assign(this.lastEntry.entry, change);
    this.lastEntry.li.textContent = entryText(this.lastEntry.entry);
  }

  private line(text: string): HTMLLIElement {
    const li = el("li", {}, text);
    this.list.querySelector(".empty")?.remove();
    this.list.append(li);
    this.entries++;
    this.lastEntry = null;
    if (this.scrolls) this.scrollToEnd();
    return li;
  }

  /** Shows the list's last line. It scrolls inside its own box; scrollIntoView would scroll the page to it as well. */
  private scrollToEnd(): void {
    this.list.scrollTop = this.list.scrollHeight;
  }
}
