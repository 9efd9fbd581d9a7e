// The play page's first script (src/boot/boot.ts, a classic script inline in the head, allowed by
// its hash in the page's Content-Security-Policy) and the page's module script: the first script
// normally runs first and starts the socket, an invite link's join and the page's hello; where it
// runs late or not at all (a warm cache, a page that reaches the browser without it) the page's
// script starts them itself, and whatever the first script starts the page takes over
// (shared/early.ts). Exactly one socket, one join and one hello per load, the guest keeps the
// seat, and a reload while play.js is still on its way keeps a seat the first script's join
// was given.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchBrowser, startServer, storageBlockedContext, watchConsole } from "./helpers.mjs";
import { watchLoad } from "./load-watch.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function friendGame() {
  const response = await fetch(`${server.url}/api/games`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ ruleset: "standard", opponent: "friend", side: "first", lang: "en" }),
  });
  assert.equal(response.status, 201);
  return response.json();
}

const seats = async (game) => (await (await fetch(`${server.url}/api/games/${game}`)).json()).seats.map((s) => s.taken);
/** Waits until the server has the guest's seat (1) online: a page said hello with its secret (a spectator does not). */
async function guestOnline(game) {
  for (let i = 0; i < 100; ++i) {
    const summary = await (await fetch(`${server.url}/api/games/${game}`)).json();
    if (summary.seats[1].online === true) return;
    await sleep(100);
  }
  assert.fail("the guest's seat never came online");
}
const seatIn = (page) => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("seat"));
/** The guest's page holds its seat: the fragment has it, the server's snapshot came (the seats are shown), and no refusal is said. */
const holdsSeat = (page) => page.waitForFunction(() => /seat=/.test(location.hash) && !/invite=/.test(location.hash)
  && document.querySelectorAll("#seat-0 .presence, #seat-1 .presence").length === 2
  && !/already taken|watch/i.test(document.getElementById("message").textContent + document.getElementById("status").textContent), undefined, { timeout: 20000 });

/**
 * Has `context`'s play pages run their inline first script as one that starts nothing: the
 * page looks started before it runs (what it sees when the page's script ran first), so no early
 * socket, join or hello; as for a page whose first script never ran. (Serving the page without
 * it through a route would make Chromium treat the page as from another network and refuse its
 * socket to 127.0.0.1.)
 */
async function withoutFirstScript(context) {
  await context.addInitScript(() => { window.senetPageStarted = true; });
}

