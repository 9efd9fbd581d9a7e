// The tutorial of R. C. Bell's reconstruction (RULES.md "Bell").
import { movingLesson, pathLesson, setup } from "./common";
import type { Lesson } from "./types";

const R = "bell";

/** Bell's lessons, in order. */
export const bellLessons: Lesson[] = [
  pathLesson(R),
  // One four-sided die, 1-4, no extra throws.
  { key: "learn.bell.throws.", position: setup(R, [5], [12]), throwValue: 4, goal: { kind: "any" }, answer: "5-9", odds: true },
  movingLesson(R),
  // Landing on an opponent captures it; neighbours do not protect.
  { key: "learn.bell.capture.", position: setup(R, [3, 8], [11, 12]), throwValue: 3, goal: { kind: "capture" }, answer: "8-11" },
  // 26-30 are safe, and a piece there that can move must move.
  { key: "learn.bell.houses.", position: setup(R, [10, 26, 27], [15, 29]), throwValue: 2, goal: { moves: ["26-28"] }, answer: "26-28" },
  // Off only with the exact throw: 4 from X (27), 3 from III (28), 2 from II, 1 from I.
  { key: "learn.bell.off.", position: setup(R, [27, 28], [12, 20]), throwValue: 3, goal: { kind: "off" }, answer: "28-off" },
  // The score: one point a piece; more than the other can still reach wins.
  { key: "learn.bell.score.", position: setup(R, [30], [3], 1, [4, 3]), throwValue: 1, goal: { kind: "off" }, answer: "30-off" },
];
