// The strings a page carries inline (scripts/page-strings.mjs) cover every catalog key its
// script can ask for: the key literals (and the literal prefixes of keys made at run time, such
// as `play.legend.${kind}`) in the built bundle of the page, its chunks and its dynamic imports.
// A key outside the list would show as ⟦key⟧ on the page. Reads dist/ (run the build first).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { readPo } from "../scripts/po.mjs";
import { IntlMessageFormat } from "intl-messageformat";
import { PAGE_STRINGS, PARSED_KEY, PLURAL_KEY, needsFormatter, pick, pluralTable } from "../scripts/page-strings.mjs";

const web = join(import.meta.dirname, "..");
const dist = join(web, "dist");
const en = readPo(join(web, "po", "en.po"));

/** The text of a page's entry bundle and of every chunk it imports, statically or on demand. */
function bundleText(entry) {
  const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8"));
  const queue = [manifest[`${entry}.js`].replace("/static/", "")];
  let text = "";
  for (const seen = new Set(queue); queue.length;) {
    const body = readFileSync(join(dist, queue.shift()), "utf8");
    text += body;
    for (const [, name] of body.matchAll(/(?:from|import)\s*\(?"\.\/([^"]+\.js)"/g))
      if (!seen.has(name)) { seen.add(name); queue.push(name); }
  }
  return text;
}

/** The catalog keys a bundle names: whole keys in quotes, and every key under a literal prefix ("play.legend." before a ${…}). */
function keysNamed(text) {
  const out = new Set();
  for (const [, token] of text.matchAll(/["'`]([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+\.?)(?=["'`]|\$\{)/g)) {
    if (Object.hasOwn(en, token)) out.add(token);
    else if (token.endsWith(".")) for (const key of Object.keys(en)) if (key.startsWith(token)) out.add(key);
  }
  return out;
}

for (const page of Object.keys(PAGE_STRINGS)) {
  test(`the ${page} page's inline strings hold every key its script names`, { skip: !existsSync(join(dist, "manifest.json")) && "no web build" }, () => {
    const named = keysNamed(bundleText(page));
    assert.ok(named.size >= (page === "play" ? 100 : 5), `only ${named.size} keys found in the ${page} bundle`);
    const inline = pick(en, PAGE_STRINGS[page]);
    assert.deepEqual([...named].filter((k) => !Object.hasOwn(inline, k)), []);
    // And the build wrote them: the file the server puts into the page, in every language.
    const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8"));
    const { [PARSED_KEY]: trees, [PLURAL_KEY]: plurals, ...built } = JSON.parse(readFileSync(join(dist, manifest[`i18n/${page}-en.json`].replace("/static/", "")), "utf8"));
    assert.deepEqual(Object.keys(built).sort(), Object.keys(inline).sort());
    assert.ok(trees && Object.keys(trees).length >= (page === "play" ? 30 : 3), "the formatted messages come parsed");
    assert.equal(plurals, pluralTable("en"), "and the language's plural table");
  });

  test(`the ${page} page's parsed messages are the trees of its texts, in every language`, { skip: !existsSync(join(dist, "manifest.json")) && "no web build" }, () => {
    const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8"));
    for (const lang of ["en", "nl", "fi", "it", "pl", "de", "fr", "es", "ar"]) {
      const { [PARSED_KEY]: trees, [PLURAL_KEY]: plurals, ...texts } = JSON.parse(readFileSync(join(dist, manifest[`i18n/${page}-${lang}.json`].replace("/static/", "")), "utf8"));
      const want = Object.keys(texts).filter((k) => needsFormatter(texts[k])).sort();
      assert.deepEqual(Object.keys(trees).sort(), want, `${lang}: a tree for each message that needs the formatter, no other`);
      assert.equal(plurals, pluralTable(lang), `${lang}: the plural table`);
      for (const key of want) assert.deepEqual(trees[key], new IntlMessageFormat(texts[key], lang, undefined, { ignoreTag: true }).getAst(), `${lang} ${key}`);
    }
  });
}

test("needsFormatter: plain text and simple arguments do not, plural, select, styles and quotes do", () => {
  for (const text of ["Throw", "Square {square}", "{a} and {b}", ""]) assert.equal(needsFormatter(text), false, text);
  for (const text of ["{n, plural, one {# piece} other {# pieces}}", "{v, select, you {You} other {They}}", "{p, number, percent}", "It''s", "'{x}'"])
    assert.equal(needsFormatter(text), true, text);
});
