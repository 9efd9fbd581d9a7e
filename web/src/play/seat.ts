// The seat secret of a game: taken from the URL fragment (#seat=… or, through the invite
// link, #invite=… exchanged for a seat). The fragment keeps it (a reload keeps the seat with
// no storage at all); localStorage only helps (a page opened without the fragment, a rematch:
// shared/storage.ts).
import { isToken, type JoinAnswer, joinByInvite, takeEarlyJoin } from "../shared/early";
import { fragmentValue, setFragment } from "../shared/fragment";
import { rememberSecret, setGameValue, storedSecret, storedSecretSoon } from "../shared/storage";
import { recordCommitment } from "../shared/commitment";

/** Why the page holds no seat after reading the fragment. */
export type SeatProblem = "full" | "over" | "bad-invite" | "bad-seat" | "failed";

/** The outcome of reading the fragment: the seat secret to use, and any problem to show. */
export interface SeatResult { secret: string | null; problem: SeatProblem | null }

/** The problem a refused join answer names (API.md "POST /api/games/{id}/join"). */
function joinProblem(answer: JoinAnswer): SeatProblem {
  if (answer.body?.error === "over") return "over";
  if (answer.status === 409) return "full";
  if (answer.status === 403 || answer.status === 400) return "bad-invite";
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
  if (seat && !isToken(seat)) {
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
  // An invite token has the same form: anything else (cut, pasted into, far too long) is refused here, unsent.
  if (invite && !isToken(invite)) {
    setFragment({ invite: null });
    return { secret: null, problem: "bad-invite" };
  }
  if (invite) {
    const existing = storedSecret(game);
    if (existing) { setFragment({ invite: null, seat: existing }); return { secret: existing, problem: null }; }
    try {
      // The page's first script may have sent it already (boot/boot.ts, on the same conditions);
      // a seat given is already kept in storage and the fragment (joinByInvite).
      const answer = await (takeEarlyJoin(game, invite) ?? joinByInvite(game, invite, lang));
      if (answer.seat) {
        // Recorded (in the fragment too) before this page sends its seed.
        recordCommitment(game, answer.body?.commitment);
        return { secret: answer.seat, problem: null };
      }
      const problem = joinProblem(answer);
      // Another tab of this browser may have joined with the same invite a moment before: its seat is this browser's.
      // (It may store it a moment after this answer: its storage event is waited for, briefly.)
      const tookIt = problem === "full" ? storedSecret(game) ?? await storedSecretSoon(game, 1500) : null;
      if (tookIt) { setFragment({ invite: null, seat: tookIt }); return { secret: tookIt, problem: null }; }
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
