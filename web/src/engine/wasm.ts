// The rules engine in the browser: the C++ engine (engine/, and the expert's evaluation from
// engine/ai) compiled to WebAssembly by scripts/build-wasm.sh, with this small typed wrapper.
// Only the pages that need it (learn, replay) import this module; the play page must not
// (the web build checks it). Positions and moves use RULES.md's notation, exactly as the
// `senet` command-line tool prints them.

/** One throw value of a ruleset with its exact chance. */
export interface ThrowOdds {
  /** The value thrown (1..5 standard, 1..4 and 6 Jéquier, 1..4 Bell's die). */
  throwValue: number;
  /** Its probability (weight / total weight of the ruleset's outcomes), in (0, 1]. */
  probability: number;
  /** Whether the player throws again after moving with it. */
  extraThrow: boolean;
}

/** One ply of a replayed record. */
export interface ReplayPly {
  /** The value thrown for this ply. */
  throwValue: number;
  /** The move played, in notation (`FROM-TO`, `FROM-off` or `pass`). */
  move: string;
  /** The player (1 or 2) who threw and moved. */
  player: number;
}

/** A replayed game record. */
export interface Replay {
  /**
   * positions[0] is the position before the first ply, positions[i] the position after ply i
   * (so positions.length === plies.length + 1). For Jéquier, positions[0] is the position after
   * the opening (the seat that threw the first 1 is player 2 and has moved 10→11, as
   * `senet start jequier` prints it): the opening throws are not plies; they are in `opening`.
   */
  positions: string[];
  /** Every ply in order, passes included. */
  plies: ReplayPly[];
  /** The values of Jéquier's opening throws in order (the last is the 1); [] for the other rulesets. */
  opening: number[];
  /** The engine's verdict on the final position: "ongoing" | "win 1" | "win 2" | "draw". */
  status: string;
}

/** The engine, once loaded. Every method is synchronous and never aborts the module. */
export interface SenetEngine {
  /**
   * Every legal move in `position` (RULES.md notation) for `throwValue` (a value the ruleset
   * can throw, see throwOdds: 1..5 standard, 1..4 and 6 Jéquier, 1..4 Bell), as `senet moves`
   * prints them, in the same order; ["pass"] when there is none (or Jéquier's lost turn).
   * Throws Error (its message names the problem, as `senet moves` does) for a malformed
   * position, a throw the ruleset cannot produce, or a game that is over.
   */
  moves(position: string, throwValue: number): string[];
  /**
   * The position after `move` (`FROM-TO`, `FROM-off` or `pass`) and the game's status
   * ("ongoing" | "win 1" | "win 2" | "draw"), as `senet apply` prints them. Throws Error for an
   * illegal move (the message gives the reason) or malformed input.
   */
  apply(position: string, throwValue: number, move: string): { position: string; status: string };
  /**
   * The chance of each throw value for `ruleset` ("standard" | "jequier" | "bell"), as RULES.md
   * gives them, in increasing throwValue. Throws Error for an unknown ruleset.
   */
  throwOdds(ruleset: string): ThrowOdds[];
  /**
   * The expert computer's estimate that player 1 wins from `position` (the player to throw is
   * its TURN), in [0, 1]: 1 / 0 / 0.5 for a game won by player 1 / won by player 2 / drawn.
   * Equals `senet winprob POSITION` of the native tool: an exact two-ply expectimax over the
   * throw odds with the expert's evaluation at the leaves (a few milliseconds per position).
   * Throws Error for a malformed position.
   */
  winProbability(position: string): number;
  /**
   * Replays a game record: the JSON of GET /api/games/{id}/record, or the engine's record
   * format that `senet replay` reads (extra members are ignored). Returns the positions
   * (`senet replay --positions` prints the same, one per line), the plies and the final status.
   * Throws Error naming the first step that does not replay (e.g. "bad record: ply 7: ...").
   * `status` is the board's verdict: "ongoing" for a game that ended by resignation or claim
   * (the server's record says how in its `ending`).
   */
  replay(recordJson: string): Replay;
}

/** The URL of the fingerprinted engine.wasm, set by the web build (scripts/build.mjs). */
declare const SENET_ENGINE_WASM_URL: string | undefined;

