// usePageStrings (shared/i18n.ts): the strings a page carries in its JSON data block, as the
// server writes it (every < as \u003c), taken without a request; a page without the block, or
// with one that is not a JSON object, leaves the strings as they were and says so.
import assert from "node:assert/strict";
import { join } from "node:path";
import { afterEach, test } from "node:test";
import { readPo } from "../scripts/po.mjs";
import { element } from "../testlib/unit-dom.mjs";
import { i18n } from "../testlib/unit-env.mjs";

const en = readPo(join(import.meta.dirname, "..", "po", "en.po"));

/** Puts a `<script type="application/json" id="page-strings">` holding `text` into the document. */
function block(text) {
  const script = element("script");
  script.setAttribute("type", "application/json");
  script.id = "page-strings";
  script.textContent = text;
  document.body.append(script);
  return script;
}

afterEach(() => {
  document.getElementById("page-strings")?.remove();
  i18n.setStrings(en, "en");
});

test("the page's strings are taken from its block, escapes and plural rules of its language included", () => {
  block(String.raw`{"play.title":"\u003c/script\u003e \u0026 Senet","ev.pieces":"{count, plural, one {# pionek} few {# pionki} many {# pionków} other {# pionka}}"}`);
  assert.equal(i18n.usePageStrings("pl"), true);
  assert.equal(i18n.t("play.title"), "</script> & Senet");
  assert.equal(i18n.t("ev.pieces", { count: 3 }), "3 pionki");
  assert.equal(i18n.t("ev.pieces", { count: 5 }), "5 pionków");
  assert.equal(i18n.has("play.throw"), false, "only the block's strings");
});

test("no block, an empty one, one that does not parse or is not an object: nothing changes", () => {
  assert.equal(i18n.usePageStrings("en"), false);
  for (const text of ["", "{\"play.title\":", "[\"a\"]", "null", "\"text\""]) {
    const b = block(text);
    assert.equal(i18n.usePageStrings("en"), false, JSON.stringify(text));
    assert.equal(i18n.t("play.throw"), en["play.throw"]);
    b.remove();
  }
});

test("the block's parsed messages are formatted as they come; a tree that is not one falls back to the text", () => {
  // The tree says "trees" where the text says "text": which of the two was formatted shows.
  const tree = [{ type: 5, value: "v", options: { a: { value: [{ type: 0, value: "tree a" }] }, other: { value: [{ type: 0, value: "tree other" }] } } }];
  block(JSON.stringify({ "play.x": "{v, select, a {text a} other {text other}}", "play.y": "{v, select, a {y a} other {y other}}",
    "@parsed": { "play.x": tree, "play.y": { not: "a tree" } } }));
  assert.equal(i18n.usePageStrings("en"), true);
  assert.equal(i18n.t("play.x", { v: "a" }), "tree a");
  assert.equal(i18n.t("play.y", { v: "a" }), "y a");
  assert.equal(i18n.has("@parsed"), false, "the trees are no string");
  // A block whose "@parsed" is no object: the texts are taken and parsed.
  document.getElementById("page-strings").remove();
  block(JSON.stringify({ "play.x": "{v, select, a {text a} other {text other}}", "@parsed": [1] }));
  assert.equal(i18n.usePageStrings("en"), true);
  assert.equal(i18n.t("play.x", { v: "a" }), "text a");
});
