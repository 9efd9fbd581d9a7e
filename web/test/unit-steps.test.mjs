// Piccione's turn of steps and Kendall's marks on the pages (src/shared/steps.ts, src/play/hand.ts,
// src/shared/movelist.ts, src/shared/board.ts): the hand, the remainder, the direction and the
// throws owed read from the server's `steps` or from the position, the words shown for them, a
// Piccione record replayed into the move list, and the two taps of a split throw on the board.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DomEvent, element } from "../testlib/unit-dom.mjs";
import { board, hand, movelist, steps, words } from "../testlib/unit-env.mjs";

const PICCIONE = { ruleset: "piccione", pieces: 5, water: 27, die: false, passLoses: false, safe: [], houses: [[15, "ankh"], [26, "nefer"], [27, "water"]] };
const KENDALL = { ruleset: "kendall", pieces: 5, water: 27, die: false, passLoses: true, safe: [], houses: [[15, "rebirth"], [26, "beauty"], [27, "water"]] };
const squares = (pieces) => Array.from({ length: 30 }, (_, i) => pieces[i + 1] ?? 0);

test("the turn's steps are read from the position when the server sends no steps member", () => {
  // Cones on 1 and 5, spools on 9; one cone off: hands 2 and 4 (RULES.md Piccione, "Hand").
  const s = { ruleset: "piccione", position: "piccione:1...1...2.....................:1:1:0:2:f:1:0", board: squares({ 1: 1, 5: 1, 9: 2 }), off: [1, 0] };
  assert.deepEqual(steps.stepsOf(s), { direction: "forward", entry: false, hand: [2, 4], owed: 1, remainder: 2 });
  const start = { ruleset: "piccione", position: "piccione:..............................:1:0:0:0:-:0:0", board: squares({}), off: [0, 0] };
  assert.deepEqual(steps.stepsOf(start), { direction: null, entry: false, hand: [5, 5], owed: 0, remainder: 0 });
  const entry = { ...start, position: "piccione:1.............................:1:0:0:0:f:0:1", board: squares({ 1: 1 }) };
  assert.deepEqual(steps.stepsOf(entry), { direction: "forward", entry: true, hand: [4, 5], owed: 0, remainder: 0 });
});

test("the server's steps member wins over the position; other rulesets have none", () => {
  const s = { ruleset: "piccione", position: "piccione:..............................:1:0:0:0:-:0:0", board: squares({}), off: [0, 0],
    steps: { direction: "backward", entry: false, hand: [3, 1], owed: 2, remainder: 1 } };
  assert.deepEqual(steps.stepsOf(s), { direction: "backward", entry: false, hand: [3, 1], owed: 2, remainder: 1 });
  assert.equal(steps.stepsOf({ ruleset: "kendall", position: "kendall:1212121212....................:1:0:0", board: [], off: [0, 0] }), null);
});

test("entering and the step to the hand are told apart from other moves", () => {
  assert.equal(steps.isEnter({ move: "in-1", from: 0, to: 1, dest: 1 }), true);
  assert.equal(steps.isEnter({ move: "1-2", from: 1, to: 2, dest: 2 }), false);
  assert.equal(steps.isToHand({ move: "24-27", from: 24, to: 27, dest: 0 }), true);
  // Kendall's 27 is its House of Water: the piece ends on 15, it does not go to a hand.
  assert.equal(steps.isToHand({ move: "26-27", from: 26, to: 27, dest: 15, water: true }), false);
});

test("the steps' words: the remainder of the throw, the direction, a due entry throw, the throws owed", () => {
  assert.deepEqual(hand.stepsWords({ direction: "forward", entry: false, hand: [5, 5], owed: 2, remainder: 2 }, 4),
    ["2 of 4 left", "This turn: forward", "2 extra throws owed"]);
  assert.deepEqual(hand.stepsWords({ direction: "forward", entry: true, hand: [4, 5], owed: 1, remainder: 0 }, 1),
    ["This turn: forward", "Entry throw next", "1 extra throw owed"]);
  assert.deepEqual(hand.stepsWords({ direction: null, entry: false, hand: [5, 5], owed: 0, remainder: 0 }, 3), []);
});

