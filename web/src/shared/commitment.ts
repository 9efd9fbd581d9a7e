// The server's commitment to its seed (server/PROTOCOL.md "Fairness") as this browser records
// it before its own seed goes out: in memory, in the URL fragment (#commit=, kept over a reload
// without storage) and in localStorage. The play page's first script (boot/boot.ts) and the page
// (play/fair.ts, play/seat.ts) record through here; the first commitment seen stays.
import { fragmentValue, setFragment } from "./fragment";
import { gameValue, setGameValue } from "./storage";

let recorded: string | null = null;

/** Whether `v` is a SHA-256 hash as the server writes it: 64 lowercase hex digits. */
export const isHash = (v: unknown): v is string => typeof v === "string" && /^[0-9a-f]{64}$/.test(v);

/**
 * The commitment recorded for `game`: this page's memory, else the URL fragment, else
 * localStorage; null when none. It is kept in the fragment.
 */
export function recordedCommitment(game: string): string | null {
  if (recorded) return recorded;
  const fromFragment = fragmentValue("commit");
  const found = isHash(fromFragment) ? fromFragment : gameValue(game, "commitment");
  if (!isHash(found)) return null;
  recorded = found;
  if (fromFragment !== found) setFragment({ commit: found });
  return recorded;
}

/** Records `commitment` for `game` (memory, fragment, storage) unless one is recorded already; anything but a hash is ignored. */
export function recordCommitment(game: string, commitment: unknown): void {
  if (!isHash(commitment) || recordedCommitment(game)) return;
  recorded = commitment;
  setFragment({ commit: commitment });
  setGameValue(game, "commitment", commitment);
}
