// Kendall's and Piccione's pages and tutorials on a 390×844 phone in English and in right-to-left
// Arabic: complete (no missing string), no wider than the screen, no axe-core violations; every
// Kendall lesson completed by touch and every Piccione lesson by touch and by keyboard against the
// engine in WebAssembly, with the reasons of their own rules for refused moves; screenshots on
// the phone and at 1280×800.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import * as esbuild from "esbuild";
import { WEB, axe, ensureArtifacts, launchBrowser, message, startServer, waitForText, waitUntil, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PAGES = ["variants/kendall", "variants/piccione", "learn/kendall", "learn/piccione"];
let server, browser, lessonsFor, artifacts;
const tmp = mkdtempSync(join(tmpdir(), "senet-new-rulesets-e2e-"));

before(async () => {
  await esbuild.build({
    entryPoints: [join(WEB, "src", "learn", "lessons", "index.ts")], outfile: join(tmp, "lessons.mjs"),
    bundle: true, format: "esm", platform: "neutral", target: "es2022", logLevel: "warning",
  });
  ({ lessonsFor } = await import(pathToFileURL(join(tmp, "lessons.mjs")).href));
  server = await startServer();
  browser = await launchBrowser();
  artifacts = ensureArtifacts();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** Opens a page and waits until it is ready (the tutorial: its engine loaded and a lesson shown). */
async function open(page, lang, path) {
  const response = await page.goto(`${server.url}/${lang}/${path}`);
  assert.equal(response.status(), 200, `${lang}/${path}`);
  if (path.startsWith("learn/")) {
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await waitUntil(page, "the tutorial is ready", () => page.waitForSelector("#learn[data-ready='1'] #lesson:not([hidden])"));
  }
}

for (const lang of ["en", "ar"]) {
  test(`Kendall's and Piccione's pages on a phone in ${lang}: complete, within the screen, axe-core clean`, { timeout: 180000 }, async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const problems = watchConsole(page);
    for (const path of PAGES) {
      await open(page, lang, path);
      assert.equal(await page.getAttribute("html", "dir"), lang === "ar" ? "rtl" : "ltr");
      assert.ok(!(await page.textContent("body")).includes("\u27E6"), `${lang}/${path} has a missing string`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${lang}/${path} is ${width} px wide on a 390 px screen`);
      if (path.startsWith("variants/")) {
        const key = path.slice(9);
        assert.equal(await page.textContent("h1"), message(lang, `${key}.title`));
        assert.equal(await page.locator("table.compare tbody tr").count(), key === "kendall" ? 9 : 12, `${lang}/${path} table rows`);
        assert.equal(await page.locator(`figure.board-diagram[data-ruleset="${key}"] .diagram-house`).count(), 6);
        assert.equal(await page.locator(".board-diagram .diagram-exit").count(), key === "kendall" ? 3 : 0);
      }
      const violations = await axe(page);
      assert.deepEqual(violations, [], `${lang}/${path}: ${JSON.stringify(violations, null, 1)}`);
      await page.screenshot({ path: join(artifacts, `new-${path.replace("/", "-")}-${lang}-phone.png`), fullPage: true });
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("every Kendall lesson by touch on a phone, Kendall's refusals explained", { timeout: 180000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await open(page, "en", "learn/kendall");
  const lessons = lessonsFor("kendall");
  assert.deepEqual(lessons.map((l) => l.key).slice(2),
    ["learn.kendall.stop.", "learn.kendall.water.", "learn.kendall.final.", "learn.kendall.swap.", "learn.kendall.backward."]);
  const tapSquare = async (sq) => {
    const occupied = await page.locator(`#lesson-board [data-at="${sq}"]`).count();
    await page.tap(occupied ? `#lesson-board [data-at="${sq}"]` : `#lesson-board .square[data-square="${sq}"]`);
  };
  for (const [i, lesson] of lessons.entries()) {
    await waitForText(page, "#lesson-progress", message("en", "learn.progress", { n: i + 1, count: lessons.length }));
    // The refusals of Kendall's own rules, before the right move.
    if (lesson.key === "learn.kendall.stop.") {
      await page.tap('#lesson-board [data-at="24"]');
      await tapSquare(28);
      await waitForText(page, "#lesson-feedback", message("en", "learn.wrong", { why: message("en", "learn.why.stop", { from: 24, to: 28, throw: 4 }) }));
    }
    if (lesson.key === "learn.kendall.water.") {
      await page.tap('#lesson-board [data-at="26"]');
      await tapSquare(27);
      await waitForText(page, "#lesson-feedback", message("en", "learn.kendall.water.other"));
    }
    if (lesson.key === "learn.kendall.final.") {
      await page.tap('#lesson-board [data-at="28"]');
      await tapSquare(29);
      await waitForText(page, "#lesson-feedback", message("en", "learn.wrong", { why: message("en", "learn.why.final-exact", { from: 28, to: 29, throw: 1, need: 3 }) }));
    }
    const [from, to] = lesson.answer.split("-").map((s) => (s === "off" ? 31 : Number(s)));
    await page.tap(`#lesson-board [data-at="${from}"]`);
    await tapSquare(to);
    await waitForText(page, "#lesson-feedback", message("en", "learn.right", { done: message("en", `${lesson.key}done`) }));
    if (lesson.key === "learn.kendall.backward.") {
      // Rule 9: the backward move swapped with the lone spool.
      assert.equal(await page.locator('#lesson-board .piece-1[data-at="16"]').count(), 1, "the cone went back to 16");
      assert.equal(await page.locator('#lesson-board .piece-2[data-at="18"]').count(), 1, "the spool went to 18");
    }
    await page.tap("#lesson-next");
  }
  await waitUntil(page, "the end of the lessons", () => page.waitForSelector("#lesson-end:not([hidden])"));
  assert.deepEqual(problems, []);
  await context.close();
});

/** Piccione's lessons in order, as the tutorial must show them. */
const PICCIONE = ["learn.common.path.", "learn.piccione.enter.", "learn.piccione.split.", "learn.common.moving.",
  "learn.piccione.direction.", "learn.piccione.rebirth.", "learn.piccione.water.", "learn.piccione.off."];

test("every Piccione lesson by touch on a phone: entering on square 1, steps by target, Piccione's refusals explained", { timeout: 180000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await open(page, "en", "learn/piccione");
  const lessons = lessonsFor("piccione");
  assert.deepEqual(lessons.map((l) => l.key), PICCIONE);
  const tapSquare = async (sq) => {
    const occupied = await page.locator(`#lesson-board [data-at="${sq}"]`).count();
    await page.tap(occupied ? `#lesson-board [data-at="${sq}"]` : `#lesson-board .square[data-square="${sq}"]`);
  };
  const wrong = (key, params) => message("en", "learn.wrong", { why: message("en", key, params) });
  for (const [i, lesson] of lessons.entries()) {
    await waitForText(page, "#lesson-progress", message("en", "learn.progress", { n: i + 1, count: lessons.length }));
    if (lesson.key === "learn.piccione.enter.") {
      // Every piece is in the hand: the line under the throw says so, and no piece is on the board.
      assert.equal(await page.textContent("#lesson-hands"), message("en", "learn.hands", { mine: 5, theirs: 5 }));
      assert.equal(await page.locator("#lesson-board [data-at]").count(), 0);
      await tapSquare(1);
      await waitForText(page, "#lesson-feedback", message("en", "learn.right", { done: message("en", `${lesson.key}done`) }));
      assert.equal(await page.locator('#lesson-board .piece-1[data-at="1"]').count(), 1, "the cone entered on 1");
      assert.equal(await page.textContent("#lesson-hands"), message("en", "learn.hands", { mine: 4, theirs: 5 }));
      await page.tap("#lesson-next");
      continue;
    }
    if (lesson.key === "learn.piccione.split.") {
      // The chosen piece marks each square it may step to; the whole throw is not what is asked.
      await page.tap('#lesson-board [data-at="12"]');
      await waitForText(page, "#lesson-feedback", message("en", "learn.selected.steps.tap", { square: 12 }));
      await tapSquare(15);
      await waitForText(page, "#lesson-feedback", message("en", "learn.piccione.split.other"));
      // 9 holds a spool: no swapping in this game.
      await page.tap('#lesson-board [data-at="6"]');
      await tapSquare(9);
      await waitForText(page, "#lesson-feedback", wrong("learn.why.taken", { from: 6, to: 9, throw: 3, need: 25 }));
      // Four squares from a throw of 3 is too far.
      await page.tap('#lesson-board [data-at="6"]');
      await tapSquare(10);
      await waitForText(page, "#lesson-feedback", wrong("learn.why.too-far", { from: 6, to: 10, throw: 3, need: 25 }));
    }
    if (lesson.key === "learn.piccione.direction.") {
      // A forward step first when one exists: here none does, and 28-30 never go back (a later check).
      assert.deepEqual(await page.locator("#lesson-piece-buttons button").allTextContents(),
        [17, 18, 19].map((to) => message("en", "learn.step", { from: 20, to })));
    }
    if (lesson.key === "learn.piccione.water.") {
      await page.tap('#lesson-board [data-at="24"]');
      await tapSquare(27);
      await waitForText(page, "#lesson-feedback", message("en", "learn.piccione.water.other"));
      // A forward step exists, so the turn may not go backward.
      await page.tap('#lesson-board [data-at="24"]');
      await tapSquare(22);
      await waitForText(page, "#lesson-feedback", wrong("learn.why.forward-first", { from: 24, to: 22, throw: 3, need: 7 }));
    }
    if (lesson.key === "learn.piccione.off.") {
      await page.tap('#lesson-board [data-at="28"]');
      await tapSquare(26);
      await waitForText(page, "#lesson-feedback", wrong("learn.why.no-back", { from: 28, to: 26, throw: 3, need: 3 }));
    }
    const [from, to] = lesson.answer.split("-").map((s) => (s === "off" ? 31 : Number(s)));
    await page.tap(`#lesson-board [data-at="${from}"]`);
    await tapSquare(to);
    await waitForText(page, "#lesson-feedback", message("en", "learn.right", { done: message("en", `${lesson.key}done`) }));
    await page.tap("#lesson-next");
  }
  await waitUntil(page, "the end of the lessons", () => page.waitForSelector("#lesson-end:not([hidden])"));
  assert.deepEqual(problems, []);
  await context.close();
});

test("Piccione's lessons by keyboard: one button per legal step, named for screen readers", { timeout: 120000 }, async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  await open(page, "en", "learn/piccione");
  await page.click("#lesson-next");  // to the entering lesson
  await waitForText(page, "#lesson-pieces-label", message("en", "learn.pieces-label.steps"));
  assert.deepEqual(await page.locator("#lesson-piece-buttons button").allTextContents(), [message("en", "learn.step-enter")]);
  await page.focus('#lesson-piece-buttons button[data-move="in-1"]');
  await page.keyboard.press("Enter");
  await waitForText(page, "#lesson-feedback", message("en", "learn.right", { done: message("en", "learn.piccione.enter.done") }));
  await page.click("#lesson-next");  // splitting: 6-7, 6-8, 12-13, 12-14, 12-15
  await waitForText(page, "#lesson-progress", message("en", "learn.progress", { n: 3, count: PICCIONE.length }));
  assert.deepEqual(await page.locator("#lesson-piece-buttons button").evaluateAll((bs) => bs.map((b) => b.dataset.move)),
    ["6-7", "6-8", "12-13", "12-14", "12-15"]);
  await page.click('#lesson-piece-buttons button[data-move="12-15"]');
  await waitForText(page, "#lesson-feedback", message("en", "learn.piccione.split.other"));
  await page.click('#lesson-piece-buttons button[data-move="6-8"]');
  await waitForText(page, "#lesson-feedback", message("en", "learn.right", { done: message("en", "learn.piccione.split.done") }));
  assert.equal(await page.locator("#lesson-pieces").isHidden(), true);
  await context.close();
});

test("screenshots at 1280×800", { timeout: 120000 }, async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  for (const lang of ["en", "ar"])
    for (const path of PAGES) {
      await open(page, lang, path);
      await page.screenshot({ path: join(artifacts, `new-${path.replace("/", "-")}-${lang}-desktop.png`), fullPage: true });
    }
  await context.close();
});