test("the status and the screen reader say what is left of the throw", () => {
  const s = { ruleset: "piccione", phase: "move", seatToAct: 0, players: [1, 2], opponent: "friend", seats: [{}, {}], lastThrow: { value: 4 },
    position: "piccione:....1.........................:1:0:0:3:f:0:0", board: squares({ 5: 1 }), off: [0, 0] };
  assert.equal(words.statusText({ s, you: [0] }), "Your turn: 3 of your 4 left. Choose a piece to move.");
  assert.equal(words.remainderText({ s, you: [0] }), "3 of 4 left to move.");
  assert.equal(words.remainderText({ s: { ...s, position: "piccione:....1.........................:2:0:0:0:-:0:0" }, you: [0] }), "");
  assert.equal(words.describe({ s, you: [0] }, { e: "moved", seat: 0, player: 1, move: "in-1", from: 0, to: 1, dest: 1, enter: true }).text,
    "You entered a piece on square 1.");
  assert.equal(words.describe({ s, you: [1] }, { e: "moved", seat: 0, player: 1, move: "25-27", from: 25, to: 27, dest: 0 }).text,
    "The piece of Cones (Opponent) from 25 reached 27 and went back to the hand.");
  assert.equal(words.describe({ s, you: [0] }, { e: "passed", seat: 0, player: 1, value: 2 }).text, "No step left for you: your turn ends.");
  // The automatic pass of a remainder, and the pass that sends the entered piece back (PROTOCOL.md "Events").
  assert.equal(words.describe({ s, you: [0] }, { e: "turn-lost", seat: 0, player: 1, value: 2, remainder: true }).text, "No step left for you: your turn ends.");
  assert.equal(words.describe({ s, you: [1] }, { e: "turn-lost", seat: 0, player: 1, value: 3, toHand: true }).text,
    "The piece of Cones (Opponent) on 1 cannot move and goes back to the hand: the turn ends.");
  // Kendall's lost turn keeps its own words.
  assert.equal(words.describe({ s: { ...s, ruleset: "kendall" }, you: [0] }, { e: "turn-lost", seat: 0, player: 1, value: 4 }).text, "No move with 4: you lose the turn.");
});

test("the screen reader hears the remainder after a step, a due entry throw and the throws owed as they change", () => {
  const base = { ruleset: "piccione", phase: "move", seatToAct: 0, players: [1, 2], opponent: "friend", seats: [{}, {}], lastThrow: { value: 4 }, off: [0, 0] };
  const at = (position, pieces) => ({ ...base, position, board: squares(pieces) });
  const none = { direction: null, entry: false, hand: [5, 5], owed: 0, remainder: 0 };
  assert.deepEqual(words.stepsNews({ s: at("piccione:....1.........................:1:0:0:3:f:1:0", { 5: 1 }), you: [0] }, none, true),
    ["3 of 4 left to move.", "1 extra throw owed"]);
  assert.deepEqual(words.stepsNews({ s: { ...at("piccione:1.............................:1:0:0:0:f:0:1", { 1: 1 }), phase: "throw" }, you: [0] }, none, true),
    ["Entry throw next"]);
  assert.deepEqual(words.stepsNews({ s: at("piccione:....1.........................:1:0:0:3:f:1:0", { 5: 1 }), you: [0] }, { ...none, owed: 1 }, false), []);
});

test("a Piccione record: the entry, the steps that spend a remainder (no throw), the step to the hand", () => {
  const plies = [
    { player: 1, throw: 1, sticks: "1000", move: "in-1" },
    { player: 1, throw: 4, sticks: "1111", move: "1-3" },
    { player: 1, move: "3-5" },
    { player: 2, throw: 3, sticks: "1110", move: "pass" },
    { player: 1, throw: 2, sticks: "1100", move: "5-6" },
    { player: 1, move: "pass" },
  ];
  const { entries, last } = movelist.replay(PICCIONE, { opening: [], players: [1, 2], record: { plies } });
  assert.deepEqual(entries.map(movelist.entryText), [
    "Cones, throw 1: a piece from the hand onto 1",
    "Cones, throw 4: 1 → 3",
    "Cones, rest of the throw: 3 → 5",
    "Spools, throw 3: no move",
    "Cones, throw 2: 5 → 6",
    "Cones: no step for the rest of the throw",
  ]);
  assert.deepEqual(last, { from: 5, to: 6 });
  const toHand = movelist.replay(PICCIONE, { opening: [], players: [1, 2], record: { plies: [
    { player: 1, throw: 1, move: "in-1" }, { player: 1, throw: 5, move: "1-2" }, { player: 1, move: "2-6" }] } });
  assert.equal(toHand.entries.length, 3);
  const back = movelist.entryText({ player: 2, value: 3, kind: "move", from: 24, to: 27, dest: 0, toHand: true });
  assert.equal(back, "Spools, throw 3: 24 → 27, back to the hand");
});

