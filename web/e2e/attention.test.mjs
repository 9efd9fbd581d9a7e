// Motion and attention on the play page, on a phone (390 × 844, touch) and a desktop (1280 × 800):
// pieces slide square by square along the path (and stand still under reduced motion), the
// computer's chained plies are shown one after another, "● Your turn" in the tab title, the
// sound switch remembered across a reload, notifications asked for only on a click and shown
// while the tab is hidden, the share sheet and the invite's QR code.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import qrcode from "qrcode-generator";
import { axe, ensureArtifacts, launchBrowser, startGame, startServer, step, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
/** The play page's slide time for one leg (web/src/play/motion.ts LEG_MS). */
const LEG_MS = 250;

let server, browser;
const figures = [];
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => {
  if (figures.length) writeFileSync(join(ensureArtifacts(), "attention-figures.txt"), figures.join("\n") + "\n");
  await browser?.close();
  await server?.stop();
});

/**
 * Spies set up before the page's script runs: every tab title with its time, every entry of
 * the move list with its time and how many came in one change, AudioContexts made and notes
 * started, Notification permission requests and notifications, navigator.share calls (a stub:
 * a headless browser has no share sheet).
 */
function spies() {
  window.__titles = [];
  window.__entries = [];
  window.__audio = { created: 0, started: 0 };
  window.__asked = 0;
  window.__notes = [];
  window.__shared = [];
  if (window.__withShare) navigator.share = async (data) => { window.__shared.push(data); };
  const RealAudio = window.AudioContext;
  window.AudioContext = class extends RealAudio {
    constructor(...a) { super(...a); window.__audio.created++; }
    createOscillator() {
      const o = super.createOscillator();
      const start = o.start.bind(o);
      o.start = (...a) => { window.__audio.started++; return start(...a); };
      return o;
    }
  };
  const RealNote = window.Notification;
  if (RealNote) {
    const Spy = class extends RealNote {
      constructor(title, options) { window.__notes.push({ title, body: options?.body ?? "" }); super(title, options); }
    };
    Spy.requestPermission = (...a) => { window.__asked++; return RealNote.requestPermission(...a); };
    Object.defineProperty(Spy, "permission", { get: () => RealNote.permission });
    window.Notification = Spy;
  }
  document.addEventListener("DOMContentLoaded", () => {
    const title = document.querySelector("title");
    const noteTitle = () => { const t = document.title; if (window.__titles.at(-1)?.text !== t) window.__titles.push({ text: t, at: performance.now() }); };
    noteTitle();
    new MutationObserver(noteTitle).observe(title, { childList: true, characterData: true, subtree: true });
    const list = document.getElementById("move-list");
    if (!list) return;
    new MutationObserver((records) => {
      const added = records.flatMap((r) => [...r.addedNodes]).filter((n) => n.nodeName === "LI" && !n.classList.contains("empty"));
      for (const li of added) window.__entries.push({ text: li.textContent, at: performance.now(), batch: added.length });
    }).observe(list, { childList: true });
  });
}

async function newPage(options, { share = false, reduced = false } = {}) {
  const context = await browser.newContext({ ...options, reducedMotion: reduced ? "reduce" : "no-preference" });
  if (share) await context.addInitScript(() => { window.__withShare = true; });
  await context.addInitScript(spies);
  const page = await context.newPage();
  return { context, page, problems: watchConsole(page) };
}

const centreOf = (page, square) => page.evaluate((s) => {
  const r = document.querySelector(`.board .square[data-square="${s}"] rect`).getBoundingClientRect();
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
}, square);

/**
 * Picks a move (one that crosses from one row of the path to the next if there is one, else the
 * longest), then samples the moving piece's centre on every animation frame while it moves.
 */
async function sampleMove(page) {
  const moves = await page.$$eval("#move-choices button", (bs) => bs.map((b) => b.dataset.move));
  const water = await page.evaluate(() => JSON.parse(document.getElementById("play").dataset.board).water);
  const parsed = moves.map((m) => { const [a, b] = m.split("-"); return { move: m, from: Number(a), to: b === "off" ? 31 : Number(b) }; })
    .filter((m) => m.to <= 30 && m.to !== water);
  const crossing = parsed.find((m) => Math.floor((m.from - 1) / 10) !== Math.floor((m.to - 1) / 10));
  const chosen = crossing ?? parsed.sort((x, y) => Math.abs(y.to - y.from) - Math.abs(x.to - x.from))[0];
  if (!chosen) return null;
  const samples = await page.evaluate(async (move) => {
    const out = [];
    const start = performance.now();
    document.querySelector(`#move-choices button[data-move="${move}"]`).click();
    await new Promise((done) => {
      const frame = () => {
        const p = document.querySelector(".board .piece.moving");
        if (p) { const r = p.getBoundingClientRect(); out.push({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2, t: performance.now() - start, transform: getComputedStyle(p).transform }); }
        if (performance.now() - start < 900) requestAnimationFrame(frame); else done();
      };
      requestAnimationFrame(frame);
    });
    return out;
  }, chosen.move);
  return { ...chosen, samples };
}

