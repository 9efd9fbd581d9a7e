// The play page's hook for spectators: the win-probability bar (winbar.ts, with the engine)
// is fetched by a dynamic import the first time the page knows it holds no seat, so a
// player's page never downloads the engine.
import type { State } from "../shared/protocol";

type Bar = { update(s: State): void };
let bar: Promise<Bar | null> | null = null;

/**
 * Called after every render with the state, the seats the page holds and whether it knows them
 * yet; does nothing for a player (a seat held) or before the seats are known.
 */
export function spectatorBar(s: State | null, you: number[], seatsKnown: boolean): void {
  if (!s || !seatsKnown || you.length) return;
  const after = document.querySelector("#play .seats");
  if (!after) return;
  bar ??= import("./winbar").then((m) => m.WinBar.create(after)).catch(() => null);
  void bar.then((b) => b?.update(s));
}
