// The play page's words: whole catalog messages for each viewer (the player whose seat it is,
// the opponent, a spectator, pass-and-play), never sentences glued from fragments. Every
// function takes the game state and the viewer's seats and returns text in the page's language.
import { guestShown, has, t } from "../shared/i18n";
import type { GameEvent, State, TurnSteps } from "../shared/protocol";
import { stepsOf } from "../shared/steps";

/**
 * What the viewer sees: the game state and the seats this page holds ([] for a spectator).
 * `seatsKnown` is false until the server's snapshot has said which seats the page holds: the
 * events of the page's own hello (its seat coming online) arrive before it, and worded then
 * they would name the player's own seat as a stranger's. Left out, the seats count as known.
 */
export interface View { s: State; you: number[]; seatsKnown?: boolean }

export const isLocal = (v: View) => v.s.opponent === "local";
export const playerOfSeat = (v: View, seat: number): number | null => v.s.players?.[seat] ?? null;
export const seatOfPlayer = (v: View, player: number): number => (v.s.players ? v.s.players.indexOf(player as 1 | 2) : -1);

/** "You", "Opponent", "Computer, expert", or the seat ("First seat") for spectators and pass-and-play. */
export function seatLabel(v: View, seat: number): string {
  const player = playerOfSeat(v, seat);
  if (isLocal(v)) return player ? t(`play.side.${player}`) : t(seat === 0 ? "play.seat.first" : "play.seat.second");
  if (v.you.includes(seat)) return t("play.seat.you");
  // A lobby game's guest name (text only: every caller puts it in textContent).
  const guest = v.s.seats[seat]?.name;
  // A program's seat is marked as one (PROTOCOL.md "Bots").
  if (typeof guest === "string" && guest.trim()) return guestShown(guest, v.s.seats[seat]?.bot === true);
  // The level's id, a select in the catalog: each language words and cases the label itself.
  if (v.s.seats[seat]?.kind === "computer") return t("play.seat.computer", { level: v.s.level ?? "intermediate" });
  return v.you.length ? t("play.seat.opponent") : t(seat === 0 ? "play.seat.first" : "play.seat.second");
}

/** "Cones (Opponent)", "Spools (Computer, expert)", "Cones" in a local game, or the seat before sides are known. */
export function nameOf(v: View, seat: number | undefined, player?: number | null): string {
  const p = player ?? (seat !== undefined ? playerOfSeat(v, seat) : null);
  const s = seat ?? (p ? seatOfPlayer(v, p) : -1);
  if (!p) return s >= 0 ? seatLabel(v, s) : "";
  if (isLocal(v) || s < 0) return t(`play.side.${p}`);
  return t("play.name-seat", { side: t(`play.side.${p}`), seat: seatLabel(v, s) });
}

/** "you" when the seat (or the player's seat) is the viewer's own in a two-browser game, else "other". */
export function person(v: View, seat: number | undefined, player?: number | null): "you" | "other" {
  const s = seat ?? (player ? seatOfPlayer(v, player) : -1);
  return !isLocal(v) && s >= 0 && v.you.includes(s) ? "you" : "other";
}

/** The seat and the player an event names, either absent when it names none. */
function actor(ev: GameEvent): { seat?: number; player?: number | null } {
  return { ...("seat" in ev ? { seat: ev.seat } : {}), ...("player" in ev ? { player: ev.player } : {}) };
}

/**
 * The words for one event; `notable` ones go to the event feed, the rest only to the screen
 * reader. null for an event that has no words for this viewer, and for every event before the
 * page knows its seats (the snapshot that follows shows the state they led to).
 */