/** Throws until a move can be sampled (a local game: the page acts for both sides); returns the sampled move. */
async function throwAndSample(page) {
  for (let n = 0; n < 40; n++) {
    await page.waitForFunction(() => !document.getElementById("throw-button").disabled || document.querySelector("#move-choices button"));
    if (await page.locator("#move-choices button").count()) {
      const sampled = await sampleMove(page);
      if (sampled && Math.abs(sampled.to - sampled.from) >= 2) return sampled;
      continue;
    }
    await page.click("#throw-button");
    await page.waitForFunction(() => document.getElementById("throw-button").disabled || document.querySelector("#move-choices button"));
  }
  throw new Error("no move of two squares or more came up");
}

/**
 * Plays a local game (the first move button each time) until a move lands on the other side's
 * piece (a swap), then samples which pieces move while it is shown: both should, each way.
 */
async function sampleSwap(page) {
  for (let n = 0; n < 80; n++) {
    await page.waitForFunction(() => !document.getElementById("throw-button").disabled || document.querySelector("#move-choices button"));
    if (!(await page.locator("#move-choices button").count())) { await page.click("#throw-button"); continue; }
    const swap = await page.evaluate(() => {
      const owner = (s) => document.querySelector(`.board .piece[data-at="${s}"]`)?.classList.contains("piece-1") ? 1
        : document.querySelector(`.board .piece[data-at="${s}"]`) ? 2 : 0;
      for (const b of document.querySelectorAll("#move-choices button")) {
        const [from, to] = b.dataset.move.split("-").map(Number);
        if (to && owner(to) && owner(to) !== owner(from)) return { move: b.dataset.move, from, to };
      }
      return null;
    });
    if (!swap) { await page.click("#move-choices button"); continue; }
    const seen = await page.evaluate(async (move) => {
      const out = new Set();
      const start = performance.now();
      document.querySelector(`#move-choices button[data-move="${move}"]`).click();
      await new Promise((done) => {
        const frame = () => {
          for (const p of document.querySelectorAll(".board .piece.moving")) out.add(`${p.classList.contains("piece-1") ? 1 : 2}@${p.dataset.at}`);
          if (performance.now() - start < 900) requestAnimationFrame(frame); else done();
        };
        requestAnimationFrame(frame);
      });
      return [...out];
    }, swap.move);
    return { ...swap, seen };
  }
  throw new Error("no swap came up");
}

for (const [label, options] of [["phone", PHONE], ["desktop", DESKTOP]]) {
  const also = label === "phone" ? "under reduced motion it does not move" : "a swap moves both pieces";
  test(`${label}: a moved piece slides square by square along the path; ${also}`, { timeout: 60000 }, async () => {
    const { context, page, problems } = await newPage(options);
    await startGame(page, server.url, { opponent: "local", ruleset: "standard" });
    const moved = await throwAndSample(page);
    const { from, to, samples } = moved;
    assert.ok(samples.length >= 4, `the piece was seen moving in several frames: ${samples.length}`);
    assert.ok(samples.some((s) => s.transform !== "none"), "the moving piece has a CSS transform");
    const along = [];
    for (let s = Math.min(from, to); s <= Math.max(from, to); s++) along.push({ square: s, box: await centreOf(page, s) });
    const inBox = (p, b) => p.x >= b.left - 2 && p.x <= b.right + 2 && p.y >= b.top - 2 && p.y <= b.bottom + 2;
    // Every sampled position lies on a square of the path between the two ends (a straight jump
    // across rows would leave it), and the piece was seen on a square between them.
    for (const p of samples) assert.ok(along.some((a) => inBox(p, a.box)), `${from}→${to}: (${p.x.toFixed(0)}, ${p.y.toFixed(0)}) at ${p.t.toFixed(0)} ms is on the path`);
    const between = along.filter((a) => a.square !== from && a.square !== to);
    assert.ok(samples.some((p) => between.some((a) => inBox(p, a.box))), `${from}→${to} passed through a square between`);
    // The nearest square of the path at each frame: it never goes back (no flash at the end place).
    const mid = (b) => ({ x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 });
    const squares = samples.map((p) => along.reduce((best, a) => (Math.hypot(p.x - mid(a.box).x, p.y - mid(a.box).y) < Math.hypot(p.x - mid(best.box).x, p.y - mid(best.box).y) ? a : best)).square);
    for (let i = 1; i < squares.length; i++) assert.ok(squares[i] >= squares[i - 1], `${from}→${to} went forward only: ${squares.join(" ")}`);
    figures.push(`${label}: move ${from}→${to} seen in ${samples.length} frames from ${samples[0].t.toFixed(0)} to ${samples.at(-1).t.toFixed(0)} ms after the click, on squares ${squares.join(" ")}`);
    assert.ok(samples.at(-1).t >= LEG_MS * 0.6, `the slide lasted about ${LEG_MS} ms (last frame ${samples.at(-1).t.toFixed(0)} ms)`);
    if (label === "desktop") {
      // A swap: the mover goes forward and the other side's piece goes back to where the mover stood.
      const swap = await sampleSwap(page);
      figures.push(`${label}: swap ${swap.from}→${swap.to}, pieces seen moving (side@square where they end): ${swap.seen.join(", ")}`);
      assert.equal(swap.seen.length, 2, `both pieces of the swap ${swap.from}→${swap.to} moved: ${swap.seen.join(", ")}`);
      assert.ok(swap.seen.some((p) => p.endsWith(`@${swap.to}`)) && swap.seen.some((p) => p.endsWith(`@${swap.from}`)), swap.seen.join(", "));
    }
    assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
    await context.close();
    if (label !== "phone") return;

    const still = await newPage(options, { reduced: true });
    await startGame(still.page, server.url, { opponent: "local", ruleset: "standard" });
    const calm = await throwAndSample(still.page);
    assert.deepEqual(calm.samples, [], `under reduced motion the piece going ${calm.from}→${calm.to} did not move`);
    assert.equal(await still.page.evaluate(() => document.getAnimations().length), 0);
    await still.context.close();
  });
}

