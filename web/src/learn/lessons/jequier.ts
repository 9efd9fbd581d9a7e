// The tutorial of Jéquier's reconstruction (RULES.md "Jéquier").
import { movingLesson, pathLesson, setup } from "./common";
import type { Lesson } from "./types";

const R = "jequier";

/** Jéquier's lessons, in order. */
export const jequierLessons: Lesson[] = [
  pathLesson(R),
  // None up counts 6; the opening throws decide the sides.
  { key: "learn.jequier.throws.", position: setup(R, [3], [12, 14]), throwValue: 6, goal: { kind: "any" }, answer: "3-9", odds: true },
  movingLesson(R),
  // 26 is safe; 17 stands alone and swaps.
  { key: "learn.jequier.swap.", position: setup(R, [15, 24], [17, 26]), throwValue: 2, goal: { kind: "swap" }, answer: "15-17" },
  // Three opponents in a row (12, 13, 14) cannot be passed.
  { key: "learn.jequier.blockade.", position: setup(R, [5, 11], [12, 13, 14]), throwValue: 4, goal: { moves: ["5-9"] }, answer: "5-9" },
  // No forward move (20 is protected by 19): the piece goes back.
  { key: "learn.jequier.backward.", position: setup(R, [18], [19, 20, 25]), throwValue: 2, goal: { kind: "backward" }, answer: "18-16" },
  // 26 is safe, 27 sends the piece to the lowest empty square.
  { key: "learn.jequier.water.", position: setup(R, [24, 25], [3, 8, 12]), throwValue: 2, goal: { moves: ["24-26"] }, answer: "24-26", other: "learn.jequier.water.other" },
  // Every piece on 21-30: any throw that reaches 30 bears off.
  { key: "learn.jequier.off.", position: setup(R, [23, 28], [5, 9, 14]), throwValue: 3, goal: { kind: "off" }, answer: "28-off" },
];
