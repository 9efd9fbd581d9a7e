// The event feed (src/play/feed.ts: newest first, at most `max`, a run of the same words counted, the join notice fleeting) and
// the claim countdown (src/play/claim.ts: shown only while a friend is away, the button only once the
// grace period has passed), on a clock the test moves.
import assert from "node:assert/strict";
import { test } from "node:test";
import { element } from "../testlib/unit-dom.mjs";
import { claim, feed } from "../testlib/unit-env.mjs";

test("the feed: newest first, at most max lines, hidden until the first event, empty words ignored", () => {
  const list = element("div");
  const f = new feed.Feed(list, 3);
  assert.equal(list.hidden, true);
  f.add("");
  assert.equal(list.hidden, true);
  assert.deepEqual(f.items(), []);
  f.add("A");
  assert.equal(list.hidden, false);
  f.add("B");
  f.add("C");
  f.add("D");
  assert.deepEqual(f.items(), ["D", "C", "B"]);
  assert.deepEqual([...list.children].map((p) => p.className), ["feed-new", "", ""]);
  assert.deepEqual([...list.children].map((p) => p.tagName), ["P", "P", "P"]);
  const five = new feed.Feed(element("div"));
  for (const x of ["1", "2", "3", "4", "5", "6"]) five.add(x);
  assert.deepEqual(five.items(), ["6", "5", "4", "3", "2"]);
});

test("the same words again make one line with a count", () => {
  const list = element("div");
  const f = new feed.Feed(list, 3);
  f.add("Cones throw again.");
  f.add("Cones throw again.");
  assert.deepEqual(f.items(), ["Cones throw again. (×2)"]);
  assert.equal(list.firstElementChild.tagName, "P");
  f.add("Cones throw again.");
  assert.deepEqual(f.items(), ["Cones throw again. (×3)"]);
  assert.equal(list.firstElementChild.className, "feed-new");
  assert.equal(list.firstElementChild.dataset.count, "3");
  f.add("Spools pass.");
  f.add("Cones throw again.");
  assert.deepEqual(f.items(), ["Cones throw again.", "Spools pass.", "Cones throw again. (×3)"]);
  assert.deepEqual([...list.children].map((p) => p.className), ["feed-new", "", ""]);
  f.add("Cones throw again.");
  assert.deepEqual(f.items(), ["Cones throw again. (×2)", "Spools pass.", "Cones throw again. (×3)"]);
  assert.deepEqual([...list.children].map((p) => p.className), ["feed-new", "", ""]);
});

test("a fleeting line (the join notice) leaves after its time or when the game moves on; the empty feed hides", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const list = element("div");
  const f = new feed.Feed(list);
  f.add("Your opponent has joined. The game begins.", 6000);
  t.mock.timers.tick(5999);
  assert.deepEqual(f.items(), ["Your opponent has joined. The game begins."]);
  t.mock.timers.tick(1);
  assert.deepEqual(f.items(), []);
  assert.equal(list.hidden, true);
  f.add("Cones pass.");
  f.add("Your opponent has joined. The game begins.", 6000);
  f.moveOn();
  assert.deepEqual(f.items(), ["Cones pass."]);
  assert.equal(list.hidden, false);
  f.add("Spools pass.");
  f.moveOn();
  assert.deepEqual(f.items(), ["Spools pass.", "Cones pass."], "other lines stay");
});

const away = { taken: true, kind: "human", online: false };
const here = { taken: true, kind: "human", online: true };
const view = (over = {}, you = [0]) => ({ s: { opponent: "friend", phase: "throw", seats: [here, away], grace: 100, ...over }, you });
const wait = (rest) => `Your opponent is offline. If they do not come back, you can claim the win in ${rest}.`;
const READY = "Your opponent has been offline for too long. You can claim the win, or wait for them.";

function rig(t) {
  t.mock.timers.enable({ apis: ["setInterval", "Date"], now: 1_000_000 });
  const button = element("button");
  const note = element("p");
  const timer = new claim.ClaimTimer(button, note);
  const ready = [];
  timer.onReady = (text) => ready.push(text);
  return { button, note, timer, ready };
}

