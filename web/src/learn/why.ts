// Why a move the learner tried is not allowed: the specific reason in words a learner knows
// (lands on your own piece, a protected piece, a blockade, …). Legality itself is the engine's
// verdict (lessons are checked with its legal moves); this only names the reason for a move the
// engine did not list, from the rules of RULES.md.
import { type BoardInfo, OFF_SQUARE } from "../shared/model";
import type { Parsed } from "./lessons/types";

/** A reason: its catalog key and the values it names. */
export interface Why {
  key: string;
  params: Record<string, number>;
}

/** True when the opponent's piece on `square` cannot be landed on (a safe square, or a neighbour of its colour). */
function protectedAt(p: Parsed, info: BoardInfo, square: number, owner: number): boolean {
  if (info.safe.includes(square)) return true;
  if (info.ruleset === "bell") return false;
  return p.board[square - 2] === owner || p.board[square] === owner;
}

/**
 * Why moving the mover's piece on `from` by `throwValue` is not a legal move in `p`, given the
 * engine's legal moves `legal` (none of which starts at `from`). Returns the most specific
 * reason that applies; "learn.why.illegal" when none of the known ones does.
 */
export function whyIllegal(p: Parsed, info: BoardInfo, from: number, throwValue: number, legal: readonly string[]): Why {
  const me = p.turn;
  const them = me === 1 ? 2 : 1;
  const to = from + throwValue;
  const params = { from, to: Math.min(to, OFF_SQUARE), throw: throwValue };
  const mine = p.board.flatMap((o, i) => (o === me ? [i + 1] : []));
  if (info.ruleset === "bell") {
    const compelled = legal.some((m) => Number(m.split("-")[0]) >= 26);
    if (compelled && from < 26) return { key: "learn.why.compulsion", params };
    if (to > 30) return { key: to === OFF_SQUARE ? "learn.why.illegal" : "learn.why.bear-off-exact", params: { ...params, need: OFF_SQUARE - from } };
  }
  if (info.ruleset === "standard" && to > 30) {
    if (from <= 26) return { key: "learn.why.bear-off-early", params };
    return { key: "learn.why.bear-off-throw", params };
  }
  if (info.ruleset === "jequier" && to >= 30 && mine.some((s) => s < 21)) return { key: "learn.why.bear-off-zone", params };
  if (info.ruleset === "kendall") {
    // Rule 8: the final houses let a piece only off, with its own throw; rule 5: no piece passes 26.
    if (from >= 28) return { key: "learn.why.final-exact", params: { ...params, need: OFF_SQUARE - from } };
    if (from < 26 && to > 26) return { key: "learn.why.stop", params };
  }
  if (info.ruleset === "jequier" || info.ruleset === "kendall") {
    let run = 0;
    for (let s = from + 1; s < Math.min(to, OFF_SQUARE); s++) {
      run = p.board[s - 1] === them ? run + 1 : 0;
      if (run >= 3) return { key: "learn.why.blocked", params };
    }
  }
  if (to <= 30 && p.board[to - 1] === me) return { key: "learn.why.own", params };
  if (to <= 30 && p.board[to - 1] === them && protectedAt(p, info, to, them))
    return { key: info.safe.includes(to) ? "learn.why.safe" : "learn.why.protected", params };
  return { key: "learn.why.illegal", params };
}

/**
 * Piccione (RULES.md "Piccione" 4, 5, 7, 12): why the step from `from` (0: entering from the
 * hand) to `to` (31: off the board) with `throwValue` is not legal in `p`, given the engine's legal
 * steps `legal` (which do not include it). "learn.why.illegal" when no known reason applies.
 */
export function whyNoStep(p: Parsed, from: number, to: number, throwValue: number, legal: readonly string[]): Why {
  const params = { from, to: Math.min(to, OFF_SQUARE), throw: throwValue, need: OFF_SQUARE - from };
  if (from === 0) return { key: "learn.why.enter", params };
  const amount = Math.abs(to - from);
  if (to > from && to >= OFF_SQUARE) return { key: "learn.why.off-exact", params };
  if (amount > throwValue) return { key: "learn.why.too-far", params };
  if (to < from && from >= 28) return { key: "learn.why.no-back", params };
  const forwardExists = legal.some((m) => m === "in-1" || /-off$/.test(m) || Number(m.split("-")[1]) > Number(m.split("-")[0]));
  if (to < from && forwardExists) return { key: "learn.why.forward-first", params };
  const owner = p.board[to - 1] ?? 0;
  if (owner === p.turn) return { key: "learn.why.own", params };
  if (owner) return { key: "learn.why.taken", params };
  return { key: "learn.why.illegal", params };
}
