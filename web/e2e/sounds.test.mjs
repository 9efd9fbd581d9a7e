// The game's sounds on the play page (src/play/sounds.ts) against the real server, with every
// AudioContext and every node it makes counted by an init script: with the sound switch on, a
// throw and a move make sounds (the sticks' knocks are noise bursts as well as tones), and so do
// the computer's plies; with it off (the default) no AudioContext is even made. Pass-and-play
// and spectators get the switch too (off by default, worded for the game's sounds alone).
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ensureArtifacts, launchBrowser, message, startGame, startServer, watchConsole } from "./helpers.mjs";

const DESKTOP = { viewport: { width: 1280, height: 800 } };

let server, browser;
const figures = [];
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => {
  if (figures.length) writeFileSync(join(ensureArtifacts(), "sounds-figures.txt"), figures.join("\n") + "\n");
  await browser?.close();
  await server?.stop();
});

/** Counts, before the page's script runs, the AudioContexts made and each kind of node they make. */
function countAudio() {
  window.__audio = { contexts: 0, oscillator: 0, noise: 0, gain: 0, filter: 0 };
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    constructor(...a) { super(...a); window.__audio.contexts++; }
    createOscillator() { window.__audio.oscillator++; return super.createOscillator(); }
    createBufferSource() { window.__audio.noise++; return super.createBufferSource(); }
    createGain() { window.__audio.gain++; return super.createGain(); }
    createBiquadFilter() { window.__audio.filter++; return super.createBiquadFilter(); }
  };
}

async function newPage() {
  const context = await browser.newContext({ ...DESKTOP, reducedMotion: "no-preference" });
  await context.addInitScript(countAudio);
  const page = await context.newPage();
  return { context, page, problems: watchConsole(page) };
}

const audio = (page) => page.evaluate(() => ({ ...window.__audio }));
const ready = (page) => page.waitForFunction(() => !document.getElementById("throw-button").disabled || document.querySelector("#move-choices button"));

/** Throws (a real click) until a move is offered; returns the page's audio counts just before the throw that gave it. */
async function throwUntilMove(page) {
  for (let n = 0; n < 40; n++) {
    await ready(page);
    if (await page.locator("#move-choices button").count()) return null;
    const before = await audio(page);
    await page.click("#throw-button");
    await page.waitForFunction(() => document.getElementById("throw-button").disabled || document.querySelector("#move-choices button"));
    await page.waitForTimeout(100);
    if (await page.locator("#move-choices button").count()) return before;
  }
  throw new Error("no move came up");
}

test("sound on: a throw and a move call into Web Audio, a throw's sticks as noise; the computer's plies sound too", { timeout: 90000 }, async () => {
  const { context, page, problems } = await newPage();
  await startGame(page, server.url, { opponent: "computer", level: "beginner", ruleset: "standard" });
  assert.equal(await page.isChecked("#sound-toggle"), false, "off by default");
  await page.click("#sound-toggle");
  const switched = await audio(page);
  assert.equal(switched.contexts, 1, "the switch made the one context");
  assert.equal(switched.noise, 0, "the switch's chime is tones only");

  const beforeThrow = (await throwUntilMove(page)) ?? switched;
  const thrown = await audio(page);
  assert.ok(thrown.noise - beforeThrow.noise >= 4, `the throw's four sticks: ${JSON.stringify([beforeThrow, thrown])}`);
  assert.ok(thrown.oscillator - beforeThrow.oscillator >= 4, JSON.stringify([beforeThrow, thrown]));
  await page.click("#move-choices button");
  await page.waitForTimeout(600);  // the slide and its landing knock
  const moved = await audio(page);
  assert.ok(moved.oscillator > thrown.oscillator && moved.noise > thrown.noise, `the move sounded: ${JSON.stringify([thrown, moved])}`);
  assert.equal(moved.contexts, 1, "one context for the page");
  figures.push(`sound on: after the switch ${JSON.stringify(switched)}, after the throw ${JSON.stringify(thrown)}, after the move ${JSON.stringify(moved)}`);
  assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
  await context.close();

  // Against the computer: its plies sound without the player doing anything. Our last action of
  // a turn makes at most two noise bursts (a swap's two knocks); the computer's turn begins with
  // a throw of four sticks.
  const vs = await newPage();
  await startGame(vs.page, server.url, { opponent: "computer", level: "beginner", ruleset: "standard" });
  await vs.page.click("#sound-toggle");
  const ours = () => vs.page.evaluate(() => document.title.startsWith("\u25CF"));
  let computer = null;
  for (let n = 0; n < 60 && !computer; n++) {
    await vs.page.waitForFunction(() => document.title.startsWith("\u25CF") && (!document.getElementById("throw-button").disabled || document.querySelector("#move-choices button")));
    const before = await audio(vs.page);
    await vs.page.click((await vs.page.locator("#move-choices button").count()) ? "#move-choices button" : "#throw-button");
    await vs.page.waitForFunction(() => !document.title.startsWith("\u25CF") || !document.getElementById("throw-button").disabled || document.querySelector("#move-choices button"));
    if (await ours()) continue;
    await vs.page.waitForFunction(() => document.title.startsWith("\u25CF") || !document.getElementById("end").hidden, null, { timeout: 20000 });
    computer = { before, after: await audio(vs.page) };
  }
  assert.ok(computer, "the computer had a turn");
  assert.ok(computer.after.noise - computer.before.noise >= 6, `the computer's throw sounded: ${JSON.stringify(computer)}`);
  figures.push(`sound on, the computer's turn: ${JSON.stringify(computer.before)} → ${JSON.stringify(computer.after)}`);
  await vs.context.close();
});

