// The lobby's socket (GET /ws/lobby, server/PROTOCOL.md "Lobby"): holds the one seek this page
// wants, sends it on every (re)connect so that a server restart or a dropped connection seeks
// again without the player doing anything, reads the server's messages (`lobby`, `seeking`,
// `paired`, `error`) and hands them to the page. No DOM here: the waiting view is lobby.ts.

/** Seekers and games of one ruleset, as the `lobby` message counts them. */
export interface RulesetCount { seeking: number; playing: number }
/** One open seek of the `lobby` message's list (never a secret). */
export interface OpenSeek { id: string; ruleset: string; name: string; since: number; /** a program's seek */ bot: boolean }
/** The `lobby` message: the counts per ruleset and the open seeks. */
export interface LobbyInfo { rulesets: Record<string, RulesetCount>; open: OpenSeek[] }
/** The `paired` message: this page's seat of the new game. */
export interface Paired { game: string; secret: string; socket: string; url: string; ruleset: string; commitment: string; name: string; opponent: string; /** the opponent is a program */ opponentBot: boolean }
/** What the page asks for: a seek (`ruleset` may be "any") or the taking of one open seek. */
/** `bots`: the seek accepts a bot as opponent (PROTOCOL.md "Bots"). */
export type Wanted = { kind: "seek"; ruleset: string; name?: string; browser?: string; bots?: boolean } | { kind: "take"; seek: string; name?: string; browser?: string };

/** The socket as far as the client uses it (a WebSocket, or a fake in the unit tests). */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

/** What the page is told. */
export interface LobbyHandlers {
  lobby(info: LobbyInfo): void;
  /** The seek is open: its ruleset, its id in the open list and the name the opponent will see. */
  seeking(ruleset: string, id: string, name: string): void;
  /** The seek was withdrawn (answer to `cancel`). */
  cancelled(): void;
  paired(p: Paired): void;
  error(code: string, message: string, data: Record<string, unknown>): void;
  /** The socket opened (true) or was lost (false; the client reconnects by itself). */
  connection(open: boolean): void;
}

export interface LobbyOptions {
  url: string;
  handlers: LobbyHandlers;
  open?: (url: string) => SocketLike;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
}

/** The wait before reconnect attempt `attempt` (0, 1, …): 0.5 s doubling, at most 8 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(8000, 500 * 2 ** Math.max(0, attempt));
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** A time as milliseconds since the epoch: a number in seconds or milliseconds, or an ISO date; 0 when unreadable. */
export function sinceMs(v: unknown): number {
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return v < 1e11 ? v * 1000 : v;
  if (typeof v === "string") {
    const at = Date.parse(v);
    return Number.isFinite(at) ? at : 0;
  }
  return 0;
}

/** The `lobby` message's data as the page uses it; anything malformed is left out, never thrown. */
export function readLobby(d: unknown): LobbyInfo {
  const data = (d && typeof d === "object" ? d : {}) as Record<string, unknown>;
  const rulesets: Record<string, RulesetCount> = {};
  const counts = data.rulesets;
  if (counts && typeof counts === "object") {
    for (const [key, value] of Object.entries(counts as Record<string, unknown>)) {
      const c = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
      rulesets[key] = { seeking: num(c.seeking), playing: num(c.playing) };
    }
  }
  const open: OpenSeek[] = [];
  if (Array.isArray(data.open)) {
    for (const item of data.open as unknown[]) {
      const o = (item && typeof item === "object" ? item : {}) as Record<string, unknown>;
      const id = typeof o.id === "number" ? String(o.id) : str(o.id);
      if (!id) continue;
      open.push({ id, ruleset: str(o.ruleset), name: str(o.name), since: sinceMs(o.since), bot: o.bot === true });
    }
  }
  return { rulesets, open };
}

