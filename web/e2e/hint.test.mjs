// Hints, on a phone (touch, 390×844) and on a laptop (1280×800, by keyboard): in a pass-and-play
// game and against the computer the "Hint" button lists every legal move of the throw with its
// win chance (best first, in percent), a move tapped in the list is shown on the board, nothing
// else on the table moves, and the list closes once a move is made. A friend game has no button.
// The record marks the hinted ply, and the replay's move list shows it.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, test } from "node:test";
import { axe, launchBrowser, message, startGame, startServer, waitUntil, watchConsole } from "./helpers.mjs";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-hint";

/** Throws until a move with at least two choices is due to this page (moving the first choice of single-move throws). */
async function untilChoice(page, tap) {
  for (let i = 0; i < 200; i++) {
    const what = await page.evaluate(() => {
      if (!document.getElementById("end").hidden) return "over";
      const choices = document.querySelectorAll("#move-choices button").length;
      if (choices >= 2) return "choice";
      if (choices === 1) return "single";
      return document.getElementById("throw-button").disabled ? "wait" : "throw";
    });
    if (what === "over") throw new Error("the game ended before a choice");
    if (what === "choice") return;
    if (what === "throw") await tap("#throw-button");
    else if (what === "single") await tap("#move-choices button");
    await page.waitForTimeout(100);
  }
  throw new Error("no move with a choice became due");
}

const boxes = (page) => page.evaluate(() => Object.fromEntries(["board", "move-choices", "hint-button", "takeback-button", "throw-button"]
  .map((id) => { const r = document.getElementById(id).getBoundingClientRect(); return [id, [r.x, r.y + scrollY, r.width, r.height].map(Math.round)]; })));

