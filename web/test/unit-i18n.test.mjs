// The browser's strings (src/shared/i18n.ts): plain strings skip intl-messageformat, so for every
// string of every catalog that isPlain() passes, t() must give what the formatter would.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { IntlMessageFormat } from "intl-messageformat";
import { readPo } from "../scripts/po.mjs";
import { PAGE_STRINGS, PARSED_KEY, PLURAL_KEY, pageStringsFile, pick, pluralTable } from "../scripts/page-strings.mjs";
import { i18n } from "../testlib/unit-env.mjs";

const po = join(dirname(fileURLToPath(import.meta.url)), "..", "po");
/** The English catalog back, as the other unit tests expect it (they may share this process: scripts/run-units.mjs). */
const english = () => i18n.setStrings(readPo(join(po, "en.po")), "en");

test("every plain string of every catalog is what intl-messageformat makes of it, and t() gives it", (t) => {
  t.after(english);
  let plain = 0;
  for (const file of readdirSync(po).filter((f) => f.endsWith(".po"))) {
    const lang = file.slice(0, -3);
    const table = readPo(join(po, file));
    i18n.setStrings(table, lang);
    for (const [key, text] of Object.entries(table)) {
      if (!i18n.isPlain(text)) continue;
      plain++;
      assert.equal(String(new IntlMessageFormat(text, `${lang}-u-nu-latn`, undefined, { ignoreTag: true }).format({})), text, `${file}: ${key}`);
      assert.equal(i18n.t(key), text, `${file}: ${key}`);
    }
  }
  assert.ok(plain > 1000, `${plain} plain strings`);
});

test("isPlain: braces and apostrophes go to the formatter, everything else is plain", (t) => {
  t.after(english);
  assert.equal(i18n.isPlain("Throw the sticks"), true);
  assert.equal(i18n.isPlain("Take back · 50 %"), true);
  for (const text of ["{n} squares", "it''s", "a } b", "l'entrée"]) assert.equal(i18n.isPlain(text), false, text);
  // A formatted one still formats, with the shared plural rules.
  i18n.setStrings({ k: "{count, plural, one {# piece} other {# pieces}}", q: "it''s {n}" }, "en");
  assert.equal(i18n.t("k", { count: 1 }), "1 piece");
  assert.equal(i18n.t("k", { count: 3 }), "3 pieces");
  assert.equal(i18n.t("q", { n: 2 }), "it's 2");
});

test("every simple-argument string of every catalog substitutes as intl-messageformat formats it", (t) => {
  t.after(english);
  let simple = 0;
  const values = ["Nefertari", "", "a {b} 'c'", 0, 1, 2, 5, 12, 30, 999];
  for (const file of readdirSync(po).filter((f) => f.endsWith(".po"))) {
    const lang = file.slice(0, -3);
    const table = readPo(join(po, file));
    i18n.setStrings(table, lang);
    for (const [key, text] of Object.entries(table)) {
      if (i18n.isPlain(text) || !i18n.simpleParts(text)) continue;
      simple++;
      const names = i18n.simpleParts(text).filter((_, i) => i % 2);
      const lib = new IntlMessageFormat(text, `${lang}-u-nu-latn`, undefined, { ignoreTag: true });
      for (const [i, v] of values.entries()) {
        const params = Object.fromEntries(names.map((n, j) => [n, values[(i + j) % values.length]]));
        assert.equal(i18n.t(key, params), String(lib.format(params)), `${file}: ${key} with ${JSON.stringify(params)} (${JSON.stringify(v)})`);
      }
    }
  }
  assert.ok(simple > 300, `${simple} simple strings`);
});

test("simpleParts: only {name} arguments; numbers the formatter would write otherwise go to it", (t) => {
  t.after(english);
  assert.deepEqual(i18n.simpleParts("Square {square}: {name}"), ["Square ", "square", ": ", "name", ""]);
  for (const text of ["{n, plural, one {#} other {#}}", "{n, number}", "l'{n}", "a { b", "{ n }"]) assert.equal(i18n.simpleParts(text), null, text);
  i18n.setStrings({ k: "{n} squares" }, "fi");
  const lib = new IntlMessageFormat("{n} squares", "fi-u-nu-latn");
  assert.equal(i18n.t("k", { n: 12 }), "12 squares");
  for (const n of [1234567, -5, 1.5]) assert.equal(i18n.t("k", { n }), String(lib.format({ n })), String(n));
  assert.equal(i18n.t("k", {}), "{n} squares");  // a missing value: the raw text, as before
});

