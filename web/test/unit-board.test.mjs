// The board's text for screen readers (src/shared/board.ts, boardTitle), in English and in Arabic,
// compared with sentences written here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { readPo } from "../scripts/po.mjs";
import { board, i18n } from "../testlib/unit-env.mjs";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const squares = (pieces) => Array.from({ length: 30 }, (_, i) => pieces[i + 1] ?? 0);

test("each side's squares and borne-off count", () => {
  assert.equal(board.boardTitle(squares({ 1: 1, 3: 1, 5: 1, 2: 2, 4: 2 }), [2, 3]), "Cones: 1, 3 and 5; 2 off. Spools: 2 and 4; 3 off");
});

test("a side with no piece left on the board reads as its count only", () => {
  assert.equal(board.boardTitle(squares({ 30: 2 }), [5, 4]), "Cones: 5 off. Spools: 30; 4 off");
  assert.equal(board.boardTitle(squares({}), [5, 5]), "Cones: 5 off. Spools: 5 off");
});

test("the list follows the language (Intl.ListFormat)", () => {
  try {
    i18n.setStrings(readPo(join(web, "po", "ar.po")), "ar");
    const text = board.boardTitle(squares({ 7: 1, 9: 1 }), [0, 5]);
    assert.ok(text.includes("7 و9"), text);
    assert.ok(!text.includes(": ;"), text);
  } finally {
    i18n.setStrings(readPo(join(web, "po", "en.po")), "en");
  }
});
