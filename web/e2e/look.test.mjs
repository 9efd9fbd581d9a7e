// The play page in motion, on a phone (390 × 844, touch) and a laptop (1280 × 800): the sticks
// tumble inside their box (every stick's box, sampled on every frame of the throw, lies within
// the sticks' container, which clips what falls outside it), and the end panel appears only
// once the winning piece's slide to the tray is over.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchBrowser, startGame, startServer, step } from "./helpers.mjs";

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  laptop: { viewport: { width: 1280, height: 800 } },
};

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/**
 * Set up before the page's script: on every animation frame while the sticks tumble, the worst
 * overhang (CSS px) of any stick's box past the sticks' container; and, when the end panel
 * shows, how many pieces were still sliding (the Web Animations the board runs on pieces).
 */
function spies() {
  window.__overhang = { frames: 0, worst: 0, where: "" };
  window.__endSeen = null;
  const sample = () => {
    const box = document.getElementById("sticks")?.getBoundingClientRect();
    const tumbling = document.querySelector("#sticks .tumbling");
    if (box && tumbling) {
      window.__overhang.frames++;
      document.querySelectorAll("#sticks .stick, #sticks .die-face").forEach((s, k) => {
        const r = s.getBoundingClientRect();
        const out = Math.max(box.left - r.left, r.right - box.right, box.top - r.top, r.bottom - box.bottom);
        if (out > window.__overhang.worst) window.__overhang = { ...window.__overhang, worst: out, where: `stick ${k + 1}` };
      });
    }
    const end = document.getElementById("end");
    if (end && !end.hidden && window.__endSeen === null) {
      const sliding = document.getAnimations().filter((a) => a.effect?.target?.classList?.contains("piece") && a.playState === "running");
      window.__endSeen = { sliding: sliding.length, at: performance.now() };
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}

for (const [name, size] of Object.entries(SIZES)) {
  test(`${name}: the sticks never leave their box while they tumble`, { timeout: 60000 }, async () => {
    const context = await browser.newContext({ ...size, reducedMotion: "no-preference" });
    await context.addInitScript(spies);
    const page = await context.newPage();
    await startGame(page, server.url, { opponent: "local" });
    // Several throws: each after the first tumbles (the first throw of a page is drawn at rest).
    for (let n = 0; n < 6; n++) {
      await page.waitForSelector("#throw-button:not([disabled])");
      await page.click("#throw-button");
      await page.waitForTimeout(900);  // the tumble takes 0.75 s
      const choice = await page.$("#move-choices button");
      if (choice) await choice.click();
      await page.waitForTimeout(400);
    }
    const o = await page.evaluate(() => window.__overhang);
    assert.ok(o.frames > 20, `sampled ${o.frames} frames of tumbling sticks`);
    assert.ok(o.worst <= 0.5, `${o.where} reached ${o.worst.toFixed(1)} px outside the sticks' box`);
    await context.close();
  });
}

test("laptop: the end panel appears after the winning piece has slid off the board", { timeout: 180000 }, async () => {
  const context = await browser.newContext({ ...SIZES.laptop, reducedMotion: "no-preference" });
  await context.addInitScript(spies);
  const page = await context.newPage();
  await startGame(page, server.url, { opponent: "local" });
  const start = Date.now();
  while (Date.now() - start < 150000 && (await step(page)) !== "over") await page.waitForTimeout(10);
  // step() may read the game as over while the last piece still slides: the panel comes after it.
  await page.waitForFunction(() => window.__endSeen !== null, undefined, { timeout: 15000 }).catch(() => undefined);
  const seen = await page.evaluate(() => window.__endSeen);
  assert.ok(seen, "the end panel showed");
  assert.equal(seen.sliding, 0, "no piece was still sliding when the end panel appeared");
  // The last piece stands in the tray once the panel shows: every piece animation has ended.
  assert.equal(await page.evaluate(() => document.querySelectorAll(".board .piece.moving").length), 0);
  await context.close();
});
