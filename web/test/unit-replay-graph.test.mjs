// The replay's words for a better move (src/replay/graph.ts, bestMoveText): the record's
// notation ("7-9", "27-off") worded as the move list words moves, never shown raw.
import assert from "node:assert/strict";
import { test } from "node:test";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { readPo } from "../scripts/po.mjs";
import { i18n, moves, replayGraph } from "../testlib/unit-env.mjs";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

test("a move to a square and a bear-off read as the move list reads them", () => {
  assert.equal(replayGraph.bestMoveText("7-9"), moves.moveText(7, 9));
  assert.equal(replayGraph.bestMoveText("27-off"), moves.moveText(27, 31));
  assert.notEqual(replayGraph.bestMoveText("7-9"), "7-9");
  assert.ok(!replayGraph.bestMoveText("27-off").includes("off") || i18n.t("play.choice-off", { from: 27 }).includes("off"));
});

test("in another language the bear-off is that language's words", () => {
  try {
    i18n.setStrings(readPo(join(web, "po", "de.po")), "de");
    const text = replayGraph.bestMoveText("29-off");
    assert.ok(!text.includes("-off"), text);
    assert.equal(text, moves.moveText(29, 31));
  } finally {
    i18n.setStrings(readPo(join(web, "po", "en.po")), "en");
  }
});

test("anything that is not a move stays as it is", () => {
  assert.equal(replayGraph.bestMoveText("pass"), "pass");
  assert.equal(replayGraph.bestMoveText("x-y"), "x-y");
});
