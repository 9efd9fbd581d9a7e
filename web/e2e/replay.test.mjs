// The replay page, the spectators' win-probability bar and "Your games": a pass-and-play game
// played to its end, then replayed in the browser (the WebAssembly engine rebuilds each
// position) and checked position by position against the native `senet replay --positions`,
// stepped with the keys, the slider and the move list; its graph; the same record opened as a
// file; a watcher's bar and a player's page without it; the home page's list of this browser's
// games, and none where storage is blocked.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { REPO, axe, ensureArtifacts, launchBrowser, message, startGame, startServer, step, storageBlockedContext, waitUntil, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

let server, browser, home, game, recordText, positions;
const tmp = mkdtempSync(join(tmpdir(), "senet-replay-"));

/** The native command-line tool: $SENET_CLI, else the one built in build/ of this checkout. */
function cli() {
  const found = [process.env.SENET_CLI, join(REPO, "build/cli/senet")].find((p) => p && existsSync(p));
  if (!found) throw new Error("the senet tool is not built: cmake --build build --target senet (or set SENET_CLI)");
  return found;
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // One pass-and-play game to its end, in a context that keeps its storage for "Your games".
  home = await browser.newContext(DESKTOP);
  const page = await home.newPage();
  const path = await startGame(page, server.url, { opponent: "local", ruleset: "standard" });
  game = path.split("/").pop();
  await playQuickly(page);
  const response = await fetch(`${server.url}/api/games/${game}/record`);
  assert.equal(response.status, 200);
  recordText = await response.text();
  writeFileSync(join(tmp, "record.json"), recordText);
  positions = execFileSync(cli(), ["replay", "--positions", join(tmp, "record.json")], { encoding: "utf8" }).trim().split("\n");
  assert.equal(positions.length, JSON.parse(recordText).plies.length + 1, "one position per ply and the start");
  await page.close();
});
after(async () => { await browser?.close(); await server?.stop(); rmSync(tmp, { recursive: true, force: true }); });

/**
 * Plays a pass-and-play game to its end from inside the page (one call instead of a round trip
 * per click, as helpers.mjs step() does): throw when the button is enabled, else the first move.
 */
async function playQuickly(page) {
  const outcome = await page.evaluate(async () => {
    const until = Date.now() + 90000;
    while (Date.now() < until) {
      if (!document.getElementById("end").hidden) return "over";
      const throwButton = document.getElementById("throw-button");
      const choice = document.querySelector("#move-choices button");
      if (!throwButton.disabled) throwButton.click();
      else if (choice) choice.click();
      await new Promise((r) => setTimeout(r, 4));
    }
    return "timeout";
  });
  assert.equal(outcome, "over", "the game ended");
}

const shown = (page) => page.evaluate(() => ({ position: document.getElementById("replay").dataset.position, ply: Number(document.getElementById("replay").dataset.ply) }));

/** Waits until the page shows position `n` and checks it against the native tool's. */
async function expectAt(page, n) {
  await waitUntil(page, `position ${n}`, () => page.waitForFunction((k) => document.getElementById("replay")?.dataset.ply === String(k), n, { timeout: 10000 }));
  assert.equal((await shown(page)).position, positions[n], `position ${n}`);
}

/** The graph: one point per position, each value in [0, 1], the last one the result. */
async function checkGraph(page) {
  const points = await page.$$eval("#replay-graph .graph-point", (cs) => cs.map((c) => Number(c.getAttribute("data-p"))));
  assert.equal(points.length, positions.length, "one point per position");
  for (const p of points) assert.ok(p >= 0 && p <= 1, `value ${p} in [0, 1]`);
  const winner = JSON.parse(recordText).ending.player;
  assert.equal(points[points.length - 1], winner === 1 ? 1 : 0, "the curve ends at the result");
  const svg = await page.$eval("#replay-graph svg", (s) => ({ role: s.getAttribute("role"), title: s.querySelector("title")?.textContent, desc: s.querySelector("desc")?.textContent }));
  assert.equal(svg.role, "img");
  assert.ok(svg.title && svg.desc, "the graph has a title and a description");
  assert.equal(await page.$$eval("#graph-table tbody tr", (rows) => rows.length), positions.length, "the table has a row per position");
}

