// The seat secret of a game: taken from the URL fragment (#seat=… or, through the invite
// link, #invite=… exchanged for a seat) and kept in localStorage so a reload keeps the seat.
import { recordCommitment } from "./fair";

const key = (game: string) => `senet.seat.${game}`;

function store(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The stored seat secret of a game, if any. */
export function storedSecret(game: string): string | null {
  return store()?.getItem(key(game)) ?? null;
}

/** Remembers the seat secret of a game. */
export function rememberSecret(game: string, secret: string): void {
  try {
    store()?.setItem(key(game), secret);
  } catch {
    /* storage full or disabled: the resume link still works */
  }
}

/** A value remembered per game (invite link, client seed). */
export function gameValue(game: string, name: string): string | null {
  return store()?.getItem(`senet.${name}.${game}`) ?? null;
}

/** Stores a value per game. */
export function setGameValue(game: string, name: string, value: string): void {
  try {
    store()?.setItem(`senet.${name}.${game}`, value);
  } catch {
    /* ignore */
  }
}

/** The outcome of reading the fragment: the seat secret to use, and any problem to show. */
export interface SeatResult { secret: string | null; problem: "full" | "bad-invite" | "failed" | null }

/** Reads #seat= or #invite= from the URL (joining through the API for an invite), then clears it. */
export async function seatFromUrl(game: string, lang: string): Promise<SeatResult> {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const clear = () => history.replaceState(null, "", window.location.pathname + window.location.search);
  const seat = hash.get("seat");
  if (seat) {
    rememberSecret(game, seat);
    // The start form's fallback (no script yet) lands here with the invite token as "share".
    const share = hash.get("share");
    if (share) setGameValue(game, "invite", `${window.location.pathname}#invite=${encodeURIComponent(share)}`);
    clear();
    return { secret: seat, problem: null };
  }
  const invite = hash.get("invite");
  if (invite) {
    const existing = storedSecret(game);
    if (existing) { clear(); return { secret: existing, problem: null }; }
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(game)}/join`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ invite, lang }),
      });
      if (response.ok) {
        const body = (await response.json()) as { secret: string; commitment?: string };
        rememberSecret(game, body.secret);
        recordCommitment(game, body.commitment);
        clear();
        return { secret: body.secret, problem: null };
      }
      clear();
      return { secret: null, problem: response.status === 409 ? "full" : response.status === 403 || response.status === 400 ? "bad-invite" : "failed" };
    } catch {
      return { secret: null, problem: "failed" };
    }
  }
  return { secret: storedSecret(game), problem: null };
}

/** 16 random bytes as hex: this browser's contribution to the throws. */
export function clientSeed(game: string): string {
  const existing = gameValue(game, "seed");
  if (existing) return existing;
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const seed = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  setGameValue(game, "seed", seed);
  return seed;
}
