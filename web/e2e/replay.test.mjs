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
import { REPO, axe, ensureArtifacts, launchBrowser, message, playToEnd, startGame, startServer, step, storageBlockedContext, waitUntil, watchConsole } from "./helpers.mjs";

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
  await playToEnd([page]);
  const response = await fetch(`${server.url}/api/games/${game}/record`);
  assert.equal(response.status, 200);
  recordText = await response.text();
  writeFileSync(join(tmp, "record.json"), recordText);
  positions = execFileSync(cli(), ["replay", "--positions", join(tmp, "record.json")], { encoding: "utf8" }).trim().split("\n");
  assert.equal(positions.length, JSON.parse(recordText).plies.length + 1, "one position per ply and the start");
  await page.close();
});
after(async () => { await browser?.close(); await server?.stop(); rmSync(tmp, { recursive: true, force: true }); });

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

for (const [name, options] of [["phone", PHONE], ["desktop", DESKTOP]]) {
  test(`the replay steps through the native engine's positions (${name})`, { timeout: 90000 }, async () => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${server.url}/en/replay/${game}`);
    await expectAt(page, 0);
    const last = positions.length - 1;
    // Forward with → to the end, checking every position, then back with ← a stretch.
    for (let n = 1; n <= last; n++) { await page.keyboard.press("ArrowRight"); await expectAt(page, n); }
    for (let n = last - 1; n >= last - 5; n--) { await page.keyboard.press("ArrowLeft"); await expectAt(page, n); }
    await page.keyboard.press("Home");
    await expectAt(page, 0);
    // The buttons, the slider, a click in the move list; the fragment keeps the position.
    await page.click("#replay-next");
    await expectAt(page, 1);
    await page.locator("#replay-slider").fill(String(Math.floor(last / 2)));
    await expectAt(page, Math.floor(last / 2));
    assert.equal(new URL(page.url()).hash, `#ply=${Math.floor(last / 2)}`);
    await page.click(`#replay-moves li[data-n="7"] button`);
    await expectAt(page, 7);
    assert.equal(await page.getAttribute(`#replay-moves li[data-n="7"] button`, "aria-current"), "step");
    await checkGraph(page);
    await page.screenshot({ path: join(ensureArtifacts(), `replay-${name}.png`), fullPage: true });
    const violations = await axe(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
    // A reload opens the same position.
    await page.reload();
    await expectAt(page, 7);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

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
