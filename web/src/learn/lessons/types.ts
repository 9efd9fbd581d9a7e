// What a lesson of the tutorial is (data only, no DOM): a set-up position in RULES.md notation,
// the throw the learner has, and what the lesson asks for.
import { OFF_SQUARE } from "../../shared/model";

/**
 * What completes a lesson: one of the listed moves, or any legal move of a kind — "any" (every
 * legal move), "swap" (lands on an opponent's piece and swaps), "capture" (Bell: lands on an
 * opponent's piece), "off" (bears a piece off), "backward" (moves a piece toward square 1),
 * "split" (Piccione: a step that spends only part of the throw).
 */
export type Goal = { moves: string[] } | { kind: "any" | "swap" | "capture" | "off" | "backward" | "split" };

/** One lesson. Its words are the catalog keys `{key}title`, `{key}text`, `{key}hint`, `{key}done`. */
export interface Lesson {
  /** The catalog key prefix, ending in ".": "learn.standard.swap.". */
  key: string;
  /** The set-up position: RULESET:BOARD:TURN:OFF1:OFF2 (Piccione: and :REM:DIR:BONUS:ENTRY). */
  position: string;
  /** The throw the learner moves with. */
  throwValue: number;
  /** What completes the lesson. */
  goal: Goal;
  /** A move the lesson shows as its answer (the hint marks its piece); legal in the position. */
  answer: string;
  /** Shows the throw odds of the ruleset (from the engine) under the lesson's text. */
  odds?: boolean;
  /** A catalog key explaining why a legal move other than the goal is not what the lesson asks. */
  other?: string;
}

/** A position split into its parts; `board[i]` is the owner (0, 1, 2) of square i + 1. */
export interface Parsed {
  ruleset: string;
  board: number[];
  turn: number;
  off: [number, number];
  /** Piccione's pieces in each hand (5 − on the board − off); [0, 0] in every other ruleset. */
  hand: [number, number];
}

/** Splits a position in RULES.md notation (Piccione's nine fields too). Throws Error for a malformed one. */
export function parsePosition(position: string): Parsed {
  const parts = position.split(":");
  const fields = parts[0] === "piccione" ? 9 : 5;
  if (parts.length !== fields || parts[1]?.length !== 30 || !/^[.12]{30}$/.test(parts[1])) throw new Error(`malformed position: ${position}`);
  const board = [...(parts[1] ?? "")].map((ch) => (ch === "." ? 0 : Number(ch)));
  const off: [number, number] = [Number(parts[3]), Number(parts[4])];
  const inHand = (player: number) => (fields === 9 ? 5 - board.filter((o) => o === player).length - off[player - 1]! : 0);
  return { ruleset: parts[0] ?? "", board, turn: Number(parts[2]), off, hand: [inHand(1), inHand(2)] };
}

/** The squares of a move ("9-11" → [9, 11], "27-off" → [27, OFF_SQUARE], Piccione's "in-1" → [0, 1], "pass" → null). */
export function moveSquares(move: string): [number, number] | null {
  if (move === "in-1") return [0, 1];
  const m = /^(\d+)-(\d+|off)$/.exec(move);
  if (!m) return null;
  return [Number(m[1]), m[2] === "off" ? OFF_SQUARE : Number(m[2])];
}

/** True when `move` completes a lesson with `goal`, given it is legal in `before` (parsed) with `throwValue`. */
export function meetsGoal(goal: Goal, move: string, before: Parsed, throwValue: number): boolean {
  if ("moves" in goal) return goal.moves.includes(move);
  const sq = moveSquares(move);
  if (!sq) return false;
  const [from, to] = sq;
  const opponent = before.turn === 1 ? 2 : 1;
  switch (goal.kind) {
    case "any": return true;
    case "off": return to === OFF_SQUARE;
    case "backward": return to < from;
    case "split": return from > 0 && Math.abs(to - from) < throwValue;
    case "swap":
    case "capture": return to <= 30 && before.board[to - 1] === opponent;
  }
  return false;
}