test("sound off (the default): a throw and a move make no AudioContext and no node", { timeout: 60000 }, async () => {
  const { context, page, problems } = await newPage();
  await startGame(page, server.url, { opponent: "computer", level: "beginner", ruleset: "standard" });
  assert.equal(await page.isChecked("#sound-toggle"), false);
  await throwUntilMove(page);
  await page.click("#move-choices button");
  await page.waitForTimeout(600);
  await throwUntilMove(page);
  const counts = await audio(page);
  figures.push(`sound off: ${JSON.stringify(counts)}`);
  assert.deepEqual(counts, { contexts: 0, oscillator: 0, noise: 0, gain: 0, filter: 0 });
  assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
  await context.close();
});

test("pass-and-play and a spectator get the sound switch too, off by default; switched on, a throw sounds on both pages", { timeout: 60000 }, async () => {
  const local = await newPage();
  const path = await startGame(local.page, server.url, { opponent: "local", ruleset: "standard" });
  const watcher = await newPage();
  await watcher.page.goto(`${server.url}${path}`);
  await watcher.page.waitForSelector("#status:not(:empty)");
  for (const [who, page] of [["pass-and-play", local.page], ["spectator", watcher.page]]) {
    assert.ok(await page.locator("#sound-toggle").isVisible(), `${who}: the sound switch is shown`);
    assert.equal(await page.isChecked("#sound-toggle"), false, `${who}: off by default`);
    assert.equal((await page.textContent("#sound-label")).trim(), message("en", "play.attention.sound-game"), `${who}: the switch names the game's sounds only`);
    assert.equal(await page.locator("#notify-button").isHidden(), true, `${who}: no turn notifications`);
    assert.deepEqual(await audio(page), { contexts: 0, oscillator: 0, noise: 0, gain: 0, filter: 0 }, `${who}: nothing before the switch`);
    await page.click("#sound-toggle");
  }
  const before = [await audio(local.page), await audio(watcher.page)];
  await local.page.click("#throw-button");
  for (const page of [local.page, watcher.page]) await page.waitForFunction(() => document.getElementById("throw-value").textContent !== "");
  await local.page.waitForTimeout(600);  // the sticks' knocks
  const after = [await audio(local.page), await audio(watcher.page)];
  figures.push(`pass-and-play and spectator, sound on, one throw: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
  for (const [i, who] of ["pass-and-play", "spectator"].entries())
    assert.ok(after[i].noise - before[i].noise >= 4, `${who}: the throw's four sticks sounded: ${JSON.stringify([before[i], after[i]])}`);
  await local.page.screenshot({ path: join(ensureArtifacts(), "sounds-switch-local-en.png"), fullPage: true });
  assert.deepEqual([...local.problems, ...watcher.problems].filter((m) => !/WebSocket/.test(m)), []);
  for (const c of [local.context, watcher.context]) await c.close();
});
