// This browser's seed for a game's throws (server/PROTOCOL.md "Fairness"), sent in the hello by
// the play page's first script (boot/boot.ts) or by the page (play/play.ts).
import { fragmentValue, setFragment } from "./fragment";
import { gameValue, setGameValue } from "./storage";

/**
 * This browser's contribution to the throws (16 random bytes as hex), the same for the whole
 * game: from the fragment, else storage, else drawn now. It goes into the fragment before it is
 * sent, so a reload (even without storage) sends the same seed. (The server keeps a seat's first
 * seed anyway: PROTOCOL.md "Fairness".)
 */
export function clientSeed(game: string): string {
  const existing = fragmentValue("seed") ?? gameValue(game, "seed");
  const seed = existing && /^[0-9A-Za-z_-]{1,64}$/.test(existing) ? existing : randomSeed();
  if (fragmentValue("seed") !== seed) setFragment({ seed });
  setGameValue(game, "seed", seed);
  return seed;
}

function randomSeed(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
