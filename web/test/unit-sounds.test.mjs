// The game's sounds (src/play/sounds.ts) and the sound switch that gives them their audio
// context (src/play/attention.ts), on a fake AudioContext that records every node made and
// started: which event makes which sound and when (timed to the slide), nothing from a snapshot,
// nothing while the switch is off or before the player's first gesture, nothing thrown.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { DomEvent, element } from "../testlib/unit-dom.mjs";
import { attention, MemoryStorage, sounds } from "../testlib/unit-env.mjs";

/** The play page's slide time for one leg (src/play/motion.ts LEG_MS), in ms. */
const LEG_MS = 250;

/** A stand-in for Web Audio's AudioContext: `made` lists each node's kind, `started` each source's kind and start time. */
class FakeAudio {
  static contexts = 0;
  constructor() { FakeAudio.contexts++; this.currentTime = 10; this.sampleRate = 8000; this.state = "running"; this.made = []; this.started = []; this.destination = {}; }
  param() { return { value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {}, linearRampToValueAtTime() {} }; }
  node(kind, extra = {}) {
    this.made.push(kind);
    const node = { connect: (next) => next, start: (at) => this.started.push({ kind, at }), stop() {}, ...extra };
    return node;
  }
  createOscillator() { return this.node("oscillator", { type: "sine", frequency: this.param() }); }
  createGain() { return this.node("gain", { gain: this.param() }); }
  createBiquadFilter() { return this.node("filter", { type: "lowpass", Q: this.param(), frequency: this.param() }); }
  createBufferSource() { return this.node("noise", { buffer: null }); }
  createBuffer(channels, length) { this.made.push("buffer"); const data = new Float32Array(length); return { getChannelData: () => data }; }
  resume() { this.state = "running"; return Promise.resolve(); }
}

const events = (...list) => ({ t: "events", d: { ply: 3, events: list, state: {} } });
const thrown = { e: "thrown", seat: 0, player: 1, value: 2, sticks: "0110", index: 4, opening: false };
const moved = (flags = {}) => ({ e: "moved", seat: 0, player: 1, move: "9-11", from: 9, to: 11, dest: 11, ...flags });

test("each event makes its sound: a throw at once, a piece's sound when it lands after its first leg", () => {
  assert.deepEqual(sounds.cuesOf([thrown]), [{ sound: "throw", at: 0 }]);
  assert.deepEqual(sounds.cuesOf([moved(), { e: "turn", seat: 1, player: 2 }]), [{ sound: "move", at: LEG_MS }]);
  assert.deepEqual(sounds.cuesOf([moved({ swap: true }), { e: "swapped", player: 2, square: 11, to: 9 }]), [{ sound: "swap", at: LEG_MS }]);
  assert.deepEqual(sounds.cuesOf([moved({ move: "25-28", from: 25, to: 28, dest: 15, water: true }), { e: "water", seat: 0, player: 1, square: 28, dest: 15 }]),
    [{ sound: "water", at: LEG_MS }]);
  assert.deepEqual(sounds.cuesOf([moved({ capture: true }), { e: "captured", player: 2, square: 11 }]), [{ sound: "capture", at: LEG_MS }]);
  assert.deepEqual(sounds.cuesOf([moved({ move: "27-off", from: 27, to: 31, dest: 31, bearOff: true }), { e: "borne-off", seat: 0, player: 1, from: 27, off: 3 }]),
    [{ sound: "bear-off", at: LEG_MS }]);
  assert.deepEqual(sounds.cuesOf([{ e: "opening-decided", seat: 1 }]), [{ sound: "move", at: LEG_MS }]);
  // Words only: no sound.
  for (const ev of [{ e: "passed", seat: 1, player: 2, value: 3 }, { e: "turn", seat: 1, player: 2 }, { e: "presence", seat: 1, online: false },
    { e: "extra-throw", seat: 0, player: 1, value: 4 }, { e: "result", winner: 0, player: 1, reason: "resign", serverSeed: "ab" }])
    assert.deepEqual(sounds.cuesOf([ev]), [], ev.e);
});

test("under reduced motion nothing slides, so a piece sounds at once", () => {
  globalThis.matchMedia = (q) => ({ matches: q.includes("reduce") });
  try {
    assert.deepEqual(sounds.cuesOf([moved()]), [{ sound: "move", at: 0 }]);
    assert.deepEqual(sounds.cuesOf([moved({ swap: true }), { e: "swapped", player: 2, square: 11, to: 9 }]), [{ sound: "swap", at: 0 }]);
  } finally {
    delete globalThis.matchMedia;
  }
});

