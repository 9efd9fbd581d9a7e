// The seat secret of a game: taken from the URL fragment (#seat=… or, through the invite
// link, #invite=… exchanged for a seat). The fragment keeps it (a reload keeps the seat with
// no storage at all); localStorage only helps (a page opened without the fragment, a rematch:
// shared/storage.ts).
import { fragmentValue, setFragment } from "../shared/fragment";
import { gameValue, rememberSecret, setGameValue, storedSecret } from "../shared/storage";
import { recordCommitment } from "./fair";

/** Why the page holds no seat after reading the fragment. */
export type SeatProblem = "full" | "over" | "bad-invite" | "bad-seat" | "failed";

/** The outcome of reading the fragment: the seat secret to use, and any problem to show. */
export interface SeatResult { secret: string | null; problem: SeatProblem | null }

/** The problem a refused join answer names (API.md "POST /api/games/{id}/join"). */
async function joinProblem(response: Response): Promise<SeatProblem> {
  // Stryker disable next-line StringLiteral: only the code "over" is looked for; any other start value reads the same
  let code = "";
  try {
    // Stryker disable next-line StringLiteral: only the code "over" is looked for; any other fallback reads the same
    code = String(((await response.json()) as { error?: unknown }).error ?? "");
  } catch {
    /* not JSON */
  }
  if (code === "over") return "over";
  if (response.status === 409) return "full";
  if (response.status === 403 || response.status === 400) return "bad-invite";
  return "failed";
}

/**
 * Reads #seat= or #invite= from the URL, joining through the API for an invite (the fragment
 * then holds the new seat instead of the invite). The seat stays in the fragment.
 */
export async function seatFromUrl(game: string, lang: string): Promise<SeatResult> {
  const seat = fragmentValue("seat");
  // A seat secret is base64url of a few dozen characters; anything else (cut, pasted into, or
  // far too long for a hello) holds no seat: the page watches and says so.
  if (seat && !/^[A-Za-z0-9_-]{1,256}$/.test(seat)) {
    setFragment({ seat: null });
    return { secret: null, problem: "bad-seat" };
  }
  if (seat) {
    rememberSecret(game, seat);
    // The start form's fallback (no script yet) lands here with the invite token as "share".
    const share = fragmentValue("share");
    if (share) {
      setGameValue(game, "invite", `${window.location.pathname}#invite=${encodeURIComponent(share)}`);
      setFragment({ share: null });  // the server gives it again to this seat (share.ts)
    }
    return { secret: seat, problem: null };
  }
  const invite = fragmentValue("invite");
  if (invite) {
    const existing = storedSecret(game);
    if (existing) { setFragment({ invite: null, seat: existing }); return { secret: existing, problem: null }; }
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(game)}/join`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ invite, lang }),
      });
      if (response.ok) {
        const body = (await response.json()) as { secret: string; commitment?: string };
        rememberSecret(game, body.secret);
        setFragment({ invite: null, seat: body.secret });
        // Recorded (in the fragment too) before this page sends its seed.
        recordCommitment(game, body.commitment);
        return { secret: body.secret, problem: null };
      }
      const problem = await joinProblem(response);
      // A refused invite will not work on a reload either: the page watches.
      if (problem !== "failed") setFragment({ invite: null });
      return { secret: null, problem };
    } catch {
      return { secret: null, problem: "failed" };
    }
  }
  const stored = storedSecret(game);
  if (stored) setFragment({ seat: stored });
  return { secret: stored, problem: null };
}

/**
 * This browser's contribution to the throws (16 random bytes as hex), the same for the whole
 * game: from the fragment, else storage, else drawn now. It goes into the fragment before it is
 * sent, so a reload (even without storage) sends the same seed. (The server keeps a seat's first
 * seed anyway: PROTOCOL.md "Fairness".)
 */
export function clientSeed(game: string): string {
  const existing = fragmentValue("seed") ?? gameValue(game, "seed");
  const seed = existing && /^[0-9A-Za-z_-]{1,64}$/.test(existing) ? existing : randomSeed();
  if (fragmentValue("seed") !== seed) setFragment({ seed });
  setGameValue(game, "seed", seed);
  return seed;
}

function randomSeed(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
