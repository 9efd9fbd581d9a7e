// A game that moved to another server instance (server/PROTOCOL.md, close code 4001 "moved"):
// the page reconnects at once and quietly, since nothing it was told is lost; only a close that
// repeats quickly falls back to the usual backoff, so two servers can never make it spin.

/** The close code of a game that moved to another instance. */
export const MOVED_CLOSE_CODE = 4001;
/** Two "moved" closes closer together than this: the second one waits like any other close. */
const QUIET_WINDOW_MS = 5000;

let lastMovedAt = -Infinity;

/**
 * Whether a close should be followed by an immediate, silent reconnect: true for the first
 * "moved" close in a while, false for any other close (then the page shows "reconnecting" and
 * backs off). `now` is for tests.
 */
export function reconnectAtOnce(event: { code: number }, now: number = Date.now()): boolean {
  if (event.code !== MOVED_CLOSE_CODE) return false;
  const quiet = now - lastMovedAt >= QUIET_WINDOW_MS;
  lastMovedAt = now;
  return quiet;
}
