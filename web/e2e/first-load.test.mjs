// The first load over slow 4G (150 ms, 200 kB/s; the CPU not slowed, so the test stays quick):
// the play page opened from a link (a seat's #seat= and a friend's #invite=) carries its strings
// and the game's commitment, so after the page come at most two waves of requests (the first
// script, its chunks and the stylesheet; then the socket, opened by the first script, inline in
// the page's head and allowed by its hash, before the script has come, with an invite's join
// beside it), by timing and
// by the initiator chain, with no request for the strings or the game's summary; the home page
// needs one wave and no strings, also when "Your games" lists a game. Times are in
// bench/first-load.mjs, not asserted here.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { LANGS, launchBrowser, startServer, watchConsole } from "./helpers.mjs";
import { SLOW_4G, chainWaves, timedWaves, watchLoad } from "./load-watch.mjs";
import { PLURAL_LETTERS, pluralTable } from "../scripts/page-strings.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function create(opponent) {
  const response = await fetch(`${server.url}/api/games`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ ruleset: "standard", opponent, side: "first", lang: "en" }),
  });
  assert.equal(response.status, 201);
  return response.json();
}

/** Opens `path` on a fresh phone over slow 4G; resolves once `ready` holds in the page. */
async function load(path, ready) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = watchConsole(page);
  const requests = await watchLoad(await context.newCDPSession(page), { network: SLOW_4G });
  await page.goto(`${server.url}${path}`, { waitUntil: "commit" });
  await page.waitForFunction(ready, undefined, { timeout: 30000, polling: 20 });
  const readyAt = Date.now() - requests.t0;
  const text = await page.evaluate(() => document.body.innerText);
  return { context, page, problems, requests, readyAt, text };
}

/** What every first load must show: few waves, no strings or summary asked for, no error, every string there. */
function assertFirstLoad(what, { requests, readyAt, problems, text }, maxWaves) {
  // The play page asks for the headings' display face only once the board is drawn (play.ts adds
  // "display-face"; font-display: optional): outside the budget, and never before the socket.
  const socketAt = requests.find((r) => r.url.startsWith("ws:"))?.start ?? Infinity;
  const isFont = (r) => /\.woff2$/.test(r.url);
  if (socketAt !== Infinity) assert.deepEqual(requests.filter((r) => isFont(r) && r.start < socketAt).map((r) => r.url), [], `${what}: the display face waits for the board`);
  const seen = requests.filter((r) => r.start <= readyAt && !(isFont(r) && r.start >= socketAt));
  const list = seen.map((r) => `${r.start}-${r.end} ${r.url.replace(server.url, "")} <- ${r.from.replace(server.url, "")}`).join("\n");
  assert.ok(timedWaves(seen) <= maxWaves, `${what}: ${timedWaves(seen)} waves by timing:\n${list}`);
  const chain = chainWaves(seen);
  assert.ok(chain.deepest <= maxWaves, `${what}: ${chain.deepest} waves by initiator:\n${JSON.stringify(chain.each, null, 1)}`);
  assert.deepEqual(seen.filter((r) => /\/static\/i18n\/|\/api\/games\/[^/]+$/.test(r.url)).map((r) => r.url), [], `${what}: no strings or summary request`);
  assert.deepEqual(problems, [], `${what}: console errors (a CSP refusal among them?)`);
  assert.doesNotMatch(text, /\u27E6/, `${what}: a string is missing`);
}

test("a seat's link: the throw button is ready after two request waves, the socket the second", { timeout: 60000 }, async () => {
  const game = await create("local");
  const load1 = await load(game.resumeUrl, () => {
    const b = document.getElementById("throw-button");
    return b && !b.hidden && !b.disabled;
  });
  assertFirstLoad("seat link", load1, 2);
  const socket = load1.requests.find((r) => r.url.startsWith("ws:"));
  assert.ok(socket, "the socket opened");
  // The first script (boot/boot.ts, inline in the page) opened it before the page's script had come, and the script took it over: one socket.
  assert.equal(socket.from, `${server.url}${game.resumeUrl.replace(/#.*/, "")}`, "the page's inline first script opened the socket");
  assert.equal(load1.requests.filter((r) => /\/static\/boot-/.test(r.url)).length, 0, "no request for the first script: it is in the page");
  assert.match(await load1.page.evaluate(() => document.querySelector("head script[data-game]:not([src])")?.textContent ?? ""), /\S/, "the first script is inline");
  const script = load1.requests.find((r) => /\/static\/play-[^/]+\.js$/.test(r.url));
  assert.ok(socket.start < script.end, `the socket opened (${socket.start} ms) before the play script had come (${script.end} ms)`);
  assert.equal(load1.requests.filter((r) => r.url.startsWith("ws:")).length, 1, "one socket");
  assert.ok(load1.requests.some((r) => /\/static\/chunk-/.test(r.url) && !/\.js$/.test(r.from)), "the chunk is preloaded by the page");
  // The commitment came with the page: recorded before the seed went out.
  assert.equal(await load1.page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("commit")), game.commitment);
  await load1.context.close();
});

