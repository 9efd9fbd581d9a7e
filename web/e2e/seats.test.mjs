// Every seat works through the page: a friend game for each side the creator may choose
// (first, second, and random in the storage-blocked game) played to its end in two contexts;
// a browser whose storage is blocked keeps both seats over a reload, shows the creator the invite (also on another device
// through the resume link) and plays on into the rematch; spectators get no player controls,
// see how many watch and get a link to the rematch; an invite to a game that ended before
// anyone joined says so.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { assertResultShown, ensureArtifacts, launchBrowser, message, startGame, startServer, storageBlockedContext, watchConsole, WEB } from "./helpers.mjs";
import { readPo } from "../scripts/po.mjs";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const catalog = (lang) => readPo(join(WEB, "po", `${lang}.po`));
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** Whether the page holds a seat: its resume link shows, and its status is not a spectator's. */
async function seated(page, lang) {
  // A spectator's status starts with the words of watching (the same in every status message).
  const forms = ["play.status.throw", "play.status.move", "play.status.waiting"].map((key) => message(lang, key, { viewer: "watch", name: "X", value: 1 }));
  let watching = forms[0];
  for (const f of forms) while (!f.startsWith(watching)) watching = watching.slice(0, -1);
  assert.ok(watching.length >= 8, `a spectator's words: ${forms.join(" | ")}`);
  await page.waitForFunction(() => document.querySelector("#commitment")?.textContent?.length === 64);
  return !(await page.locator("#share-resume").isHidden()) && !(await page.textContent("#status")).startsWith(watching);
}

/** The seat (0 or 1) whose name says "You" on this page, or -1. */
async function mySeat(page, lang) {
  const you = catalog(lang)["play.seat.you"];
  for (const seat of [0, 1]) if ((await page.textContent(`#seat-${seat} .seat-name`)).includes(you)) return seat;
  return -1;
}

/**
 * Plays a page's seat quickly: inside the page, every few milliseconds, clicks the throw button
 * or the first move button when one is offered, with no round trip to the test per action. Resolves once the end panel shows; `limit` ms at most.
 */
async function autoplay(pages, limit = 45000) {
  const start = Date.now();
  await Promise.all(pages.map((p) => p.evaluate(() => {
    window.__autoplay = setInterval(() => {
      const throwButton = document.getElementById("throw-button");
      if (throwButton && !throwButton.hidden && !throwButton.disabled) throwButton.click();
      else document.querySelector("#move-choices button")?.click();
    }, 5);
  })));
  await Promise.all(pages.map((p) => p.waitForSelector("#end:not([hidden])", { timeout: limit })));
  await Promise.all(pages.map((p) => p.evaluate(() => clearInterval(window.__autoplay))));
  const lines = await pages[0].locator("#move-list li:not(.empty)").count();
  console.log(`[ figure ] a game through the page: ${lines} moves listed in ${Date.now() - start} ms`);
}

/** The fragment's values of a page. */
const fragmentOf = async (page) => Object.fromEntries(new URLSearchParams(new URL(page.url()).hash.slice(1)));

