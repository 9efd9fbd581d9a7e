// The house signs have two copies: the play page's board (src/shared/board.ts SIGNS) and the
// server's board diagram on the rules and variant pages (server/site/src/diagram.cpp). Each sign that the
// server draws, for every ruleset, must be the board's drawing, path for path, and every sign of
// the board must be drawn by some ruleset's diagram (so none goes unchecked).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startServer } from "./helpers.mjs";
import { board } from "../testlib/unit-env.mjs";

// The standard game's diagram is on the rules page, each other ruleset's on its variant page.
const PAGES = { standard: "rules", jequier: "variants/jequier", bell: "variants/bell", kendall: "variants/kendall", piccione: "variants/piccione" };
let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

/** The signs in a page's HTML: { key: { fill: [d...], line: [d...] } }, failing on two different drawings of one key. */
function signsIn(html) {
  const found = {};
  for (const m of html.matchAll(/<g class="diagram-house" data-sign="([^"]+)"[^>]*>(.*?)<\/g>/gs)) {
    const drawing = { line: [], fill: [] };
    for (const p of m[2].matchAll(/<path class="sign-(fill|line)"[^>]*\sd="([^"]+)"/g)) drawing[p[1]].push(p[2]);
    if (found[m[1]]) assert.deepEqual(drawing, found[m[1]], `two drawings of ${m[1]} in one page`);
    found[m[1]] = drawing;
  }
  return found;
}

test("every house sign on the rules and variant pages' diagrams is the play board's drawing, and every board sign is drawn", async () => {
  const drawn = new Set();
  for (const [ruleset, page] of Object.entries(PAGES)) {
    const response = await fetch(`${server.url}/en/${page}`);
    assert.equal(response.status, 200, ruleset);
    const signs = signsIn(await response.text());
    assert.ok(Object.keys(signs).length >= 2, `${ruleset}: the diagram draws its houses' signs (${Object.keys(signs)})`);
    for (const [key, drawing] of Object.entries(signs)) {
      assert.ok(board.SIGNS[key], `${ruleset}: the diagram's sign ${key} is one of the board's`);
      assert.deepEqual(drawing, { line: board.SIGNS[key].line, fill: board.SIGNS[key].fill }, `${ruleset}: sign ${key}`);
      drawn.add(key);
    }
  }
  assert.deepEqual([...drawn].sort(), Object.keys(board.SIGNS).sort(), "each of the board's signs is drawn by some diagram");
});
