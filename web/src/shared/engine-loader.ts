// The engine in the browser (engine/wasm.ts, the C++ engine in WebAssembly) as the
// replay page and the spectators' bar use it: loaded on demand, never by a player's page.
import type { SenetEngine } from "../engine/wasm";

/** The engine's interface (engine/wasm.ts SenetEngine). */
export type Engine = SenetEngine;

/** Loads the engine (the .wasm is fetched once); rejects when this browser cannot run it. */
export async function loadReplayEngine(): Promise<Engine> {
  const { loadEngine } = await import("../engine/wasm");
  return loadEngine();
}