test("the replay steps through the native engine's positions with the keys (1280×800)", { timeout: 60000 }, async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(`${server.url}/en/replay/${game}`);
  await expectAt(page, 0);
  const last = positions.length - 1;
  // The keys: → and ← a few steps, each position the native tool's.
  for (let n = 1; n <= 6; n++) { await page.keyboard.press("ArrowRight"); assert.deepEqual(await shown(page), { position: positions[n], ply: n }); }
  for (let n = 5; n >= 2; n--) { await page.keyboard.press("ArrowLeft"); assert.deepEqual(await shown(page), { position: positions[n], ply: n }); }
  // Every position to the end and back to the start, by the buttons (clicked inside the page:
  // one round trip for the whole game), equal to `senet replay --positions`.
  const walk = await page.evaluate(() => {
    const root = document.getElementById("replay");
    const seen = { forward: [], back: [] };
    document.getElementById("replay-first").click();
    seen.forward.push(root.dataset.position);
    for (let i = 0; i < 2000 && Number(root.dataset.ply) < Number(document.getElementById("replay-slider").max); i++) {
      document.getElementById("replay-next").click();
      seen.forward.push(root.dataset.position);
    }
    while (root.dataset.ply !== "0" && seen.back.length < 2000) {
      document.getElementById("replay-prev").click();
      seen.back.push(root.dataset.position);
    }
    return seen;
  });
  assert.deepEqual(walk.forward, positions, "forward through every position");
  assert.deepEqual(walk.back, positions.slice(0, -1).reverse(), "back through every position");
  await page.keyboard.press("End");
  await expectAt(page, last);
  await page.keyboard.press("ArrowRight");
  assert.equal((await shown(page)).ply, last, "→ at the end stays there");
  await page.keyboard.press("Home");
  await expectAt(page, 0);
  await page.click(`#replay-moves li[data-n="7"] button`);
  await expectAt(page, 7);
  assert.equal(await page.getAttribute(`#replay-moves li[data-n="7"] button`, "aria-current"), "step");
  await checkGraph(page);
  assert.equal(await page.textContent("#graph-source"), message("en", "replay.source.server"), "the server's analysis draws the curve");
  // The marks: every ply the server marks (inaccuracy, mistake, blunder), on the graph and in the list
  // (analysis-marks.test.mjs checks their words in every language).
  const analysis = await (await fetch(`${server.url}/api/games/${game}/analysis`)).json();
  const marked = analysis.plies.filter((p) => p.mark).map((p) => [p.ply, p.mark]);
  assert.deepEqual(await page.$$eval("#replay-graph .graph-mark", (ms) => ms.map((m) => [Number(m.dataset.n), m.dataset.mark])), marked);
  assert.deepEqual(await page.$$eval("#replay-moves li.marked", (ls) => ls.map((l) => [Number(l.dataset.n), l.dataset.mark])), marked);
  await page.screenshot({ path: join(ensureArtifacts(), "replay-desktop.png"), fullPage: true });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  assert.deepEqual(problems, []);
  await context.close();
});

