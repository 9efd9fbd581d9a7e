// The play page's first module (web/README.md "First load"): under 3 KB (1.3 KB gzip), loaded async
// ahead of the page's script. It opens the game's socket at once, so the handshake (two round
// trips on a slow phone network) runs while the page's script is still arriving and being
// evaluated, and it sends an invite link's join request as play/seat.ts would (same conditions:
// no seat in the fragment, an invite, no seat stored for the game). The page's script takes both
// over (shared/early.ts); the hello is said there. A seat the join gives is kept at once, as
// seat.ts keeps it. It starts nothing when the page's script runs already, or when the script
// element's data-game is malformed.
import { type EarlySocket, isPageStarted, isToken, joinByInvite, openSocket, socketPath } from "../shared/early";
import { fragmentValue } from "../shared/fragment";
import { carryFragmentOnClick } from "../shared/langmenu";
import { storedSecret } from "../shared/storage";

const game = document.querySelector<HTMLScriptElement>("script[data-game]")?.dataset.game ?? "";
// A page whose script already runs (a warm cache can run play.js first) opened its own socket: nothing here.
if (/^[A-Za-z0-9_-]{1,64}$/.test(game) && "WebSocket" in window && !isPageStarted()) {
  const invite = fragmentValue("invite");
  if (!fragmentValue("seat") && invite && isToken(invite) && !storedSecret(game)) {
    const answer = joinByInvite(game, invite, document.documentElement.lang || "en");
    answer.catch(() => undefined);  // seat.ts awaits it and says "failed"; never an unhandled rejection here
    window.senetEarlyJoin = { game, invite, answer };
    // The seat the join gives goes along if the language is switched before the page's script runs.
    carryFragmentOnClick();
  }
  const path = socketPath(game);
  const socket = openSocket(path);
  const early: MessageEvent[] = [];
  const keep = (e: MessageEvent): void => { early.push(e); };
  socket.addEventListener("message", keep);
  const handed: EarlySocket = {
    path, socket,
    takeOver: () => { socket.removeEventListener("message", keep); return early; },
  };
  window.senetEarlySocket = handed;
}
