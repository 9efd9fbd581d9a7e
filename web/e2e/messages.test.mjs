// Messages that stay and read right, and go when they have said it: the join notice shows until
// the first throw or for a few seconds; the event feed keeps a swap with the extra throw that
// follows it; a bad or used invite link says so; the claim button comes only after the grace
// period (--grace-seconds 3), with a countdown before it; the player who resigned, the winner
// and a spectator each read their own words; Bell's end screen states the final score.
// A phone (390×844, touch) and a desktop (1280×800) page, screenshots in two languages.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { assertResultShown, ensureArtifacts, launchBrowser, message, startGame, startServer, step, waitForText, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const GRACE = 3;

let server, browser;
before(async () => { server = await startServer(["--grace-seconds", String(GRACE)]); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const feed = (page) => page.$$eval("#feed p", (items) => items.map((p) => p.textContent));
const shot = (page, name) => page.screenshot({ path: join(ensureArtifacts(), name) });

/** A friend game: the host (desktop) creates it, the guest (phone) joins through the invite link. */
async function friendGame(lang = "en") {
  const hostContext = await browser.newContext(DESKTOP);
  const guestContext = await browser.newContext(PHONE);
  const host = await hostContext.newPage();
  const guest = await guestContext.newPage();
  const problems = [host, guest].map(watchConsole);
  const path = await startGame(host, server.url, { lang, opponent: "friend" });
  await host.waitForSelector("#share-invite:not([hidden])");
  const invite = await host.inputValue("#invite-link");
  await guest.goto(invite);
  await guest.waitForFunction(() => /[#&]seat=/.test(location.hash) && document.querySelector("#seat-0 .seat-name")?.textContent !== "");
  return { host, guest, hostContext, guestContext, path, invite, problems };
}

const JOINED = "Your opponent has joined. The game begins.";

test("the join notice shows until the first throw; a used and a bad invite link say so; the claim waits for the grace period", { timeout: 60000 }, async () => {
  const { host, guest, hostContext, guestContext, path, invite, problems } = await friendGame("en");
  await host.waitForFunction(() => /joined/.test(document.getElementById("feed").textContent));
  // A presence change does not push it out: a spectator comes.
  const watcherContext = await browser.newContext(PHONE);
  const watcher = await watcherContext.newPage();
  await watcher.goto(`${server.url}${path}`);
  await watcher.waitForSelector("#status:not(:empty)");
  assert.deepEqual(await feed(host), [JOINED]);
  assert.ok(await host.locator("#feed").isVisible(), "the feed is on screen");
  assert.equal(await host.getAttribute("#feed", "role"), "log");
  // The feed's notable events are not repeated in the screen-reader-only region.
  const live = await host.textContent("#live");
  assert.ok(!live.includes("Your opponent has joined"), `announced once: ${live}`);
  await shot(host, "messages-feed-desktop-en.png");
  // The game moves on: the first throw takes the notice away, on both pages (it said what it had to).
  assert.equal(await step(host), "acted");
  for (const p of [host, guest]) {
    await p.waitForFunction((text) => ![...document.querySelectorAll("#feed p")].some((e) => e.textContent === text), JOINED, { timeout: 5000 })
      .catch(async () => assert.fail(`the join notice is still in the feed after the first throw: ${JSON.stringify(await feed(p))}`));
  }
  assert.equal(await host.locator("#feed").isHidden(), true, "the feed with nothing in it is hidden");
  for (let i = 0; i < 2; i++) { await step(guest); await step(host); await host.waitForTimeout(60); }

  // The invite link once more: both seats are taken.
  const lateContext = await browser.newContext(PHONE);
  const late = await lateContext.newPage();
  await late.goto(invite);
  await waitForText(late, "#message", "Both seats are already taken: someone has used this invite link. You can still watch the game.");
  // A token that is not this game's, on a game still waiting for its friend.
  const created = await (await late.request.post(`${server.url}/api/games`, { data: { ruleset: "standard", opponent: "friend", lang: "en" } })).json();
  const waiting = created.watchUrl;
  await late.goto(`${server.url}${waiting}#invite=${"A".repeat(43)}`);
  await waitForText(late, "#message", message("en", "play.invite.bad"));
  assert.match(message("en", "play.invite.bad"), /^This invite link is not valid/);
  await shot(late, "messages-bad-invite-phone-en.png");
  // In Dutch too, on the phone.
  await late.goto(`${server.url}${waiting.replace("/en/", "/nl/")}#invite=${"A".repeat(43)}`);
  await waitForText(late, "#message", message("nl", "play.invite.bad"));
  assert.match(message("nl", "play.invite.bad"), /^Deze uitnodigingslink klopt niet/);
  await shot(late, "messages-bad-invite-phone-nl.png");
  await lateContext.close();

  // The friend goes away: a countdown first, the claim button only once the grace period is over.
  assert.equal(await host.locator("#claim-button").isHidden(), true);
  const feedBefore = await feed(host);
  await guestContext.close();
  await host.waitForSelector("#claim-wait:not([hidden])");
  await host.waitForSelector("#seat-1 .presence.offline");
  assert.deepEqual(await feed(host), feedBefore, "a presence change leaves the feed as it was");
  const wait = await host.textContent("#claim-wait");
  assert.match(wait, /^Your opponent is offline\. If they do not come back, you can claim the win in (1 second|\d+ seconds)\.$/, wait);
  assert.equal(await host.locator("#claim-button").isHidden(), true, "no claim button during the countdown");
  await shot(host, "messages-claim-wait-desktop-en.png");
  await waitForText(host, "#claim-wait", "Your opponent has been offline for too long. You can claim the win, or wait for them.", { timeout: (GRACE + 5) * 1000 });
  await host.waitForSelector("#claim-button:not([hidden])");
  await host.click("#claim-button");
  await waitForText(host, "#result", "Your opponent was offline too long: you win!");
  assert.equal(await host.textContent("#message"), "", "no raw server text");
  await waitForText(watcher, "#result", "Spools (Second seat) stayed offline too long: the win goes to Cones (First seat).");
  assert.deepEqual(await assertResultShown(server.url, "en", "standard", [[host, [0]], [watcher, []]]), { winner: 0, player: 1, reason: "claim" });
  assert.deepEqual(problems.flat().filter((m) => !/WebSocket|status of 40[039]/.test(m)), []);
  for (const c of [hostContext, watcherContext]) await c.close();
});

test("the join notice goes by itself after a few seconds when nobody throws", { timeout: 60000 }, async () => {
  const { host, guest, hostContext, guestContext } = await friendGame("en");
  await host.waitForFunction((text) => document.getElementById("feed").textContent === text, JOINED);
  const shown = Date.now();
  // Long enough to be read, gone well before the next turns.
  await host.waitForFunction(() => document.getElementById("feed").hidden, null, { timeout: 15000 })
    .catch(async () => assert.fail(`the join notice stayed: ${JSON.stringify(await feed(host))}`));
  const lasted = Date.now() - shown;
  assert.ok(lasted >= 4000 && lasted <= 12000, `the notice stayed ${lasted} ms`);
  assert.deepEqual(await feed(guest), [], "on the friend's page too");
  for (const c of [hostContext, guestContext]) await c.close();
});

test("a swap followed by an extra throw shows both in the feed (pass-and-play, Finnish, phone)", { timeout: 90000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await startGame(page, server.url, { lang: "fi", opponent: "local" });
  const start = Date.now();
  let found = null;
  while (!found && Date.now() - start < 75000) {
    const r = await step(page);
    if (r === "over") break;
    if (r === "idle") await page.waitForTimeout(15);
    const items = await feed(page);
    // A run of the same words (extra throws) is one line with a count, never two equal lines.
    for (let k = 1; k < items.length; k++) assert.notEqual(items[k], items[k - 1], items.join(" | "));
    // Newest first: the extra throw right above the swap of the same move.
    const i = items.findIndex((t) => t.startsWith("Paikanvaihto"));
    if (i > 0 && /uusi heitto/.test(items[i - 1])) found = items;
  }
  assert.ok(found, "a swap with an extra throw happened and both stayed in the feed");
  assert.ok(found.length <= 5, "the feed keeps the last few events");
  await shot(page, "messages-swap-phone-fi.png");
  await context.close();
});

test("resigning: each side and a spectator read their own words", { timeout: 60000 }, async () => {
  const { host, guest, hostContext, guestContext, path } = await friendGame("en");
  const watcherContext = await browser.newContext(DESKTOP);
  const watcher = await watcherContext.newPage();
  await watcher.goto(`${server.url}${path}`);
  await watcher.waitForSelector("#status:not(:empty)");
  await guest.waitForSelector("#resign-button:not([hidden])");
  guest.once("dialog", (d) => d.accept());
  await guest.click("#resign-button");
  await waitForText(guest, "#result", "You resigned. Your opponent wins.");
  await waitForText(host, "#result", "Your opponent resigned: you win!");
  await waitForText(watcher, "#result", "Spools (Second seat) resigned: the win goes to Cones (First seat).");
  // The server's result agrees: the first seat (cones) wins by the resignation.
  assert.deepEqual(await assertResultShown(server.url, "en", "standard", [[host, [0]], [guest, [1]], [watcher, []]]), { winner: 0, player: 1, reason: "resign" });
  // The resign button was tapped further down and is gone: the result came into view (scrolled to its top, within a pixel's rounding).
  const [top, height] = await guest.$eval("#end", (e) => [e.getBoundingClientRect().top, window.innerHeight]);
  assert.ok(top >= -1 && top < height, `the end panel's top ${top} is on the screen (height ${height})`);
  await guest.evaluate(() => window.scrollTo(0, 0));  // the test clicked the resign button further down
  await shot(guest, "messages-resigned-phone-en.png");
  for (const c of [hostContext, guestContext, watcherContext]) await c.close();
});

test("Bell's end screen states the final score (pass-and-play, Polish, phone)", { timeout: 100000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await startGame(page, server.url, { lang: "pl", opponent: "local", ruleset: "bell" });
  const start = Date.now();
  while (Date.now() - start < 90000) {
    const r = await step(page);
    if (r === "over") break;
    if (r === "idle") await page.waitForTimeout(10);
  }
  await page.waitForSelector("#end:not([hidden])");
  const off = await page.$$eval(".seat-off", (els) => els.map((e) => Number(/\d+/.exec(e.textContent)?.[0] ?? -1)));
  const score = await page.textContent("#final-score");
  const forms = (n) => (n === 1 ? "punkt" : [2, 3, 4].includes(n % 10) && ![12, 13, 14].includes(n % 100) ? "punkty" : "punktów");
  const players = await page.evaluate(() => [...document.querySelectorAll(".seat-piece")].map((e) => e.className));
  const cones = off[players.findIndex((c) => c.includes("p1"))];
  const spools = off[players.findIndex((c) => c.includes("p2"))];
  await assertResultShown(server.url, "pl", "bell", [[page, [0, 1]]], { local: true });
  assert.equal(score, `Wynik końcowy: stożki ${cones} ${forms(cones)}, szpulki ${spools} ${forms(spools)} (punkt za każdy wyprowadzony pionek).`);
  await shot(page, "messages-bell-score-phone-pl.png");
  await context.close();
});
