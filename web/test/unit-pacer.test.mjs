// The pacer (src/play/pacer.ts) on a clock the test moves: messages keep their order, an `events`
// message waits while the one before it is still in view, anything else (and flush) delivers
// the queue at once, and going to the background flushes it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DomEvent } from "../testlib/unit-dom.mjs";
import { pacer } from "../testlib/unit-env.mjs";

const ev = (n, events = []) => ({ t: "events", d: { ply: n, events, state: {} } });

/** A pacer whose held time is `hold` ms per events message, on a clock the test moves with mock timers. */
function rig(t, { hold = (m) => (m.t === "events" ? 100 : 0), paced = () => true } = {}) {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 5000 });
  const got = [];
  const p = new pacer.Pacer((m) => got.push(m.t === "events" ? m.d.ply : m.t), hold, paced, () => Date.now());
  return { p, got };
}

test("an events message waits until the one before has been in view for its time, in order", (t) => {
  const { p, got } = rig(t);
  p.push(ev(1));
  assert.deepEqual(got, [1]);
  p.push(ev(2));
  p.push(ev(3));
  assert.equal(p.waiting, 2);
  t.mock.timers.tick(99);
  assert.deepEqual(got, [1]);
  t.mock.timers.tick(1);
  assert.deepEqual(got, [1, 2]);
  assert.equal(p.waiting, 1);
  t.mock.timers.tick(99);
  assert.deepEqual(got, [1, 2]);
  t.mock.timers.tick(1);
  assert.deepEqual(got, [1, 2, 3]);
  assert.equal(p.waiting, 0);
  // Long after, a new message goes through at once.
  t.mock.timers.tick(1000);
  p.push(ev(4));
  assert.deepEqual(got, [1, 2, 3, 4]);
});

test("a snapshot or an error first delivers everything queued, then itself; flush empties the queue", (t) => {
  const { p, got } = rig(t);
  p.push(ev(1));
  p.push(ev(2));
  p.push(ev(3));
  p.push({ t: "snapshot", d: {} });
  assert.deepEqual(got, [1, 2, 3, "snapshot"]);
  assert.equal(p.waiting, 0);
  // The snapshot holds nothing: the next events message goes through at once.
  p.push(ev(4));
  assert.deepEqual(got, [1, 2, 3, "snapshot", 4]);
  p.push(ev(5));
  p.flush();
  assert.deepEqual(got, [1, 2, 3, "snapshot", 4, 5]);
  // After a flush nothing waits (the clock has not moved), and the old timer delivers nothing twice.
  p.push(ev(6));
  assert.deepEqual(got.slice(-1), [6]);
  t.mock.timers.tick(500);
  assert.deepEqual(got, [1, 2, 3, "snapshot", 4, 5, 6]);
});

test("not pacing (reduced motion, hidden tab): every message at once", (t) => {
  const { p, got } = rig(t, { paced: () => false });
  p.push(ev(1));
  p.push(ev(2));
  assert.deepEqual(got, [1, 2]);
  assert.equal(p.waiting, 0);
});

test("a handler that throws does not stop the messages behind it; a negative hold holds nothing", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
  const got = [];
  const errors = [];
  t.mock.method(console, "error", (e) => errors.push(String(e)));
  const p = new pacer.Pacer((m) => { got.push(m.d.ply); if (m.d.ply === 1) throw new Error("bad message"); }, () => -50, () => true, () => Date.now());
  p.push(ev(1));
  p.push(ev(2));
  assert.deepEqual(got, [1, 2]);
  assert.deepEqual(errors, ["Error: bad message"]);
});

test("the default hold: the slide's time plus a pause, a throw's time, or nothing", (t) => {
  assert.equal(pacer.THROW_HOLD_MS, 350);
  assert.equal(pacer.MOVE_HOLD_MS, 120);
  assert.equal(pacer.pacing(), true);
  assert.equal(pacer.holdFor([]), 0);
  assert.equal(pacer.holdFor([{ e: "turn", seat: 0 }]), 0);
  assert.equal(pacer.holdFor([{ e: "thrown", seat: 0, value: 3 }]), 350);
  assert.equal(pacer.holdFor([{ e: "thrown", seat: 0, value: 3 }, { e: "moved", player: 1, from: 3, to: 6 }]), 250 + 120);
  assert.equal(pacer.holdFor([{ e: "moved", player: 1, from: 9, to: 28, dest: 15, water: true }]), 500 + 120);
  // The default pacer holds an events message for holdFor of its events; others for nothing.
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
  const got = [];
  const p = new pacer.Pacer((m) => got.push(m.d.ply ?? m.t), undefined, () => true, () => Date.now());
  p.push(ev(1, [{ e: "thrown", seat: 0, value: 3 }]));
  p.push(ev(2));
  t.mock.timers.tick(349);
  assert.deepEqual(got, [1]);
  t.mock.timers.tick(1);
  assert.deepEqual(got, [1, 2]);
  p.push({ t: "watchers", d: { count: 1 } });
  p.push(ev(3));
  assert.deepEqual(got, [1, 2, "watchers", 3]);
  // Under reduced motion nothing is held.
  globalThis.matchMedia = (q) => ({ matches: q === "(prefers-reduced-motion: reduce)" });
  try {
    assert.equal(pacer.pacing(), false);
    assert.equal(pacer.holdFor([{ e: "thrown", seat: 0, value: 3 }]), 0);
  } finally {
    delete globalThis.matchMedia;
  }
});

test("the default clock and pacing: performance.now and pacing()", async () => {
  const got = [];
  const p = new pacer.Pacer((m) => got.push(m.d.ply), () => 60_000);
  p.push(ev(1));
  p.push(ev(2));
  assert.deepEqual(got, [1]);
  assert.equal(p.waiting, 1, "the second waits a minute on the real clock");
  p.flush();
  assert.deepEqual(got, [1, 2]);
});

test("without a DOM (no document) messages are paced and nothing listens for visibility", (t) => {
  const saved = globalThis.document;
  delete globalThis.document;
  try {
    assert.equal(pacer.pacing(), true);
    const { p, got } = rig(t);
    p.push(ev(1));
    p.push(ev(2));
    assert.deepEqual(got, [1]);
    p.flush();
  } finally {
    globalThis.document = saved;
  }
});

test("a hidden tab is not paced, and hiding the tab delivers what is queued", (t) => {
  const { p, got } = rig(t);
  p.push(ev(1));
  p.push(ev(2));
  Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
  try {
    assert.equal(pacer.pacing(), false);
    document.dispatchEvent(new DomEvent("visibilitychange"));
    assert.deepEqual(got, [1, 2]);
  } finally {
    delete document.visibilityState;
  }
  Object.defineProperty(document, "visibilityState", { value: "visible", configurable: true });
  try {
    assert.equal(pacer.pacing(), true);
    p.push(ev(3));
    p.push(ev(4));
    document.dispatchEvent(new DomEvent("visibilitychange"));
    assert.deepEqual(got, [1, 2, 3]);
  } finally {
    delete document.visibilityState;
  }
});
