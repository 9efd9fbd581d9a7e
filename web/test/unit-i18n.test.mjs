// The browser's strings (src/shared/i18n.ts): plain strings skip intl-messageformat, so for every
// string of every catalog that isPlain() passes, t() must give what the formatter would.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { IntlMessageFormat } from "intl-messageformat";
import { readPo } from "../scripts/po.mjs";
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