for (const [order, arrange, starter] of [
  ["no first script (the page's script starts everything)", (context) => withoutFirstScript(context), /\/static\/(play|chunk)-[^/]+\.js$/],
  ["the page's script late (the first script runs first)", (context) => context.route(/\/static\/play-/, async (route) => { await sleep(400); await route.continue(); }), /\/play\/[^/]+$/]]) {
  test(`an invite link with ${order}: one socket, one join, the guest's seat`, { timeout: 60000 }, async () => {
    const game = await friendGame();
    const context = await browser.newContext(PHONE);
    await arrange(context);
    const page = await context.newPage();
    const problems = watchConsole(page);
    const requests = await watchLoad(await context.newCDPSession(page));
    await page.goto(`${server.url}${game.inviteUrl}`);
    await holdsSeat(page);
    await sleep(800);  // a second socket would have been opened by now
    assert.equal(requests.filter((r) => r.url.startsWith("ws:")).length, 1, "one socket");
    assert.equal(requests.filter((r) => r.url.endsWith("/join")).length, 1, "one join");
    for (const r of requests.filter((x) => x.url.startsWith("ws:") || x.url.endsWith("/join"))) assert.match(r.from, starter, `${r.url} started by the expected script`);
    assert.deepEqual(await seats(game.game), [true, true]);
    assert.ok(await seatIn(page), "the guest's seat is in the fragment");
    await guestOnline(game.game);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("a seat's link reloaded with a warm cache opens one socket, whichever script runs first", { timeout: 60000 }, async () => {
  const game = await friendGame();
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${server.url}${game.resumeUrl}`);
  await page.waitForSelector("#status:not(:empty)");
  for (let i = 0; i < 4; ++i) {
    const cdp = await context.newCDPSession(page);
    const requests = await watchLoad(cdp);
    await page.reload();
    await page.waitForFunction(() => !document.getElementById("share-invite").hidden);
    await sleep(500);
    assert.equal(requests.filter((r) => r.url.startsWith("ws:")).length, 1, `reload ${i + 1}: one socket`);
    await cdp.detach();
  }
  await context.close();
});

test("a reload while play.js is on its way keeps the seat the first script's join was given", { timeout: 60000 }, async () => {
  const game = await friendGame();
  const context = await browser.newContext(PHONE);
  let holdScript = true;
  await context.route(/\/static\/play-/, async (route) => { if (holdScript) await sleep(1500); await route.continue(); });
  const page = await context.newPage();
  const joined = page.waitForResponse((r) => r.url().endsWith("/join"));
  await page.goto(`${server.url}${game.inviteUrl}`, { waitUntil: "commit" });
  assert.equal((await joined).status(), 200);
  await sleep(100);
  holdScript = false;
  await page.reload();
  await holdsSeat(page);
  assert.deepEqual(await seats(game.game), [true, true]);
  assert.ok(await seatIn(page));
  assert.doesNotMatch(await page.textContent("#message"), /taken/i);
  await guestOnline(game.game);
  await context.close();
});

test("with storage blocked, the language chosen before play.js has come keeps the seat the first script's join took", { timeout: 60000 }, async () => {
  const game = await friendGame();
  const context = await storageBlockedContext(browser, PHONE);
  let holdScript = true;
  await context.route(/\/static\/play-/, async (route) => { if (holdScript) await sleep(2500); await route.continue(); });
  const page = await context.newPage();
  await page.goto(`${server.url}${game.inviteUrl}`, { waitUntil: "commit" });
  await page.waitForFunction(() => /seat=/.test(location.hash), undefined, { timeout: 20000 });
  holdScript = false;
  // The menu opens (its summary) and the German link is followed while play.js is still held back.
  await page.evaluate(() => { document.querySelector(".lang-switch details").open = true; });
  await Promise.all([page.waitForURL(/\/de\/play\//), page.click(".lang-switch a[hreflang=de]")]);
  assert.match(page.url(), /#.*seat=/, "the seat went along");
  await holdsSeat(page);
  assert.deepEqual(await seats(game.game), [true, true]);
  await guestOnline(game.game);
  await context.close();
});

/** Counts the hellos `page` sends on any socket, each with the time it went out (ms since the watch began). */
async function watchHellos(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const hellos = [];
  const t0 = Date.now();
  cdp.on("Network.webSocketFrameSent", (e) => { if (/^\{"t":"hello"/.test(e.response.payloadData)) hellos.push({ at: Date.now() - t0, d: JSON.parse(e.response.payloadData).d }); });
  return { hellos, t0 };
}

// The first script says the hello while play.js is still on its way (its answer travels in the
// meantime): for a seat's link, an invite link (after its join) and a spectator, one hello each,
// with the seat and seed the page keeps; and with the first script failing to load, the page
// says the one hello itself.
for (const [kind, link, hasSeat] of [["a seat's link", (g) => g.resumeUrl, true], ["an invite link", (g) => g.inviteUrl, true], ["a spectator", (g) => `/en/play/${g.game}`, false]]) {
  test(`${kind}: the first script says the one hello before play.js has come`, { timeout: 60000 }, async () => {
    const game = await friendGame();
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const { hellos, t0 } = await watchHellos(context, page);
    let scriptCame = Infinity;
    await context.route(/\/static\/play-/, async (route) => { await sleep(2500); scriptCame = Date.now() - t0; await route.continue(); });
    const problems = watchConsole(page);
    await page.goto(`${server.url}${link(game)}`);
    await page.waitForFunction(() => document.querySelectorAll("#seat-0 .presence, #seat-1 .presence").length === 2, undefined, { timeout: 20000 });
    await sleep(300);
    assert.equal(hellos.length, 1, "one hello");
    // The states that came before play.js are shown as the board is built: the tab keeps its title.
    assert.match(await page.title(), /\S/, "the page's title is kept");
    assert.ok(hellos[0].at < scriptCame, `the hello (${hellos[0].at} ms) went out before play.js came (${scriptCame} ms)`);
    if (hasSeat) {
      const kept = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
      assert.equal(hellos[0].d.secret, kept.seat, "the seat the page keeps");
      assert.equal(hellos[0].d.clientSeed, kept.seed, "the seed the page keeps");
      assert.match(kept.commit ?? "", /^[0-9a-f]{64}$/, "the commitment recorded before the seed went out");
      if (kind === "an invite link") await guestOnline(game.game);
    } else {
      assert.deepEqual(hellos[0].d, {}, "a spectator's hello carries no seat");
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("the first script never running: the page says the one hello itself and the seat plays", { timeout: 60000 }, async () => {
  const game = await friendGame();
  const context = await browser.newContext(PHONE);
  await withoutFirstScript(context);
  const page = await context.newPage();
  const { hellos } = await watchHellos(context, page);
  await page.goto(`${server.url}${game.inviteUrl}`);
  await holdsSeat(page);
  await guestOnline(game.game);
  await sleep(300);
  assert.equal(hellos.length, 1, "one hello");
  assert.equal(hellos[0].d.secret, await seatIn(page));
  await context.close();
});

test("an invite link opened in two tabs of one browser: the tab refused as full before the other stored its seat holds that seat", { timeout: 60000 }, async () => {
  const game = await friendGame();
  const context = await browser.newContext(PHONE);
  const [a, b] = [await context.newPage(), await context.newPage()];
  // A's join reaches the server first, and its answer is held back 800 ms, so that B's join is
  // refused as full while A has not yet stored the seat it won.
  let aJoined;
  const aFirst = new Promise((resolve) => { aJoined = resolve; });
  await a.route(/\/join$/, async (route) => {
    const response = await route.fetch();
    aJoined();
    await sleep(800);
    await route.fulfill({ response });
  });
  await b.route(/\/join$/, async (route) => { await aFirst; await route.continue(); });
  const url = `${server.url}${game.inviteUrl}`;
  const bRefused = b.waitForResponse((r) => r.url().endsWith("/join"));
  await Promise.all([a.goto(url), b.goto(url)]);
  assert.equal((await bRefused).status(), 409, "B's join was refused as full");
  await Promise.all([holdsSeat(a), holdsSeat(b)]);
  const [sa, sb] = [await seatIn(a), await seatIn(b)];
  assert.ok(sa && sa === sb, "the same seat in both tabs");
  assert.deepEqual(await seats(game.game), [true, true]);
  await context.close();
});

test("a socket the browser refuses to make (twice) is tried again, without an uncaught error, and the seat plays", { timeout: 60000 }, async () => {
  const game = await friendGame();
  const context = await browser.newContext(PHONE);
  await context.addInitScript(() => {
    const Real = window.WebSocket;
    let refusals = 2;
    window.WebSocket = new Proxy(Real, {
      construct(target, args) {
        if (refusals-- > 0) throw new DOMException("refused", "SecurityError");
        return new target(...args);
      },
    });
  });
  const page = await context.newPage();
  const uncaught = [];
  page.on("pageerror", (e) => uncaught.push(String(e)));
  await page.goto(`${server.url}${game.resumeUrl}`);
  await page.waitForFunction(() => !document.getElementById("share-invite").hidden, undefined, { timeout: 20000 });
  assert.deepEqual(uncaught, []);
  await context.close();
});

test("a play.js that never arrives does not leave the page blank: the render's hold is lifted after 3 s", { timeout: 60000 }, async () => {
  const game = await friendGame();
  const context = await browser.newContext(PHONE);
  await context.route(/\/static\/play-/, () => {});  // never answered
  const page = await context.newPage();
  page.goto(`${server.url}${game.resumeUrl}`, { timeout: 0 }).catch(() => undefined);
  const painted = () => Promise.race([
    page.evaluate(() => new Promise((done) => { requestAnimationFrame(() => done(true)); setTimeout(() => done(false), 500); })),
    sleep(1500).then(() => false),
  ]).catch(() => false);
  await sleep(1200);
  assert.equal(await painted(), false, "the render is held while play.js may still come");
  let shown = false;
  for (let i = 0; i < 20 && !shown; ++i) { await sleep(250); shown = await painted(); }
  assert.ok(shown, "the page is painted once the hold is lifted");
  assert.ok(await page.evaluate(() => document.querySelector("script[blocking]") === null), "no script holds the render any more");
  assert.ok((await page.evaluate(() => document.getElementById("status")?.textContent ?? "")).trim().length > 0, "the page as served says something");
  await context.close();
});