for (const opponent of ["local", "computer"]) {
  for (const phone of [true, false]) {
    const where = phone ? "phone" : "laptop";
    // Against the computer in French: the chances in the page's language ("50,2 %").
    const lang = opponent === "computer" ? "fr" : "en";
    test(`hints in a ${opponent} game on a ${where} (${lang})`, { timeout: 120000 }, async () => {
      mkdirSync(SHOTS, { recursive: true });
      const context = await browser.newContext(phone
        ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
        : { viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems = watchConsole(page);
      const tap = (sel) => (phone ? page.tap(sel) : page.click(sel));
      const path = await startGame(page, server.url, { opponent, level: "beginner", lang });
      await page.waitForSelector("#hint-button:not([hidden])");
      assert.equal(await page.textContent("#hint-button"), message(lang, "play.hint"));
      assert.equal(await page.locator("#hint-button").isDisabled(), true, "no hint before a move is due");
      await untilChoice(page, tap);
      const legal = await page.$$eval("#move-choices button", (bs) => bs.map((b) => b.dataset.move));
      const plies = await page.locator("#move-list li:not(.empty)").count();
      const before = await boxes(page);
      if (phone) await page.tap("#hint-button");
      else { await page.focus("#hint-button"); await page.keyboard.press("Enter"); }
      await waitUntil(page, "the hint list", () => page.waitForSelector("#hint-list .hint-move", { timeout: 20000 }));
      assert.equal(await page.getAttribute("#hint-button", "aria-expanded"), "true");
      // The list's heading and its best move are on the screen (on a phone the page scrolls to them).
      const seen = await page.evaluate(() => {
        const top = document.querySelector("#hint-list .hint-move").getBoundingClientRect();
        const panel = document.getElementById("hint-panel").getBoundingClientRect();
        return { bottom: top.bottom, panelTop: panel.top, height: innerHeight };
      });
      assert.ok(seen.bottom <= seen.height && seen.panelTop >= 0, `the best move at ${Math.round(seen.bottom)} of ${seen.height} px, the list's top at ${Math.round(seen.panelTop)}`);
      const rows = await page.$$eval("#hint-list .hint-move", (bs) => bs.map((b) => ({
        move: b.dataset.move, squares: b.querySelector(".hint-squares").textContent, chance: b.querySelector(".hint-chance").textContent,
        exact: !!b.querySelector(".hint-exact"), name: b.querySelector(".visually-hidden").textContent })));
      // Every legal move once, with a percentage, best first; the words a screen reader hears.
      assert.deepEqual(rows.map((r) => r.move).sort(), [...legal].sort());
      const pattern = lang === "fr" ? /^\d{1,3},\d[\u00a0\u202f]%$/ : /^\d{1,3}\.\d%$/;
      const chances = rows.map((r) => { assert.match(r.chance, pattern, r.chance); return Number(r.chance.replace(",", ".").replace(/[^\d.]/g, "")); });
      assert.deepEqual([...chances].sort((a, b) => b - a), chances, "best first");
      assert.ok(chances.every((c) => c >= 0 && c <= 100));
      for (const r of rows) {
        assert.equal(r.exact, false, "no endgame tables in this test server");
        assert.ok(r.name.endsWith(message(lang, "play.hint.item", { move: "", chance: r.chance })), r.name);
        assert.ok(r.name.length > message(lang, "play.hint.item", { move: "", chance: r.chance }).length, "the move's sentence first");
      }
      assert.equal(await page.textContent("#hint-status"), message(lang, "play.hint.title", { count: rows.length }));
      // Opening the list moved nothing on the table above it.
      assert.deepEqual(await boxes(page), before, "the hint list moved a control");
      // A move in the list is shown on the board: its squares marked.
      if (phone) await page.tap("#hint-list .hint-move >> nth=1");
      else {
        // By keyboard: Tab from the button on to the list's second move (past the take-back when it is usable).
        for (let i = 0; i < 4 && !(await page.evaluate(() => document.activeElement?.matches("#hint-list li:nth-child(2) .hint-move"))); i++)
          await page.keyboard.press("Tab");
        await page.keyboard.press("Enter");
      }
      assert.equal(await page.getAttribute("#hint-list .hint-move >> nth=1", "aria-pressed"), "true");
      assert.ok(await page.locator("#board .square.preview").count() >= 2, "the move's squares are shown");
      await page.screenshot({ path: `${SHOTS}/${opponent}-${where}-list.png` });
      const violations = (await axe(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
      assert.deepEqual(violations, []);
      // The hinted best move is played: the list closes, the ply is listed.
      await tap(`#move-choices button[data-move="${rows[0].move}"]`);
      await page.waitForSelector("#hint-panel", { state: "hidden" });
      assert.equal(await page.getAttribute("#hint-button", "aria-expanded"), "false");
      await page.waitForFunction((n) => document.querySelectorAll("#move-list li:not(.empty)").length > n, plies);
      // The game ends (resigned); the record marks that ply, and the replay shows it.
      page.once("dialog", (d) => void d.accept());
      await page.waitForFunction(() => !document.getElementById("resign-button").hidden);
      await tap("#resign-button");
      await page.waitForSelector("#end:not([hidden])");
      const game = path.split("/").pop();
      const record = await (await fetch(`${server.url}/api/games/${game}/record`)).json();
      assert.ok(Array.isArray(record.hints) && record.hints.length >= 1, JSON.stringify(record.hints));
      const hinted = record.hints.find((i) => record.plies[i].move === rows[0].move);
      assert.notEqual(hinted, undefined, `a hint mark on the move ${rows[0].move}: ${JSON.stringify(record.hints)}`);
      await page.goto(`${server.url}/${lang}/replay/${game}`);
      await page.waitForSelector("#replay-moves li[data-n]");
      const marked = await page.$$eval("#replay-moves li.hinted", (lis) => lis.map((li) => Number(li.dataset.n)));
      assert.deepEqual(marked, record.hints.map((i) => i + 1));
      assert.equal(await page.textContent(`#replay-moves li[data-n="${hinted + 1}"] .hint-mark [aria-hidden]`), message(lang, "replay.hint-mark"));
      assert.equal(await page.textContent(`#replay-moves li[data-n="${hinted + 1}"] .hint-mark .visually-hidden`), message(lang, "replay.hinted"));
      if (phone) await page.locator(`#replay-moves li[data-n="${hinted + 1}"]`).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/${opponent}-${where}-replay.png` });
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test("a friend game by link has no hint button", { timeout: 60000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await startGame(page, server.url, { opponent: "friend", lang: "en" });
  await page.waitForSelector("#share-invite:not([hidden])");
  assert.equal(await page.locator("#hint-button").isHidden(), true);
  assert.equal(await page.locator("#hint-panel").isHidden(), true);
  await context.close();
});
