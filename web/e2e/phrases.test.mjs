// Quick phrases in a friend game: the host on a laptop (English) sends "Good luck!" from the
// "💬" menu, by mouse and by keyboard; the friend on a phone (German) reads it in German in the
// phrase line (an aria-live region); the menu opens over the page without moving the board or
// the throw button; after the friend mutes the host, the host's next phrase is not shown to
// the friend (and the switch is remembered over a reload). A spectator never sees a phrase.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, test } from "node:test";
import { axe, launchBrowser, message, startGame, startServer, textNow, waitForText, watchConsole } from "./helpers.mjs";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-phrases";
const box = (page, sel) => page.locator(sel).boundingBox();

test("a phrase goes to the friend in the friend's language, and muting hides it", { timeout: 120000 }, async () => {
  mkdirSync(SHOTS, { recursive: true });
  const hostContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en" });
  const guestContext = await browser.newContext({ locale: "de", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const host = await hostContext.newPage();
  const guest = await guestContext.newPage();
  const problems = [host, guest].map(watchConsole);
  const path = await startGame(host, server.url, { opponent: "friend", lang: "en" });
  await host.waitForSelector("#share-invite:not([hidden])");
  // No phrases while the friend has not joined.
  assert.equal(await host.locator("#phrases").isHidden(), true);
  const invite = (await host.inputValue("#invite-link")).replace("/en/play/", "/de/play/");
  await guest.goto(invite);
  await guest.waitForFunction(() => /[#&]seat=/.test(location.hash) && document.querySelector("#status")?.textContent !== "");
  await host.waitForSelector("#phrases:not([hidden])");
  await guest.waitForSelector("#phrases:not([hidden])");
  const watcher = await (await browser.newContext()).newPage();
  await watcher.goto(`${server.url}${path}`);
  await watcher.waitForSelector("#status:not(:empty)");
  assert.equal(await watcher.locator("#phrases").isHidden(), true, "a spectator has no phrase control");

  // The phone: the board and the throw button stay where they are while the menu is open.
  const boardBefore = await box(guest, "#board");
  const throwBefore = await box(guest, ".throw-row");
  await guest.tap("#phrase-open");
  await guest.waitForSelector("#phrase-menu:not([hidden])");
  assert.equal(await guest.getAttribute("#phrase-open", "aria-expanded"), "true");
  assert.deepEqual(await guest.locator("#phrase-menu [data-phrase]").allTextContents(),
    ["good-luck", "well-played", "good-game", "thanks", "oops", "your-turn"].map((id) => message("de", `play.phrase.${id}`)));
  assert.deepEqual(await box(guest, "#board"), boardBefore, "opening the menu moved the board");
  assert.deepEqual(await box(guest, ".throw-row"), throwBefore, "opening the menu moved the throw row");
  await guest.screenshot({ path: `${SHOTS}/phone-menu-de.png` });
  await guest.tap("#seat-0");  // a tap elsewhere closes it
  await guest.waitForSelector("#phrase-menu[hidden]", { state: "attached" });

  // The host, by mouse: "Good luck!".
  await host.click("#phrase-open");
  await host.click('#phrase-menu [data-phrase="good-luck"]');
  assert.equal(await host.locator("#phrase-menu").isHidden(), true);
  const de = message("de", "play.phrase.said", { person: "other", name: message("de", "play.seat.opponent"), phrase: message("de", "play.phrase.good-luck") });
  await waitForText(guest, "#phrase-said", de);
  assert.equal(de, "Gegner: „Viel Glück!“");
  await waitForText(host, "#phrase-said", message("en", "play.phrase.said", { person: "you", name: "You", phrase: "Good luck!" }));
  assert.equal(await guest.getAttribute("#phrase-said", "aria-live"), "polite");
  assert.deepEqual(await box(guest, "#board"), boardBefore, "the phrase line moved the board");
  assert.deepEqual(await box(guest, ".throw-row"), throwBefore, "the phrase line moved the throw row");
  await guest.screenshot({ path: `${SHOTS}/phone-said-de.png` });
  await host.screenshot({ path: `${SHOTS}/laptop-said-en.png` });

  // The friend mutes the host; the host's next phrase (by keyboard, after the 2 s limit) is not shown.
  await guest.tap("#phrase-open");
  await guest.locator("#phrase-mute").check();
  assert.equal(await textNow(guest, "#phrase-said"), "", "muting clears the opponent's phrase");
  await host.waitForTimeout(2100);
  await host.focus("#phrase-open");
  await host.keyboard.press("Enter");
  await host.waitForSelector("#phrase-menu:not([hidden])");
  assert.equal(await host.evaluate(() => document.activeElement?.getAttribute("data-phrase")), "good-luck", "the menu's first phrase has the focus");
  await host.keyboard.press("Tab");
  assert.equal(await host.evaluate(() => document.activeElement?.getAttribute("data-phrase")), "well-played");
  await host.keyboard.press("Enter");
  await waitForText(host, "#phrase-said", message("en", "play.phrase.said", { person: "you", name: "You", phrase: "Well played!" }));
  assert.equal(await host.evaluate(() => document.activeElement?.id), "phrase-open", "the focus returns to the 💬 button");
  await guest.waitForTimeout(800);
  assert.equal(await textNow(guest, "#phrase-said"), "", "a muted phrase was shown");
  // Too soon: the host's third phrase within 2 s is refused, in the phrase line.
  await host.click("#phrase-open");
  await host.click('#phrase-menu [data-phrase="thanks"]');
  await waitForText(host, "#phrase-said", message("en", "play.err.phrase-limit"));
  // The switch is remembered for this game.
  await guest.reload();
  await guest.waitForSelector("#phrases:not([hidden])");
  assert.equal(await guest.locator("#phrase-mute").isChecked(), true);
  assert.equal(await textNow(watcher, "#phrase-said"), "");
  const violations = (await axe(guest)).filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(violations, []);
  assert.deepEqual(problems.flat(), []);
});
