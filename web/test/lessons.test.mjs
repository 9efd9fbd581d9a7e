// The tutorial's lessons (src/learn/lessons/) against the native engine (`senet moves` / `senet apply`,
// ../build/cli/senet or SENET_CLI): every set-up position is valid, every lesson's answer is a
// legal move for its throw that meets the lesson's goal, its words are in the English catalog,
// and the reason the page gives for a wrong move (src/learn/why.ts) names the right rule for moves
// the engine refuses.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import * as esbuild from "esbuild";
import { readPo } from "../scripts/po.mjs";

const web = join(import.meta.dirname, "..");
const senet = process.env.SENET_CLI ?? join(web, "..", "build", "cli", "senet");
const tmp = mkdtempSync(join(tmpdir(), "senet-lessons-"));
const en = readPo(join(web, "po", "en.po"));
let L;

before(async () => {
  assert.ok(existsSync(senet), `the native tool ${senet} is missing: build it or set SENET_CLI`);
  await esbuild.build({
    stdin: {
      contents: 'export * from "./lessons/index"; export * from "./lessons/types"; export * from "./why";',
      resolveDir: join(web, "src", "learn"), loader: "ts",
    },
    outfile: join(tmp, "lessons.mjs"), bundle: true, format: "esm", platform: "neutral", target: "es2022", logLevel: "warning",
  });
  L = await import(pathToFileURL(join(tmp, "lessons.mjs")).href);
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** `senet moves`: the legal moves (["pass"] when none); throws when the tool refuses the position. */
const moves = (position, throwValue) => execFileSync(senet, ["moves", position, String(throwValue)], { encoding: "utf8" }).trim().split("\n");
const apply = (position, throwValue, move) => execFileSync(senet, ["apply", position, String(throwValue), move], { encoding: "utf8" }).trim().split("\n");

/** The board facts the server renders for each ruleset (only what learn/why.ts reads). */
const INFO = {
  standard: { ruleset: "standard", safe: [27, 28, 29, 30] },
  jequier: { ruleset: "jequier", safe: [26, 28, 29, 30] },
  bell: { ruleset: "bell", safe: [26, 27, 28, 29, 30] },
  kendall: { ruleset: "kendall", safe: [] },
  piccione: { ruleset: "piccione", safe: [] },
};

for (const ruleset of ["standard", "jequier", "bell", "kendall", "piccione"]) {
  test(`${ruleset}: every lesson's position is valid and its answer is legal, meets its goal and applies`, () => {
    const lessons = L.lessonsFor(ruleset);
    assert.ok(lessons.length >= 7, `${ruleset} has ${lessons.length} lessons`);
    for (const lesson of lessons) {
      assert.ok(lesson.position.startsWith(`${ruleset}:`), `${lesson.key} is set up in ${ruleset}`);
      const legal = moves(lesson.position, lesson.throwValue);
      assert.notDeepEqual(legal, ["pass"], `${lesson.key}: some move is legal`);
      assert.ok(legal.includes(lesson.answer), `${lesson.key}: ${lesson.answer} is among ${legal.join(" ")}`);
      const before = L.parsePosition(lesson.position);
      assert.ok(L.meetsGoal(lesson.goal, lesson.answer, before, lesson.throwValue), `${lesson.key}: the answer meets the goal`);
      // The goal is judged on the engine's moves: every goal move it names is legal.
      if (lesson.goal.moves) for (const m of lesson.goal.moves) assert.ok(legal.includes(m), `${lesson.key}: goal move ${m} is legal`);
      const [after, status] = apply(lesson.position, lesson.throwValue, lesson.answer);
      const turnFields = ruleset === "piccione" ? ":[0-4]:[-fb]:\\d+:[01]" : "";
      assert.match(after, new RegExp(`^${ruleset}:[.12]{30}:[12]:\\d+:\\d+${turnFields}$`));
      assert.match(status, /^(ongoing|win 1)$/);
      for (const part of ["title", "text", "hint", "done"]) assert.ok(en[`${lesson.key}${part}`], `en.po has ${lesson.key}${part}`);
      if (lesson.other) assert.ok(en[lesson.other], `en.po has ${lesson.other}`);
    }
  });
}

test("lessons that teach a choice refuse the other legal move as not what is asked", () => {
  const water = L.lessonsFor("standard").find((l) => l.key === "learn.standard.water.");
  const legal = moves(water.position, water.throwValue);
  assert.deepEqual(legal, ["24-27", "25-28"]);
  assert.equal(L.meetsGoal(water.goal, "25-28", L.parsePosition(water.position), 3), false);
  const swap = L.lessonsFor("standard").find((l) => l.key === "learn.standard.swap.");
  assert.deepEqual(moves(swap.position, swap.throwValue), ["2-5", "8-11"]);
  assert.equal(L.meetsGoal(swap.goal, "2-5", L.parsePosition(swap.position), 3), false);
  // Kendall: a 1 from 26 is legal but falls into the water.
  const kwater = L.lessonsFor("kendall").find((l) => l.key === "learn.kendall.water.");
  assert.deepEqual(moves(kwater.position, kwater.throwValue), ["23-24", "26-27"]);
  assert.equal(L.meetsGoal(kwater.goal, "26-27", L.parsePosition(kwater.position), 1), false);
  // Piccione: the split lesson asks for part of the throw, not all of it; the water lesson for 26.
  const split = L.lessonsFor("piccione").find((l) => l.key === "learn.piccione.split.");
  assert.deepEqual(moves(split.position, 3), ["6-7", "6-8", "12-13", "12-14", "12-15"]);
  const splitBefore = L.parsePosition(split.position);
  assert.deepEqual(["6-7", "6-8", "12-13", "12-14", "12-15"].map((m) => L.meetsGoal(split.goal, m, splitBefore, 3)), [true, true, true, true, false]);
  const pwater = L.lessonsFor("piccione").find((l) => l.key === "learn.piccione.water.");
  assert.deepEqual(moves(pwater.position, 3), ["10-11", "24-25", "24-26", "24-27"]);
  // After 24-26 the 1 left and the throw owed stay with the learner (REM 1, forward, BONUS 1).
  assert.equal(apply(pwater.position, 3, "24-26")[0], "piccione:.........1.22............1....:1:3:0:1:f:1:0");
  const enter = L.lessonsFor("piccione").find((l) => l.key === "learn.piccione.enter.");
  assert.deepEqual(L.parsePosition(enter.position).hand, [5, 5]);
  assert.deepEqual(L.parsePosition(pwater.position).hand, [0, 3]);
  assert.equal(L.lessonsFor("nope").length, 0);
});

/** Piccione: [lesson key, from (0: the hand), to (31: off), the reason expected]. */
const WRONG_STEPS = [
  ["learn.piccione.split.", 6, 9, "learn.why.taken"],
  ["learn.common.moving.", 4, 6, "learn.why.own"],
  ["learn.piccione.split.", 6, 10, "learn.why.too-far"],
  ["learn.piccione.split.", 12, 11, "learn.why.forward-first"],
  ["learn.piccione.split.", 0, 1, "learn.why.enter"],
  ["learn.piccione.off.", 28, 26, "learn.why.no-back"],
  ["learn.piccione.off.", 16, 31, "learn.why.off-exact"],
  ["learn.piccione.water.", 24, 31, "learn.why.off-exact"],
];

test("Piccione: the reason given for a refused step names the rule that refuses it", () => {
  for (const [key, from, to, expected] of WRONG_STEPS) {
    const lesson = L.lessonsFor("piccione").find((l) => l.key === key);
    const legal = moves(lesson.position, lesson.throwValue);
    const step = from === 0 ? "in-1" : `${from}-${to >= 31 ? "off" : to}`;
    assert.ok(!legal.includes(step), `${key}: the engine refuses ${step}`);
    const why = L.whyNoStep(L.parsePosition(lesson.position), from, to, lesson.throwValue, legal);
    assert.equal(why.key, expected, `${key}: ${step}`);
    assert.ok(en[why.key], `en.po has ${why.key}`);
  }
});

/** [ruleset, lesson key, piece the learner tries, the reason expected]. */
const WRONG = [
  ["standard", "learn.common.moving.", 4, "learn.why.own"],
  ["standard", "learn.standard.protect.", 11, "learn.why.protected"],
  ["standard", "learn.standard.off.", 30, "learn.why.bear-off-throw"],
  ["standard", "learn.standard.off.", 27, "learn.why.own"],
  ["jequier", "learn.jequier.swap.", 24, "learn.why.safe"],
  ["jequier", "learn.jequier.blockade.", 11, "learn.why.blocked"],
  ["bell", "learn.bell.houses.", 10, "learn.why.compulsion"],
  ["bell", "learn.bell.houses.", 27, "learn.why.safe"],
  ["bell", "learn.common.moving.", 4, "learn.why.own"],
  ["kendall", "learn.kendall.stop.", 24, "learn.why.stop"],
  ["kendall", "learn.kendall.final.", 28, "learn.why.final-exact"],
  ["kendall", "learn.common.moving.", 4, "learn.why.own"],
];

test("the reason given for a refused move names the rule that refuses it", () => {
  for (const [ruleset, key, from, expected] of WRONG) {
    const lesson = L.lessonsFor(ruleset).find((l) => l.key === key);
    const legal = moves(lesson.position, lesson.throwValue);
    assert.ok(!legal.some((m) => m.startsWith(`${from}-`)), `${key}: the engine refuses the piece on ${from}`);
    const why = L.whyIllegal(L.parsePosition(lesson.position), INFO[ruleset], from, lesson.throwValue, legal);
    assert.equal(why.key, expected, `${key}: piece on ${from}`);
    assert.ok(en[why.key], `en.po has ${why.key}`);
  }
});

test("a standard piece on 26 or earlier may not bear off; Jéquier bears off only from 21-30; Bell needs the exact throw", () => {
  const cases = [
    ["standard:.........................11..2:1:3:4", 26, 5, INFO.standard, "learn.why.bear-off-early"],
    ["jequier:....1......2...............1..:1:3:4", 28, 4, INFO.jequier, "learn.why.bear-off-zone"],
    ["bell:...........2...............1..:1:0:0", 28, 4, INFO.bell, "learn.why.bear-off-exact"],
    ["bell:...........2.................1:1:0:0", 30, 3, INFO.bell, "learn.why.bear-off-exact"],
  ];
  for (const [position, from, throwValue, info, expected] of cases) {
    const legal = moves(position, throwValue);
    assert.ok(!legal.some((m) => m.startsWith(`${from}-`)), `${position}: the engine refuses ${from} with ${throwValue} (${legal})`);
    assert.equal(L.whyIllegal(L.parsePosition(position), info, from, throwValue, legal).key, expected, position);
  }
});
