// The move list (src/shared/movelist.ts): each kind of line in English, the record replayed on the
// board (swaps, Bell's captures, the House of Water's return square, passes and lost turns), and
// the list built from a snapshot and from live events, compared with lines written here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { element } from "../testlib/unit-dom.mjs";
import { movelist } from "../testlib/unit-env.mjs";

const STANDARD = { ruleset: "standard", pieces: 5, water: 28, die: false, passLoses: false, safe: [], houses: [[15, "return"], [27, "beauty"], [28, "water"]] };
const JEQUIER = { ruleset: "jequier", pieces: 5, water: 27, die: false, passLoses: true, safe: [], houses: [[27, "water"]] };
const BELL = { ruleset: "bell", pieces: 5, water: 27, die: true, safe: [], houses: [[15, "return"], [27, "water"]] };
const ply = (player, t, move) => ({ player, throw: t, sticks: "", move });
const snap = (plies, extra = {}) => ({ opening: [], players: [1, 2], record: { plies }, ...extra });

test("each kind of entry has its own words", () => {
  const e = (x) => movelist.entryText({ player: 1, value: 3, kind: "move", from: 9, to: 12, dest: 12, ...x });
  assert.equal(e({}), "Cones, throw 3: 9 → 12");
  assert.equal(e({ player: 2 }), "Spools, throw 3: 9 → 12");
  assert.equal(e({ to: 31 }), "Cones, throw 3: 9 borne off");
  assert.equal(e({ to: 30, swapped: true }), "Cones, throw 3: 9 → 30, swapped with the spool on 30");
  assert.equal(e({ water: true, to: 28, dest: 15 }), "Cones, throw 3: 9 → 15 (House of Water)");
  assert.equal(e({ swapped: true }), "Cones, throw 3: 9 → 12, swapped with the spool on 12");
  assert.equal(e({ player: 2, swapped: true }), "Spools, throw 3: 9 → 12, swapped with the cone on 12");
  assert.equal(e({ captured: true }), "Cones, throw 3: 9 → 12, captured the spool on 12");
  assert.equal(e({ player: 2, captured: true }), "Spools, throw 3: 9 → 12, captured the cone on 12");
  assert.equal(e({ backward: true, to: 7, dest: 7 }), "Cones, throw 3: 9 → 7, backward");
  assert.equal(e({ kind: "pass" }), "Cones, throw 3: no move");
  assert.equal(e({ kind: "lost", player: 2 }), "Spools, throw 3: no move, turn lost");
  assert.equal(movelist.entryText({ player: 1, value: 2, kind: "move" }), "Cones, throw 2: 0 → 0");
  assert.equal(movelist.entryText({ player: 1, value: 2, kind: "move", from: 3, to: 28, water: true }), "Cones, throw 2: 3 → 0 (House of Water)");
});

test("the record replays: moves, a swap, the House of Water to its return square or before it, bear-off", () => {
  // Start: cones on 1,3,5,7,9; spools on 2,4,6,8,10.
  const { entries, last } = movelist.replay(STANDARD, snap([
    ply(1, 3, "9-12"), ply(2, 2, "10-12"), ply(1, 1, "10-11"), ply(2, 4, "8-5"), ply(1, 3, "27-off"),
  ]));
  assert.deepEqual(entries, [
    { player: 1, value: 3, kind: "move", from: 9, to: 12, dest: 12 },
    { player: 2, value: 2, kind: "move", from: 10, to: 12, dest: 12, swapped: true },
    { player: 1, value: 1, kind: "move", from: 10, to: 11, dest: 11 },
    { player: 2, value: 4, kind: "move", from: 8, to: 5, dest: 5, swapped: true, backward: true },
    { player: 1, value: 3, kind: "move", from: 27, to: 31, dest: 31 },
  ]);
  assert.deepEqual(last, { from: 27, to: 31 });
  // The return square (15) empty, then taken, then 14 taken too.
  const water = movelist.replay(STANDARD, snap([ply(1, 2, "9-28"), ply(1, 1, "7-28"), ply(2, 4, "10-28")]));
  assert.deepEqual(water.entries.map((e) => [e.dest, !!e.water, !!e.swapped]), [[15, true, false], [14, true, false], [13, true, false]]);
  assert.deepEqual(water.last, { from: 10, to: 13 });
  assert.deepEqual(movelist.replay(STANDARD, snap([])), { entries: [], last: null });
  assert.deepEqual(movelist.replay(STANDARD, { opening: [], players: [1, 2] }), { entries: [], last: null });
});