test("desktop, against the computer: tab title on your turn, chained plies one after another, the sound switch remembered", { timeout: 110000 }, async () => {
  const { context, page, problems } = await newPage(DESKTOP);
  await startGame(page, server.url, { opponent: "computer", level: "beginner", ruleset: "standard" });
  await page.waitForFunction(() => document.title.startsWith("\u25CF Your turn"));
  const base = (await page.title()).replace(/^\u25CF Your turn \u2014 /, "");
  assert.ok(!base.includes("\u25CF") && base.length > 3, base);

  // Sound: off by default; the switch makes a chime (an AudioContext made on the click) and is remembered.
  assert.equal(await page.isChecked("#sound-toggle"), false);
  assert.equal(await page.evaluate(() => window.__audio.created), 0);
  await page.click("#sound-toggle");
  assert.equal(await page.evaluate(() => window.__audio.created), 1);
  assert.ok(await page.evaluate(() => window.__audio.started) >= 1, "the switch played a note");
  await page.reload();
  await page.waitForFunction(() => document.title.startsWith("\u25CF"));
  assert.equal(await page.isChecked("#sound-toggle"), true, "the choice survived the reload");
  assert.equal(await page.evaluate(() => window.__audio.started), 0, `no sound at the page's first state: ${JSON.stringify(await page.evaluate(() => [window.__titles, window.__entries]))}`);

  // Play (we are Cones, the computer Spools) until the computer has had a turn of several plies.
  const computerSide = await page.evaluate(() => (document.querySelector("#seat-1 .seat-piece").classList.contains("p2") ? "Spools" : "Cones"));
  const start = Date.now();
  let chain = null;
  while (Date.now() - start < 70000) {
    await step(page);
    await page.waitForTimeout(20);
    const entries = await page.evaluate(() => window.__entries);
    for (let i = 0, run = []; i < entries.length; i++) {
      if (/^(Spools|Cones)[,:]/.test(entries[i].text) && entries[i].text.startsWith(computerSide)) run.push(entries[i]); else run = [];
      if (run.length >= 2 && !chain) chain = [...run];
    }
    // Until the computer chained plies and the title has said "your turn" twice (checked below).
    const turns = await page.evaluate(() => window.__titles.filter((t) => t.text.startsWith("\u25CF")).length);
    if ((chain && turns >= 2) || await page.evaluate(() => !document.getElementById("end").hidden)) break;
  }
  assert.ok(chain, "the computer had a turn of two plies or more");
  for (const e of chain) assert.equal(e.batch, 1, "the move list grows one entry at a time");
  const gaps = chain.slice(1).map((e, i) => e.at - chain[i].at);
  figures.push(`computer's chained plies: ${chain.map((e) => e.text).join(" | ")}; gaps ${gaps.map((g) => g.toFixed(0)).join(", ")} ms`);
  for (const gap of gaps) assert.ok(gap >= LEG_MS, `chained plies come one after another: gaps ${gaps.map((g) => g.toFixed(0)).join(", ")} ms`);

  // The title said "your turn" on each turn and went back to the plain title on the computer's.
  const titles = await page.evaluate(() => window.__titles.map((t) => t.text));
  assert.ok(titles.filter((t) => t === base).length >= 2 && titles.filter((t) => t.startsWith("\u25CF Your turn")).length >= 2, JSON.stringify(titles.slice(0, 8)));
  for (const t of titles) assert.ok(t === base || t === `\u25CF Your turn \u2014 ${base}`, t);
  // After the reload a turn came back to us: the chime sounded.
  assert.ok(await page.evaluate(() => window.__audio.started) >= 2, "a chime on our turn");
  // No share sheet in this desktop browser: no share button.
  if (!(await page.evaluate(() => typeof navigator.share === "function"))) assert.equal(await page.getAttribute("#share-button", "hidden"), "");
  assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
  await context.close();
});