/** Each argument a syntax tree names (intl-messageformat's TYPE: 1 argument, 5 select, 6 plural), with the values worth trying. */
function treeArguments(tree, found = new Map()) {
  for (const el of tree) {
    if (el.type === 1) found.set(el.value, [...(found.get(el.value) ?? []), "Nefertari", "", 0, 7, 1234, -5, 1.5]);
    if (el.type === 5) found.set(el.value, [...(found.get(el.value) ?? []), ...Object.keys(el.options), "none-of-these"]);
    if (el.type === 6) found.set(el.value, [...(found.get(el.value) ?? []), ...Array.from({ length: 32 }, (_, n) => n), 99, 100, 101, 102, 111, 112, 125, 999, 1000, 1234, -1, 1.5]);
    for (const option of Object.values(el.options ?? {})) treeArguments(option.value, found);
  }
  return found;
}

test("quickFormat formats every parsed message of every page in every language as intl-messageformat does, or leaves it to it", (t) => {
  t.after(english);
  let checked = 0, quick = 0;
  for (const file of readdirSync(po).filter((f) => f.endsWith(".po"))) {
    const lang = file.slice(0, -3);
    const all = readPo(join(po, file));
    for (const prefixes of Object.values(PAGE_STRINGS)) {
      const { [PARSED_KEY]: trees, [PLURAL_KEY]: plurals, ...texts } = pageStringsFile(pick(all, prefixes), lang);
      i18n.setStrings(texts, lang, trees, plurals);
      for (const [key, tree] of Object.entries(trees)) {
        const lib = new IntlMessageFormat(texts[key], `${lang}-u-nu-latn`, undefined, { ignoreTag: true });
        const args = treeArguments(tree);
        const base = Object.fromEntries([...args].map(([name, values]) => [name, values[0]]));
        // Every value of each argument with the others at their first, and a few mixed.
        const cases = [base, ...[...args].flatMap(([name, values]) => values.map((v) => ({ ...base, [name]: v })))];
        for (let i = 0; i < 8; i++) cases.push(Object.fromEntries([...args].map(([name, values], j) => [name, values[(i * 7 + j * 3) % values.length]])));
        for (const params of cases) {
          let want;
          try { want = String(lib.format(params)); } catch { want = null; }
          const got = i18n.quickFormat(tree, params);
          if (got !== null) { quick++; assert.equal(got, want, `${file}: ${key} with ${JSON.stringify(params)}`); }
          if (want !== null) assert.equal(i18n.t(key, params), want, `${file}: ${key} with ${JSON.stringify(params)} through t()`);
          checked++;
        }
      }
    }
  }
  assert.ok(quick > 2000 && checked > quick, `${quick} of ${checked} formatted without Intl`);
});

test("quickFormat: plurals beyond the table, number styles and missing values go to the formatter", () => {
  i18n.setStrings({}, "pl", {}, pluralTable("pl"));
  const tree = new IntlMessageFormat("{n, plural, one {# pionek} few {# pionki} many {# pionków} other {# pionka}}", "pl").getAst();
  assert.equal(i18n.quickFormat(tree, { n: 1 }), "1 pionek");
  assert.equal(i18n.quickFormat(tree, { n: 22 }), "22 pionki");
  assert.equal(i18n.quickFormat(tree, { n: 12 }), "12 pionków");
  for (const n of [1000, 1.5, -1, -0]) assert.equal(i18n.quickFormat(tree, { n }), null, String(n));
  assert.equal(i18n.quickFormat(tree, {}), null);
  // A plain argument beside a plural: a number the formatter would group or sign is the formatter's.
  const beside = new IntlMessageFormat("{n, plural, one {# pionek} other {# pionków}} z {m}", "pl").getAst();
  assert.equal(i18n.quickFormat(beside, { n: 1, m: 7 }), "1 pionek z 7");
  for (const m of [1234, -5, 1.5]) assert.equal(i18n.quickFormat(beside, { n: 1, m }), null, String(m));
  assert.equal(i18n.quickFormat(new IntlMessageFormat("{p, number, percent}", "pl").getAst(), { p: 0.5 }), null);
  // Without a table (a page that fetched its strings) nothing is formatted quickly.
  i18n.setStrings({}, "pl", {}, "");
  assert.equal(i18n.quickFormat(tree, { n: 1 }), null);
  english();
});