test("the claim: a countdown from when the opponent went away, then the button", (t) => {
  const { button, note, timer, ready } = rig(t);
  // Count the writes to the countdown line: the same words are not written again each second.
  let writes = 0;
  const own = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Object.getPrototypeOf(note)), "textContent")
    ?? Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Object.getPrototypeOf(Object.getPrototypeOf(note))), "textContent");
  Object.defineProperty(note, "textContent", { get() { return own.get.call(this); }, set(v) { writes++; own.set.call(this, v); } });
  assert.equal(timer.secondsLeft(), null);
  timer.update(view());
  assert.equal(writes, 1);
  t.mock.timers.tick(1_000);
  assert.equal(note.textContent, wait("2 minutes"));
  assert.equal(writes, 1, "99 s left reads the same as 100 s: not written again");
  assert.equal(timer.secondsLeft(), 99);
  assert.equal(note.textContent, wait("2 minutes"));
  assert.equal(note.hidden, false);
  assert.equal(button.hidden, true);
  t.mock.timers.tick(9_000);
  assert.equal(timer.secondsLeft(), 90);
  assert.equal(writes, 2);
  assert.equal(note.textContent, wait("90 seconds"));
  // A new state while still away keeps counting from the first moment.
  timer.update(view({ phase: "move" }));
  assert.equal(timer.secondsLeft(), 90);
  t.mock.timers.tick(89_000);
  assert.equal(note.textContent, wait("1 second"));
  assert.equal(button.hidden, true);
  assert.deepEqual(ready, []);
  t.mock.timers.tick(1_000);
  assert.equal(timer.secondsLeft(), 0);
  assert.equal(note.textContent, READY);
  assert.equal(button.hidden, false);
  assert.deepEqual(ready, [READY]);
  // Once ready, the interval has stopped: no second announcement.
  t.mock.timers.tick(5_000);
  assert.deepEqual(ready, [READY]);
  assert.equal(timer.secondsLeft(), 0);
  // The opponent comes back: nothing shows, the count starts again when they leave again.
  timer.update(view({ seats: [here, here] }));
  assert.equal(timer.secondsLeft(), null);
  assert.equal(note.hidden, true);
  assert.equal(note.textContent, "");
  assert.equal(button.hidden, true);
  timer.update(view());
  assert.equal(timer.secondsLeft(), 100);
  t.mock.timers.tick(11_000);
  assert.equal(timer.secondsLeft(), 89);
  assert.equal(note.textContent, wait("89 seconds"));
});

test("no claim for the seat's own absence, a computer, an empty seat, other games, the waiting or finished game, or a spectator", (t) => {
  const { button, note, timer } = rig(t);
  const none = (v) => {
    timer.update(v);
    assert.equal(timer.secondsLeft(), null, JSON.stringify(v));
    assert.equal(note.hidden, true);
    assert.equal(button.hidden, true);
  };
  none(view({ seats: [away, here] }));
  none(view({ seats: [here, { taken: true, kind: "computer", online: false }] }));
  none(view({ seats: [here, { taken: false, kind: "human", online: false }] }));
  none(view({ opponent: "computer" }));
  none(view({ opponent: "local" }, [0, 1]));
  none(view({ phase: "over" }));
  none(view({ phase: "waiting" }));
  none(view({}, []));
  none(view({ seats: [away, here] }, []));
  none(view({}, [0, 1]));
  // Seen from seat 1, seat 0 is the opponent.
  timer.update(view({ seats: [away, here] }, [1]));
  assert.equal(timer.secondsLeft(), 100);
  timer.update(view({ phase: "opening", seats: [away, here] }, [1]));
  assert.equal(timer.secondsLeft(), 100);
  t.mock.timers.tick(100_000);
  assert.equal(button.hidden, false);
});

test("a grace period already over shows the button at once", (t) => {
  const { button, note, timer, ready } = rig(t);
  timer.update(view({ grace: 0 }));
  assert.equal(button.hidden, false);
  assert.equal(note.textContent, READY);
  assert.deepEqual(ready, [READY]);
  // Without a listener nothing breaks.
  const other = new claim.ClaimTimer(element("button"), element("p"));
  other.update(view({ grace: 0 }));
  assert.equal(other.secondsLeft(), 0);
});

test("a rematch's player who never came to it is waited for with no countdown; an absent creator is counted", (t) => {
  const { button, note, timer } = rig(t);
  const unseeded = { commitment: "c", clientSeeds: ["a", null], serverSeed: null };
  timer.update(view({ rematchOf: "old", fairness: unseeded }));
  assert.equal(timer.secondsLeft(), null);
  assert.equal(note.hidden, true);
  assert.equal(button.hidden, true);
  // Once they came (their seed is fixed) and left again, the claim runs as in any game.
  timer.update(view({ rematchOf: "old", fairness: { ...unseeded, clientSeeds: ["a", "b"] } }));
  assert.equal(timer.secondsLeft(), 100);
  // Not a rematch: the creator whose page never connected is counted like an absent friend.
  timer.update(view({ rematchOf: null, fairness: unseeded }));
  assert.equal(timer.secondsLeft(), 100);
  assert.equal(note.hidden, false);
});
