// Turns Stryker's JSON report (reports/mutation/mutation.json, written by `npm run mutation`)
// into the web section of bench/mutation.md: per file killed / survived / no coverage /
// equivalent / score, then every surviving mutant and every mutant marked equivalent (a
// `// Stryker disable` comment) with its reason. Only the part between <!-- web:start --> and
// <!-- web:end --> is replaced; the file and both marker pairs are created when absent.
// Usage: node scripts/mutation-table.mjs [--check] [--out mutation.md] [report.json …]
// (several reports, e.g. one Stryker run per file, are merged file by file).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const outAt = argv.indexOf("--out");
const mdPath = outAt >= 0 ? argv[outAt + 1] : join(web, "..", "bench", "mutation.md");
const reportPaths = argv.filter((a, i) => !a.startsWith("--") && (outAt < 0 || i !== outAt + 1));
if (!reportPaths.length) reportPaths.push(join(web, "reports", "mutation", "mutation.json"));
const TARGET = 85;

/** Why a mutant still survives, by "file:line mutator" (mutation-notes.json): shown beside it, not counted as equivalent. */
const notesPath = join(web, "mutation-notes.json");
const notes = existsSync(notesPath) ? JSON.parse(readFileSync(notesPath, "utf8")) : {};
const report = { files: {} };
for (const path of reportPaths) Object.assign(report.files, JSON.parse(readFileSync(path, "utf8")).files);
const rows = [];
const survivors = [];
const equivalents = [];
const all = { killed: 0, survived: 0, noCoverage: 0, equivalent: 0, errors: 0 };
for (const [file, { source, mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const lines = source.split("\n");
  const c = { killed: 0, survived: 0, noCoverage: 0, equivalent: 0, errors: 0 };
  for (const m of mutants) {
    const where = `${file}:${m.location.start.line}`;
    const code = (lines[m.location.start.line - 1] ?? "").trim().slice(0, 110);
    const replacement = (m.replacement ?? "").replace(/\s+/g, " ").slice(0, 80);
    if (m.status === "Killed" || m.status === "Timeout") c.killed++;
    else if (m.status === "Survived") { c.survived++; survivors.push({ where, mutator: m.mutatorName, code, replacement }); }
    else if (m.status === "NoCoverage") { c.noCoverage++; survivors.push({ where, mutator: m.mutatorName, code, replacement, noCoverage: true }); }
    else if (m.status === "Ignored") { c.equivalent++; equivalents.push({ where, mutator: m.mutatorName, replacement, reason: m.statusReason ?? "" }); }
    else c.errors++;  // CompileError, RuntimeError: the mutant cannot run at all
  }
  for (const k of Object.keys(all)) all[k] += c[k];
  rows.push([file, c]);
}
// Files of the config's `mutate` list that hold no mutant at all (types only) appear with a note.
const configured = JSON.parse(readFileSync(join(web, "stryker.config.json"), "utf8")).mutate ?? [];
const empty = configured.filter((f) => report.files[f] && !report.files[f].mutants.length);
const absent = configured.filter((f) => !report.files[f]);
const score = (c) => {
  const n = c.killed + c.survived + c.noCoverage;
  return n ? (100 * c.killed) / n : 100;
};
const row = (name, c) => `| ${name} | ${c.killed} | ${c.survived} | ${c.noCoverage} | ${c.equivalent} | ${c.errors} | ${score(c).toFixed(1)} % |`;
const cell = (s) => s.replace(/\|/g, "\\|").replace(/`/g, "'");
const out = [
  "<!-- web:start -->",
  "## Browser code (web/src/, Stryker)",
  "",
  `Made by \`npm --prefix web run mutation\` (web/stryker.config.json: Stryker's command runner runs the node unit tests`,
  "web/test/unit-*.test.mjs against a bundle of the instrumented sources; the table by web/scripts/mutation-table.mjs).",
  `Score = killed / (killed + survived + no coverage); equivalent mutants (marked in the source with a reason) are left out.`,
  `Target: ${TARGET} % in every file.${reportPaths.length > 1 ? ` These figures merge ${reportPaths.length} reports (one \`stryker run --mutate src/FILE.ts\` per module, same config).` : ""}`,
  "Surviving mutants count against the score even where the last column explains them as equivalent (those explanations were added after the run).",
  "",
  "| file | killed | survived | no coverage | equivalent | errors | score |",
  "|---|---:|---:|---:|---:|---:|---:|",
  ...rows.map(([f, c]) => row(f, c)),
  row("**all**", all),
  "",
  ...(empty.length ? [`No mutants in ${empty.join(", ")} (nothing to mutate: type declarations only).`, ""] : []),
  ...(absent.length ? [`Not in the report: ${absent.join(", ")}.`, ""] : []),
  `Files below ${TARGET} %: ${rows.filter(([, c]) => score(c) < TARGET).map(([f]) => f).join(", ") || "none"}.`,
  "",
  `### Surviving mutants (${survivors.length})`,
  "",
  ...(survivors.length ? ["| where | mutator | code | becomes | why it survives |", "|---|---|---|---|---|",
    ...survivors.map((s) => `| ${s.where}${s.noCoverage ? " (no coverage)" : ""} | ${s.mutator} | \`${cell(s.code)}\` | \`${cell(s.replacement)}\` | ${cell(notes[`${s.where} ${s.mutator}`] ?? "")} |`)] : ["None."]),
  "",
  `### Equivalent mutants (${equivalents.length}), with the reason given in the source`,
  "",
  ...(equivalents.length ? ["| where | mutator | becomes | why it changes nothing |", "|---|---|---|---|",
    ...equivalents.map((e) => `| ${e.where} | ${e.mutator} | \`${cell(e.replacement)}\` | ${cell(e.reason)} |`)] : ["None."]),
  "<!-- web:end -->",
].join("\n");

let md = existsSync(mdPath) ? readFileSync(mdPath, "utf8") : "# Mutation testing\n\n<!-- cpp:start -->\n<!-- cpp:end -->\n\n<!-- web:start -->\n<!-- web:end -->\n";
if (!md.includes("<!-- web:start -->") || !md.includes("<!-- web:end -->")) md = `${md.trimEnd()}\n\n<!-- web:start -->\n<!-- web:end -->\n`;
md = md.replace(/<!-- web:start -->[\s\S]*?<!-- web:end -->/, () => out);
writeFileSync(mdPath, md);
console.log(`${mdPath}: web section written (${rows.length} files, score ${score(all).toFixed(1)} %)`);
const below = rows.filter(([, c]) => score(c) < TARGET).map(([f]) => f);
if (below.length) console.log(`below ${TARGET} %: ${below.join(", ")}`);
// With --check, a file below the target fails the command (the default only reports).
if (process.argv.includes("--check") && below.length) process.exitCode = 2;
