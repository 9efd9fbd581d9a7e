// Lessons every ruleset shares (the board's path, moving) and the helper that writes set-up positions.
import type { Lesson } from "./types";

/**
 * A position in RULES.md notation with player 1's pieces on `ones` and player 2's on `twos`.
 * `off` gives each side's borne-off count; by default every piece of a five-piece side not on
 * the board is borne off (Bell's missing pieces are captured, so its default is none off).
 * Piccione's position is a new turn (`:0:-:0:0`): the pieces neither on the board nor off are in
 * the hand (RULES.md "Piccione position notation").
 */
export function setup(ruleset: string, ones: number[], twos: number[], turn = 1, off?: [number, number]): string {
  const squares = Array.from({ length: 30 }, (_, i) => (ones.includes(i + 1) ? "1" : twos.includes(i + 1) ? "2" : "."));
  const [o1, o2] = off ?? (ruleset === "bell" ? [0, 0] : [5 - ones.length, 5 - twos.length]);
  const turnFields = ruleset === "piccione" ? ":0:-:0:0" : "";
  return `${ruleset}:${squares.join("")}:${turn}:${o1}:${o2}${turnFields}`;
}

/** The board and its S-shaped path: the cone on 9 goes round the bend to 11. */
export function pathLesson(ruleset: string): Lesson {
  return { key: "learn.common.path.", position: setup(ruleset, [3, 9], [20, 22]), throwValue: 2, goal: { moves: ["9-11"] }, answer: "9-11" };
}

/** Moving: forward exactly the throw, never onto your own piece (4→6 is not allowed, 6→8 is). */
export function movingLesson(ruleset: string): Lesson {
  return { key: "learn.common.moving.", position: setup(ruleset, [4, 6], [18, 24]), throwValue: 2, goal: { kind: "any" }, answer: "6-8" };
}
