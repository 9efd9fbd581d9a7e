// Every message of every catalog (web/po/*.po) parses as an ICU MessageFormat pattern with
// intl-messageformat (the browser's formatter, src/shared/i18n.ts), uses exactly the arguments of the
// English message, and formats with sample values for each of them: every select key the
// English message lists, and plural counts 0, 1, 2, 3, 5, 11, 22, 101 and 1.5 (so that every
// plural form of Polish, Finnish, Dutch and Italian is exercised). The C++ side does the same
// with ICU (tests/site/messages_test.cpp).
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { IntlMessageFormat } from "intl-messageformat";
import { readPo } from "../scripts/po.mjs";

const po = join(dirname(fileURLToPath(import.meta.url)), "..", "po");
const COUNTS = [0, 1, 2, 3, 5, 11, 22, 101, 1.5];

/** The arguments of a parsed message: name → { kind: "simple" | "plural" | "select", selectors }. */
function argumentsOf(ast, out = new Map()) {
  for (const el of ast) {
    if (!("value" in el) || typeof el.value !== "string" || el.type === 0) {
      if (el.children) argumentsOf(el.children, out);  // tags (ignored here, ignoreTag) and pounds
      continue;
    }
    const kind = el.options ? ("pluralType" in el ? "plural" : "select") : "simple";
    const arg = out.get(el.value) ?? { kind, selectors: [] };
    if (kind !== "simple") arg.kind = kind;
    if (el.options) {
      for (const [sel, opt] of Object.entries(el.options)) {
        if (!arg.selectors.includes(sel)) arg.selectors.push(sel);
        argumentsOf(opt.value, out);
      }
    }
    out.set(el.value, arg);
  }
  return out;
}

/** Checks one catalog against English; returns the problems found ("key: why"). */
export function checkCatalog(lang, table, english) {
  const problems = [];
  for (const [key, text] of Object.entries(table)) {
    let fmt;
    try {
      fmt = new IntlMessageFormat(text, lang, undefined, { ignoreTag: true });
    } catch (err) {
      problems.push(`${key}: bad syntax: ${err.message}`);
      continue;
    }
    const args = argumentsOf(fmt.getAst());
    let enArgs = args;
    if (english && english[key] !== undefined) {
      try {
        enArgs = argumentsOf(new IntlMessageFormat(english[key], "en", undefined, { ignoreTag: true }).getAst());
      } catch {
        /* reported with English itself */
      }
    }
    for (const name of args.keys()) if (!enArgs.has(name)) problems.push(`${key}: unknown argument {${name}}`);
    for (const name of enArgs.keys()) if (!args.has(name)) problems.push(`${key}: missing argument {${name}}`);
    // Sample values from the English argument names: one variation of one argument at a time.
    const base = {};
    for (const [name, a] of enArgs) base[name] = a.kind === "select" ? a.selectors.find((s) => s !== "other") ?? "other" : 2;
    const samples = [base];
    for (const [name, a] of enArgs) {
      const values = a.kind === "select" ? [...a.selectors, "another"] : COUNTS;
      for (const v of values) samples.push({ ...base, [name]: v });
    }
    for (const params of samples) {
      try {
        const out = String(fmt.format(params));
        if (/[{}]/.test(out) && !/[{}]/.test(english?.[key] ?? "")) problems.push(`${key}: braces left in "${out}"`);
      } catch (err) {
        problems.push(`${key}: cannot format with ${JSON.stringify(params)}: ${err.message}`);
        break;
      }
    }
  }
  return problems;
}

const langs = readdirSync(po).filter((f) => f.endsWith(".po")).map((f) => f.slice(0, -3));
const english = readPo(join(po, "en.po"));

test("the checker finds broken messages", () => {
  const en = { a: "{count, plural, one {# piece} other {# pieces}}", b: "{person, select, you {You} other {{name}}}" };
  assert.deepEqual(checkCatalog("en", en, en), []);
  assert.match(checkCatalog("pl", { a: "{count, plural, one {# pionek} other {# pionków}" }, en).join("\n"), /a: bad syntax/);
  assert.match(checkCatalog("pl", { a: "{ile, plural, other {#}}" }, en).join("\n"), /unknown argument \{ile\}[\s\S]*missing argument \{count\}/);
  assert.match(checkCatalog("nl", { b: "{person, select, you {Jij}}" }, en).join("\n"), /b: (bad syntax|cannot format)/);
});

for (const lang of langs) {
  test(`every message of ${lang}.po formats with intl-messageformat`, () => {
    const table = readPo(join(po, `${lang}.po`));
    assert.ok(Object.keys(table).length > 200, "catalog read");
    assert.deepEqual(checkCatalog(lang, table, english), []);
  });
}

test("plural forms follow each language", () => {
  const fmt = (lang, key, params) => new IntlMessageFormat(readPo(join(po, `${lang}.po`))[key], lang, undefined, { ignoreTag: true }).format(params);
  assert.equal(fmt("pl", "play.off", { count: 1 }), "1 wyprowadzony");
  assert.equal(fmt("pl", "play.off", { count: 3 }), "3 wyprowadzone");
  assert.equal(fmt("pl", "play.off", { count: 5 }), "5 wyprowadzonych");
  assert.equal(fmt("pl", "play.off", { count: 22 }), "22 wyprowadzone");
  assert.equal(fmt("en", "ev.extra-throw", { person: "you", name: "Cones" }), "You throw again.");
  assert.equal(fmt("en", "ev.extra-throw", { person: "other", name: "Cones" }), "Another throw for Cones.");
  assert.match(fmt("fi", "play.fair-verified", { count: 1 }), /ainoa heitto seuraa/);
  assert.match(fmt("fi", "play.fair-verified", { count: 40 }), /kaikki 40 heittoa seuraavat/);
});
