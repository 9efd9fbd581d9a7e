// Runs every node unit test of the browser modules (test/unit-*.test.mjs) in this one process,
// for Stryker's command runner: one start-up per mutant instead of one per file. The exit code
// is node:test's (1 when a test failed). `npm test` runs the same files with `node --test`.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "test");
for (const file of readdirSync(dir).filter((f) => /^unit-.*\.test\.mjs$/.test(f)).sort())
  await import(pathToFileURL(join(dir, file)).href);
