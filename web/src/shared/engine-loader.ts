// The engine in the browser (engine/wasm.ts, the C++ engine in WebAssembly) as the replay page
// and the play page's spectators' bar use it: fetched by a dynamic import when first asked for,
// so it lands in a chunk of its own and never in a player's first load.
import type { SenetEngine } from "../engine/wasm";

/** The engine's interface (engine/wasm.ts SenetEngine). */
export type Engine = SenetEngine;

/** Loads the engine (the .wasm is fetched once); rejects when this browser cannot run it. */
export async function loadEngineOnDemand(): Promise<Engine> {
  const { loadEngine } = await import("../engine/wasm");
  return loadEngine();
}
