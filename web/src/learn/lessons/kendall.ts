// The tutorial of Kendall's reconstruction (RULES.md "Kendall"): the stop on the House of Beauty,
// the House of Water, the final houses with no safe square, and backward moves that swap.
import { movingLesson, pathLesson, setup } from "./common";
import type { Lesson } from "./types";

const R = "kendall";

/** Kendall's lessons, in order. */
export const kendallLessons: Lesson[] = [
  pathLesson(R),
  movingLesson(R),
  // Rule 5: 24 + 4 would pass 26, so that piece has no move; 22 + 4 reaches 26 exactly.
  { key: "learn.kendall.stop.", position: setup(R, [22, 24], [5, 12]), throwValue: 4, goal: { moves: ["22-26"] }, answer: "22-26" },
  // Rules 6 and 7: a 1 from 26 falls into the water (back to 15); 23-24 keeps the piece.
  { key: "learn.kendall.water.", position: setup(R, [23, 26], [8, 12]), throwValue: 1, goal: { moves: ["23-24"] }, answer: "23-24", other: "learn.kendall.water.other" },
  // Rule 8: from 30 only a 1 bears off; 28 never moves to 29.
  { key: "learn.kendall.final.", position: setup(R, [12, 28, 30], [5, 16, 18]), throwValue: 1, goal: { kind: "off" }, answer: "30-off" },
  // Rule 3: no square is safe, also in the houses; the lone spool on 29 swaps to 26.
  { key: "learn.kendall.swap.", position: setup(R, [10, 26], [5, 29]), throwValue: 3, goal: { kind: "swap" }, answer: "26-29" },
  // Rule 9: no forward move (19 and 20 protect each other), so 18 goes back and swaps with the lone 16.
  { key: "learn.kendall.backward.", position: setup(R, [18], [16, 19, 20]), throwValue: 2, goal: { kind: "backward" }, answer: "18-16" },
];
