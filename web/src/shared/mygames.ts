// This browser's games, from localStorage only: the seat secrets the play page keeps
// (shared/storage.ts, `senet.seat.ID`) and a short note per game (`senet.mine.ID`: when it was last
// open, the seats, the ruleset, the opponent, the phase). Nothing of it goes to the server.
// Every function works (and finds nothing) where storage is blocked.
import type { State } from "./protocol";
import { gameValue, localStore, setGameValue } from "./storage";

/** The note the play page keeps about a game of this browser. */
export interface GameNote { at: number; seats: number[]; ruleset: string; opponent: string; phase: string }

/** One game of this browser: its id, seat secret and note (null before the page wrote one). */
export interface MyGame { game: string; secret: string; note: GameNote | null }

const ID = /^[A-Za-z0-9_-]{22}$/;

function readNote(game: string): GameNote | null {
  try {
    const n = JSON.parse(gameValue(game, "mine") ?? "null") as GameNote | null;
    return n && typeof n.at === "number" ? n : null;
  } catch {
    return null;
  }
}

/** The games this browser holds a seat of, the last played first (unnoted ones last). */
export function myGames(): MyGame[] {
  const s = localStore();
  if (!s) return [];
  const out: MyGame[] = [];
  try {
    for (let i = 0; i < s.length; i++) {
      const key = s.key(i) ?? "";
      const game = key.startsWith("senet.seat.") ? key.slice(11) : "";
      const secret = ID.test(game) ? s.getItem(key) : null;
      if (secret) out.push({ game, secret, note: readNote(game) });
    }
  } catch {
    return [];
  }
  return out.sort((a, b) => (b.note?.at ?? 0) - (a.note?.at ?? 0));
}

/**
 * Notes a game the play page shows with a seat (`you` non-empty): when, which seats, the
 * ruleset, the opponent and the phase. Writes only when the phase changed or a minute passed.
 */
export function noteGame(game: string, s: State, you: number[]): void {
  if (!you.length || !ID.test(game)) return;
  const old = readNote(game);
  const now = Date.now();
  if (old && old.phase === s.phase && now - old.at < 60_000) return;
  const note: GameNote = { at: now, seats: you, ruleset: s.ruleset, opponent: s.opponent, phase: s.phase };
  setGameValue(game, "mine", JSON.stringify(note));
}

/** Forgets everything this browser keeps about a game (seat, note, seed, invite, commitment). */
export function forgetGame(game: string): void {
  const s = localStore();
  try {
    for (const name of ["seat", "mine", "seed", "invite", "commitment"]) s?.removeItem(`senet.${name}.${game}`);
  } catch {
    /* storage blocked: nothing kept */
  }
}
