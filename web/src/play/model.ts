// The play page's model: everything the page knows about the game and about itself, in one
// typed object. The page's handlers (play.ts) change it as messages come and the player acts;
// the render functions (render.ts) read it and draw. No DOM here.
import type { BoardInfo, LastMove } from "../shared/model";
import type { ClientMessage, Snapshot, State } from "../shared/protocol";
import type { SeenThrow, Verdict } from "./fair";
import * as pageState from "./state";
import type { View } from "./words";

export interface PlayModel {
  /** The game's id, the page's language and the board facts (the #play element's data- attributes). */
  readonly game: string;
  readonly lang: string;
  readonly info: BoardInfo;
  /** This page's seat secret; null while it watches. */
  secret: string | null;
  /** The game as the page holds it: the last snapshot with every `events` change put over it; null before the first. */
  state: Snapshot | null;
  /** The seats this page holds ([] for a spectator, both in pass-and-play). */
  you: number[];
  /** False until the first snapshot says which seats this page holds (words.ts View). */
  seatsKnown: boolean;
  /** True from the player's throw or move until the server's answer: nothing more is offered meanwhile. */
  pending: boolean;
  /** True after the player acted through a button: the next due control then takes the focus (keyboard play). */
  keepFocus: boolean;
  /** The throw index the sticks show; -1 before the first. */
  shownThrow: number;
  /** The move the board marks as the last one. */
  lastMove: LastMove | null;
  /** Every throw the page showed, by throw index (checked against the seeds at the end). */
  readonly seenThrows: Map<number, SeenThrow>;
  /** The Fair throws check: null until the game is over, "checking" while it runs, then its outcome. */
  verdict: Verdict | "checking" | null;
  /** True while the message line shows an error (cleared by the next events). */
  errorShown: boolean;
  /** True from a snapshot until the game's socket closes: while false nothing can be sent and every action control is disabled. */
  connected: boolean;
  /** The throw or move sent whose answer has not come: sent again after a reconnect whose snapshot is at its ply. */
  unsent: ActionMessage | null;
  /** True while the winning piece still slides: the end panel waits for it (play.ts onEvents). */
  endHeld: boolean;
}

/** A throw or a move as the page sends it. */
export type ActionMessage = Extract<ClientMessage, { t: "throw" | "move" }>;

/** The model of a page that has heard nothing from the server yet. */
export function createModel(game: string, lang: string, info: BoardInfo): PlayModel {
  return {
    game, lang, info, secret: null, state: null, you: [], seatsKnown: false, pending: false, keepFocus: false,
    shownThrow: -1, lastMove: null, seenThrows: new Map(), verdict: null, errorShown: false, connected: false, unsent: null,
    endHeld: false,
  };
}

/** The viewer's side of state `s` (by default the one held), for the wording functions. */
export const viewOf = (m: PlayModel, s: State = m.state as State): View => ({ s, you: m.you, seatsKnown: m.seatsKnown });

/** True while the page may not act: an action awaits its answer, or the socket is closed. */
export const busy = (m: PlayModel): boolean => m.pending || !m.connected;

/** True when the viewer may throw or move now. */
export const canAct = (m: PlayModel): boolean => pageState.canAct(m.state, m.you, busy(m));

/** True once the page held the game and lost its socket (not before the first snapshot). */
export const connectionLost = (m: PlayModel): boolean => !m.connected && m.seatsKnown;

/** True in a pass-and-play game. */
export const isLocal = (m: PlayModel): boolean => m.state?.opponent === "local";

/** Notes the throws a snapshot shows with their throw index: the opening's and the last one. */
export function noteThrows(m: PlayModel, s: Snapshot): void {
  s.opening.forEach((o, i) => m.seenThrows.set(i, { index: i, value: o.value, sticks: o.sticks }));
  const last = s.lastThrow;
  if (last) m.seenThrows.set(last.index, { index: last.index, value: last.value, sticks: last.sticks });
}
