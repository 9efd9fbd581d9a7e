// The play page's state decisions, kept apart from the DOM so that they can be tested alone:
// whether the viewer may act, which control is due, how an `events` message updates the
// snapshot, which server errors the page shows, the reconnect back-off and the Fair throws
// verdict's words. The page's model (model.ts) holds what they decide from.
import type { Verdict } from "./fair";
import { t } from "../shared/i18n";
import type { Snapshot, State } from "../shared/protocol";

/** True when the viewer (holding seats `you`) may throw or move now: a seat of theirs is to act and no action is pending. */
export function canAct(s: State | null, you: number[], pending: boolean): s is State {
  return !!s && s.phase !== "over" && s.seatToAct !== null && you.includes(s.seatToAct) && !pending;
}

/** The legal moves the viewer may choose from now ([] when it is not their move). */
export function movesOffered(s: State | null, you: number[], pending: boolean): State["legalMoves"] {
  return canAct(s, you, pending) && s.phase === "move" ? s.legalMoves : [];
}

/** True when the throw button should be enabled: the viewer acts and a throw (or an opening throw) is due. */
export function throwDue(s: State | null, you: number[], pending: boolean): boolean {
  return canAct(s, you, pending) && (s.phase === "throw" || s.phase === "opening");
}

/** True when the page shows no throw button at all: the game is over or waits, or the viewer is a spectator. */
export function throwHidden(s: State, you: number[]): boolean {
  return s.phase === "over" || s.phase === "waiting" || !you.length;
}

/**
 * The snapshot after an `events` message: the state held with the members that changed
 * (`changed`, PROTOCOL.md "events") put over it, the viewer's seats and the record already known.
 */
export function afterEvents(previous: Snapshot | null, changed: Partial<State>, you: number[]): Snapshot {
  return { ...previous, ...changed, you, record: previous?.record } as Snapshot;
}

/** True when a server error code is worth words on the page (a stale ply or the rate limit is not: the next snapshot fixes it). */
export function showsError(code: string): boolean {
  return code !== "wrong-ply" && code !== "rate-limited";
}

/** The first reconnect delay in ms, and the longest. */
export const RETRY_FIRST_MS = 500;
export const RETRY_MAX_MS = 8000;

/** The delay before the try after one that waited `delay` ms: doubled, at most RETRY_MAX_MS. */
export function nextRetryDelay(delay: number): number {
  return Math.min(delay * 2, RETRY_MAX_MS);
}

/** The reconnect back-off: RETRY_FIRST_MS before the first try, doubled before each next one up to RETRY_MAX_MS, until reset. */
export class Backoff {
  private delay = RETRY_FIRST_MS;

  /** The wait before the next try, in ms; the one after it is longer. */
  next(): number {
    const wait = this.delay;
    this.delay = nextRetryDelay(wait);
    return wait;
  }

  /** Starts again from RETRY_FIRST_MS (the server answered). */
  reset(): void {
    this.delay = RETRY_FIRST_MS;
  }
}

/**
 * The Fair throws panel's verdict as words and a class: a warning when the commitment shown
 * differs from the one recorded before this page's seed went out, else the check's outcome;
 * ["", ""] while there is nothing to say.
 */
export function verdictWords(recorded: string | null, shown: string | undefined, verdict: Verdict | "checking" | null): [string, string] {
  if (recorded && shown && shown !== recorded) return [t("play.fair-changed"), "warning"];
  if (verdict === "checking") return [t("play.fair-checking"), "checking"];
  if (verdict?.kind === "verified") return [t("play.fair-verified", { count: verdict.throws }), "verified"];
  if (verdict?.kind === "bad-commitment") return [t("play.fair-bad-commitment"), "warning"];
  if (verdict?.kind === "bad-throw") return [t("play.fair-bad-throw", { number: verdict.index + 1 }), "warning"];
  if (verdict?.kind === "unavailable") return [t("play.fair-unavailable"), "checking"];
  return ["", ""];
}
