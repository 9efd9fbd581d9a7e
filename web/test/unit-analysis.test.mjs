// The game analysis as the pages read it (src/shared/analysis.ts) and word it (src/replay/marks.ts,
// src/play/end-analysis.ts): the JSON of GET /api/games/{id}/analysis read into marks, luck, exact
// values and the players' figures, the marks' thresholds, luck's sign, the viewer's player, and
// the sentences in English, Polish and Arabic (their plural forms), against values written here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { readPo } from "../scripts/po.mjs";
import { element } from "../testlib/unit-dom.mjs";
import { analysis, endAnalysis, i18n, replayMarks } from "../testlib/unit-env.mjs";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

const JSON_OF_A_GAME = {
  ruleset: "standard", depth: 3, result: "win 2",
  winProbability: [0.5, 0.52, 0.4, 0.45, 0.3, 0],
  plies: [
    { ply: 1, player: 1, throw: 2, move: "9-11", legalMoves: 3, best: "9-11", bestWinProbability: 0.52, loss: 0, mark: null, luck: 0.02, exact: false },
    { ply: 2, player: 2, throw: 3, move: "8-11", legalMoves: 4, best: "10-13", bestWinProbability: 0.37, loss: 0.03, mark: "inaccuracy", luck: -0.01, exact: false },
    { ply: 3, player: 1, throw: 1, move: "7-8", legalMoves: 2, best: "11-12", bestWinProbability: 0.57, loss: 0.12, mark: "blunder", luck: 0.05, exact: false },
    { ply: 4, player: 2, throw: 4, move: "pass", legalMoves: 0, best: null, bestWinProbability: 0.3, loss: 0, mark: null, luck: -0.12, exact: true },
    { ply: 5, player: 1, throw: 5, move: "26-off", legalMoves: 2, best: "27-off", bestWinProbability: 0.36, loss: 0.06, mark: "mistake", luck: 0, exact: true },
  ],
  exact: [false, false, false, false, true, true],
  players: [{ player: 2, decisions: 1, accuracy: 90.8, loss: 0.03, luck: -0.13, inaccuracies: 1, mistakes: 0, blunders: 0 },
    { player: 1, decisions: 3, accuracy: 71.6, loss: 0.18, luck: 0.07, inaccuracies: 0, mistakes: 1, blunders: 1 }],
  thresholds: { inaccuracy: 0.02, mistake: 0.05, blunder: 0.1 },
};

test("the analysis JSON is read into marks, luck, exact values and both players", () => {
  const a = analysis.readAnalysis(JSON_OF_A_GAME, 6);
  assert.deepEqual([...a.marks.values()].map((m) => [m.ply, m.player, m.kind, m.best, m.move]),
    [[2, 2, "inaccuracy", "10-13", "8-11"], [3, 1, "blunder", "11-12", "7-8"], [5, 1, "mistake", "27-off", "26-off"]]);
  assert.deepEqual(a.luck, [0.02, -0.01, 0.05, -0.12, 0]);
  assert.deepEqual(a.exact, [false, false, false, false, true, true]);
  assert.deepEqual(a.players.map((p) => [p.player, p.accuracy, p.blunders, p.mistakes, p.inaccuracies]), [[1, 71.6, 1, 1, 0], [2, 90.8, 0, 0, 1]]);
  assert.deepEqual(a.thresholds, { inaccuracy: 0.02, mistake: 0.05, blunder: 0.1 });
});

test("a curve that does not fit the game, or no object, gives nothing", () => {
  assert.equal(analysis.readAnalysis(JSON_OF_A_GAME, 7), null);
  assert.equal(analysis.readAnalysis(null, 6), null);
  assert.equal(analysis.readAnalysis({ ...JSON_OF_A_GAME, winProbability: [0.5, 2, 0.4, 0.45, 0.3, 0] }, 6), null);
});

