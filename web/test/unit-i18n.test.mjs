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
