// Piccione's turn of steps as the pages show it (RULES.md "Piccione" 4–11): the pieces in each
// hand, the unspent remainder of the throw, the turn's direction and the extra throws owed, from
// the server's `steps` member or, when a server sends none, from the position's notation
// (RULES.md "Piccione position notation"); and which legal moves enter a piece or send one back
// to the hand.
import { t } from "./i18n";
import { OFF_SQUARE } from "./model";
import type { LegalMove, State, TurnSteps } from "./protocol";

/** Square 27, from which a Piccione piece goes straight back to the hand (RULES.md Piccione 11). */
export const HAND_SQUARE = 27;

/** True for Piccione's `in-1` (RULES.md Piccione 5): the server's flag, or the move's own text. */
export function isEnter(m: Pick<LegalMove, "move" | "enter">): boolean {
  return !!m.enter || m.move === "in-1";
}

/** True for a step onto 27 that puts the piece back in the hand (RULES.md Piccione 11): no square to end on. */
export function isToHand(m: Pick<LegalMove, "to" | "dest" | "toHand">): boolean {
  return !!m.toHand || (m.to === HAND_SQUARE && m.dest === 0);
}

/** The square a legal move's piece is tapped to go to: 1 for an entry, 27 for a step to the hand, 31 for a bear-off. */
export function targetOf(m: LegalMove): number {
  return m.bearOff ? OFF_SQUARE : m.to;
}

const DIRECTIONS: Record<string, TurnSteps["direction"]> = { f: "forward", forward: "forward", b: "backward", backward: "backward" };

/**
 * The turn's steps of a Piccione state: `s.steps` when the server sent it, else read from
 * `s.position` (`piccione:BOARD:TURN:OFF1:OFF2:REM:DIR:BONUS:ENTRY`). null for every other
 * ruleset and for a position that does not have that shape. Each hand is 5 − pieces on the
 * board − pieces borne off (RULES.md Piccione, "Hand").
 */
export function stepsOf(s: Pick<State, "ruleset" | "position" | "board" | "off"> & { steps?: TurnSteps | null }): TurnSteps | null {
  if (s.ruleset !== "piccione") return null;
  if (s.steps) return { ...s.steps, direction: DIRECTIONS[s.steps.direction ?? ""] ?? null };
  const f = (s.position ?? "").split(":");
  if (f.length !== 9) return null;
  const [rem, dir, bonus, entry] = f.slice(5).map((x) => x ?? "");
  const count = (player: number) => (s.board ?? []).filter((o) => o === player).length;
  const hand = (player: number) => Math.max(0, 5 - count(player) - (s.off?.[player - 1] ?? 0));
  return {
    direction: DIRECTIONS[dir ?? ""] ?? null,
    entry: entry === "1",
    hand: [hand(1), hand(2)],
    owed: Number(bonus) || 0,
    remainder: Number(rem) || 0,
  };
}

/**
 * The words of the turn's steps: the remainder of `value`, the direction, the entry throw while
 * it is the throw due (`throwDue`; once thrown it is being spent), the throws owed; [] when none applies.
 */
export function stepsWords(steps: TurnSteps, value: number, throwDue = true): string[] {
  const words: string[] = [];
  if (steps.remainder > 0) words.push(t("play.steps.left", { left: steps.remainder, value }));
  if (steps.direction) words.push(t("play.steps.direction", { direction: steps.direction }));
  if (steps.entry && throwDue) words.push(t("play.steps.entry"));
  if (steps.owed > 0) words.push(t("play.steps.owed", { count: steps.owed }));
  return words;
}