// The third choice, random, is the storage-blocked game below.
for (const side of ["first", "second"]) {
  test(`a friend game whose creator takes the ${side} seat waits for the friend and is played to its end`, { timeout: 60000 }, async () => {
    const hostContext = await browser.newContext(DESKTOP);
    const guestContext = await browser.newContext(side === "second" ? PHONE : DESKTOP);
    const host = await hostContext.newPage();
    const guest = await guestContext.newPage();
    const problems = [host, guest].map(watchConsole);
    await startGame(host, server.url, { ruleset: "bell", opponent: "friend", side });
    await host.waitForSelector("#share-invite:not([hidden])");
    assert.equal(await host.textContent("#status"), message("en", "play.status.waiting", { viewer: "you" }));
    assert.equal(await host.locator("#throw-button").isDisabled(), true, "nothing to throw before the friend joins");
    const invite = await host.inputValue("#invite-link");
    assert.match(invite, /#invite=/);

    await guest.goto(invite);
    await guest.waitForFunction(() => /[#&]seat=/.test(location.hash));
    assert.ok(await seated(guest, "en"), "the friend holds the free seat");
    await host.waitForSelector("#share-invite[hidden]", { state: "attached" });
    const hostSeat = await mySeat(host, "en");
    const guestSeat = await mySeat(guest, "en");
    if (side === "first") assert.equal(hostSeat, 0);
    if (side === "second") assert.equal(hostSeat, 1);
    assert.ok(hostSeat === 0 || hostSeat === 1, `host seat ${hostSeat}`);
    assert.equal(guestSeat, 1 - hostSeat);

    await autoplay([host, guest]);
    // Bell's majority: the winner the server names (and the board shows ahead) reads "you win", the other "you lose".
    await assertResultShown(server.url, "en", "bell", [[host, [hostSeat]], [guest, [guestSeat]]]);
    assert.deepEqual(problems.flat().filter((m) => !/WebSocket/.test(m)), []);
    await Promise.all([hostContext.close(), guestContext.close()]);
  });
}

test("with storage blocked (side random) both seats survive a reload, the creator sees the invite on any device, the game ends and the rematch keeps the seats", { timeout: 90000 }, async () => {
  const lang = "fi";
  const hostContext = await storageBlockedContext(browser, DESKTOP);
  // The friend's browser reads Finnish: the language-neutral invite link opens the Finnish page.
  const guestContext = await storageBlockedContext(browser, { ...PHONE, locale: "fi-FI" });
  const host = await hostContext.newPage();
  const guest = await guestContext.newPage();
  const problems = [host, guest].map(watchConsole);
  assert.equal(await (async () => { await host.goto(`${server.url}/${lang}/`); return host.evaluate(() => { try { localStorage.length; return "open"; } catch { return "blocked"; } }); })(), "blocked");

  const path = await startGame(host, server.url, { lang, ruleset: "bell", opponent: "friend", side: "random" });
  const game = path.split("/").pop();
  // The invite comes from the server (nothing was stored), and again after a reload.
  await host.waitForSelector("#share-invite:not([hidden])");
  const invite = await host.inputValue("#invite-link");
  assert.match(invite, new RegExp(`^${server.url}/play/${game}#invite=`), "language-neutral: the friend reads their own language");
  const before = await fragmentOf(host);
  assert.match(before.seat ?? "", /^[A-Za-z0-9_-]{43}$/);
  assert.match(before.commit ?? "", /^[0-9a-f]{64}$/);
  assert.match(before.seed ?? "", /^[0-9a-f]{32}$/);
  await host.reload();
  assert.ok(await seated(host, lang), "the creator keeps the seat over a reload");
  await host.waitForSelector("#share-invite:not([hidden])");
  assert.equal(await host.inputValue("#invite-link"), invite);
  assert.deepEqual(await fragmentOf(host), before, "the same seat, seed and commitment after the reload");
  await host.screenshot({ path: join(ensureArtifacts(), "seats-storage-blocked-creator-desktop.png") });

  // The resume link on another device (storage blocked too) gives the seat and the invite.
  const otherContext = await storageBlockedContext(browser, PHONE);
  const other = await otherContext.newPage();
  await other.goto(await host.inputValue("#resume-link"));
  assert.ok(await seated(other, lang));
  await other.waitForSelector("#share-invite:not([hidden])");
  assert.equal(await other.inputValue("#invite-link"), invite);
  assert.equal((await fragmentOf(other)).commit, before.commit, "the resume link carries the recorded commitment");
  await other.screenshot({ path: join(ensureArtifacts(), "seats-resume-other-device-phone.png") });
  await otherContext.close();

  // The friend joins through the invite and reloads before the first throw.
  await guest.goto(invite);
  await guest.waitForFunction(() => /[#&]seat=/.test(location.hash) && !/invite=/.test(location.hash));
  assert.ok(await seated(guest, lang));
  const guestFragment = await fragmentOf(guest);
  assert.equal(guestFragment.commit, before.commit);
  await guest.reload();
  assert.ok(await seated(guest, lang), "the friend keeps the seat over a reload");
  assert.deepEqual(await fragmentOf(guest), guestFragment);
  await host.waitForSelector("#share-invite[hidden]", { state: "attached" });
  const hostSeat = await mySeat(host, lang);
  assert.ok(hostSeat === 0 || hostSeat === 1, `host seat ${hostSeat}`);
  assert.equal(await mySeat(guest, lang), 1 - hostSeat);

  // A spectator, and a second one: every page says how many watch.
  const watcherContext = await storageBlockedContext(browser, PHONE);
  const watcher = await watcherContext.newPage();
  await watcher.goto(`${server.url}${path}`);
  await host.waitForFunction((text) => document.querySelector("#watchers")?.textContent === text, message("fi", "play.watchers", { count: 1 }));
  const second = await (await browser.newContext(DESKTOP)).newPage();
  await second.goto(`${server.url}${path}`);
  for (const p of [host, guest, watcher])
    await p.waitForFunction((text) => document.querySelector("#watchers")?.textContent === text, message("fi", "play.watchers", { count: 2 }));
  await host.locator("#share").screenshot({ path: join(ensureArtifacts(), "seats-share-watchers-desktop.png") });
  await second.context().close();
  await host.waitForFunction((text) => document.querySelector("#watchers")?.textContent === text, message("fi", "play.watchers", { count: 1 }));

  // The spectator has no throw button at all, nor any other player control.
  const noControls = async () => {
    assert.equal(await watcher.locator("#throw-button").isHidden(), true, "no throw button for a spectator");
    assert.equal(await watcher.locator("#move-choices button").count(), 0);
    assert.equal(await watcher.locator(".piece.movable").count(), 0);
    for (const id of ["#resign-button", "#claim-button", "#rematch-button", "#share-resume", "#share-invite"])
      assert.equal(await watcher.locator(id).isHidden(), true, `${id} hidden for a spectator`);
  };
  await watcher.waitForFunction(() => document.querySelector("#commitment")?.textContent?.length === 64);
  await noControls();
  await watcher.screenshot({ path: join(ensureArtifacts(), "seats-spectator-phone.png") });

  await host.waitForFunction(() => !document.getElementById("throw-button").hidden);
  await autoplay([host, guest]);
  // Checked against the commitment the fragment kept over the reloads.
  for (const p of [host, guest]) {
    await p.waitForFunction(() => /verified|warning/.test(document.querySelector("#fair-verdict")?.className ?? ""), null, { timeout: 20000 });
    assert.match(await p.getAttribute("#fair-verdict", "class"), /verified/, await p.textContent("#fair-verdict"));
  }
  // The seeds the server used are the ones the fragments kept.
  const record = await (await fetch(`${server.url}/api/games/${game}/record`)).json();
  assert.deepEqual(record.fairness.clientSeeds, hostSeat === 1 ? [guestFragment.seed, before.seed] : [before.seed, guestFragment.seed]);
  await watcher.waitForSelector("#end:not([hidden])");
  await assertResultShown(server.url, lang, "bell", [[host, [hostSeat]], [guest, [1 - hostSeat]], [watcher, []]]);
  await noControls();

  // The rematch: both players ask; they land on the new game with their seats (swapped), and
  // the spectator gets a link to it.
  await host.click("#rematch-button");
  await guest.click("#rematch-button");
  await host.waitForURL((u) => !u.pathname.endsWith(game) && /seat=/.test(u.hash));
  await guest.waitForURL((u) => !u.pathname.endsWith(game) && /seat=/.test(u.hash));
  const rematch = new URL(host.url()).pathname.split("/").pop();
  assert.ok(await seated(host, lang) && await seated(guest, lang), "both keep a seat in the rematch");
  assert.equal(await mySeat(host, lang), 1 - hostSeat, "the rematch swaps the sides");
  assert.equal(await mySeat(guest, lang), hostSeat);
  const link = watcher.locator("#rematch-watch");
  await link.waitFor({ state: "visible" });
  assert.equal(await link.textContent(), message("fi", "play.watch-rematch"));
  assert.equal(new URL(await link.getAttribute("href"), server.url).pathname, `/${lang}/play/${rematch}`);
  assert.ok(watcher.url().includes(game), "the spectator stays on the finished game");
  await watcher.screenshot({ path: join(ensureArtifacts(), "seats-spectator-rematch-link-phone.png") });
  assert.equal(await watcher.locator("body").evaluate((b) => b.innerText.includes("\u27E6")), false, "no missing string");
  assert.deepEqual(problems.flat().filter((m) => !/WebSocket/.test(m)), []);
  await Promise.all([hostContext.close(), guestContext.close(), watcherContext.close()]);
});

test("an invite to a game that ended before anyone joined says so", { timeout: 30000 }, async () => {
  const context = await browser.newContext(DESKTOP);
  const host = await context.newPage();
  await startGame(host, server.url, { ruleset: "standard", opponent: "friend", side: "first" });
  await host.waitForSelector("#share-invite:not([hidden])");
  const invite = await host.inputValue("#invite-link");
  const { seat } = await fragmentOf(host);
  // The creator resigns while waiting (through the protocol: the page offers no resignation then).
  await host.evaluate((secret) => new Promise((resolve, reject) => {
    const ws = new WebSocket(location.href.replace(/^http/, "ws").replace(/\/[a-z]{2}\/play\//, "/ws/games/").replace(/#.*/, ""));
    ws.onopen = () => ws.send(JSON.stringify({ t: "hello", d: { secret } }));
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.t === "snapshot" && m.d.phase !== "over") ws.send(JSON.stringify({ t: "resign", d: {} }));
      if ((m.t === "events" || m.t === "snapshot") && (m.d.state ?? m.d).phase === "over") { ws.close(); resolve(); }
    };
    ws.onerror = reject;
  }), seat);
  const guestContext = await browser.newContext(PHONE);
  const guest = await guestContext.newPage();
  await guest.goto(invite);
  await guest.waitForFunction((text) => document.querySelector("#message")?.textContent === text, message("en", "play.invite-over"));
  assert.equal(await guest.locator("#throw-button").isHidden(), true);
  assert.ok(!/invite=/.test(new URL(guest.url()).hash), "the used-up invite leaves the address");
  await Promise.all([context.close(), guestContext.close()]);
});
