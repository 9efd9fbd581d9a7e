// Bundles the browser modules the node unit tests (test/*.test.mjs) import into one ES module,
// .units/units.mjs, each module under its own name (words, movelist, pacer, …) so that they
// share one i18n table. Run before the unit tests (npm test does) and by Stryker as its
// buildCommand, where it bundles the instrumented sources of the sandbox instead.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Module name → source file under src/ (without .ts). */
export const MODULES = ["i18n", "board", "words", "movelist", "choices", "pacer", "claim", "feed", "fragment", "seat", "state", "moved", "replay-graph"];

mkdirSync(join(web, ".units"), { recursive: true });
await esbuild.build({
  stdin: { contents: MODULES.map((m) => `export * as ${m.replace("-", "_")} from "./src/${m}";`).join("\n"), resolveDir: web, loader: "ts", sourcefile: "units.ts" },
  outfile: join(web, ".units", "units.mjs"),
  bundle: true, format: "esm", platform: "neutral", target: "es2022", logLevel: "warning",
  mainFields: ["module", "main"],
});
