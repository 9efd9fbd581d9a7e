// The play page's WebSocket to its game (server/PROTOCOL.md "Connection"): opened at once (or
// taken over from the page's first script, boot/boot.ts), the
// hello said once the page is ready, parsed messages handed on, and every way a connection
// fails or cannot be opened retried through one back-off (state.ts Backoff); a game that moved to another
// server instance is reconnected at once (moved.ts).
import { openSocket, socketPath, takeEarlySocket } from "../shared/early";
import type { ClientMessage, ServerMessage } from "../shared/protocol";
import { reconnectAtOnce } from "./moved";
import { Backoff } from "./state";

/** What the connection asks of the page. */
export interface ConnectionHooks {
  /** Resolves to true when the page may say hello now (false: close, try again after the back-off). */
  ready(): Promise<boolean>;
  /** The socket is open: the page says hello. */
  opened(): void;
  /** A message from the server. */
  message(msg: ServerMessage): void;
  /** The socket closed (or could not open): the page shows the connection as lost at once. */
  closed(): void;
  /** The next try waits (the page says it is reconnecting). */
  waiting(): void;
}

export class Connection {
  private socket: WebSocket | null = null;
  private readonly backoff = new Backoff();

  constructor(private readonly game: string, private readonly hooks: ConnectionHooks) {}

  /**
   * Opens the game's socket at once (the first time taking over the one the page's first script
   * opened, shared/early.ts, with its hello when it said one) and says hello once it is open and the page is ready (the
   * handshake runs while the page still waits for its seat or the commitment); a page that is
   * not ready closes the socket and tries again after the back-off. Returns true when the page
   * is to say its hello on a socket already open (taken over without the first script's hello):
   * it goes out once the page's ready() has resolved, in a microtask or more.
   */
  connect(): boolean {
    const path = socketPath(this.game);
    const taken = takeEarlySocket(path);
    let ws: WebSocket;
    try {
      ws = taken?.socket ?? openSocket(path);
    } catch (err) {
      // A socket that cannot even be made (a browser or an extension refusing it, no WebSocket
      // at all) is a connection lost like any other: said at once, tried again after the back-off.
      console.warn("the game's socket could not be opened:", err);
      this.socket = null;
      this.hooks.closed();
      this.retryLater();
      return false;
    }
    this.socket = ws;
    const ready = this.hooks.ready();
    const opened = (): void => {
      void ready.catch(() => false).then((ok) => {
        if (this.socket !== ws || ws.readyState !== WebSocket.OPEN) return;
        if (ok) this.hooks.opened();
        else ws.close();
      });
    };
    const message = (e: MessageEvent): void => {
      try {
        const msg = JSON.parse(String(e.data)) as ServerMessage;
        // The delay between tries starts again only once the server has answered the hello: a
        // connection it closes at once (a refused hello) keeps backing off.
        if (msg.t === "snapshot") this.backoff.reset();
        this.hooks.message(msg);
      } catch (err) {
        console.error(err);
      }
    };
    // A socket whose hello the first script said (boot/boot.ts) is open and needs none from the page.
    const helloSaid = taken?.helloSaid === true;
    if (!helloSaid) ws.addEventListener("open", opened);
    ws.addEventListener("message", message);
    ws.addEventListener("close", (ev) => {
      if (this.socket !== ws) return;
      this.hooks.closed();
      if (reconnectAtOnce(ev)) { this.connect(); return; }  // the game moved to another server instance
      this.retryLater();
    });
    // A socket taken over: what it got before comes first, and one already open is not opened again.
    for (const e of taken?.early ?? []) message(e);
    if (taken && !helloSaid && ws.readyState === WebSocket.OPEN) { opened(); return true; }
    return false;
  }

  /** Sends a message when the socket is open and says whether it did; otherwise it is not sent (the page keeps an action to send after the reconnect). */
  send(msg: ClientMessage): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  /** The one retry: tells the page, then connects again after the back-off's next delay. */
  private retryLater(): void {
    this.hooks.waiting();
    setTimeout(() => this.connect(), this.backoff.next());
  }
}
