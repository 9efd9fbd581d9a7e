// The shape of src/ (web/README.md "Layout"): no import circle, each folder imports only what
// its row of the Layout table allows, npm packages only where they are meant to be, and no file
// or function grows past the sizes the README names. Reads the sources as text: no build needed.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { test } from "node:test";

const src = join(import.meta.dirname, "..", "src");

/**
 * What the files of each folder may import besides their own folder (the longest folder that
 * holds a file is its folder). `lazy`: only by a dynamic import() or for types, so that the
 * engine never lands in a bundle by a static import from shared code.
 */
export const RULES = {
  engine: { may: [] },
  shared: { may: [], lazy: ["engine"] },
  play: { may: ["shared"] },
  learn: { may: ["learn/lessons", "shared", "engine"] },
  "learn/lessons": { may: ["shared"] },
  replay: { may: ["shared"] },
  home: { may: ["shared"] },
  site: { may: ["shared"] },
  // The play page's first module: bundled on its own (a few small shared files inlined).
  boot: { may: ["shared"] },
};
/** The npm packages src/ imports, and the one file each may be imported by. */
const PACKAGES = { "intl-messageformat": "shared/i18n.ts", "qrcode-generator": "play/qr.ts" };
const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 80;

/** The code with comments and the insides of string and template literals blanked (line breaks kept). */
export function blank(text) {
  let out = "";
  for (let i = 0; i < text.length;) {
    const c = text[i], next = text[i + 1];
    if (c === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") { out += " "; i++; }
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      out += c;
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === "\\") { out += "  "; i += 2; continue; }
        out += text[i] === "\n" ? "\n" : " ";
        i++;
      }
      out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The imports of a file: { spec, kind } with kind "static", "type" or "dynamic". */
export function importsOf(text) {
  const code = blank(text);
  const found = [];
  // The specifiers are read from the original text at the blanked literals' places.
  const literalAt = (index) => text.slice(index + 1, text.indexOf(text[index], index + 1));
  const statement = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?(?:[^;"'`]*?\s+from\s*)?(["'])/g;
  for (const m of code.matchAll(statement)) {
    if (m[1] === "export" && !/\bfrom\s*["']$/.test(m[0])) continue;  // export const …, not a re-export
    found.push({ spec: literalAt(m.index + m[0].length - 1), kind: m[2] ? "type" : "static" });
  }
  for (const m of code.matchAll(/\bimport\s*\(\s*(["'])/g)) found.push({ spec: literalAt(m.index + m[0].length - 1), kind: "dynamic" });
  return found;
}

/** Every .ts file under src/, as a path relative to it ("play/play.ts"). */
function sources() {
  return readdirSync(src, { recursive: true }).map(String).filter((f) => f.endsWith(".ts")).sort();
}

/** The file a relative specifier of `from` names (".ts" added, or its index.ts), or null. */
function resolve(from, spec) {
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  for (const file of [`${base}.ts`, `${base}/index.ts`]) if (existsSync(join(src, file))) return file;
  return null;
}

/** The folder a file belongs to: the longest folder of RULES that holds it. */
function folderOf(file) {
  return Object.keys(RULES).filter((f) => file.startsWith(`${f}/`)).sort((a, b) => b.length - a.length)[0] ?? null;
}

/** The import graph of src/: file → [{ file, kind }], and the problems met while reading it. */
function graph() {
  const edges = new Map();
  const problems = [];
  for (const file of sources()) {
    const list = [];
    for (const { spec, kind } of importsOf(readFileSync(join(src, file), "utf8"))) {
      if (!spec.startsWith(".")) {
        if (PACKAGES[spec] !== file) problems.push(`${file} imports the package ${spec} (allowed: ${JSON.stringify(PACKAGES)})`);
        continue;
      }
      const target = resolve(file, spec);
      if (target) list.push({ file: target, kind });
      else problems.push(`${file}: "${spec}" names no file`);
    }
    edges.set(file, list);
  }
  return { edges, problems };
}

/** Every import circle (as the files around it, the first again at the end), by depth-first search. */
export function circles(edges) {
  const found = [];
  const state = new Map();  // file → "open" while on the path, "done" after
  const path = [];
  const visit = (file) => {
    state.set(file, "open");
    path.push(file);
    for (const { file: next } of edges.get(file) ?? []) {
      if (state.get(next) === "open") found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  return found;
}

/** The functions (declarations, methods, arrow and function expressions) longer than `max` lines: "file:line (n lines)". */
export function longFunctions(file, text, max) {
  const lines = blank(text).split("\n");
  const control = new Set(["if", "for", "while", "switch", "catch", "with"]);
  const long = [];
  lines.forEach((line, i) => {
    for (let at = line.indexOf("{"); at >= 0; at = line.indexOf("{", at + 1)) {
      const before = line.slice(0, at);
      // A name with its parameters (and perhaps a return type) before the brace: a function or a
      // method, unless the name is a control keyword; or an arrow.
      const named = /^\s*(?:(?:export|default|async|function|public|private|protected|static|readonly|override|get|set)\s+)*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(.*\)\s*(?::.*)?$/.exec(before);
      const isFunction = /=>\s*$/.test(before) || (named && !control.has(named[1]));
      if (!isFunction) continue;
      // The body's end: where the braces opened here close again.
      let depth = 0;
      for (let j = i; j < lines.length; j++) {
        const part = j === i ? lines[j].slice(at) : lines[j];
        for (const ch of part) {
          if (ch === "{") depth++;
          else if (ch === "}" && --depth === 0) {
            if (j - i + 1 > max) long.push(`${file}:${i + 1} (${j - i + 1} lines)`);
            return;
          }
        }
      }
    }
  });
  return long;
}

test("the import reader finds static, type-only, re-exported and dynamic imports, and none in comments or strings", () => {
  const text = [
    'import { a } from "./a";', 'import type { B } from "./b";', 'import "./c";', 'export * from "./d";',
    'export const x = 1; // import { no } from "./commented"', 'const s = "import(\\"./in-a-string\\")";',
    'const m = await import("./e");', '/* import("./f") */', 'import {', '  g,', '} from "./g";',
  ].join("\n");
  assert.deepEqual(importsOf(text), [
    { spec: "./a", kind: "static" }, { spec: "./b", kind: "type" }, { spec: "./c", kind: "static" },
    { spec: "./d", kind: "static" }, { spec: "./g", kind: "static" }, { spec: "./e", kind: "dynamic" },
  ]);
});

test("the circle finder finds a circle and a file that imports itself, and nothing in a tree", () => {
  const g = (o) => new Map(Object.entries(o).map(([k, v]) => [k, v.map((file) => ({ file }))]));
  assert.deepEqual(circles(g({ a: ["b"], b: ["c"], c: ["a"], d: ["a"] })), [["a", "b", "c", "a"]]);
  assert.deepEqual(circles(g({ a: ["a"] })), [["a", "a"]]);
  assert.deepEqual(circles(g({ a: ["b", "c"], b: ["c"], c: [] })), []);
});

test("the function measure counts declarations, methods and arrows, not blocks", () => {
  const body = (n) => Array.from({ length: n }, () => "  x();").join("\n");
  const text = [`function f(a: number): void {`, body(3), `}`, `const g = async (e) => {`, body(1), `};`,
    `class K {`, `  private m(x: string): string {`, body(2), `  }`, `}`, `if (ok) {`, body(9), `}`].join("\n");
  assert.deepEqual(longFunctions("t.ts", text, 3), ["t.ts:1 (5 lines)", "t.ts:10 (4 lines)"]);
});

const { edges, problems } = graph();

test("every import of src/ names a file, and npm packages are imported only where they belong", () => {
  assert.deepEqual(problems, []);
});

test("src/ has no import circle", () => {
  const found = circles(edges);
  assert.deepEqual(found.map((c) => c.join(" → ")), [], "import circles");
});

test("every file of src/ is in a folder of the Layout table and imports only what that folder may", () => {
  const wrong = [];
  for (const [file, list] of edges) {
    const folder = folderOf(file);
    if (!folder) { wrong.push(`${file} is in no folder of the Layout table`); continue; }
    const rule = RULES[folder];
    for (const { file: target, kind } of list) {
      const to = folderOf(target);
      if (to === folder || rule.may.includes(to)) continue;
      if (rule.lazy?.includes(to) && kind !== "static") continue;
      wrong.push(`${file} imports ${target}${kind === "static" ? "" : ` (${kind})`}: ${folder}/ may use ${[...rule.may, ...(rule.lazy ?? []).map((l) => `${l} (lazily)`)].join(", ") || "nothing else"}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test("each page's entry (and the play page's first module) is src/NAME/NAME.ts, as scripts/build.mjs bundles it", () => {
  const build = readFileSync(join(src, "..", "scripts", "build.mjs"), "utf8");
  const entries = JSON.parse(/for \(const entry of (\[[^\]]*\])\)/.exec(build)?.[1] ?? "[]");
  assert.deepEqual([...entries].sort(), ["boot", "home", "learn", "play", "replay", "site"]);
  for (const page of entries) assert.ok(existsSync(join(src, page, `${page}.ts`)), `src/${page}/${page}.ts`);
});

test(`no file of src/ is over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}`, () => {
  const long = [];
  for (const file of sources()) {
    const text = readFileSync(join(src, file), "utf8");
    const count = text.split("\n").length;
    if (count > MAX_FILE_LINES) long.push(`${file} (${count} lines)`);
    long.push(...longFunctions(file, text, MAX_FUNCTION_LINES));
  }
  assert.deepEqual(long, []);
});
