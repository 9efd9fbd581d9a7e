// Take-back against the computer, on a phone (touch) and on a laptop: after the player's move and
// the computer's answer, "Take back" brings the position back with the same throw to play again
// (no new throw), the move list loses the undone plies, and the button is disabled when nothing
// can be taken back. A friend game has no such button.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, test } from "node:test";
import { axe, launchBrowser, message, startGame, startServer, waitForText, watchConsole } from "./helpers.mjs";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-takeback";
const plies = (page) => page.locator("#move-list li:not(.empty)").count();

for (const phone of [true, false]) {
  test(`take back against the computer on a ${phone ? "phone" : "laptop"}`, { timeout: 120000 }, async () => {
    mkdirSync(SHOTS, { recursive: true });
    const context = await browser.newContext(phone
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
      : { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    const tap = (sel) => (phone ? page.tap(sel) : page.click(sel));
    await startGame(page, server.url, { opponent: "computer", level: "beginner", lang: "en" });
    await page.waitForSelector("#takeback-button:not([hidden])");
    assert.equal(await page.locator("#takeback-button").isDisabled(), true, "nothing to take back before the first move");
    // Throw until a move is due, note the throw, move.
    for (let i = 0; i < 60 && !(await page.locator("#move-choices button").count()); i++) {
      await page.waitForFunction(() => !document.getElementById("throw-button").disabled || document.querySelector("#move-choices button"));
      if (!(await page.locator("#move-choices button").count())) await tap("#throw-button");
      await page.waitForTimeout(150);
    }
    const throwShown = await page.textContent("#throw-value");
    const listBefore = await plies(page);
    await tap("#move-choices button >> nth=0");
    // The computer answers (or a 1, 4 or 5 throws again); the take-back becomes possible on the player's turn.
    await page.waitForFunction(() => !document.getElementById("takeback-button").disabled, null, { timeout: 30000 });
    assert.ok(await plies(page) > listBefore, "the move is listed");
    await page.screenshot({ path: `${SHOTS}/${phone ? "phone" : "laptop"}-before.png` });
    assert.equal(await page.locator("#board .last-move").count(), 2, "the move just made is marked");
    const boardBox = await page.locator("#board").boundingBox();
    await tap("#takeback-button");
    await page.waitForFunction((n) => document.querySelectorAll("#move-list li:not(.empty)").length === n, listBefore);
    // The same throw to play again: no throw button, the same value, the moves offered.
    await waitForText(page, "#throw-value", throwShown);
    assert.ok(await page.locator("#move-choices button").count() > 0, "the moves of the same throw are offered");
    assert.equal(await page.locator("#throw-button").isDisabled(), true, "no new throw");
    assert.equal(await page.locator("#takeback-button").isDisabled(), true, "the only move went back");
    assert.match(await page.textContent("#feed"), new RegExp(message("en", "ev.taken-back", { person: "you", name: "You" }).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    assert.deepEqual(await page.locator("#board").boundingBox(), boardBox, "the button moved the board");
    // The board marks the last move still made (none if every move went back), never an undone one.
    const marked = await page.$$eval("#board .last-move", (els) => els.map((e) => e.getAttribute("data-square")));
    if (listBefore === 0) assert.deepEqual(marked, [], "no move is left, so none is marked");
    else assert.equal(marked.length, 2, "the last move left is marked, from and to");
    await page.screenshot({ path: `${SHOTS}/${phone ? "phone" : "laptop"}-after.png` });
    // Play on: the move again is accepted.
    await tap("#move-choices button >> nth=0");
    await page.waitForFunction((n) => document.querySelectorAll("#move-list li:not(.empty)").length > n, listBefore);
    const violations = (await axe(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    assert.deepEqual(violations, []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("a friend game has no take-back button", { timeout: 60000 }, async () => {
  const page = await (await browser.newContext()).newPage();
  await startGame(page, server.url, { opponent: "friend", lang: "en" });
  await page.waitForSelector("#share-invite:not([hidden])");
  assert.equal(await page.locator("#takeback-button").isHidden(), true);
});