test("the House of Water sends a piece to the nearest empty square before the return square", () => {
  const b = movelist.replay(STANDARD, snap([ply(1, 5, "1-15"), ply(1, 5, "3-14"), ply(1, 5, "5-13"), ply(2, 3, "10-28")]));
  assert.deepEqual(b.entries.at(-1), { player: 2, value: 3, kind: "move", from: 10, to: 28, dest: 12, water: true });
});

test("Jéquier: the opening's 10 → 11, the lowest empty square after the water, no-move throws lose the turn", () => {
  const s = snap([ply(2, 2, "11-27"), ply(1, 4, "pass"), ply(1, 3, "1-27")], { opening: [{ seat: 0, value: 1, sticks: "1000" }] });
  const { entries, last } = movelist.replay(JEQUIER, s);
  assert.deepEqual(entries, [
    { player: 2, value: 2, kind: "move", from: 11, to: 27, dest: 10, water: true },
    { player: 1, value: 4, kind: "lost" },
    { player: 1, value: 3, kind: "move", from: 1, to: 27, dest: 1, water: true },
  ]);
  assert.deepEqual(last, { from: 1, to: 1 });
  // Before the opening is decided (no players) the board is the plain start: 10 holds a spool.
  const early = movelist.replay(JEQUIER, snap([ply(2, 2, "11-27")], { opening: [{ seat: 0, value: 1 }], players: null }));
  assert.equal(early.entries[0].dest, 11);
  const noOpening = movelist.replay(JEQUIER, snap([ply(2, 2, "12-27")], { opening: [] }));
  assert.equal(noOpening.entries[0].dest, 11);
  // Without passLoses in the page's data, any ruleset but the standard one loses the turn.
  const noFlag = { ...JEQUIER, passLoses: undefined };
  assert.equal(movelist.replay(noFlag, snap([ply(1, 4, "pass")])).entries[0].kind, "lost");
  assert.equal(movelist.replay({ ...STANDARD, passLoses: undefined }, snap([ply(1, 4, "pass")])).entries[0].kind, "pass");
  assert.equal(movelist.replay({ ...STANDARD, passLoses: true }, snap([ply(1, 4, "pass")])).entries[0].kind, "lost");
  assert.equal(movelist.replay({ ...JEQUIER, passLoses: false }, snap([ply(1, 4, "pass")])).entries[0].kind, "pass");
  // Bell's game has no extra throws: its rules call a throw without a move a pass, whatever the flag.
  assert.equal(movelist.replay({ ...BELL, passLoses: true }, snap([ply(1, 3, "pass")])).entries[0].kind, "pass");
  assert.equal(movelist.replay({ ...BELL, passLoses: undefined }, snap([ply(1, 3, "pass")])).entries[0].kind, "pass");
});

