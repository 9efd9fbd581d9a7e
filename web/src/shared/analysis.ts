// The server's analysis of a finished game (GET /api/games/{id}/analysis, server/API.md) as the
// replay page and the play page's end panel read it: the curve, each ply's mark (inaccuracy,
// mistake, blunder), the throw's luck and whether its values are exact (endgame tables), and
// per player the accuracy, the marks counted and the luck summed; and how its numbers are written
// (the sentences are the pages' own: replay/marks.ts, play/end-analysis.ts).

export type MarkKind = "inaccuracy" | "mistake" | "blunder";
export const MARK_KINDS: readonly MarkKind[] = ["inaccuracy", "mistake", "blunder"];

/** The symbols of the marks, as chess and backgammon annotators write them (the same in every language). */
export const MARK_SYMBOLS: Record<MarkKind, string> = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** The least loss of win probability for each mark (the analysis JSON's `thresholds`). */
export type Thresholds = Record<MarkKind, number>;
export const DEFAULT_THRESHOLDS: Thresholds = { inaccuracy: 0.02, mistake: 0.05, blunder: 0.1 };

/** A marked move: the ply (1-based), its player, the move played, the better one and the loss. */
export interface Mark { ply: number; player: number; move: string; best: string; loss: number; kind: MarkKind }

/** One player's figures for the game. */
export interface PlayerFigures {
  player: number; decisions: number; accuracy: number; loss: number; luck: number;
  inaccuracies: number; mistakes: number; blunders: number;
}

/** What the page shows of an analysis. */
export interface Analysis {
  /** The probability that player 1 wins at each position. */
  curve: number[];
  /** By ply number (1 = the first ply). */
  marks: Map<number, Mark>;
  /** Per ply (index ply - 1): the throw's luck for the mover, or null when unknown. */
  luck: (number | null)[];
  /** Per position: its value is exact (a table value or the result). */
  exact: boolean[];
  /** Per player (1 and 2), or null when the analysis gives none. */
  players: PlayerFigures[] | null;
  thresholds: Thresholds;
}

/** The mark of a loss under `th`, or null below the least. */
export function markOf(loss: number, th: Thresholds = DEFAULT_THRESHOLDS): MarkKind | null {
  if (loss >= th.blunder) return "blunder";
  if (loss >= th.mistake) return "mistake";
  if (loss >= th.inaccuracy) return "inaccuracy";
  return null;
}

const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isKind = (v: unknown): v is MarkKind => typeof v === "string" && (MARK_KINDS as readonly string[]).includes(v);

function readThresholds(v: unknown): Thresholds {
  const o = (v && typeof v === "object" ? v : {}) as Record<string, unknown>;
  const th = { ...DEFAULT_THRESHOLDS };
  for (const k of MARK_KINDS) { const x = o[k]; if (num(x) && x > 0 && x < 1) th[k] = x; }
  return th;
}

function readPlayers(v: unknown): PlayerFigures[] | null {
  if (!Array.isArray(v)) return null;
  const out: PlayerFigures[] = [];
  for (const p of v as Record<string, unknown>[]) {
    if (!p || (p.player !== 1 && p.player !== 2) || !num(p.accuracy) || !num(p.luck)) continue;
    const n = (x: unknown) => (num(x) && x >= 0 ? Math.round(x) : 0);
    out.push({ player: p.player, decisions: n(p.decisions), accuracy: Math.min(100, Math.max(0, p.accuracy)), loss: num(p.loss) ? p.loss : 0,
      luck: p.luck, inaccuracies: n(p.inaccuracies), mistakes: n(p.mistakes), blunders: n(p.blunders) });
  }
  out.sort((a, b) => a.player - b.player);
  return out.length === 2 && out[0]!.player === 1 && out[1]!.player === 2 ? out : null;
}

/**
 * The analysis JSON read for a game of `positions` positions, or null when its curve does not
 * fit (then the replay computes its own). A ply's mark is the JSON's, else the one its loss
 * earns under the thresholds (an older server gave only the loss); a move equal to the best is never marked.
 */
export function readAnalysis(json: unknown, positions: number): Analysis | null {
  if (!json || typeof json !== "object") return null;
  const a = json as Record<string, unknown>;
  const curve = a.winProbability;
  if (!Array.isArray(curve) || curve.length !== positions || !curve.every((p) => num(p) && p >= 0 && p <= 1)) return null;
  const thresholds = readThresholds(a.thresholds);
  const marks = new Map<number, Mark>();
  const luck: (number | null)[] = new Array<number | null>(Math.max(0, positions - 1)).fill(null);
  const plies = Array.isArray(a.plies) ? (a.plies as Record<string, unknown>[]) : [];
  for (const p of plies) {
    if (!p || !num(p.ply) || !Number.isInteger(p.ply) || p.ply < 1 || p.ply >= positions) continue;
    if (num(p.luck)) luck[p.ply - 1] = p.luck;
    if (!num(p.loss) || typeof p.best !== "string" || (typeof p.move === "string" && p.best === p.move)) continue;
    const kind = "mark" in p ? (isKind(p.mark) ? p.mark : null) : markOf(p.loss, thresholds);
    if (kind) marks.set(p.ply, { ply: p.ply, player: Number(p.player), move: String(p.move ?? ""), best: p.best, loss: p.loss, kind });
  }
  const exact = Array.isArray(a.exact) && a.exact.length === positions ? a.exact.map((e) => e === true) : new Array<boolean>(positions).fill(false);
  return { curve: curve as number[], marks, luck, exact, players: readPlayers(a.players), thresholds };
}

/** What fetching the analysis gave: the JSON, or "busy" (503, 429: try later) or "none" (anything else). */
export type AnalysisAnswer = { json: unknown } | { problem: "busy" | "none" };

/** GET /api/games/{id}/analysis once. */
export async function fetchAnalysisJson(game: string): Promise<AnalysisAnswer> {
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(game)}/analysis`);
    if (response.status === 503 || response.status === 429) return { problem: "busy" };
    if (!response.ok) return { problem: "none" };
    return { json: (await response.json()) as unknown };
  } catch {
    return { problem: "busy" };
  }
}

const lang = () => (typeof document !== "undefined" && document.documentElement.lang) || "en";

/** A share of the win chance as a percentage of the page's language ("9 %", "9%"), in Latin digits, whole by default. */
export function share(p: number, digits = 0): string {
  return new Intl.NumberFormat(`${lang()}-u-nu-latn`, { style: "percent", maximumFractionDigits: digits }).format(p);
}

/** A signed share ("+3 %", "−12 %"; 0 without a sign). */
export function signedShare(p: number): string {
  const rounded = Math.round(p * 100) / 100;
  return new Intl.NumberFormat(`${lang()}-u-nu-latn`, { style: "percent", maximumFractionDigits: 0, signDisplay: "exceptZero" }).format(rounded === 0 ? 0 : rounded);
}

/** An accuracy (0..100) as the page writes it: "88 %". */
export function accuracyText(accuracy: number): string {
  return share(Math.round(accuracy) / 100);
}

/** Whether a luck sum reads as lucky, unlucky or even (below half a percent either way). */
export function luckSign(luck: number): "lucky" | "unlucky" | "even" {
  return Math.round(Math.abs(luck) * 100) === 0 ? "even" : luck > 0 ? "lucky" : "unlucky";
}

/** The players the viewer plays: from the seats they hold and the seats' players (`players[seat]`), none for both (pass-and-play) or none. */
export function viewerPlayers(seats: readonly number[], players: readonly number[] | null): number[] {
  if (seats.length !== 1) return [];
  const seat = seats[0]!;
  const player = players ? players[seat] : seat + 1;
  return player === 1 || player === 2 ? [player] : [];
}
