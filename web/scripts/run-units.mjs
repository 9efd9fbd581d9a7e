// Runs the node unit tests of the browser modules (test/unit-*.test.mjs) in this one process,
// for Stryker's command runner: one start-up per mutant instead of one per file. Under Stryker
// (__STRYKER_ACTIVE_MUTANT__ set) only the test files of the module that holds the active mutant
// run: the instrumented sources in src/ name their mutants' ids, and TESTS maps a module to its
// tests (a mutant found in no module runs them all). The exit code is node:test's (1 when a test
// failed). `npm test` runs the same files with `node --test`.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(web, "test");
/** The unit test files of each mutated module (its path under src/). */
const TESTS = {
  "play/words.ts": ["unit-words"], "play/state.ts": ["unit-state"], "play/seat.ts": ["unit-seat"], "shared/fragment.ts": ["unit-seat"],
  "shared/movelist.ts": ["unit-movelist"], "play/choices.ts": ["unit-choices"], "play/pacer.ts": ["unit-pacer"],
  "play/claim.ts": ["unit-feed-claim"], "play/feed.ts": ["unit-feed-claim"],
  "shared/moves.ts": ["unit-choices", "unit-words", "unit-replay-graph"], "shared/storage.ts": ["unit-seat"],
};

/** The module under src/ (its path there) whose instrumented text holds mutant `id`, or null. */
function moduleOf(id) {
  const files = readdirSync(join(web, "src"), { recursive: true }).map(String).filter((f) => f.endsWith(".ts"));
  for (const file of files) {
    const text = readFileSync(join(web, "src", file), "utf8");
    for (const m of text.matchAll(/stry(?:Cov|MutAct)_9fa48\(([^)]*)\)/g))
      if (m[1].split(",").some((s) => s.trim() === `"${id}"`)) return file;
  }
  return null;
}

const all = readdirSync(dir).filter((f) => /^unit-.*\.test\.mjs$/.test(f)).sort();
const active = process.env.__STRYKER_ACTIVE_MUTANT__;
const only = active ? TESTS[moduleOf(active) ?? ""] : undefined;
for (const file of only ? all.filter((f) => only.includes(f.replace(/\.test\.mjs$/, ""))) : all)
  await import(pathToFileURL(join(dir, file)).href);