test("Bell: a piece landing on the opponent's captures it, and the board remembers", () => {
  const { entries } = movelist.replay(BELL, snap([ply(1, 1, "9-10"), ply(2, 1, "8-9"), ply(2, 3, "9-12")]));
  assert.deepEqual(entries, [
    { player: 1, value: 1, kind: "move", from: 9, to: 10, dest: 10, captured: true },
    { player: 2, value: 1, kind: "move", from: 8, to: 9, dest: 9 },
    { player: 2, value: 3, kind: "move", from: 9, to: 12, dest: 12 },
  ]);
  // Water with a full return square and every square before it taken: the piece stays on the return square.
  const crowd = [];
  for (let s = 11; s <= 15; s++) crowd.push(ply(1, 1, `${[1, 3, 5, 7, 9][s - 11]}-${s}`));
  for (const [a, z] of [[2, 1], [4, 3], [6, 5], [8, 7], [10, 9]]) crowd.push(ply(2, 1, `${a}-${z}`));
  crowd.push(ply(1, 1, "11-2"), ply(1, 1, "12-4"), ply(1, 1, "13-6"), ply(1, 1, "14-8"), ply(1, 1, "15-10"));
  crowd.push(ply(2, 1, "1-11"), ply(2, 1, "3-12"), ply(2, 1, "5-13"), ply(2, 1, "7-14"), ply(2, 1, "9-15"));
  // Squares 2,4,…,10 (cones) and 11..15 (spools) taken; 1,3,5,7,9 empty: the water sends to 9.
  crowd.push(ply(1, 1, "2-27"));
  assert.equal(movelist.replay(BELL, snap(crowd)).entries.at(-1).dest, 9);
});

test("the water's return square taken all the way down to 1 keeps the piece on the return square", () => {
  const info = { ...STANDARD, houses: [[3, "return"]] };
  // Squares 1, 2, 3 hold cone, spool, cone at the start; a spool from 4 lands in the water.
  const { entries } = movelist.replay(info, snap([ply(2, 3, "4-28")]));
  assert.equal(entries[0].dest, 3);
  // Only square 1 free below the return square: the piece goes there.
  assert.equal(movelist.replay(info, snap([ply(1, 5, "1-12"), ply(2, 3, "4-28")])).entries[1].dest, 1);
  // Square 30 is a square of the board: a piece moved there is met by the next one.
  assert.deepEqual(movelist.replay(STANDARD, snap([ply(1, 1, "9-30"), ply(2, 1, "10-30")])).entries[1],
    { player: 2, value: 1, kind: "move", from: 10, to: 30, dest: 30, swapped: true });
  const noReturn = { ...STANDARD, houses: [[28, "water"]] };
  // Without a return square (Jéquier) the lowest empty square: the spool's own 4, just left.
  assert.equal(movelist.replay(noReturn, snap([ply(2, 3, "4-28")])).entries[0].dest, 4);
});

test("the list on the page: rebuilt from a snapshot, then extended by events", () => {
  const list = element("ol");
  const names = ["First seat", "Second seat"];
  const ml = new movelist.MoveList(list, JEQUIER, (seat) => names[seat]);
  const lines = () => [...list.children].map((li) => li.textContent);
  Object.defineProperty(list, "scrollHeight", { value: 480 });
  assert.equal(ml.rebuild({ opening: [], players: null, record: { plies: [] } }), null);
  assert.deepEqual(lines(), ["No moves yet."]);
  assert.equal(list.querySelector(".empty").textContent, "No moves yet.");
  ml.onEvent({ e: "thrown", seat: 1, value: 2, opening: true });
  ml.onEvent({ e: "thrown", seat: 0, value: 1, opening: true });
  ml.onEvent({ e: "opening-decided", seat: 0 });
  ml.onEvent({ e: "thrown", seat: 0, value: 3 });
  ml.onEvent({ e: "moved", player: 2, from: 11, to: 14, dest: 14 });
  ml.onEvent({ e: "swapped", player: 1, square: 14, to: 11 });
  ml.onEvent({ e: "thrown", seat: 1, value: 4 });
  ml.onEvent({ e: "moved", player: 1, from: 9, to: 27, dest: 1, water: true });
  assert.equal(list.scrollTop, 480, "the list scrolled to its newest line");
  ml.onEvent({ e: "thrown", seat: 1, value: 2 });
  ml.onEvent({ e: "moved", player: 1, from: 5, to: 3, dest: 3, backward: true });
  ml.onEvent({ e: "moved", player: 1, from: 28, to: 31, dest: 31, bearOff: true });
  ml.onEvent({ e: "moved", player: 2, from: 20, to: 22, dest: 22, swap: true });
  ml.onEvent({ e: "moved", player: 2, from: 20, to: 23, dest: 23, capture: true });
  ml.onEvent({ e: "captured", player: 1, square: 23 });
  ml.onEvent({ e: "passed", player: 2, value: 5 });
  ml.onEvent({ e: "swapped", player: 2 });  // after a pass: nothing to amend
  ml.onEvent({ e: "turn-lost", player: 1, value: 4 });
  ml.onEvent({ e: "presence", seat: 1, online: false });
  assert.deepEqual(lines(), [
    "Second seat: opening throw 2",
    "First seat: opening throw 1",
    "Spools, throw 1: 10 → 11",
    "Spools, throw 3: 11 → 14, swapped with the cone on 14",
    "Cones, throw 4: 9 → 1 (House of Water)",
    "Cones, throw 2: 5 → 3, backward",
    "Cones, throw 2: 28 borne off",
    "Spools, throw 2: 20 → 22, swapped with the cone on 22",
    "Spools, throw 2: 20 → 23, captured the cone on 23",
    "Spools, throw 5: no move",
    "Cones, throw 4: no move, turn lost",
  ]);
  // A snapshot replaces everything: the opening, Jéquier's first move and the record.
  const last = ml.rebuild({ opening: [{ seat: 1, value: 1, sticks: "1000" }], players: [2, 1], record: { plies: [ply(2, 2, "11-13")] } });
  assert.deepEqual(lines(), ["Second seat: opening throw 1", "Spools, throw 1: 10 → 11", "Spools, throw 2: 11 → 13"]);
  assert.deepEqual(last, { from: 11, to: 13 });
  ml.rebuild({ opening: [{ seat: 1, value: 1 }], players: null });
  assert.deepEqual(lines(), ["Second seat: opening throw 1"]);
  ml.onEvent({ e: "captured", player: 1, square: 23 });  // an opening line is no move: nothing to amend
  assert.deepEqual(lines(), ["Second seat: opening throw 1"]);
});

