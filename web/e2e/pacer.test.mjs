// The play page's message pacer and the slides it waits for (web/src/play/pacer.ts, motion.ts), run in
// Node: order is kept, a queued message waits for the one before it, and snapshots, the
// player's own action (flush) and an unpaced page deliver everything at once.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import * as esbuild from "esbuild";
import { WEB } from "./helpers.mjs";

/** pacer.ts and motion.ts bundled for Node (no DOM: no reduced motion, the tab counts as shown). */
async function load() {
  const out = await esbuild.build({
    stdin: { contents: 'export * from "./pacer"; export { pathBetween, slidesOf, LEG_MS } from "./motion";', resolveDir: join(WEB, "src", "play"), loader: "ts" },
    bundle: true, format: "esm", platform: "neutral", write: false,
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].contents).toString("base64")}`);
}
const m = await load();

/** Waits until `done()` holds, polling every 5 ms; fails naming `what` after `ms` (no fixed sleep). */
async function until(done, what, ms = 5000) {
  for (const end = performance.now() + ms; !done();) {
    if (performance.now() > end) assert.fail(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const events = (n, list = [{ e: "presence" }]) => ({ t: "events", d: { ply: n, events: list, state: {} } });

test("queued events are delivered in order, each after the one before has been shown", async () => {
  const got = [];
  const pacer = new m.Pacer((msg) => got.push({ ply: msg.d.ply, at: performance.now() }), () => 40);
  for (let n = 1; n <= 3; n++) pacer.push(events(n));
  assert.deepEqual(got.map((g) => g.ply), [1], "the first is shown at once");
  assert.equal(pacer.waiting, 2);
  await until(() => got.length >= 3, "the three messages");
  assert.deepEqual(got.map((g) => g.ply), [1, 2, 3]);
  for (let i = 1; i < got.length; i++) assert.ok(got[i].at - got[i - 1].at >= 38, `gap ${got[i].at - got[i - 1].at} ms`);
});

test("the player's action and a snapshot deliver the queue at once, in order", () => {
  const got = [];
  const pacer = new m.Pacer((msg) => got.push(msg.t === "events" ? msg.d.ply : msg.t), () => 10000);
  pacer.push(events(1));
  pacer.push(events(2));
  pacer.push(events(3));
  assert.deepEqual(got, [1]);
  pacer.flush();
  assert.deepEqual(got, [1, 2, 3], "flush shows everything queued");
  pacer.push(events(4));
  assert.deepEqual(got, [1, 2, 3, 4], "after a flush the answer to the player's action is not held back");
  pacer.push(events(5));
  pacer.push({ t: "snapshot", d: {} });
  assert.deepEqual(got, [1, 2, 3, 4, 5, "snapshot"], "a snapshot comes after the events before it, at once");
  pacer.push({ t: "error", d: { code: "wrong-ply", message: "", ply: 0 } });
  assert.deepEqual(got.at(-1), "error");
  assert.equal(pacer.waiting, 0);
});

test("without pacing (reduced motion, hidden tab) nothing waits", () => {
  const got = [];
  const pacer = new m.Pacer((msg) => got.push(msg.d.ply), () => 10000, () => false);
  for (let n = 1; n <= 4; n++) pacer.push(events(n));
  assert.deepEqual(got, [1, 2, 3, 4]);
});

test("a message that throws does not stop the ones behind it", async () => {
  const got = [];
  const errors = console.error;
  console.error = () => {};
  try {
    const pacer = new m.Pacer((msg) => { got.push(msg.d.ply); if (msg.d.ply === 1) throw new Error("bad"); }, () => 5);
    pacer.push(events(1));
    pacer.push(events(2));
    await until(() => got.length >= 2, "the message behind the one that threw");
  } finally {
    console.error = errors;
  }
  assert.deepEqual(got, [1, 2]);
});

test("hold times: a slide per leg plus a pause, a throw, nothing for the rest", () => {
  const moved = { e: "moved", player: 1, from: 8, to: 11, dest: 11 };
  assert.equal(m.holdFor([moved]), m.LEG_MS + m.MOVE_HOLD_MS);
  assert.equal(m.holdFor([{ e: "moved", player: 1, from: 25, to: 27, dest: 15, water: true }]), 2 * m.LEG_MS + m.MOVE_HOLD_MS);
  assert.equal(m.holdFor([{ e: "thrown", value: 3 }]), m.THROW_HOLD_MS);
  assert.equal(m.holdFor([{ e: "presence", seat: 1, online: true }]), 0);
});

test("slides follow the path square by square: water in two legs, a swap back, a bear-off to the tray", () => {
  assert.deepEqual(m.pathBetween(8, 12), [8, 9, 10, 11, 12]);
  assert.deepEqual(m.pathBetween(27, 15).length, 13);
  assert.deepEqual(m.slidesOf([{ e: "moved", player: 1, from: 25, to: 27, dest: 15, water: true }]),
    [{ player: 1, legs: [[25, 26, 27], [27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15]] }]);
  assert.deepEqual(m.slidesOf([{ e: "moved", player: 2, from: 8, to: 9, dest: 9, swap: true }, { e: "swapped", player: 1, square: 9, to: 8 }]),
    [{ player: 2, legs: [[8, 9]] }, { player: 1, legs: [[9, 8]] }]);
  assert.deepEqual(m.slidesOf([{ e: "moved", player: 1, from: 28, to: 31, dest: 31, bearOff: true }]), [{ player: 1, legs: [[28, 29, 30, 31]] }]);
});