export function describe(v: View, ev: GameEvent): { text: string; notable: boolean } | null {
  if (v.seatsKnown === false) return null;
  const { seat, player } = actor(ev);
  const name = nameOf(v, seat, player);
  const who = person(v, seat, player);
  switch (ev.e) {
    case "thrown": return { text: t(ev.opening ? "ev.thrown-opening" : "ev.thrown", { person: who, name, value: ev.value }), notable: false };
    case "opening-decided": return { text: t("ev.opening-decided", { person: who, name: seatLabel(v, ev.seat) }), notable: true };
    case "moved":
      if (ev.bearOff) return null;  // "borne-off" follows
      // Piccione: a piece from the hand onto 1, and a step onto 27 that sends it back (RULES.md Piccione 5, 11).
      if (ev.enter || ev.move === "in-1") return { text: t("ev.entered", { person: who, name }), notable: false };
      if (ev.toHand || (ev.to === 27 && ev.dest === 0)) return { text: t("ev.to-hand", { person: who, name, from: ev.from }), notable: true };
      return { text: t(ev.backward ? "ev.moved-backward" : "ev.moved", { person: who, name, from: ev.from, to: ev.to }), notable: false };
    case "swapped": return { text: t("ev.swapped", { person: who, name, square: ev.square, to: ev.to }), notable: true };
    case "captured": return { text: t("ev.captured", { person: who, name, square: ev.square }), notable: true };
    case "water": return { text: t("ev.water", { person: who, name, square: ev.square, dest: ev.dest }), notable: true };
    case "borne-off": return { text: t("ev.borne-off", { person: who, name, from: ev.from, off: ev.off }), notable: true };
    // Piccione's pass ends the whole turn, the rest of the throw and the throws owed with it (RULES.md Piccione 9).
    case "passed":
    case "turn-lost":
      if (v.s.ruleset === "piccione") return { text: t(ev.toHand ? "ev.passed-entry" : "ev.passed-steps", { person: who, name }), notable: true };
      if (ev.e === "passed") return { text: t("ev.passed", { person: who, name, value: ev.value }), notable: true };
      // Bell's game has no extra throws, and its rules call a throw without a move a pass (RULES.md, Bell 7).
      return { text: t(v.s.ruleset === "bell" ? "ev.passed" : "ev.turn-lost", { person: who, name, value: ev.value }), notable: true };
    case "extra-throw": return { text: t("ev.extra-throw", { person: who, name }), notable: true };
    case "turn": return { text: t("ev.turn", { person: who, name }), notable: false };
    case "joined": return { text: t("ev.joined", { viewer: v.you.length ? "player" : "other" }), notable: true };
    case "presence":
      // One's own seat coming and going (another tab) is no news; pass-and-play has no presence.
      if (isLocal(v) || v.you.includes(ev.seat)) return null;
      return { text: t(ev.online ? "ev.online" : "ev.offline", { name: seatLabel(v, ev.seat) }), notable: false };
    case "rematch-offered":
      if (v.you.includes(ev.seat)) return null;
      // A spectator has no opponent: the offer names the side that made it.
      return { text: v.you.length ? t("play.rematch-offered") : t("play.rematch-offered-by", { name: nameOf(v, ev.seat) }), notable: true };
    case "rematch-withdrawn":
      // The player left: the one who stays is told; a spectator sees the button-less offer vanish.
      if (!v.you.length || v.you.includes(ev.seat)) return null;
      return { text: t("ev.rematch-withdrawn"), notable: true };
    case "rematch": return { text: t("ev.rematch"), notable: true };
    case "taken-back": return { text: t("ev.taken-back", { person: who, name, plies: ev.plies }), notable: true };
    default: return null;  // result, seed: the snapshot's state and the Fair throws panel say it
  }
}

/** The status line: whose turn, what is due, or why nothing is; one whole message per case.
 *  "Connecting…" until the page knows its seats (it could not yet tell a player from a watcher). */
export function statusText(v: View): string {
  if (v.seatsKnown === false) return t("play.connecting");
  const s = v.s;
  const act = s.seatToAct;
  const watch = !v.you.length;
  if (s.phase === "waiting") return t("play.status.waiting", { viewer: watch ? "watch" : "you" });
  if (s.phase === "over") return t("play.status.over");
  // Both seats taken, a seat's page not connected yet (its seed is not fixed): nobody can act.
  if (act === null) return absentText(v) ?? t("play.status.connecting", { viewer: watch ? "watch" : "you" });
  const viewer = watch ? "watch" : isLocal(v) ? "local" : v.you.includes(act) ? "you" : "other";
  const name = s.phase === "opening" ? seatLabel(v, act) : nameOf(v, act);
  const left = stepsOf(s)?.remainder ?? 0;
  if (s.phase === "move" && left > 0) return t("play.status.remainder", { viewer, name, left, value: s.lastThrow?.value ?? 0 });
  if (s.phase === "move") return t("play.status.move", { viewer, name, value: s.lastThrow?.value ?? 0 });
  return t(s.phase === "opening" ? "play.status.opening" : "play.status.throw", { viewer, name });
}