test("Jéquier's opening leaves a spool on 11 that a cone can swap with; a game without it has a spool on 10", () => {
  // After the opening: cones on 1,3,5,7,9; spools on 2,4,6,8 and 11 (10 is empty).
  const opened = snap([ply(2, 3, "4-7"), ply(1, 2, "9-11"), ply(2, 3, "8-11")], { opening: [{ seat: 1, value: 1, sticks: "1000" }], players: [2, 1] });
  assert.deepEqual(movelist.replay(JEQUIER, opened).entries, [
    { player: 2, value: 3, kind: "move", from: 4, to: 7, dest: 7, swapped: true },
    { player: 1, value: 2, kind: "move", from: 9, to: 11, dest: 11, swapped: true },
    { player: 2, value: 3, kind: "move", from: 8, to: 11, dest: 11, swapped: true },
  ]);
  // A snapshot without an `opening` list reads as one without opening throws: 10 still holds its spool.
  const bare = { players: [1, 2], record: { plies: [ply(1, 1, "9-10"), ply(2, 2, "8-10")] } };
  assert.deepEqual(movelist.replay(JEQUIER, bare).entries, [
    { player: 1, value: 1, kind: "move", from: 9, to: 10, dest: 10, swapped: true },
    { player: 2, value: 2, kind: "move", from: 8, to: 10, dest: 10, swapped: true },
  ]);
});

test("a piece swapped back stands on the square its opponent came from, where a later move meets it", () => {
  // Cone 9 → 11; the spool from 10 lands on it and sends it back to 10 (a throw of 1 throws
  // again); the spool from 8 then meets it on 10 and sends it back to 8.
  const { entries, last } = movelist.replay(STANDARD, snap([ply(1, 2, "9-11"), ply(2, 1, "10-11"), ply(2, 2, "8-10")]));
  assert.deepEqual(entries, [
    { player: 1, value: 2, kind: "move", from: 9, to: 11, dest: 11 },
    { player: 2, value: 1, kind: "move", from: 10, to: 11, dest: 11, swapped: true },
    { player: 2, value: 2, kind: "move", from: 8, to: 10, dest: 10, swapped: true },
  ]);
  assert.deepEqual(last, { from: 8, to: 10 });
});

