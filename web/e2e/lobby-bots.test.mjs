// A bot in the lobby as a person meets it (server/PROTOCOL.md "Bots"): a program's seek (a raw
// lobby socket with "bot": true) is listed as "NAME, bot" in the open games of a phone's
// waiting view; a person's seek is not paired with it (the person did not accept bots), but the
// person may take it with its Play button; the play page then names the opponent as a bot, and
// a spectator's page too.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ensureArtifacts, launchBrowser, message, startServer, waitForText, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("a bot's seek is marked in the open list, never paired with a person who did not accept bots, and named a bot in the game", { timeout: 90000 }, async () => {
  // The "bot": a page that holds a raw lobby socket and seeks as a program.
  const botContext = await browser.newContext();
  const bot = await botContext.newPage();
  await bot.goto(`${server.url}/en/rules`);
  await bot.evaluate(() => new Promise((resolve) => {
    const ws = new WebSocket(`${location.origin.replace("http", "ws")}/ws/lobby`);
    window.frames_ = [];
    ws.onmessage = (ev) => window.frames_.push(JSON.parse(ev.data));
    ws.onopen = () => { ws.send(JSON.stringify({ t: "seek", d: { ruleset: "bell", name: "Sticks 0.3", browser: "bot-e2e", bot: true } })); resolve(); };
    window.ws_ = ws;
  }));
  await bot.waitForFunction(() => window.frames_.some((f) => f.t === "seeking"));
  const listed = await (await fetch(`${server.url}/api/lobby`)).json();
  assert.deepEqual(listed.open.map((o) => [o.name, o.ruleset, o.bot]), [["Sticks 0.3", "bell", true]]);

  const phone = await browser.newContext(PHONE);
  const page = await phone.newPage();
  const problems = watchConsole(page);
  await page.goto(`${server.url}/en/`);
  await page.check("input[name=opponent][value=anyone]");
  await page.check("input[name=ruleset][value=bell]");
  await page.fill("#guest-name", "Tiye");
  await page.click("#start-form button[type=submit]");
  const bell = await page.$eval("input[name=ruleset][value=bell]", (i) => i.closest("label").querySelector("strong").textContent);
  await waitForText(page, "#lobby-status", message("en", "lobby.looking", { ruleset: bell }));
  // Same ruleset, yet not paired: the person's seek does not accept bots before the offer.
  const marked = message("en", "lobby.bot-name", { name: "Sticks 0.3" });
  await page.locator(".lobby-seek-name", { hasText: marked }).waitFor({ timeout: 10000 });
  await page.waitForTimeout(1500);
  assert.equal(await bot.evaluate(() => window.frames_.some((f) => f.t === "paired")), false, "a bot is never paired with a person who did not accept bots");
  assert.equal(new URL(page.url()).pathname, "/en/");
  await page.screenshot({ path: join(ensureArtifacts(), "lobby-bot-open-phone.png") });
  // The person takes the bot's seek: both are in one game, the bot marked on the play page.
  await page.getByRole("button", { name: message("en", "lobby.take-label", { name: marked, ruleset: bell }) }).tap();
  await page.waitForURL(/\/play\//, { timeout: 10000 });
  const paired = await bot.evaluate(() => window.frames_.find((f) => f.t === "paired")?.d);
  assert.ok(paired, "the bot was paired");
  assert.equal(paired.opponentBot, false);
  const botSeat = paired.seat;
  const named = (p) => p.waitForFunction(([sel, text]) => document.querySelector(sel)?.textContent.includes(text), [`#seat-${botSeat} .seat-name`, marked], { timeout: 20000 });
  await named(page);
  await page.screenshot({ path: join(ensureArtifacts(), "lobby-bot-game-phone.png") });
  // A spectator reads the mark as well.
  const watcher = await (await browser.newContext()).newPage();
  await watcher.goto(`${server.url}/en/play/${paired.game}`);
  await named(watcher);
  assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
  await Promise.all([botContext.close(), phone.close(), watcher.context().close()]);
});