test("an events message plays through the context at the cue's time; a throw is four sticks, water a noise", () => {
  const ctx = new FakeAudio();
  const player = new sounds.GameSounds(() => ctx);
  player.hear(events(thrown));
  const sticks = ctx.started.filter((s) => s.kind === "oscillator");
  assert.equal(sticks.length, 4, "four knocks of wood");
  assert.ok(Math.abs(sticks[0].at - 10.01) < 1e-9, `the first stick at once: ${sticks[0].at}`);
  assert.ok(sticks.every((s, i) => i === 0 || s.at > sticks[i - 1].at), "one after another");
  ctx.started.length = 0;
  ctx.currentTime = 20;
  player.hear(events(moved({ water: true, to: 27, dest: 15 }), { e: "water", seat: 0, player: 1, square: 27, dest: 15 }));
  assert.ok(ctx.started.some((s) => s.kind === "noise"), "a splash of noise");
  const first = Math.min(...ctx.started.map((s) => s.at));
  assert.ok(Math.abs(first - (20.01 + LEG_MS / 1000)) < 1e-9, `the splash as the piece reaches the water: ${first}`);
});

test("a snapshot (the page's load, a reconnect) replays no sound; with the switch off (no context) nothing plays", () => {
  const ctx = new FakeAudio();
  let asked = 0;
  const player = new sounds.GameSounds(() => { asked++; return ctx; });
  player.hear({ t: "snapshot", d: { ply: 9, phase: "throw", lastThrow: { index: 8, seat: 0, sticks: "0110", value: 2 } } });
  player.hear({ t: "watchers", d: { count: 2 } });
  player.hear(events({ e: "turn", seat: 1, player: 2 }));
  assert.deepEqual(ctx.made, []);
  assert.equal(asked, 0, "the context is not even asked for");
  const off = new sounds.GameSounds(() => null);
  assert.doesNotThrow(() => off.hear(events(thrown, moved())));
});

test("the same sound twice within the repeat gap is heard once (a burst of queued messages); a broken context throws nothing", (t) => {
  const ctx = new FakeAudio();
  const player = new sounds.GameSounds(() => ctx);
  player.hear(events(moved()));
  const once = ctx.started.length;
  assert.ok(once > 0);
  player.hear(events(moved()));
  assert.equal(ctx.started.length, once, "not again at the same moment");
  ctx.currentTime += sounds.REPEAT_GAP_MS / 1000 + 0.001;
  player.hear(events(moved()));
  assert.equal(ctx.started.length, 2 * once, "again a moment later");
  const errors = t.mock.method(console, "error", () => {});
  const broken = new sounds.GameSounds(() => ({ currentTime: 0, createOscillator() { throw new Error("no audio"); } }));
  assert.doesNotThrow(() => broken.hear(events(thrown)));
  assert.equal(errors.mock.callCount(), 1);
});

// The switch itself: attention.ts on a page with its controls, a storage and the fake AudioContext.
const saved = { window: globalThis.window, localStorage: globalThis.localStorage, navigator: globalThis.navigator };
after(() => {
  globalThis.window = saved.window;
  globalThis.localStorage = saved.localStorage;
  if (!saved.navigator) delete globalThis.navigator;
});

test("the sound switch: no context before the first gesture nor while off; the gesture makes one, off silences it", () => {
  for (const [id, tag] of [["sound-toggle", "input"], ["notify-button", "button"], ["notify-status", "p"], ["share-button", "button"], ["qr-details", "details"], ["qr", "div"]]) {
    const node = element(tag);
    node.id = id;
    document.body.append(node);
  }
  globalThis.localStorage = new MemoryStorage();
  globalThis.localStorage.setItem("senet.sound", "on");  // switched on at an earlier visit
  globalThis.window = { AudioContext: FakeAudio };
  if (!globalThis.navigator) globalThis.navigator = {};  // no share sheet
  FakeAudio.contexts = 0;
  attention.setupAttention("g1");
  const toggle = document.getElementById("sound-toggle");
  assert.equal(toggle.checked, true);
  assert.equal(attention.soundContext(), null, "no audio before the player's first gesture");
  attention.yourTurn(false);
  attention.yourTurn(true);  // the turn's chime: not yet
  assert.equal(FakeAudio.contexts, 0);
  document.dispatchEvent(new DomEvent("pointerdown"));
  assert.equal(FakeAudio.contexts, 1, "the first tap opens the audio");
  const ctx = attention.soundContext();
  assert.ok(ctx instanceof FakeAudio);
  const player = new sounds.GameSounds(attention.soundContext);
  player.hear(events(thrown));
  assert.ok(ctx.started.length >= 4, "sound on: the throw plays");
  toggle.checked = false;
  toggle.dispatchEvent(new DomEvent("change"));
  assert.equal(globalThis.localStorage.getItem("senet.sound"), "off");
  assert.equal(attention.soundContext(), null);
  const before = ctx.started.length;
  ctx.currentTime += 1;
  player.hear(events(thrown, moved()));
  assert.equal(ctx.started.length, before, "sound off: nothing plays");
  assert.equal(FakeAudio.contexts, 1);
});
