// The tutorial of the standard game (RULES.md "Standard").
import { movingLesson, pathLesson, setup } from "./common";
import type { Lesson } from "./types";

const R = "standard";

/** The standard game's lessons, in order. */
export const standardLessons: Lesson[] = [
  pathLesson(R),
  // Four sticks, none up counts 5.
  { key: "learn.standard.throws.", position: setup(R, [2, 16], [12, 14]), throwValue: 5, goal: { kind: "any" }, answer: "2-7", odds: true },
  movingLesson(R),
  // 1, 4 and 5 throw again.
  { key: "learn.standard.extra.", position: setup(R, [5, 13], [19, 24]), throwValue: 4, goal: { kind: "any" }, answer: "5-9" },
  // A lone opponent's piece swaps places.
  { key: "learn.standard.swap.", position: setup(R, [2, 8], [11, 20, 23]), throwValue: 3, goal: { kind: "swap" }, answer: "8-11" },
  // 13 and 14 protect each other; 18 stands alone.
  { key: "learn.standard.protect.", position: setup(R, [11, 16], [13, 14, 18]), throwValue: 2, goal: { kind: "swap" }, answer: "16-18" },
  // 27 is safe, 28 sends the piece back to 15.
  { key: "learn.standard.water.", position: setup(R, [24, 25], [12, 20]), throwValue: 3, goal: { moves: ["24-27"] }, answer: "24-27", other: "learn.standard.water.other" },
  // From 29 only a 3 bears off, from 30 only a 2.
  { key: "learn.standard.off.", position: setup(R, [27, 29, 30], [12, 22]), throwValue: 3, goal: { kind: "off" }, answer: "29-off" },
];