test("a friend's invite link: the join and the socket go out together, the seat taken in two waves", { timeout: 60000 }, async () => {
  const game = await create("friend");
  const guest = await load(game.inviteUrl, () => /seat=/.test(location.hash) && document.querySelector("#seat-1 .seat-name")?.textContent !== ""
    && document.getElementById("play").dataset.commitment !== undefined && !/invite=/.test(location.hash)
    && document.querySelectorAll("#seat-0 .presence, #seat-1 .presence").length === 2 && document.getElementById("throw-button").hidden === false);
  assertFirstLoad("invite link", guest, 2);
  const join = guest.requests.find((r) => r.url.endsWith("/join"));
  const socket = guest.requests.find((r) => r.url.startsWith("ws:"));
  assert.ok(join && socket, "the join and the socket");
  assert.ok(socket.start < join.end, `the socket opened before the join was answered (${socket.start} < ${join.end})`);
  // Both from the first script (boot/boot.ts, inline in the page), before the page's script had come.
  const script = guest.requests.find((r) => /\/static\/play-[^/]+\.js$/.test(r.url));
  for (const [name, r] of [["the join", join], ["the socket", socket]]) {
    assert.equal(r.from, `${server.url}${game.inviteUrl.replace(/#.*/, "")}`, `${name} from the page's inline first script`);
    assert.ok(r.start < script.end, `${name} went out (${r.start} ms) before the play script had come (${script.end} ms)`);
  }
  assert.equal(guest.requests.filter((r) => r.url.endsWith("/join")).length, 1, "one join");
  await guest.context.close();
});

test("the creator opening their own invite link keeps their seat: the first script sends no join", { timeout: 60000 }, async () => {
  const game = await create("friend");
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${server.url}${game.resumeUrl}`);
  await page.waitForFunction(() => /seat=/.test(location.hash) && !document.getElementById("share-invite").hidden);
  await page.goto("about:blank");  // the invite link differs only in its fragment: load it anew
  const requests = await watchLoad(await context.newCDPSession(page));
  await page.goto(`${server.url}${game.inviteUrl}`);
  await page.waitForFunction(() => /seat=/.test(location.hash) && !/invite=/.test(location.hash));
  await page.waitForTimeout(300);
  assert.deepEqual(requests.filter((r) => r.url.endsWith("/join")).map((r) => r.url), [], "no join request");
  assert.equal(new URLSearchParams(new URL(page.url()).hash.slice(1)).get("seat"), new URLSearchParams(new URL(`${server.url}${game.resumeUrl}`).hash.slice(1)).get("seat"));
  const summary = await (await fetch(`${server.url}/api/games/${game.game}`)).json();
  assert.deepEqual(summary.seats.map((x) => x.taken), [true, false], "the guest's seat is still free");
  await context.close();
});

test("the home page: the start form ready after one wave, no strings asked for, also with a game to list", { timeout: 60000 }, async () => {
  // The start form is ready once home.js ran: it hides the level choice of a game against a friend.
  const ready = () => document.getElementById("level-fieldset")?.hidden === true;
  const first = await load("/en/", ready);
  assertFirstLoad("home page", first, 1);
  await first.context.close();
  // A browser that holds a game: "Your games" lists it with the page's own strings.
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const game = await create("local");
  await page.goto(`${server.url}${game.resumeUrl}`);
  await page.waitForFunction(() => !document.getElementById("throw-button").hidden);
  const problems = watchConsole(page);
  const requests = await watchLoad(await context.newCDPSession(page));
  await page.goto(`${server.url}/en/`);
  await page.waitForSelector("#my-games:not([hidden]) .my-game");
  assert.deepEqual(requests.filter((r) => /\/static\/i18n\//.test(r.url)).map((r) => r.url), []);
  assert.doesNotMatch(await page.locator("#my-games").innerText(), /\u27E6/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the plural tables a page carries (made by the build's Intl) are the browser's plural rules, in every language", { timeout: 60000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/en/`);
  const tables = Object.fromEntries(LANGS.map((lang) => [lang, pluralTable(lang)]));
  const differ = await page.evaluate(([tables, letters]) => Object.entries(tables).flatMap(([lang, table]) => {
    const rules = new Intl.PluralRules(`${lang}-u-nu-latn`);
    return [...table].flatMap((letter, n) => (letters[rules.select(n)] === letter ? [] : [`${lang} ${n}: ${letter}, the browser says ${rules.select(n)}`]));
  }), [tables, PLURAL_LETTERS]);
  assert.deepEqual(differ, []);
  await context.close();
});