/** The dark modules of the page's QR code, as "row,col" strings. */
function darkModules(svgPath, margin = 4) {
  const cells = new Set();
  for (const m of svgPath.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) cells.add(`${Number(m[2]) - margin},${Number(m[1]) - margin}`);
  return cells;
}

for (const [label, options] of [["phone", PHONE], ["desktop", DESKTOP]]) {
  test(`${label}: share sheet, QR code of the invite, notifications only after a click and while hidden`, { timeout: 90000 }, async () => {
    const host = await newPage(options, { share: true });
    await host.context.grantPermissions(["notifications"]);
    await startGame(host.page, server.url, { opponent: "friend", ruleset: "standard" });
    await host.page.waitForSelector("#share-invite:not([hidden])");
    const invite = await host.page.inputValue("#invite-link");
    assert.match(invite, /^http:\/\/127\.0\.0\.1:\d+\/.*#invite=/);

    // The share sheet with the invite link.
    await host.page.click("#share-button");
    const shared = await host.page.evaluate(() => window.__shared);
    assert.equal(shared.length, 1);
    assert.equal(shared[0].url, invite);

    // The QR code encodes the invite: its modules are the library's for that text.
    assert.equal(await host.page.locator("#qr svg").count(), 0, "the QR code is drawn only when asked for");
    await host.page.click("#qr-details summary");
    await host.page.waitForSelector("#qr svg.qr-code");
    const qr = await host.page.evaluate(() => {
      const s = document.querySelector("#qr svg.qr-code");
      return { text: s.dataset.text, n: Number(s.dataset.modules), d: s.querySelector(".qr-dark").getAttribute("d") };
    });
    assert.equal(qr.text, invite);
    const code = qrcode(0, "M");
    code.addData(invite, "Byte");
    code.make();
    assert.equal(qr.n, code.getModuleCount());
    const expected = new Set();
    for (let r = 0; r < qr.n; r++) for (let c = 0; c < qr.n; c++) if (code.isDark(r, c)) expected.add(`${r},${c}`);
    assert.deepEqual([...darkModules(qr.d)].sort(), [...expected].sort());
    await host.page.locator("#share").screenshot({ path: join(ensureArtifacts(), `attention-share-${label}.png`) });
    await host.page.screenshot({ path: join(ensureArtifacts(), `attention-play-${label}.png`), fullPage: true });
    const violations = await axe(host.page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));

    // Notifications: never asked for on load; asked on the click.
    assert.equal(await host.page.evaluate(() => window.__asked), 0);
    await host.page.click("#notify-button");
    await host.page.waitForFunction(() => window.__asked === 1);
    await host.page.waitForFunction(() => document.getElementById("notify-button").getAttribute("aria-pressed") === "true");

    // The tab goes to the background; the friend joins, then plays: a notification for each.
    await host.page.evaluate(() => Object.defineProperty(document, "visibilityState", { get: () => "hidden", configurable: true }));
    const guest = await newPage(options);
    await guest.page.goto(invite);
    await host.page.waitForFunction(() => window.__notes.some((n) => n.title === "Your friend has joined"));
    const start = Date.now();
    while (Date.now() - start < 40000) {
      await step(host.page);
      await step(guest.page);
      if (await host.page.evaluate(() => window.__notes.some((n) => n.title === "Your turn in Senet"))) break;
      await host.page.waitForTimeout(20);
    }
    const notes = await host.page.evaluate(() => window.__notes);
    assert.ok(notes.some((n) => n.title === "Your turn in Senet"), JSON.stringify(notes));
    assert.deepEqual(host.problems.filter((m) => !/WebSocket/.test(m)), []);
    await Promise.all([host.context.close(), guest.context.close()]);
  });
}
