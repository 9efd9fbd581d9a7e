// The engine's position notation (RULES.md "Position notation": RULESET:BOARD:TURN:OFF1:OFF2)
// read into what the board draws, and written from the play page's state.

/** A position as the board draws it: owner of each square 1..30 (index 0..29), who throws, pieces off. */
export interface Drawn {
  ruleset: string;
  board: number[];
  turn: number;
  off: [number, number];
}

/**
 * Reads `RULESET:BOARD:TURN:OFF1:OFF2`; throws an Error naming what is wrong (field count,
 * board length or character, turn, counts). Only the shape is checked: the engine that wrote it
 * knows the rules.
 */
export function readPosition(text: string): Drawn {
  const f = text.trim().split(":");
  // Piccione's notation carries four more fields after the five (RULES.md "Piccione position notation").
  const fields = f[0] === "piccione" ? 9 : 5;
  if (f.length !== fields) throw new Error(`position "${text}": ${fields} fields expected, got ${f.length}`);
  const [ruleset = "", squares = "", turn = "", off1 = "", off2 = ""] = f;
  if (squares.length !== 30 || !/^[.12]{30}$/.test(squares)) throw new Error(`position "${text}": the board must be 30 of "1", "2", "."`);
  if (turn !== "1" && turn !== "2") throw new Error(`position "${text}": the turn must be 1 or 2`);
  if (!/^\d{1,2}$/.test(off1) || !/^\d{1,2}$/.test(off2)) throw new Error(`position "${text}": bad borne-off counts`);
  return { ruleset, board: [...squares].map((c) => (c === "." ? 0 : Number(c))), turn: Number(turn), off: [Number(off1), Number(off2)] };
}

/** Writes the notation of a board as the server's state gives it (board[i] the owner of square i + 1). */
export function writePosition(ruleset: string, board: readonly number[], turn: number, off: readonly [number, number]): string {
  const squares = Array.from({ length: 30 }, (_, i) => (board[i] === 1 ? "1" : board[i] === 2 ? "2" : ".")).join("");
  return `${ruleset}:${squares}:${turn}:${off[0]}:${off[1]}`;
}
