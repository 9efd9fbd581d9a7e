// Bundles the browser modules the node unit tests (test/*.test.mjs) import into one ES module,
// .units/units.mjs, each module under its own name (words, movelist, pacer, …) so that they
// share one i18n table. Run before the unit tests (npm test does) and by Stryker as its
// buildCommand, where it bundles the instrumented sources of the sandbox instead.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Module name (as the tests import it) → source file under src/ (without .ts). */
export const MODULES = {
  i18n: "shared/i18n", board: "shared/board", moves: "shared/moves", movelist: "shared/movelist", fragment: "shared/fragment",
  storage: "shared/storage", steps: "shared/steps", hand: "play/hand",
  words: "play/words", choices: "play/choices", pacer: "play/pacer", claim: "play/claim", feed: "play/feed",
  seat: "play/seat", seed: "shared/seed", state: "play/state", moved: "play/moved", sounds: "play/sounds", attention: "play/attention", replay_graph: "replay/graph",
  analysis: "shared/analysis", replay_marks: "replay/marks", end_analysis: "play/end-analysis",
  lobby_client: "home/lobby-client", guest: "home/guest",
};

mkdirSync(join(web, ".units"), { recursive: true });
await esbuild.build({
  stdin: { contents: Object.entries(MODULES).map(([name, file]) => `export * as ${name} from "./src/${file}";`).join("\n"), resolveDir: web, loader: "ts", sourcefile: "units.ts" },
  outfile: join(web, ".units", "units.mjs"),
  bundle: true, format: "esm", platform: "neutral", target: "es2022", logLevel: "warning",
  mainFields: ["module", "main"],
});