test("a borne-off piece leaves the board: the other side's bear-off meets nothing", () => {
  const { entries } = movelist.replay(STANDARD, snap([ply(1, 3, "27-off"), ply(2, 2, "29-off"), ply(1, 1, "30-off")]));
  assert.deepEqual(entries, [
    { player: 1, value: 3, kind: "move", from: 27, to: 31, dest: 31 },
    { player: 2, value: 2, kind: "move", from: 29, to: 31, dest: 31 },
    { player: 1, value: 1, kind: "move", from: 30, to: 31, dest: 31 },
  ]);
});

test("the page's list: every line is a list item; a snapshot without opening throws lists none", () => {
  const list = element("ol");
  const ml = new movelist.MoveList(list, JEQUIER, (seat) => `seat ${seat}`);
  const tags = () => [...list.children].map((li) => li.localName);
  ml.rebuild({ opening: [], players: [1, 2], record: { plies: [] } });
  assert.deepEqual([...list.children].map((li) => li.textContent), ["No moves yet."]);
  assert.deepEqual(tags(), ["li"]);
  ml.onEvent({ e: "thrown", seat: 0, value: 2 });
  ml.onEvent({ e: "moved", player: 1, from: 9, to: 11 });
  ml.onEvent({ e: "passed", player: 2, value: 3 });
  assert.deepEqual([...list.children].map((li) => li.textContent), ["Cones, throw 2: 9 → 11", "Spools, throw 3: no move"]);
  assert.deepEqual(tags(), ["li", "li"]);
  ml.rebuild({ opening: [], players: [1, 2], record: { plies: [ply(1, 2, "9-11")] } });
  assert.deepEqual([...list.children].map((li) => li.textContent), ["Cones, throw 2: 9 → 11"]);
  assert.deepEqual(tags(), ["li"]);
});

test("a live capture: the move's own flag words the line at once, and a captured event amends a line without it", () => {
  const list = element("ol");
  const ml = new movelist.MoveList(list, BELL, (seat) => `seat ${seat}`);
  const lastLine = () => list.lastElementChild.textContent;
  ml.rebuild({ opening: [], players: [1, 2], record: { plies: [] } });
  ml.onEvent({ e: "thrown", seat: 1, value: 3 });
  ml.onEvent({ e: "moved", player: 2, from: 20, to: 23, capture: true });
  assert.equal(lastLine(), "Spools, throw 3: 20 → 23, captured the cone on 23");
  ml.onEvent({ e: "captured", player: 1, square: 23 });
  assert.equal(lastLine(), "Spools, throw 3: 20 → 23, captured the cone on 23");
  ml.onEvent({ e: "thrown", seat: 0, value: 2 });
  ml.onEvent({ e: "moved", player: 1, from: 12, to: 14 });
  assert.equal(lastLine(), "Cones, throw 2: 12 → 14");
  ml.onEvent({ e: "captured", player: 2, square: 14 });
  assert.equal(lastLine(), "Cones, throw 2: 12 → 14, captured the spool on 14");
  assert.equal(list.children.length, 2);
});

test("Bell: a throw without a move is a pass in the list (no extra throw to lose), from the record and from the event", () => {
  // The server's data-board says passLoses for Bell (no extra throw after a pass), yet nothing is lost.
  const bell = { ...BELL, passLoses: true };
  assert.deepEqual(movelist.replay(bell, snap([ply(1, 3, "pass")])).entries, [{ player: 1, value: 3, kind: "pass" }]);
  assert.equal(movelist.entryText(movelist.replay(bell, snap([ply(1, 3, "pass")])).entries[0]), "Cones, throw 3: no move");
  const list = element("ol");
  const ml = new movelist.MoveList(list, bell, (s) => `seat ${s}`);
  ml.rebuild(snap([]));
  ml.onEvent({ e: "turn-lost", player: 2, value: 4 });
  assert.deepEqual([...list.children].map((li) => li.textContent), ["Spools, throw 4: no move"]);
});
