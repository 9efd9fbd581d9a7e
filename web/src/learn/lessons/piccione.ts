// The tutorial of Piccione's reconstruction (RULES.md "Piccione"): pieces that start in the hand
// and enter on square 1, a throw split over several steps, the turn's one direction, and the
// houses 15, 26, 27 and the last three squares.
import { movingLesson, pathLesson, setup } from "./common";
import type { Lesson } from "./types";

const R = "piccione";

/** Piccione's lessons, in order. */
export const piccioneLessons: Lesson[] = [
  pathLesson(R),
  // Rule 5: a whole throw of 1 enters a piece from the hand onto an empty square 1.
  { key: "learn.piccione.enter.", position: setup(R, [], [], 1, [0, 0]), throwValue: 1, goal: { moves: ["in-1"] }, answer: "in-1" },
  // Rule 4: a throw may be split; 6-7 spends 1 of the 3 and leaves 2 for the same turn.
  { key: "learn.piccione.split.", position: setup(R, [6, 12], [9, 20], 1, [0, 0]), throwValue: 3, goal: { kind: "split" }, answer: "6-7", other: "learn.piccione.split.other" },
  movingLesson(R),
  // Rule 7: no forward step exists (21, 22 and 23 are taken), so the turn must go backward.
  { key: "learn.piccione.direction.", position: setup(R, [20], [21, 22, 23], 1, [4, 0]), throwValue: 3, goal: { kind: "backward" }, answer: "20-17" },
  // Rule 10: a step that ends on 15 or 26 owes an extra throw.
  { key: "learn.piccione.rebirth.", position: setup(R, [12, 4], [8, 18], 1, [0, 0]), throwValue: 3, goal: { moves: ["12-15"] }, answer: "12-15" },
  // Rules 10 and 11: 26 owes a throw, 27 sends the piece back to the hand; the 1 left goes to 10-11.
  { key: "learn.piccione.water.", position: setup(R, [24, 10], [12, 13], 1, [3, 0]), throwValue: 3, goal: { moves: ["24-26"] }, answer: "24-26", other: "learn.piccione.water.other" },
  // Rule 12: off with exactly 31 - FROM, here 3 from 28.
  { key: "learn.piccione.off.", position: setup(R, [28, 16], [11, 19], 1, [3, 0]), throwValue: 3, goal: { kind: "off" }, answer: "28-off" },
];