/**
 * Who a seated player waits for before the first throw, when the other seat's page never said
 * hello (its seed is not fixed): in a rematch the opponent, who is to come back; in a lobby
 * game the other guest, by name; in a friend game the creator, whose page the friend's join
 * found closed (the friend's page says hello as it joins). null when the viewer's own seed is the missing one, or for spectators.
 */
function absentText(v: View): string | null {
  const mine = v.you.length === 1 ? v.you[0] ?? -1 : -1;
  const seeds = v.s.fairness?.clientSeeds;
  if (mine < 0 || v.s.opponent !== "friend" || !seeds || seeds[mine] === null || seeds[1 - mine] !== null) return null;
  if (v.s.rematchOf) return t("play.status.opponent-away");
  // A lobby game has no creator: both were paired; the other seat's guest name says who is awaited.
  const guest = v.s.seats[1 - mine]?.name;
  return guest ? t("play.status.guest-away", { name: guest }) : t("play.status.creator-away");
}

/**
 * After a Piccione step that left part of the throw: "2 of 4 left to move", for the screen
 * reader; "" when nothing is left (RULES.md Piccione 4, 8).
 */
export function remainderText(v: View): string {
  const left = stepsOf(v.s)?.remainder ?? 0;
  return left > 0 && v.s.phase === "move" ? t("ev.remainder", { left, value: v.s.lastThrow?.value ?? 0 }) : "";
}

/**
 * What the screen reader hears of a Piccione turn after an `events` message, from the steps
 * before it (`before`) and the state now: what is left of the throw after a step (`moved`), an
 * entry throw that became due, the extra throws owed when their count changed. [] otherwise.
 */
export function stepsNews(v: View, before: TurnSteps | null, moved: boolean): string[] {
  const now = stepsOf(v.s);
  if (!now || v.s.phase === "over") return [];
  const news: string[] = [];
  const left = remainderText(v);
  if (moved && left) news.push(left);
  if (now.entry && !before?.entry && v.s.phase === "throw") news.push(t("play.steps.entry"));
  if (now.owed !== (before?.owed ?? 0) && now.owed > 0) news.push(t("play.steps.owed", { count: now.owed }));
  return news;
}

/** The end screen's sentence: who won and how, in the words of the winner, the loser or a watcher. */
export function resultText(v: View, ruleset: string): string {
  const r = v.s.result;
  if (!r) return "";
  if (r.reason === "aborted") return t("play.end.aborted");
  if (r.winner === null || r.winner === undefined) return t("play.end.draw");
  const reason = r.reason === "bear-off" ? (ruleset === "bell" ? "majority" : "bear-off") : r.reason;
  if (v.you.length === 1) return t(v.you.includes(r.winner) ? "play.end.you-win" : "play.end.you-lose", { reason });
  return t("play.end.wins", { reason, name: nameOf(v, r.winner, r.player), loser: nameOf(v, 1 - r.winner) });
}

/** Bell's final score (a point per piece borne off), "" for the other rulesets or before the end. */
export function scoreText(v: View, ruleset: string): string {
  if (ruleset !== "bell" || v.s.phase !== "over") return "";
  return t("play.end.score", { cones: v.s.off[0] ?? 0, spools: v.s.off[1] ?? 0 });
}

/** The viewer's words for a server error code (server/PROTOCOL.md); never the server's own text. */
export function errorText(code: string): string {
  return has(`play.err.${code}`) ? t(`play.err.${code}`) : t("play.err.other");
}

/** Why the invite link gave no seat: not valid, already used, or the request failed. */
export function inviteProblemText(problem: "full" | "bad-invite" | "bad-seat" | "over" | "failed"): string {
  return t({ full: "play.invite.full", "bad-invite": "play.invite.bad", "bad-seat": "play.err.bad-secret", over: "play.invite-over", failed: "play.invite.failed" }[problem]);
}

/** The countdown before a claim is allowed ("in 4 minutes", "in 12 seconds"), or the claim's invitation once it is. */
export function claimText(secondsLeft: number): string {
  if (secondsLeft <= 0) return t("play.claim-ready");
  const minutes = secondsLeft > 90;
  return t("play.claim-wait", { unit: minutes ? "minutes" : "seconds", count: minutes ? Math.ceil(secondsLeft / 60) : Math.ceil(secondsLeft) });
}