test("the replay on a phone: buttons, slider and move list by touch; the fragment keeps the position (390×844)", { timeout: 60000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(`${server.url}/en/replay/${game}#ply=3`);
  await expectAt(page, 3);
  await page.tap("#replay-next");
  await expectAt(page, 4);
  await page.tap("#replay-prev");
  await page.tap("#replay-prev");
  await expectAt(page, 2);
  const middle = Math.floor((positions.length - 1) / 2);
  await page.locator("#replay-slider").fill(String(middle));
  await expectAt(page, middle);
  assert.equal(new URL(page.url()).hash, `#ply=${middle}`);
  await page.tap(`#replay-moves li[data-n="9"] button`);
  await expectAt(page, 9);
  await checkGraph(page);
  await page.screenshot({ path: join(ensureArtifacts(), "replay-phone.png") });
  await page.screenshot({ path: join(ensureArtifacts(), "replay-phone-full.png"), fullPage: true });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  // A reload opens the same position.
  await page.reload();
  await expectAt(page, 9);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a record file opens at /replay, its curve computed in the browser", { timeout: 60000 }, async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(`${server.url}/en/replay`);
  await page.setInputFiles("#record-file", { name: "record.json", mimeType: "application/json", buffer: Buffer.from(recordText) });
  await expectAt(page, 0);
  await page.keyboard.press("End");
  await expectAt(page, positions.length - 1);
  await page.keyboard.press("ArrowLeft");
  await expectAt(page, positions.length - 2);
  await checkGraph(page);
  assert.equal(await page.textContent("#graph-source"), message("en", "replay.source.browser"));
  await page.screenshot({ path: join(ensureArtifacts(), "replay-file-desktop.png"), fullPage: true });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  // Something that is not a record: a clear message, no board.
  await page.goto(`${server.url}/en/replay`);
  await page.setInputFiles("#record-file", { name: "x.json", mimeType: "application/json", buffer: Buffer.from("{\"plies\": 3}") });
  await page.waitForFunction(() => document.getElementById("replay-message")?.textContent !== "");
  assert.match(await page.textContent("#replay-message"), /^This file is not a game record: /);
  assert.equal(await page.isHidden("#replay-body"), true);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the end screen links to the replay, and the home page lists this browser's games", { timeout: 60000 }, async () => {
  const page = await home.newPage();
  await page.goto(`${server.url}/en/play/${game}`);
  await page.waitForSelector("#replay-link");
  assert.equal(await page.getAttribute("#replay-link", "href"), `/en/replay/${game}`);
  await page.goto(`${server.url}/en/`);
  const item = `#my-games li[data-game="${game}"]`;
  await page.waitForSelector(item);
  assert.equal(await page.getAttribute(`${item} a[href^="/en/replay/"]`, "href"), `/en/replay/${game}`);
  assert.match(await page.getAttribute(`${item} a[href^="/en/play/"]`, "href"), new RegExp(`^/en/play/${game}#seat=`));
  assert.equal(await page.textContent("#my-games .hint"), message("en", "replay.home.privacy"));
  await page.screenshot({ path: join(ensureArtifacts(), "home-your-games.png"), fullPage: true });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  await page.close();
  // Storage blocked: no list, no error.
  const blocked = await storageBlockedContext(browser, PHONE);
  const other = await blocked.newPage();
  const problems = watchConsole(other);
  await other.goto(`${server.url}/en/`);
  await other.waitForLoadState("networkidle");
  assert.equal(await other.isHidden("#my-games"), true);
  assert.deepEqual(problems, []);
  await blocked.close();
});

test("a watcher sees the win-probability bar, a player does not load the engine", { timeout: 60000 }, async () => {
  const playerContext = await browser.newContext(DESKTOP);
  const player = await playerContext.newPage();
  const fetched = [];
  player.on("request", (r) => fetched.push(r.url()));
  await startGame(player, server.url, { opponent: "local", ruleset: "standard" });
  for (let i = 0; i < 12; i++) await step(player);
  const id = new URL(player.url()).pathname.split("/").pop();
  const watcherContext = await browser.newContext(PHONE);
  const watcher = await watcherContext.newPage();
  const watcherFetched = [];
  watcher.on("request", (r) => watcherFetched.push(r.url()));
  await watcher.goto(`${server.url}/en/play/${id}`);
  await waitUntil(watcher, "the win-probability bar", () => watcher.waitForSelector("#win-bar:not([hidden])", { timeout: 15000 }));
  const p = Number(await watcher.getAttribute("#win-bar", "data-p"));
  assert.ok(p >= 0 && p <= 1, `chance ${p}`);
  assert.match(await watcher.textContent("#win-bar-words"), /^Chance to win, as the engine estimates it: cones \d+%, spools \d+%$/);
  await watcher.screenshot({ path: join(ensureArtifacts(), "play-watcher-bar-phone.png") });
  const violations = await axe(watcher);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  // The player's page: no bar, and neither the engine's code nor its WebAssembly fetched.
  for (let i = 0; i < 4; i++) await step(player);
  assert.equal(await player.$("#win-bar"), null);
  const js = (urls) => new Set(urls.filter((u) => /\.(js|wasm)$/.test(u)).map((u) => new URL(u).pathname));
  const onlyWatcher = [...js(watcherFetched)].filter((u) => !js(fetched).has(u));
  assert.ok(onlyWatcher.some((u) => u.endsWith(".wasm")), `the watcher loaded the engine: ${onlyWatcher}`);
  assert.ok(onlyWatcher.some((u) => u.endsWith(".js")), `the engine's code came in a chunk of its own: ${onlyWatcher}`);
  assert.deepEqual([...js(fetched)].filter((u) => u.endsWith(".wasm")), []);
  // The game is still played: its replay page says so.
  await watcher.goto(`${server.url}/en/replay/${id}`);
  const playing = message("en", "replay.problem.playing");
  await watcher.waitForFunction((text) => document.getElementById("replay-message")?.textContent?.startsWith(text), playing);
  assert.equal(await watcher.getAttribute("#replay-message a", "href"), `/en/play/${id}`);
  await watcherContext.close();
  await playerContext.close();
});