test("an older analysis without marks, luck, exact flags or players: marks from the losses, nothing else made up", () => {
  const old = { winProbability: [0.5, 0.4, 0.6], plies: [{ ply: 1, player: 1, move: "9-11", best: "7-9", loss: 0.051 }, { ply: 2, player: 2, move: "1-3", best: "1-3", loss: 0.2 }] };
  const a = analysis.readAnalysis(old, 3);
  assert.deepEqual([...a.marks.values()].map((m) => [m.ply, m.kind]), [[1, "mistake"]]);
  assert.deepEqual(a.luck, [null, null]);
  assert.deepEqual(a.exact, [false, false, false]);
  assert.equal(a.players, null);
  // Players that are not players 1 and 2 are not shown.
  assert.equal(analysis.readAnalysis({ ...JSON_OF_A_GAME, players: [JSON_OF_A_GAME.players[0]] }, 6).players, null);
});

test("the thresholds: at least 0.02 an inaccuracy, 0.05 a mistake, 0.10 a blunder", () => {
  assert.equal(analysis.markOf(0.0199), null);
  assert.equal(analysis.markOf(0.02), "inaccuracy");
  assert.equal(analysis.markOf(0.0499), "inaccuracy");
  assert.equal(analysis.markOf(0.05), "mistake");
  assert.equal(analysis.markOf(0.1), "blunder");
  assert.equal(analysis.markOf(0.04, { inaccuracy: 0.01, mistake: 0.03, blunder: 0.2 }), "mistake");
});

test("luck's sign, and the viewer's player from the seats held", () => {
  assert.equal(analysis.luckSign(0.0049), "even");
  assert.equal(analysis.luckSign(-0.0049), "even");
  assert.equal(analysis.luckSign(0.09), "lucky");
  assert.equal(analysis.luckSign(-0.12), "unlucky");
  assert.deepEqual(analysis.viewerPlayers([0], [1, 2]), [1]);
  assert.deepEqual(analysis.viewerPlayers([1], [1, 2]), [2]);
  assert.deepEqual(analysis.viewerPlayers([0], [2, 1]), [2]);
  assert.deepEqual(analysis.viewerPlayers([0], null), [1]);
  assert.deepEqual(analysis.viewerPlayers([0, 1], [1, 2]), []);
  assert.deepEqual(analysis.viewerPlayers([], [1, 2]), []);
});

test("shares are written as percentages, luck with its sign", () => {
  assert.equal(analysis.share(0.09), "9%");
  assert.equal(analysis.accuracyText(88.4), "88%");
  assert.equal(analysis.accuracyText(99.6), "100%");
  assert.equal(analysis.signedShare(0.031), "+3%");
  assert.equal(analysis.signedShare(-0.12), "-12%");
  assert.equal(analysis.signedShare(0.004), "0%");
});

test("the English sentences: luck for a side and for the viewer, marks counted, the end panel's line", () => {
  assert.equal(replayMarks.luckWords(1, 0.09, false), "The cones were lucky by 9%.");
  assert.equal(replayMarks.luckWords(2, -0.12, false), "The spools were unlucky by 12%.");
  assert.equal(replayMarks.luckWords(2, -0.12, true), "You were unlucky by 12%.");
  assert.equal(replayMarks.luckWords(1, 0.001, false), "The cones' luck evened out.");
  const p = { player: 1, decisions: 3, accuracy: 71.6, loss: 0.18, luck: 0.07, inaccuracies: 3, mistakes: 0, blunders: 1 };
  assert.equal(replayMarks.marksWords(p), "1 blunder, no mistakes, 3 inaccuracies");
  assert.equal(endAnalysis.endLine(p, true), "You (cones): accuracy 72%, lucky by 7%");
  assert.equal(endAnalysis.endLine({ ...p, player: 2, luck: -0.2 }, false), "Spools: accuracy 72%, unlucky by 20%");
  const m = { ply: 3, player: 1, move: "7-8", best: "11-12", loss: 0.12, kind: "blunder" };
  assert.equal(replayMarks.markNote(m), "Blunder: 12% of the chance to win given away; 11 → 12 was better.");
});

