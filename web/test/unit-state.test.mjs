// The play page's state decisions (src/play/state.ts): when the viewer may act, which control is due,
// what an `events` message keeps, which errors are shown, the reconnect back-off and the
// Fair throws verdict, each checked against values written here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { state } from "../testlib/unit-env.mjs";

const moves = [{ move: "9-12", from: 9, to: 12, dest: 12 }];
const s = (over = {}) => ({ phase: "move", seatToAct: 0, legalMoves: moves, ...over });

test("the viewer acts only on a seat of theirs, in a game not over, with nothing pending", () => {
  assert.equal(state.canAct(s(), [0], false), true);
  assert.equal(state.canAct(s(), [0, 1], false), true);
  assert.equal(state.canAct(s({ seatToAct: 1 }), [0, 1], false), true);
  assert.equal(state.canAct(s(), [0], true), false);
  assert.equal(state.canAct(s({ seatToAct: 1 }), [0], false), false);
  assert.equal(state.canAct(s(), [], false), false);
  assert.equal(state.canAct(s({ seatToAct: null }), [0], false), false);
  assert.equal(state.canAct(s({ phase: "over" }), [0], false), false);
  assert.equal(state.canAct(null, [0], false), false);
  // seatToAct null with a viewer that "holds" null must not count as a seat.
  assert.equal(state.canAct(s({ seatToAct: null }), [null], false), false);
});

test("moves are offered and the throw is due only when the viewer acts in that phase", () => {
  assert.deepEqual(state.movesOffered(s(), [0], false), moves);
  assert.deepEqual(state.movesOffered(s(), [0], true), []);
  assert.deepEqual(state.movesOffered(s({ phase: "throw" }), [0], false), []);
  assert.deepEqual(state.movesOffered(s({ seatToAct: 1 }), [0], false), []);
  assert.deepEqual(state.movesOffered(null, [0], false), []);
  assert.equal(state.throwDue(s({ phase: "throw" }), [0], false), true);
  assert.equal(state.throwDue(s({ phase: "opening" }), [0], false), true);
  assert.equal(state.throwDue(s({ phase: "move" }), [0], false), false);
  assert.equal(state.throwDue(s({ phase: "throw" }), [0], true), false);
  assert.equal(state.throwDue(s({ phase: "throw", seatToAct: 1 }), [0], false), false);
  assert.equal(state.throwDue(null, [0], false), false);
  assert.equal(state.throwHidden(s({ phase: "throw" }), [0]), false);
  assert.equal(state.throwHidden(s({ phase: "move", seatToAct: 1 }), [0]), false);
  assert.equal(state.throwHidden(s({ phase: "over" }), [0]), true);
  assert.equal(state.throwHidden(s({ phase: "waiting" }), [0]), true);
  assert.equal(state.throwHidden(s({ phase: "throw" }), []), true);
});

test("an events message keeps the viewer's seats and the record of the last snapshot", () => {
  const record = { plies: [{ player: 1, throw: 2, sticks: "1100", move: "9-11" }] };
  const previous = { ...s(), ply: 3, you: [1], record };
  const next = { ...s({ seatToAct: 1 }), ply: 4 };
  assert.deepEqual(state.afterEvents(previous, next, [1]), { ...next, you: [1], record });
  assert.deepEqual(state.afterEvents(null, next, []), { ...next, you: [], record: undefined });
  assert.equal(next.you, undefined, "the incoming state is not changed");
});

test("an events message's state holds only the changed members: the others are kept", () => {
  const previous = { ...s({ phase: "throw" }), ply: 3, board: [1, 2], you: [0], record: { plies: [] } };
  const after = state.afterEvents(previous, { ply: 4, phase: "move", legalMoves: [{ move: "9-11", from: 9, to: 11, dest: 11 }] }, [0]);
  assert.equal(after.ply, 4);
  assert.equal(after.phase, "move");
  assert.deepEqual(after.legalMoves, [{ move: "9-11", from: 9, to: 11, dest: 11 }]);
  assert.deepEqual(after.board, [1, 2], "an unchanged member stays as it was");
  assert.equal(after.seatToAct, previous.seatToAct);
  assert.deepEqual(after.record, { plies: [] });
  assert.equal(previous.ply, 3, "the held state is not changed in place");
  const reset = state.afterEvents(after, { result: null, rematch: null, lastThrow: null }, [0]);
  assert.equal(reset.lastThrow, null, "a member that changed to null is null, not kept");
});

test("stale plies and the rate limit are not shown; other errors are", () => {
  assert.equal(state.showsError("wrong-ply"), false);
  assert.equal(state.showsError("rate-limited"), false);
  assert.equal(state.showsError("illegal-move"), true);
  assert.equal(state.showsError(""), true);
});

test("reconnecting backs off from half a second, doubling up to eight", () => {
  assert.equal(state.RETRY_FIRST_MS, 500);
  assert.equal(state.RETRY_MAX_MS, 8000);
  const delays = [state.RETRY_FIRST_MS];
  while (delays.length < 7) delays.push(state.nextRetryDelay(delays.at(-1)));
  assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 8000, 8000]);
  assert.equal(state.nextRetryDelay(5000), 8000);
  assert.equal(state.nextRetryDelay(3999), 7998);
});

test("the page's one back-off: each try waits longer up to eight seconds, and a reset starts again from half a second", () => {
  const backoff = new state.Backoff();
  const waits = Array.from({ length: 7 }, () => backoff.next());
  assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000, 8000, 8000]);
  backoff.reset();
  assert.deepEqual([backoff.next(), backoff.next()], [500, 1000]);
  const fresh = new state.Backoff();
  fresh.reset();
  assert.equal(fresh.next(), 500);
});

test("the Fair throws verdict: a changed commitment warns before anything else", () => {
  const a = "a".repeat(64);
  const b = "b".repeat(64);
  const changed = "Warning: the server now shows a different commitment from the one recorded at the start. The throws of this game cannot be trusted.";
  assert.deepEqual(state.verdictWords(a, b, { kind: "verified", throws: 3 }), [changed, "warning"]);
  assert.deepEqual(state.verdictWords(a, b, null), [changed, "warning"]);
  assert.deepEqual(state.verdictWords(a, a, null), ["", ""]);
  assert.deepEqual(state.verdictWords(null, b, "checking"), ["Checking the throws in your browser…", "checking"]);
  assert.deepEqual(state.verdictWords(a, undefined, "checking"), ["Checking the throws in your browser…", "checking"]);
  assert.deepEqual(state.verdictWords(a, a, { kind: "verified", throws: 3 }),
    ["Verified in your browser: the server seed hashes to the commitment recorded at the start, and all 3 throws follow from the seeds.", "verified"]);
  assert.deepEqual(state.verdictWords(a, a, { kind: "bad-commitment" }),
    ["Warning: the revealed server seed does not match the commitment recorded at the start. The throws of this game cannot be trusted.", "warning"]);
  assert.deepEqual(state.verdictWords(a, a, { kind: "bad-throw", index: 4 }),
    ["Warning: throw 5 does not follow from the seeds. The throws of this game cannot be trusted.", "warning"]);
  assert.deepEqual(state.verdictWords(a, a, { kind: "unavailable" }),
    ["The throws could not be checked in this browser. Reload the page to try again, or check the downloaded game record with senet verify.", "checking"]);
  assert.deepEqual(state.verdictWords(null, undefined, null), ["", ""]);
});
