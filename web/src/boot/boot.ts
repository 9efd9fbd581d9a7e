// The play page's first script (web/README.md "First load"): a classic script of a few KB, run
// as the head is parsed, before the stylesheet and the page's module script. It opens the game's
// socket at once, so the handshake (two round trips on a slow phone network) runs while the
// page's script is still arriving and being evaluated, and it sends an invite link's join
// request as play/seat.ts would (same conditions: no seat in the fragment, an invite, no seat
// stored for the game). Once the socket is open it says the hello the page would say — the seat
// as seat.ts reads it (the fragment's, else the join's, else the stored one; none for a
// spectator), this browser's seed, and only once the commitment is recorded (the page's, or the
// join's) — so the snapshot travels while the page's script is still being evaluated. Where the
// page would decide otherwise (a malformed seat or invite, a refused join, no commitment) it says
// nothing and the page says its own. The page's script takes it all over (shared/early.ts). It
// starts nothing when the page's script runs already, or when the script element's data-game is
// malformed.
import { recordCommitment, recordedCommitment } from "../shared/commitment";
import { type EarlySocket, isPageStarted, isToken, joinByInvite, openSocket, socketPath } from "../shared/early";
import { fragmentValue } from "../shared/fragment";
import { carryFragmentOnClick } from "../shared/langmenu";
import { clientSeed } from "../shared/seed";
import { storedSecret } from "../shared/storage";

/**
 * How long (ms) the page's first render may wait for its module script. The play page's module
 * script holds the render (blocking="render", templates/layout.html) so the page is painted once,
 * ready to play; a script that never finishes arriving must not leave the page blank, so after
 * this the hold is lifted and the page as served (its status, links and fair-throws panel) shows.
 */
const RENDER_WAIT_MS = 3000;
setTimeout(() => {
  for (const held of document.querySelectorAll("script[blocking]")) held.removeAttribute("blocking");
}, RENDER_WAIT_MS);

const script = document.querySelector<HTMLScriptElement>("script[data-game]");
const game = script?.dataset.game ?? "";
// A page whose script already runs (a warm cache can run play.js first) opened its own socket: nothing here.
if (/^[A-Za-z0-9_-]{1,64}$/.test(game) && "WebSocket" in window && !isPageStarted()) {
  const path = socketPath(game);
  const early: MessageEvent[] = [];
  let taken = false;
  let helloSaid = false;
  /** The hello to say once the socket is open; null while the seat is unknown or the page decides. */
  let hello: string | null = null;
  let socket: WebSocket | null = null;
  const say = (): void => {
    const open = socket;
    if (taken || helloSaid || hello === null || !open || open.readyState !== WebSocket.OPEN) return;
    open.send(hello);
    helloSaid = true;
  };
  /** The hello for `secret` ("" a spectator's), when a commitment is recorded (the page's own first). */
  const helloFor = (secret: string): string | null => {
    recordCommitment(game, script?.dataset.commitment);
    if (!recordedCommitment(game)) return null;
    return JSON.stringify({ t: "hello", d: secret ? { secret, clientSeed: clientSeed(game) } : {} });
  };
  // The socket first: its handshake starts before the seat is read
  // and the hello made (storage, the seed), and the open event comes only after this script.
  try {
    socket = openSocket(path);
  } catch {
    /* a socket refused here: the page's script opens its own, and says what fails */
  }
  if (socket) {
    const opened = socket;
    const keep = (e: MessageEvent): void => { early.push(e); };
    opened.addEventListener("message", keep);
    opened.addEventListener("open", say);
    const handed: EarlySocket = {
      path, socket: opened,
      takeOver: () => {
        taken = true;
        opened.removeEventListener("message", keep);
        return { early, helloSaid };
      },
    };
    window.senetEarlySocket = handed;
  }
  const seat = fragmentValue("seat");
  const invite = fragmentValue("invite");
  const stored = storedSecret(game);
  if (seat !== null) {
    if (isToken(seat)) hello = helloFor(seat);
  } else if (invite !== null && !stored) {
    if (isToken(invite)) {
      const answer = joinByInvite(game, invite, document.documentElement.lang || "en");
      // seat.ts awaits it and says "failed"; never an unhandled rejection here
      answer.then((a) => {
        if (!a.seat || taken) return;
        recordCommitment(game, a.body?.commitment);  // the join's commitment, as seat.ts records it
        hello = helloFor(a.seat);
        say();
      }).catch(() => undefined);
      window.senetEarlyJoin = { game, invite, answer };
      // The seat the join gives goes along if the language is switched before the page's script runs.
      carryFragmentOnClick();
    }
  } else {
    hello = helloFor(stored ?? "");
  }
}
