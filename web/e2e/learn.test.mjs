// The tutorial (/{lang}/learn/{ruleset}): every lesson of every ruleset completed in the browser
// against the real server and the engine in WebAssembly — by mouse at 1280×800, by touch on a
// 390×844 phone, and by keyboard — in English, Arabic and Finnish; wrong moves get the reason of
// the rule that refuses them, a hint shows on request, the last button starts a game against the
// beginner; axe-core on the learn page and on the rules pages with the board diagram.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import * as esbuild from "esbuild";
import { WEB, axe, ensureArtifacts, gameSummary, launchBrowser, message, startServer, waitForText, waitUntil, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
let server, browser, lessonsFor, artifacts;
const tmp = mkdtempSync(join(tmpdir(), "senet-learn-e2e-"));

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

/**
 * Opens the tutorial and waits until the engine is loaded and a lesson shows: the first one
 * (`fresh`, the lesson this browser reached forgotten first), else the one it remembers.
 */
async function openLearn(page, lang, ruleset, { fresh = true } = {}) {
  await page.goto(`${server.url}/${lang}/learn/${ruleset}`);
  if (fresh) {
    await page.evaluate((r) => localStorage.removeItem(`senet.lesson.${r}`), ruleset);
    await page.reload();
  }
  await waitUntil(page, "the tutorial is ready", () => page.waitForSelector("#learn[data-ready='1'] #lesson:not([hidden])"));
}

const squares = (move) => move.split("-").map((s) => (s === "off" ? 31 : Number(s)));

/** Makes `move` on the board: the piece, then its target (a tap on a phone, else a click). */
async function boardMove(page, move, touch) {
  const [from, to] = squares(move);
  const act = (sel) => (touch ? page.tap(sel) : page.click(sel));
  await act(`#lesson-board [data-at="${from}"]`);
  // A target with a piece on it (a swap, a capture) is clicked on that piece, as a person would.
  const occupied = await page.locator(`#lesson-board [data-at="${to}"]`).count();
  await act(occupied ? `#lesson-board [data-at="${to}"]` : `#lesson-board .square[data-square="${to}"]`);
}

/** Makes `move` with the keyboard: Tab to the piece's button and press Enter. */
async function keyboardMove(page, move) {
  const [from] = squares(move);
  await page.focus(`#lesson-piece-buttons button[data-square="${from}"]`);
  await page.keyboard.press("Enter");
}

/** Completes every lesson of `ruleset` in `lang` by `how` ("mouse", "touch", "keyboard"); returns the page at the end screen. */
async function completeAll(page, lang, ruleset, how, shotName) {
  await openLearn(page, lang, ruleset);
  const lessons = lessonsFor(ruleset);
  for (const [i, lesson] of lessons.entries()) {
    await waitForText(page, "#lesson-progress", message(lang, "learn.progress", { n: i + 1, count: lessons.length }));
    assert.equal(await page.textContent("#lesson-title"), message(lang, `${lesson.key}title`));
    if (how === "keyboard") await keyboardMove(page, lesson.answer);
    else await boardMove(page, lesson.answer, how === "touch");
    await waitForText(page, "#lesson-feedback", message(lang, "learn.right", { done: message(lang, `${lesson.key}done`) }));
    assert.equal(await page.getAttribute("#lesson", "data-done"), "1", `${ruleset} lesson ${i + 1} is done`);
    if (shotName && i === 2) await page.screenshot({ path: join(artifacts, `${shotName}-lesson3.png`), fullPage: true });
    if (how === "keyboard") {
      // After the move the focus is on Next: Enter goes on.
      assert.equal(await page.evaluate(() => document.activeElement?.id), "lesson-next");
      await page.keyboard.press("Enter");
    } else if (how === "touch") await page.tap("#lesson-next");
    else await page.click("#lesson-next");
  }
  await waitUntil(page, "the end of the lessons", () => page.waitForSelector("#lesson-end:not([hidden])"));
  return page;
}

/** The feedback a wrong move must get: "Not that move." and the reason. */
const wrong = (lang, key, params) => message(lang, "learn.wrong", { why: message(lang, key, params) });

test("every standard lesson by mouse at 1280×800, wrong moves explained, a hint, then a game against the beginner", async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await openLearn(page, "en", "standard");
  assert.equal(await page.locator("#lesson-text .narrow-only").isVisible(), false, "the rows are rows on a wide screen");
  await page.screenshot({ path: join(artifacts, "learn-standard-desktop.png"), fullPage: true });
  // Lesson 1: the hint, then a piece that cannot be moved there.
  await page.click("#lesson-hint");
  await waitForText(page, "#lesson-feedback", message("en", "learn.common.path.hint"));
  assert.equal(await page.locator("#lesson-board .destination").count(), 1, "the hint marks the answer's target");
  await page.click('#lesson-board [data-at="20"]');
  await waitForText(page, "#lesson-feedback", message("en", "learn.why.not-yours"));
  // Lesson 3 (moving): 4 → 6 lands on its own piece.
  await page.click("#lesson-next");
  await page.click("#lesson-next");
  await page.click('#lesson-board [data-at="4"]');
  await waitForText(page, "#lesson-feedback", message("en", "learn.selected", { square: 4 }));
  await page.click('#lesson-board [data-at="6"]');
  await waitForText(page, "#lesson-feedback", wrong("en", "learn.why.own", { from: 4, to: 6, throw: 2 }));
  assert.equal(await page.getAttribute("#lesson", "data-done"), "");
  // Lesson 6 (protection): 11 → 13 is refused, the spools protect each other.
  for (let i = 0; i < 3; i++) await page.click("#lesson-next");
  await page.click('#lesson-board [data-at="11"]');
  await page.click('#lesson-board [data-at="13"]');
  await waitForText(page, "#lesson-feedback", wrong("en", "learn.why.protected", { from: 11, to: 13, throw: 2 }));
  // Lesson 7 (water): 25 → 28 is legal but not what is asked.
  await page.click("#lesson-next");
  await page.click('#lesson-board [data-at="25"]');
  await page.click('#lesson-board .square[data-square="28"]');
  await waitForText(page, "#lesson-feedback", message("en", "learn.standard.water.other"));
  // Lesson 8 (bearing off): from 30 only a 2.
  await page.click("#lesson-next");
  await page.click('#lesson-board [data-at="30"]');
  await page.click('#lesson-board .square[data-square="31"]');
  await waitForText(page, "#lesson-feedback", wrong("en", "learn.why.bear-off-throw", { from: 30, to: 31, throw: 3 }));
  // Previous goes back a lesson.
  await page.click("#lesson-prev");
  await waitForText(page, "#lesson-progress", message("en", "learn.progress", { n: 7, count: 8 }));

  await completeAll(page, "en", "standard", "mouse", "learn-standard-desktop");
  const violations = await axe(page);
  assert.deepEqual(violations, [], "axe on the end of the tutorial");
  await page.screenshot({ path: join(artifacts, "learn-standard-end.png"), fullPage: true });
  await Promise.all([
    waitUntil(page, "the beginner's game opens", () => page.waitForURL(/\/en\/play\//)),
    page.click("#learn-play"),
  ]);
  const game = await gameSummary(server.url, page);
  assert.equal(game.ruleset, "standard");
  assert.equal(game.opponent, "computer");
  assert.equal(game.level, "beginner");
  assert.deepEqual(problems, []);
  await context.close();
});

test("every Jéquier and Bell lesson by mouse at 1280×800, with their own wrong-move reasons", async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await openLearn(page, "en", "jequier");
  for (let i = 0; i < 4; i++) await page.click("#lesson-next");
  await page.click('#lesson-board [data-at="11"]');
  await page.click('#lesson-board .square[data-square="15"]');
  await waitForText(page, "#lesson-feedback", wrong("en", "learn.why.blocked", { from: 11, to: 15, throw: 4 }));
  await completeAll(page, "en", "jequier", "mouse", "learn-jequier-desktop");
  await openLearn(page, "en", "bell");
  for (let i = 0; i < 4; i++) await page.click("#lesson-next");
  await page.click('#lesson-board [data-at="10"]');
  await page.click('#lesson-board .square[data-square="12"]');
  await waitForText(page, "#lesson-feedback", wrong("en", "learn.why.compulsion", { from: 10, to: 12, throw: 2 }));
  await page.click('#lesson-board [data-at="27"]');
  await page.click('#lesson-board [data-at="29"]');
  await waitForText(page, "#lesson-feedback", wrong("en", "learn.why.safe", { from: 27, to: 29, throw: 2 }));
  await completeAll(page, "en", "bell", "mouse", "learn-bell-desktop");
  // Bell's score lesson ends the game: the board shows five cones off.
  assert.deepEqual(problems, []);
  await context.close();
});

test("every lesson of every ruleset in Arabic on a 390×844 touch phone, and axe on the phone", async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = watchConsole(page);
  for (const ruleset of ["standard", "jequier", "bell"]) {
    await completeAll(page, "ar", ruleset, "touch", `learn-${ruleset}-ar-phone`);
    assert.equal(await page.getAttribute("html", "dir"), "rtl");
    assert.equal(await page.getAttribute("#lesson-board", "dir"), "ltr", "the board keeps its left-to-right path");
  }
  await openLearn(page, "ar", "standard");
  // The first lesson speaks of rows: on the phone's upright board it says they are columns.
  assert.equal((await page.locator("#lesson-text .narrow-only").innerText()).trim(), message("ar", "learn.common.path.narrow"));
  await page.tap('#lesson-board [data-at="3"]');
  await page.tap('#lesson-board .square[data-square="5"]');
  await waitForText(page, "#lesson-feedback", message("ar", "learn.why.not-asked"));
  assert.deepEqual(await axe(page), [], "axe on the Arabic learn page on a phone");
  await page.screenshot({ path: join(artifacts, "learn-standard-ar-phone.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

/** The lesson's feedback box against the viewport: shown wholly inside it or not. */
const feedbackInView = (page) => page.evaluate(() => {
  const r = document.getElementById("lesson-feedback").getBoundingClientRect();
  return { top: Math.round(r.top), bottom: Math.round(r.bottom), inside: r.height > 0 && r.top >= 0 && r.bottom <= innerHeight, scrollY: scrollY };
});

/**
 * The feedback box and the board against each other on the screen: the box's and the board's
 * rectangles, the viewport's height, and the squares (on screen) that the box overlaps.
 */
const boxAndBoard = (page) => page.evaluate(() => {
  const rect = (e) => { const r = e.getBoundingClientRect(); return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) }; };
  const box = rect(document.getElementById("lesson-feedback"));
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const squares = [...document.querySelectorAll("#lesson-board .square")].map((s) => ({ n: s.getAttribute("data-square"), r: rect(s) }));
  const covered = squares.filter(({ r }) => r.bottom > 0 && r.top < innerHeight && meets(r, box)).map(({ n }) => n);
  return { box, board: rect(document.querySelector("#lesson-board svg")), innerHeight, covered };
});

test("on a touch phone the feedback to every tap shows beside the board, says tap, and the lesson reached is remembered", async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await openLearn(page, "en", "standard");
  // A tap on the cone on 3 selects it, in words for a touch screen.
  await page.tap('#lesson-board [data-at="3"]');
  await waitForText(page, "#lesson-feedback", message("en", "learn.selected.tap", { square: 3 }));
  assert.match(message("en", "learn.selected.tap", { square: 3 }), /now tap the square/);
  let seen = await feedbackInView(page);
  assert.ok(seen.inside, `the answer to a tap is on the screen: ${JSON.stringify(seen)}`);
  await page.screenshot({ path: join(artifacts, "learn-selected-phone-en.png") });
  assert.deepEqual((await boxAndBoard(page)).covered, [], `the answer to a tap covers no square: ${JSON.stringify(await boxAndBoard(page))}`);
  // A wrong move: the reason shows where the learner looks, the view not moved.
  const before = await page.evaluate(() => scrollY);
  await page.tap('#lesson-board .square[data-square="5"]');
  await waitForText(page, "#lesson-feedback", message("en", "learn.why.not-asked"));
  seen = await feedbackInView(page);
  assert.ok(seen.inside, `the reason for a wrong tap is on the screen: ${JSON.stringify(seen)}`);
  assert.equal(seen.scrollY, before, "the page did not scroll by itself");
  await page.screenshot({ path: join(artifacts, "learn-wrong-tap-phone-en.png") });
  await page.tap("#lesson-hint");
  await waitForText(page, "#lesson-feedback", message("en", "learn.common.path.hint.tap"));
  // The cone on 9 picked: the answer shows beside the board, over none of its squares, the
  // board (with its tray) no taller than the screen.
  await page.tap('#lesson-board [data-at="9"]');
  await waitForText(page, "#lesson-feedback", message("en", "learn.selected.tap", { square: 9 }));
  const laid = await boxAndBoard(page);
  assert.deepEqual(laid.covered, [], `the feedback covers no square: ${JSON.stringify(laid)}`);
  assert.ok(laid.board.bottom - laid.board.top <= laid.innerHeight, `the board fits the screen's height: ${JSON.stringify(laid)}`);
  const picked = await page.evaluate(() => scrollY);
  await page.tap('#lesson-board .square[data-square="11"]');
  await waitForText(page, "#lesson-feedback", message("en", "learn.right", { done: message("en", "learn.common.path.done") }));
  seen = await feedbackInView(page);
  assert.ok(seen.inside, "the answer to the right move is on the screen");
  assert.equal(seen.scrollY, picked, "the answer beside the board: the right move scrolls nothing");
  assert.deepEqual((await boxAndBoard(page)).covered, [], "the answer to the right move covers no square");
  await page.tap("#lesson-next");
  await waitForText(page, "#lesson-progress", message("en", "learn.progress", { n: 2, count: 8 }));
  // Back later: the tutorial opens at the lesson reached; another ruleset's at its first.
  await openLearn(page, "en", "standard", { fresh: false });
  await waitForText(page, "#lesson-progress", message("en", "learn.progress", { n: 2, count: 8 }));
  await openLearn(page, "en", "bell", { fresh: false });
  await waitForText(page, "#lesson-progress", message("en", "learn.progress", { n: 1, count: lessonsFor("bell").length }));
  assert.deepEqual(problems, []);
  await context.close();
});

test("every lesson of every ruleset in Finnish by keyboard alone", async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchConsole(page);
  for (const ruleset of ["standard", "jequier", "bell"]) await completeAll(page, "fi", ruleset, "keyboard");
  // The piece buttons say which piece they move; a wrong one is explained in the live region.
  await openLearn(page, "fi", "standard");
  for (let i = 0; i < 2; i++) await page.click("#lesson-next");
  assert.equal(await page.textContent('#lesson-piece-buttons button[data-square="4"]'), message("fi", "learn.piece", { square: 4 }));
  await keyboardMove(page, "4-6");
  await waitForText(page, "#lesson-feedback", wrong("fi", "learn.why.own", { from: 4, to: 6, throw: 2 }));
  assert.equal(await page.getAttribute("#lesson-feedback", "aria-live"), "polite");
  assert.deepEqual(problems, []);
  await context.close();
});

test("the rules and variant pages show the board diagram, accessible, and link to the tutorial", async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  for (const [lang, path, ruleset] of [["en", "rules", "standard"], ["ar", "variants/jequier", "jequier"], ["fi", "variants/bell", "bell"]]) {
    await page.goto(`${server.url}/${lang}/${path}`);
    const svg = page.locator(".board-diagram svg");
    assert.equal(await svg.getAttribute("role"), "img");
    assert.equal(await svg.getAttribute("dir"), "ltr");
    assert.equal(await page.locator(".board-diagram svg title").textContent(),
      message(lang, "learn.diagram.title", { ruleset: message(lang, `ruleset.${ruleset}`) }));
    const desc = await page.locator(".board-diagram svg desc").textContent();
    assert.ok(desc.startsWith(message(lang, "learn.diagram.path")), desc);
    assert.equal(await page.locator(".board-diagram .diagram-cell").count(), 30);
    assert.equal(await page.locator(".board-diagram .diagram-arrowhead").count(), 30, "an arrow between each two squares and one leaving the board");
    assert.equal(await page.locator(".board-diagram .piece").count(), ruleset === "bell" ? 20 : 10);
    assert.equal(await page.getAttribute(`a[href="/${lang}/learn/${ruleset}"]`, "href"), `/${lang}/learn/${ruleset}`);
    assert.deepEqual(await axe(page), [], `axe on /${lang}/${path}`);
    await page.locator(".board-diagram").screenshot({ path: join(artifacts, `diagram-${ruleset}-${lang}.png`) });
  }
  await page.goto(`${server.url}/en/`);
  for (const ruleset of ["standard", "jequier", "bell"]) assert.equal(await page.locator(`main a[href="/en/learn/${ruleset}"]`).count(), 1, `home links ${ruleset}`);
  const missing = await fetch(`${server.url}/en/learn/chess`);
  assert.equal(missing.status, 404);
  const learn = await (await fetch(`${server.url}/nl/learn/bell`)).text();
  assert.match(learn, /<link rel="alternate" hreflang="ar" href="\/ar\/learn\/bell">/);
  const phone = await browser.newContext(PHONE);
  const small = await phone.newPage();
  await small.goto(`${server.url}/en/rules`);
  await small.locator(".board-diagram").screenshot({ path: join(artifacts, "diagram-standard-phone.png") });
  await phone.close();
  await context.close();
});
