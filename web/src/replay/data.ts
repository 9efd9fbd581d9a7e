// The replay page's data: the game record (from the server or a file), the positions the
// engine rebuilds from it, and the win-probability curve with the marked moves — the server's
// analysis (GET /api/games/{id}/analysis, with luck, exact values and accuracy) when there is
// one, else computed here with the engine's evaluation of each position.
import { type Analysis, DEFAULT_THRESHOLDS, type Mark, fetchAnalysisJson, markOf, readAnalysis } from "../shared/analysis";
import type { Engine } from "../shared/engine-loader";

/** One ply of a record (PROTOCOL.md "Verifiable record"). */
/** `throw` is absent on a Piccione ply that spends the rest of a throw (no new throw is made). */
export interface RecordPly { player: number; throw?: number; sticks?: string; move: string }

/** The parts of a record the replay reads. */
export interface GameRecord {
  ruleset: string;
  plies: RecordPly[];
  opening?: { throw: number; sticks?: string; seat?: number }[];
  result?: string;
  game?: string;
  ending?: { reason?: string; winner?: number | null; player?: number | null };
  /** The plies (0-based) played after a hint was shown (PROTOCOL.md "Verifiable record"); absent: none. */
  hints?: number[];
}

/** The 1-based ply numbers a record marks as played after a hint (malformed marks are ignored). */
export function hintedPlies(record: GameRecord): Set<number> {
  const marks = Array.isArray(record.hints) ? record.hints : [];
  return new Set(marks.filter((i) => Number.isInteger(i) && i >= 0 && i < record.plies.length).map((i) => i + 1));
}

/** Where a curve came from: the server's analysis, or the engine's evaluation in this browser. */
export type CurveSource = "server" | "browser";

/** A game ready to step through: positions[0] is the start, positions[i] the position after ply i. */
export interface Replay extends Analysis {
  record: GameRecord;
  positions: string[];
  source: CurveSource;
}

const RULESETS = ["standard", "jequier", "bell", "kendall", "piccione"];

/**
 * Checks that `json` has the shape of a game record; returns it, or throws an Error whose
 * message says what is missing (the engine checks the rules when it replays it).
 */
export function checkRecord(json: unknown): GameRecord {
  if (!json || typeof json !== "object" || Array.isArray(json)) throw new Error("not a JSON object");
  const r = json as Record<string, unknown>;
  if (typeof r.ruleset !== "string" || !RULESETS.includes(r.ruleset)) throw new Error("no known \"ruleset\"");
  if (!Array.isArray(r.plies)) throw new Error("no \"plies\" list");
  if (r.plies.length > 5000) throw new Error("too many plies");
  r.plies.forEach((p: unknown, i) => {
    const ply = p as Record<string, unknown> | null;
    // Only Piccione's steps that spend a remainder come without a throw.
    const throwOk = typeof ply?.throw === "number" || (r.ruleset === "piccione" && ply?.throw === undefined);
    if (!ply || !throwOk || typeof ply.move !== "string" || typeof ply.player !== "number")
      throw new Error(`ply ${i + 1} lacks "player", "throw" or "move"`);
  });
  return json as GameRecord;
}

/** What loading a game's record from the server gave. */
export type Fetched = { record: GameRecord; text: string } | { problem: "playing" | "unknown" | "failed" };

/** GET /api/games/{id}/record: the record, or why there is none (409 still played, 404/410 gone). */
export async function fetchRecord(game: string): Promise<Fetched> {
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(game)}/record`);
    if (response.status === 409) return { problem: "playing" };
    if (response.status === 404 || response.status === 410) return { problem: "unknown" };
    if (!response.ok) return { problem: "failed" };
    const text = await response.text();
    return { record: checkRecord(JSON.parse(text)), text };
  } catch {
    return { problem: "failed" };
  }
}

/**
 * GET /api/games/{id}/analysis for a game of `positions` positions (shared/analysis.ts), or null
 * when the server has none to give (busy, still played, or a shape that does not fit the
 * record): the page then computes its own.
 */
export async function fetchAnalysis(game: string, positions: number): Promise<Analysis | null> {
  const answer = await fetchAnalysisJson(game);
  return "json" in answer ? readAnalysis(answer.json, positions) : null;
}

/** The probability that player 1 wins that a record's ending states, or null (no ending known). */
export function endingValue(record: GameRecord): number | null {
  const e = record.ending;
  if (e?.player === 1) return 1;
  if (e?.player === 2) return 0;
  if (e && e.winner === null && e.reason === "draw") return 0.5;
  if (record.result === "win 1") return 1;
  if (record.result === "win 2") return 0;
  if (record.result === "draw") return 0.5;
  return null;
}

/**
 * The curve and the marked moves computed in the browser: the engine's win probability of each
 * position (the last one the result when the record states it), and for each ply the move of
 * the same throw whose position the engine values best for the player who moved, compared with
 * the one played. One evaluation per legal move of each ply: quick, shallower than the server's.
 */
export function browserAnalysis(engine: Engine, record: GameRecord, positions: string[]): Analysis {
  const clamp = (p: number) => Math.min(1, Math.max(0, p));
  const curve = positions.map((p) => clamp(engine.winProbability(p)));
  const end = endingValue(record);
  if (end !== null && curve.length) curve[curve.length - 1] = end;
  const marks = new Map<number, Mark>();
  record.plies.forEach((ply, i) => {
    const before = positions[i];
    // A step that spends a remainder has no throw to try the other moves with: it is not judged.
    if (!before || ply.move === "pass" || ply.throw === undefined) return;
    const thrown = ply.throw;
    let moves: string[];
    try { moves = engine.moves(before, thrown); } catch { return; }
    if (moves.length < 2) return;
    const forMover = (p: number) => (ply.player === 1 ? p : 1 - p);
    let best = "", bestValue = -1, played = -1;
    for (const m of moves) {
      const value = forMover(clamp(engine.winProbability(engine.apply(before, thrown, m).position)));
      if (value > bestValue) { bestValue = value; best = m; }
      if (m === ply.move) played = value;
    }
    const kind = played >= 0 && best !== ply.move ? markOf(bestValue - played) : null;
    if (kind) marks.set(i + 1, { ply: i + 1, player: ply.player, move: ply.move, best, loss: bestValue - played, kind });
  });
  // No luck, no exact values and no accuracy: the browser's evaluation is too shallow for them.
  return { curve, marks, luck: record.plies.map(() => null), exact: curve.map(() => false), players: null, thresholds: { ...DEFAULT_THRESHOLDS } };
}