/** The exports of engine/wasm/bindings.cpp. */
interface Exports {
  memory: WebAssembly.Memory;
  senet_alloc(size: number): number;
  senet_free(ptr: number): void;
  senet_moves(pos: number, posLen: number, throwValue: number): number;
  senet_apply(pos: number, posLen: number, throwValue: number, move: number, moveLen: number): number;
  senet_throw_odds(ruleset: number, rulesetLen: number): number;
  senet_win_probability(pos: number, posLen: number): number;
  senet_replay(record: number, recordLen: number): number;
  senet_result_ptr(): number;
  senet_result_len(): number;
  /** Runs the module's static constructors (a reactor module without main). */
  _initialize?: () => void;
}

let loading: Promise<SenetEngine> | null = null;

/**
 * Loads the engine once (later calls return the same promise; a failed load is retried on
 * the next call). Rejects when the .wasm cannot be fetched or compiled.
 */
export function loadEngine(): Promise<SenetEngine> {
  if (!loading) {
    const url = typeof SENET_ENGINE_WASM_URL === "string" ? SENET_ENGINE_WASM_URL : "/static/engine.wasm";
    loading = fetch(url)
      .then((r) => {
        if (!r.ok) throw new Error(`engine: cannot load ${url} (HTTP ${r.status})`);
        return r.arrayBuffer();
      })
      .then((bytes) => instantiateEngine(bytes));
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/** Instantiates the engine from the bytes of engine.wasm (what loadEngine fetches; tests pass the file). */
export async function instantiateEngine(bytes: BufferSource): Promise<SenetEngine> {
  const { instance } = await WebAssembly.instantiate(bytes, imports());
  const exports = instance.exports as unknown as Exports;
  exports._initialize?.();
  return wrap(exports);
}

/**
 * The module's two imports: the heap grew (nothing to do: views of memory.buffer are made
 * afresh on every call), and exit, reached only by an abort inside the engine, which no
 * input can cause; it is turned into an Error rather than a dead module.
 */
function imports(): WebAssembly.Imports {
  return {
    env: { emscripten_notify_memory_growth: () => {} },
    wasi_snapshot_preview1: {
      proc_exit: (code: number) => {
        throw new Error(`engine: the module exited (code ${code})`);
      },
    },
  };
}

function wrap(x: Exports): SenetEngine {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  /** Copies `s` into the module's memory; the caller frees it. */
  const put = (s: string): [number, number] => {
    const bytes = encoder.encode(s);
    const ptr = x.senet_alloc(Math.max(bytes.length, 1));
    new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
    return [ptr, bytes.length];
  };
  /** The bytes the last call left; throws their text as an Error when the call failed (status != 0). */
  const resultBytes = (status: number): Uint8Array => {
    const bytes = new Uint8Array(x.memory.buffer, x.senet_result_ptr(), x.senet_result_len());
    if (status !== 0) throw new Error(decoder.decode(bytes));
    return bytes;
  };
  const result = (status: number): string => decoder.decode(resultBytes(status));
  /** Calls `call` with (pointer, length) of each string copied into the module, then frees them. */
  const withStrings = <T>(args: string[], call: (...pointersAndLengths: number[]) => T): T => {
    const ptrs = args.map(put);
    try {
      return call(...ptrs.flat());
    } finally {
      for (const [p] of ptrs) x.senet_free(p);
    }
  };
  const checkThrow = (v: number) => {
    if (!Number.isInteger(v) || v < 0 || v > 15) throw new Error(`throw must be a whole number the ruleset can throw, got ${String(v)}`);
  };
  const lines = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));

  return {
    moves(position, throwValue) {
      checkThrow(throwValue);
      return withStrings([position], (p, n) => lines(result(x.senet_moves(p, n, throwValue))));
    },
    apply(position, throwValue, move) {
      checkThrow(throwValue);
      return withStrings([position, move], (p, n, m, k) => {
        const [pos = "", status = ""] = lines(result(x.senet_apply(p, n, throwValue, m, k)));
        return { position: pos, status };
      });
    },
    throwOdds(ruleset) {
      return withStrings([ruleset], (p, n) => {
        const odds = JSON.parse(result(x.senet_throw_odds(p, n))) as { total: number; values: { throwValue: number; weight: number; extraThrow: boolean }[] };
        return odds.values.map((v) => ({ throwValue: v.throwValue, probability: v.weight / odds.total, extraThrow: v.extraThrow }));
      });
    },
    winProbability(position) {
      return withStrings([position], (p, n) => {
        const bytes = resultBytes(x.senet_win_probability(p, n));
        return new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0, true);
      });
    },
    replay(recordJson) {
      return withStrings([recordJson], (p, n) => JSON.parse(result(x.senet_replay(p, n))) as Replay);
    },
  };
}
