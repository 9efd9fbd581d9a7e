// The play page's own check of the fair throws (server/PROTOCOL.md "Fairness"): the server's
// commitment is recorded before this browser sends its client seed, and once the game is over
// the revealed server seed must hash to it (SHA-256) and every throw must follow from the seeds
// (HMAC-SHA-256), both computed here with WebCrypto.
import { isHash, recordCommitment, recordedCommitment } from "../shared/commitment";

/** One throw as the page showed it: its throw index, value and sticks ("" for a die). */
export interface SeenThrow { index: number; value: number; sticks: string }

/** The outcome of the check at the end of a game. */
export type Verdict =
  | { kind: "verified"; throws: number }
  | { kind: "bad-commitment" }           // SHA-256(server seed) is not the recorded commitment
  | { kind: "bad-throw"; index: number }  // throw `index` does not follow from the seeds
  | { kind: "unavailable" };             // the record could not be loaded or read

/**
 * Makes sure the commitment is recorded before the page sends its seed: when the create or join
 * answer did not give it, takes the one the page carries (`fromPage`, the server's data-commitment),
 * else asks GET /api/games/{id}. Resolves to false when it could not be fetched (the caller tries
 * again later).
 */
export async function ensureCommitment(game: string, fromPage?: string): Promise<boolean> {
  if (recordedCommitment(game)) return true;
  recordCommitment(game, fromPage);
  if (recordedCommitment(game)) return true;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(game)}`, { cache: "no-store" });
    if (!response.ok) return false;
    const summary = (await response.json()) as { commitment?: unknown; fairness?: { commitment?: unknown } };
    recordCommitment(game, summary.commitment ?? summary.fairness?.commitment);
  } catch {
    return false;
  }
  return !!recordedCommitment(game);
}

const hexBytes = (hex: string) => new Uint8Array((hex.match(/../g) ?? []).map((b) => parseInt(b, 16)));
const toHex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/** What no stick up counts in each sticks ruleset (RULES.md; engine `sticksNoneUpValue`). */
const NONE_UP: Record<string, number> = { standard: 5, jequier: 6 };

/** The throw of chance outcome `outcome`: the sticks pattern (bit k = stick k up) or the die face. */
function throwOfOutcome(ruleset: string, die: boolean, outcome: number): { value: number; sticks: string } {
  if (die) return { value: outcome + 1, sticks: "" };
  let sticks = "";
  for (let k = 0; k < 4; k++) sticks += (outcome >> k) & 1 ? "1" : "0";
  const up = [...sticks].filter((c) => c === "1").length;
  return { value: up || (NONE_UP[ruleset] ?? 5), sticks };
}

interface RecordThrow { throw: number; sticks?: string }
interface VerifiableRecord {
  opening?: RecordThrow[];
  plies?: RecordThrow[];
  fairness?: { serverSeed?: string; commitment?: string; clientSeeds?: string[] };
}

/**
 * Checks a finished game: loads its record (GET /api/games/{id}/record), checks that SHA-256 of
 * the revealed server seed is the commitment recorded at the start, then recomputes every throw
 * of the record and every throw the page showed (`seen`) from the seeds.
 */
export async function verifyGame(game: string, ruleset: string, die: boolean, seen: Iterable<SeenThrow>): Promise<Verdict> {
  const commitment = recordedCommitment(game);
  let record: VerifiableRecord;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(game)}/record`);
    if (!response.ok) return { kind: "unavailable" };
    record = (await response.json()) as VerifiableRecord;
  } catch {
    return { kind: "unavailable" };
  }
  const f = record.fairness;
  const seeds = f?.clientSeeds;
  if (!f || !isHash(f.serverSeed) || !Array.isArray(seeds) || seeds.length !== 2) return { kind: "unavailable" };
  const seed = hexBytes(f.serverSeed);
  const digest = toHex(await crypto.subtle.digest("SHA-256", seed));
  if (!commitment || digest !== commitment || f.commitment !== commitment) return { kind: "bad-commitment" };

  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const encoder = new TextEncoder();
  const count = die ? 4 : 16;
  const expected = async (index: number) => {
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${seeds[0]}|${seeds[1]}|${index}`)));
    return throwOfOutcome(ruleset, die, (mac[0] ?? 0) & (count - 1));
  };
  // A Piccione step that spends the remainder of a throw has no throw of its own (its ply has no
  // "throw": engine/README "Record format"); every other ply holds the next throw.
  const plies = (record.plies ?? []).filter((p) => !(ruleset === "piccione" && p && typeof p === "object" && !("throw" in p)));
  const throws = [...(record.opening ?? []), ...plies];
  for (let i = 0; i < throws.length; i++) {
    const want = await expected(i);
    const got = throws[i];
    if (!got || got.throw !== want.value || (!die && got.sticks !== want.sticks)) return { kind: "bad-throw", index: i };
  }
  // What the page showed, the last throw of a resigned game (drawn, never moved) included.
  let total = throws.length;
  for (const s of seen) {
    const want = await expected(s.index);
    if (s.value !== want.value || (!die && s.sticks !== want.sticks)) return { kind: "bad-throw", index: s.index };
    total = Math.max(total, s.index + 1);
  }
  return { kind: "verified", throws: total };
}
