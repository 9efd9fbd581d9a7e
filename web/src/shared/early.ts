// What the play page's first script (src/boot/boot.ts) starts before the page's script has
// arrived, and how the page takes it over (web/README.md "First load"): the game's socket
// (play/connection.ts) with its hello, and an invite link's join (play/seat.ts). Whichever of the
// two scripts runs first decides: the page's script marks the page as started (pageStarted), and
// a first script that runs after it (one that came late) starts nothing. Small, since boot.ts
// carries it.
import { setFragment } from "./fragment";
import { rememberSecret } from "./storage";

/** What boot.ts leaves on `window.senetEarlySocket`. */
export interface EarlySocket {
  /** The socket's path, `/ws/games/ID`. */
  readonly path: string;
  readonly socket: WebSocket;
  /**
   * Stops boot.ts's own listening and sending: the messages that came before (in order), and
   * whether boot.ts said the hello (the page then says none on this socket).
   */
  takeOver(): { early: MessageEvent[]; helloSaid: boolean };
}

/** The answer to POST /api/games/{id}/join: its status, the seat secret kept (null when none was given) and its JSON body (null when it had none or it did not parse). */
export interface JoinAnswer {
  readonly status: number;
  readonly seat: string | null;
  readonly body: { secret?: unknown; commitment?: unknown; error?: unknown } | null;
}

/** What boot.ts leaves on `window.senetEarlyJoin`: the join it sent for `invite`. */
export interface EarlyJoin {
  readonly game: string;
  readonly invite: string;
  readonly answer: Promise<JoinAnswer>;
}

declare global {
  interface Window { senetEarlySocket?: EarlySocket; senetEarlyJoin?: EarlyJoin; senetPageStarted?: boolean }
}

/** Marks the page's script as running: from now on a first script starts nothing (call before taking anything over). */
export function pageStarted(): void {
  window.senetPageStarted = true;
}

/** Whether the page's script already runs (the first script then starts nothing). */
export function isPageStarted(): boolean {
  return window.senetPageStarted === true;
}

/**
 * Whether `token` can be a seat secret or an invite token: base64url, 1–128 characters (the
 * server's are 43; a hello's secret may have at most 128, server/PROTOCOL.md "Messages").
 */
export function isToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(token);
}

/** The path of a game's socket (server/PROTOCOL.md "Connection"): `/ws/games/ID`. */
export function socketPath(game: string): string {
  return `/ws/games/${encodeURIComponent(game)}`;
}

/** Opens the socket at `path` on this page's host (wss on https). */
export function openSocket(path: string): WebSocket {
  return new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`);
}

/**
 * The early socket for `path` when boot.ts opened one that is still connecting or open, with
 * the messages it got so far and whether it said the hello; null otherwise. It is handed out once: a second call (a
 * reconnect) gets null and opens a socket of its own.
 */
export function takeEarlySocket(path: string): { socket: WebSocket; early: MessageEvent[]; helloSaid: boolean } | null {
  const found = window.senetEarlySocket;
  window.senetEarlySocket = undefined;
  if (!found) return null;
  const { early, helloSaid } = found.takeOver();
  const usable = found.socket.readyState === WebSocket.CONNECTING || found.socket.readyState === WebSocket.OPEN;
  if (found.path === path && usable) return { socket: found.socket, early, helloSaid };
  if (usable) found.socket.close();
  return null;
}

/**
 * Joins `game` with the invite token (POST /api/games/{game}/join, API.md): the one place it is
 * done. A seat given is kept at once (storage and the fragment, the invite taken out of it), so
 * a reload before the page has read the answer still holds the seat. Rejects when the request
 * could not be made (the network); a refusal resolves with its status.
 */
export async function joinByInvite(game: string, invite: string, lang: string): Promise<JoinAnswer> {
  const response = await fetch(`/api/games/${encodeURIComponent(game)}/join`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ invite, lang }),
  });
  let body: JoinAnswer["body"] = null;
  try {
    const parsed = (await response.json()) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as JoinAnswer["body"];
  } catch {
    /* not JSON */
  }
  const secret = body?.secret;
  const seat = response.ok && typeof secret === "string" && isToken(secret) ? secret : null;
  if (seat) {
    rememberSecret(game, seat);
    setFragment({ invite: null, seat });
  }
  return { status: response.status, seat, body };
}

/** The answer to the join boot.ts sent for this game and invite, once; null when it sent none. */
export function takeEarlyJoin(game: string, invite: string): Promise<JoinAnswer> | null {
  const found = window.senetEarlyJoin;
  window.senetEarlyJoin = undefined;
  return found && found.game === game && found.invite === invite ? found.answer : null;
}