test("Kendall's final houses show their exit throws and the House of Beauty its stop", () => {
  assert.deepEqual([27, 28, 29, 30].map((s) => board.exitThrow(KENDALL, s)), [0, 3, 2, 1]);
  assert.deepEqual([28, 29, 30].map((s) => board.exitThrow(PICCIONE, s)), [0, 0, 0]);
  assert.equal(board.squareNote(KENDALL, 29), "Square 29: leaves the board only with a throw of 2");
  assert.equal(board.squareNote(KENDALL, 26), "Square 26, House of Beauty: every piece stops here; a throw that would take it past does not move that piece");
  const box = element();
  const b = new board.Board(box, KENDALL);
  const text = [...box.querySelectorAll(".exit-throw")].map((n) => n.textContent);
  assert.deepEqual(text, ["3→", "2→", "1→"]);
  assert.equal(box.querySelectorAll(".beauty-stop").length, 1);
  b.render(squares({}), [0, 0], [], null);
});

test("a split throw on the board: tap the piece, then where it goes; a lone move goes at once", () => {
  const box = element();
  const b = new board.Board(box, PICCIONE);
  const picked = [];
  b.onMove = (m) => picked.push(m.move);
  const moves = [
    { move: "in-1", from: 0, to: 1, dest: 1, enter: true },
    { move: "5-6", from: 5, to: 6, dest: 6 }, { move: "5-7", from: 5, to: 7, dest: 7 },
    { move: "9-10", from: 9, to: 10, dest: 10 },
  ];
  b.render(squares({ 5: 1, 9: 1 }), [0, 0], moves, null);
  const tap = (sq) => box.querySelector(`.square[data-square="${sq}"]`).dispatchEvent(new DomEvent("click"));
  tap(5);
  assert.deepEqual(picked, [], "a piece with two moves is only picked");
  assert.deepEqual([...box.querySelectorAll(".destination")].map((g) => g.getAttribute("data-square")).sort(), ["6", "7"]);
  tap(7);
  assert.deepEqual(picked, ["5-7"]);
  tap(9);
  assert.deepEqual(picked, ["5-7", "9-10"], "a piece with one move moves at once");
  tap(1);
  assert.deepEqual(picked, ["5-7", "9-10", "in-1"], "the empty square 1 enters a piece");
  tap(5); tap(5);
  assert.equal(box.querySelectorAll(".selected-from").length, 0, "a second tap lets the piece go");
  tap(6);
  assert.deepEqual(picked, ["5-7", "9-10", "in-1", "5-6"], "a destination only one move reaches makes that move");
});

test("a whole signed Piccione record (tests/cli/fixtures/piccione-signed.json) reads into the move list", async () => {
  const { readFileSync } = await import("node:fs");
  const record = JSON.parse(readFileSync(new URL("../../tests/cli/fixtures/piccione-signed.json", import.meta.url), "utf8"));
  const { entries } = movelist.replay(PICCIONE, { opening: [], players: [1, 2], record });
  assert.equal(entries.length, record.plies.length);
  const texts = entries.map(movelist.entryText);
  assert.deepEqual(texts.filter((x) => /NaN|undefined|\{/.test(x)), []);
  assert.equal(entries.filter((e) => e.rest).length, record.plies.filter((p) => p.throw === undefined).length);
  assert.equal(texts[0], "Cones, throw 1: a piece from the hand onto 1");
  assert.equal(texts[2], "Cones, rest of the throw: 2 → 3");
});
