// The claim button of a friend game: it appears only once the opponent has been offline for the
// game's grace period (snapshot `grace`, server/PROTOCOL.md "Claiming a win"), with a countdown
// before it. The page counts from the moment it saw the opponent go offline (or from its own
// arrival, when the opponent was already away), so the button never shows before the server
// would accept the claim. An absent creator counts like an absent friend; a rematch's player
// who never came to it does not count until they came once.
import type { State } from "../shared/protocol";
import { claimText, type View } from "./words";

export class ClaimTimer {
  private offlineSince: number | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private view: View | null = null;
  // Stryker disable next-line UnaryOperator: update() sets the seat before anything reads it
  private seat = -1;
  /** Called once when the claim becomes allowed, with the words shown (for the screen reader). */
  onReady: ((text: string) => void) | null = null;

  /** `button` is the claim button, `note` the line that counts down. */
  constructor(private readonly button: HTMLElement, private readonly note: HTMLElement) {}

  /** Follows a new state: starts, keeps or stops the countdown. */
  update(v: View): void {
    this.view = v;
    // Stryker disable next-line UnaryOperator: read only when one seat is held, and then you[0] is never missing
    const first = v.you[0] ?? -1;
    const mine = v.you.length === 1 ? first : -1;
    // Stryker disable next-line ConditionalExpression: without a seat, seat 2 would hold nothing either: no claim
    this.seat = mine >= 0 ? 1 - mine : -1;
    if (!this.eligible(v.s)) {
      this.offlineSince = null;
      this.stop();
      return;
    }
    this.offlineSince ??= Date.now();
    this.timer ??= setInterval(() => this.tick(), 1000);
    this.tick();
  }

  /** Seconds until the claim is allowed (0 once it is); null when no claim is in view. */
  secondsLeft(): number | null {
    if (this.offlineSince === null || !this.view) return null;
    return Math.max(0, this.view.s.grace - (Date.now() - this.offlineSince) / 1000);
  }

  private eligible(s: State): boolean {
    // Stryker disable next-line ConditionalExpression: seats[-1] is undefined as well
    const other = this.seat >= 0 ? s.seats[this.seat] : undefined;
    // A rematch whose other player never came (their seed is not fixed) waits for them like a friend game: no claim.
    const neverCame = !!s.rematchOf && s.fairness?.clientSeeds?.[this.seat] === null;
    return s.opponent === "friend" && !!other?.taken && other.kind !== "computer" && !other.online && !neverCame && s.phase !== "over" && s.phase !== "waiting";
  }

  private tick(): void {
    const left = this.secondsLeft();
    // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: tick runs only after update() set the view and started the count; stop() clears the interval whenever the count ends
    if (left === null || !this.view) return;
    const text = claimText(left);
    if (this.note.textContent !== text) this.note.textContent = text;
    this.note.hidden = false;
    this.button.hidden = left > 0;
    if (left <= 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.onReady?.(text);
    }
  }

  private stop(): void {
    // Stryker disable next-line ConditionalExpression: clearInterval(null) does nothing
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.note.hidden = true;
    this.note.textContent = "";
    this.button.hidden = true;
  }
}
