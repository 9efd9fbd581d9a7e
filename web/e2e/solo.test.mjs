// Games on one device: pass-and-play and against the computer run to the end, and a whole
// game is played with the keyboard alone.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { assertResultShown, axe, message, ensureArtifacts, launchBrowser, playToEnd, startGame, startServer, watchConsole } from "./helpers.mjs";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("a pass-and-play game runs to the end", { timeout: 240000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const problems = watchConsole(page);
  await startGame(page, server.url, { opponent: "local", ruleset: "jequier", lang: "fi" });
  let shot = false;
  // A Jéquier game by both seats is long (up to 60 s on a loaded 2-core machine): most of the test's time.
  await playToEnd([page], {
    limit: 200000,
    onStep: async (n) => {
      if (n === 25 && !shot) {
        shot = true;
        await page.screenshot({ path: join(ensureArtifacts(), "play-local-phone.png"), fullPage: true });
        const violations = await axe(page);
        assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
      }
    },
  });
  await assertResultShown(server.url, "fi", "jequier", [[page, [0, 1]]], { local: true });
  assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
  await context.close();
});

for (const level of ["beginner", "expert"]) {
  test(`a game against the computer (${level}) runs to the end`, { timeout: 240000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const ruleset = level === "expert" ? "bell" : "standard";
    // Everything the status, the screen reader's region and the feed ever say that names a seat
    // the way a spectator's page does: the player's own seat must never be told as a stranger's.
    await page.addInitScript(() => {
      const strange = (window.__strange = []);
      document.addEventListener("DOMContentLoaded", () => new MutationObserver(() => {
        for (const id of ["status", "live", "feed"]) {
          const text = document.getElementById(id)?.textContent ?? "";
          if (/Primo posto|Secondo posto|Stai guardando/.test(text) && !strange.includes(text)) strange.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true }));
    });
    await startGame(page, server.url, { opponent: "computer", level, ruleset, lang: "it", side: "second" });
    await playToEnd([page], { limit: 200000 });
    await assertResultShown(server.url, "it", ruleset, [[page, [1]]]);
    assert.deepEqual(await page.evaluate(() => window.__strange), [], "the page never spoke of its own seat as a stranger's");
    await context.close();
  });
}

test("a whole game by keyboard alone", { timeout: 240000 }, async () => {
  const context = await browser.newContext({ reducedMotion: "reduce" });
  const page = await context.newPage();
  await startGame(page, server.url, { opponent: "local", ruleset: "standard", lang: "pl" });
  await page.waitForSelector("#throw-button:not([disabled])");
  // From the top of the page: Tab until the throw button has focus.
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement?.id === "throw-button")) break;
  }
  assert.equal(await page.evaluate(() => document.activeElement?.id), "throw-button", "the throw button is reachable by Tab");
  const focusVisible = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle !== "none");
  assert.ok(focusVisible, "focus is visible");
  let presses = 0;
  let bearOffs = 0;
  const start = Date.now();
  while (Date.now() - start < 200000) {
    if (await page.locator("#end:not([hidden])").count()) break;
    const focus = await page.evaluate(() => {
      const a = document.activeElement;
      if (a?.id === "throw-button" && !a.disabled) return "throw";
      if (a?.closest?.("#move-choices")) return a.querySelector("[aria-hidden]")?.textContent ?? "";
      return null;
    });
    if (focus === null) {
      // Focus sits on nothing actionable (e.g. after a pass): Tab to the next control that acts.
      const due = await page.evaluate(() => !document.getElementById("throw-button").disabled || !!document.querySelector("#move-choices button"));
      if (!due) { await page.waitForTimeout(15); continue; }
      await page.keyboard.press("Tab");
      continue;
    }
    if (focus !== "throw" && /→ (off|poza)/.test(focus)) bearOffs++;
    await page.keyboard.press(presses % 2 ? "Enter" : "Space");
    presses++;
    await page.waitForTimeout(5);
  }
  await page.waitForSelector("#end:not([hidden])");
  await assertResultShown(server.url, "pl", "standard", [[page, [0, 1]]], { local: true });
  assert.ok(bearOffs >= 5, `bore off by keyboard (${bearOffs})`);
  // The live region announced the throws, in Polish, naming the side that threw.
  const live = await page.$$eval("#live p", (ps) => ps.map((p) => p.textContent));
  const thrown = [1, 2].flatMap((side) => [1, 2, 3, 4, 5].map((value) => message("pl", "ev.thrown", { person: "other", name: message("pl", `play.side.${side}`), value })));
  assert.ok(live.some((line) => thrown.includes(line)), `a throw was announced: ${JSON.stringify(live)}`);
  await context.close();
});
