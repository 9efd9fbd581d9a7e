// Paces the server's messages so that what happened can be followed: an `events` message whose
// throw or move is still being shown holds the next one back until it has been seen (the
// computer's chained plies arrive within milliseconds of each other). Order is always kept.
// Any other message (a snapshot, an error) first delivers everything queued, at once, and so
// does the player's own action (flush): the player never waits behind an old animation. Nothing
// waits under reduced motion or while the tab is hidden (no one is watching, and background
// tabs' timers are throttled: the turn and its notification must not lag).
import { motionTime, reducedMotion } from "./motion";
import type { GameEvent, ServerMessage } from "../shared/protocol";

/** How long a throw stays in view before the next message, in ms. */
export const THROW_HOLD_MS = 350;
/** The pause after a slide before the next message, in ms. */
export const MOVE_HOLD_MS = 120;

/** True when messages are paced: motion allowed and the tab in view. */
export function pacing(): boolean {
  return !reducedMotion() && (typeof document === "undefined" || document.visibilityState !== "hidden");
}

/** How long the page shows these events before the next message may change the board, in ms (0 when not pacing). */
export function holdFor(events: GameEvent[]): number {
  if (!pacing()) return 0;
  const motion = motionTime(events);
  if (motion > 0) return motion + MOVE_HOLD_MS;
  return events.some((e) => e.e === "thrown") ? THROW_HOLD_MS : 0;
}

/** A first-in first-out queue in front of the page's message handler. */
export class Pacer {
  private readonly queue: ServerMessage[] = [];
  private busyUntil = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /**
   * `deliver` is the page's handler; `hold` says how long a delivered message stays in view
   * (default: holdFor its events); `paced` says whether to pace at all now; `now` is the clock in ms.
   */
  constructor(
    private readonly deliver: (msg: ServerMessage) => void,
    private readonly hold: (msg: ServerMessage) => number = (m) => (m.t === "events" ? holdFor(m.d.events) : 0),
    private readonly paced: () => boolean = pacing,
    private readonly now: () => number = () => performance.now(),
  ) {
    // Going to the background: show everything now rather than on throttled timers.
    if (typeof document !== "undefined")
      document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") this.flush(); });
  }

  /** Takes a message from the server: delivered now when nothing is showing, else queued in order. */
  push(msg: ServerMessage): void {
    if (msg.t !== "events" || !this.paced()) {
      this.flush();
      this.deliverNow(msg);
      return;
    }
    this.queue.push(msg);
    this.drain();
  }

  /** Delivers everything queued at once and stops waiting (a snapshot, or the player acts). */
  flush(): void {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: clearTimeout(null) does nothing, and a timer left running only calls drain(), which delivers nothing before busyUntil
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    while (this.queue.length) this.deliverNow(this.queue.shift()!);
    this.busyUntil = 0;
  }

  /** Messages waiting to be shown. */
  get waiting(): number {
    return this.queue.length;
  }

  private deliverNow(msg: ServerMessage): void {
    this.busyUntil = this.now() + Math.max(0, this.hold(msg));
    try {
      this.deliver(msg);
    } catch (err) {
      console.error(err);  // one bad message must not stop the ones behind it
    }
  }

  private drain(): void {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a second timer only calls drain() again, which still delivers nothing before busyUntil and keeps the order
    if (this.timer !== null) return;
    while (this.queue.length) {
      const wait = this.busyUntil - this.now();
      if (wait > 0) {
        this.timer = setTimeout(() => { this.timer = null; this.drain(); }, wait);
        return;
      }
      this.deliverNow(this.queue.shift()!);
    }
  }
}