/** The `paired` message's data, or null when it lacks what the page needs to go to the game. */
export function readPaired(d: unknown): Paired | null {
  const o = (d && typeof d === "object" ? d : {}) as Record<string, unknown>;
  const p = {
    game: str(o.game), secret: str(o.secret), socket: str(o.socket), url: str(o.url), ruleset: str(o.ruleset),
    commitment: /^[0-9a-f]{64}$/.test(str(o.commitment)) ? str(o.commitment) : "", name: str(o.name), opponent: str(o.opponent),
    opponentBot: o.opponentBot === true,
  };
  if (!p.game || !p.secret) return null;
  // Only a page of this site: a path, never another origin.
  if (!p.url.startsWith("/") || p.url.startsWith("//")) p.url = `/play/${encodeURIComponent(p.game)}#seat=${encodeURIComponent(p.secret)}`;
  return p;
}

/** The wire message for what is wanted: `seek` or `take`, with the optional name and browser token. */
export function wireOf(w: Wanted): string {
  const extra: Record<string, string | boolean> = {};
  if (w.name) extra.name = w.name;
  if (w.browser) extra.browser = w.browser;
  if (w.kind === "seek" && w.bots) extra.bots = true;
  const d = w.kind === "seek" ? { ruleset: w.ruleset, ...extra } : { seek: w.seek, ...extra };
  return JSON.stringify({ t: w.kind, d });
}

/**
 * The lobby connection. `want` sets the seek (or take) and sends it when the socket is open;
 * after a drop the socket reconnects with a growing back-off and sends it again. `cancel`
 * withdraws it; `close` ends everything.
 */
export class LobbyClient {
  private socket: SocketLike | null = null;
  private wanted: Wanted | null = null;
  private attempt = 0;
  private timer: unknown = null;
  private closed = false;
  private readonly open: (url: string) => SocketLike;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (id: unknown) => void;

  constructor(private readonly options: LobbyOptions) {
    this.open = options.open ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((id) => clearTimeout(id as ReturnType<typeof setTimeout>));
  }

  /** Opens the socket (the server sends the counts at once); nothing happens when already open. */
  connect(): void {
    if (this.closed || this.socket) return;
    const socket = this.open(this.options.url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.options.handlers.connection(true);
      if (this.wanted) socket.send(wireOf(this.wanted));
    };
    socket.onmessage = (ev) => this.receive(ev.data);
    socket.onerror = () => { /* onclose follows */ };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      this.options.handlers.connection(false);
      this.timer = this.setTimer(() => { this.timer = null; this.connect(); }, reconnectDelay(this.attempt++));
    };
  }

  /** What is wanted now (null: nothing). */
  get seeking(): Wanted | null { return this.wanted; }

  /** Seeks (or takes) `w`: sent now when the socket is open, else when it opens. */
  want(w: Wanted): void {
    this.wanted = w;
    this.connect();
    if (this.socket?.readyState === 1) this.socket.send(wireOf(w));
  }

  /** Withdraws the seek; the socket stays open for the counts. */
  cancel(): void {
    const had = this.wanted;
    this.wanted = null;
    if (had && this.socket?.readyState === 1) this.socket.send(JSON.stringify({ t: "cancel", d: {} }));
  }

  /** Closes the socket for good (no reconnect). */
  close(): void {
    this.closed = true;
    this.wanted = null;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
  }

  private receive(raw: unknown): void {
    let msg: { t?: unknown; d?: unknown };
    try { msg = JSON.parse(String(raw)) as typeof msg; } catch { return; }
    const h = this.options.handlers;
    const d = (msg.d && typeof msg.d === "object" ? msg.d : {}) as Record<string, unknown>;
    switch (msg.t) {
      case "lobby": h.lobby(readLobby(d)); break;
      case "seeking": h.seeking(str(d.ruleset), str(d.id), str(d.name)); break;
      case "cancelled": h.cancelled(); break;
      case "paired": {
        const p = readPaired(d);
        if (!p) break;
        this.wanted = null;  // the seek is spent: a reconnect must not seek again
        h.paired(p);
        break;
      }
      case "error":
        // A refused seek or take is not sent again on reconnect: the page shows why and lets the player choose.
        this.wanted = null;
        h.error(str(d.code), str(d.message), d);
        break;
      default: break;  // a type this page does not know: ignored
    }
  }
}