test("Polish and Arabic count the marks in their plural forms", () => {
  const counts = (blunders, mistakes, inaccuracies) => replayMarks.marksWords({ player: 1, decisions: 9, accuracy: 80, loss: 0, luck: 0, inaccuracies, mistakes, blunders });
  try {
    i18n.setStrings(readPo(join(web, "po", "pl.po")), "pl");
    assert.equal(counts(1, 3, 5), "1 poważny błąd, 3 błędy, 5 niedokładności");
    assert.equal(counts(0, 22, 1), "bez poważnych błędów, 22 błędy, 1 niedokładność");
    assert.equal(counts(5, 1, 0), "5 poważnych błędów, 1 błąd, bez niedokładności");
    assert.equal(replayMarks.luckWords(2, -0.12, true), "Pech kosztował cię 12%.");
    i18n.setStrings(readPo(join(web, "po", "ar.po")), "ar");
    assert.equal(counts(2, 1, 3), "خطآن فادحان، خطأ واحد، 3 هفوات");
    assert.equal(counts(0, 11, 2), "لا أخطاء فادحة، 11 خطأً، هفوتان");
  } finally {
    i18n.setStrings(readPo(join(web, "po", "en.po")), "en");
  }
});

test("a marked line of the move list: its symbol, its name for screen readers, its note", () => {
  const li = element("li");
  li.append(element("button"));
  li.querySelector("button").textContent = "Cones, throw 1: 7 → 8";
  replayMarks.markLine(li, { ply: 3, player: 1, move: "7-8", best: "11-12", loss: 0.12, kind: "blunder" });
  assert.ok(li.classList.contains("marked") && li.classList.contains("mark-blunder"));
  assert.equal(li.dataset.mark, "blunder");
  assert.equal(li.querySelector("button").textContent, "??Cones, throw 1: 7 → 8 (Blunder)");
  assert.equal(li.querySelector(".mark-symbol").getAttribute("aria-hidden"), "true");
  assert.equal(li.querySelector(".mark-note").textContent, "Blunder: 12% of the chance to win given away; 11 → 12 was better.");
  const legend = element("ul");
  replayMarks.fillLegend(legend, { inaccuracy: 0.02, mistake: 0.05, blunder: 0.1 });
  assert.deepEqual([...legend.children].map((l) => l.textContent), [
    "?!inaccuracy: 2% or more of the chance to win given away", "?mistake: 5% or more of the chance to win given away", "??blunder: 10% or more of the chance to win given away"]);
});

test("the players' summary and the current move's judgement", () => {
  const box = element("div");
  const a = analysis.readAnalysis(JSON_OF_A_GAME, 6);
  replayMarks.fillPlayers(box, a.players, [2]);
  assert.deepEqual([...box.children].map((c) => [...c.children].map((e) => e.textContent)), [
    ["Cones", "Accuracy 72%", "1 blunder, 1 mistake, no inaccuracies", "The cones were lucky by 7%."],
    ["Spools (you)", "Accuracy 91%", "no blunders, no mistakes, 1 inaccuracy", "You were unlucky by 13%."],
  ]);
  const line = element("p");
  replayMarks.showJudgement(line, a.marks.get(3), 1, a.luck[2], false);
  assert.equal(line.textContent, "Blunder ?? · Luck of the throw for the cones: +5%");
  assert.equal(line.hidden, false);
  replayMarks.showJudgement(line, undefined, 2, a.luck[3], true);
  assert.equal(line.textContent, "Luck of the throw for the spools: -12% · exact (endgame table)");
  replayMarks.showJudgement(line, undefined, undefined, null, false);
  assert.equal(line.hidden, true);
});
