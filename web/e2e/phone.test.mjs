// The play page on a phone held upright (390 × 844, touch): the whole board, the throw and the
// moves on one screen, squares at least 44 px, a page that never scrolls by itself over a whole
// game played by taps, the end panel in view, and the home page's start button on the first
// screen. On a desktop (1280 × 800) the board is the centre of the page.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { LANGS, assertResultShown, axe, ensureArtifacts, launchBrowser, startGame, startServer, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

let server, browser;
const figures = [];
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => {
  if (figures.length) writeFileSync(join(ensureArtifacts(), "phone-figures.txt"), figures.join("\n") + "\n");
  await browser?.close();
  await server?.stop();
});

/** The element's box and whether it lies wholly inside the viewport (null when absent or not shown). */
function placed(page, selector) {
  return page.evaluate((sel) => {
    const node = document.querySelector(sel);
    if (!node || node.getClientRects().length === 0) return null;
    const r = node.getBoundingClientRect();
    const box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
    return { box, inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5 };
  }, selector);
}

async function assertInView(page, selector, what) {
  const p = await placed(page, selector);
  assert.ok(p, `${what} is shown`);
  assert.ok(p.inside, `${what} is inside the viewport: ${JSON.stringify(p.box)}`);
}

/** The smallest width and height of the thirty squares, in CSS px. */
function smallestSquare(page) {
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll(".board .square[data-square]")]
      .filter((n) => Number(n.getAttribute("data-square")) <= 30).map((n) => n.getBoundingClientRect());
    return { count: boxes.length, width: Math.min(...boxes.map((b) => b.width)), height: Math.min(...boxes.map((b) => b.height)) };
  });
}

/** What the page lets the player do now. */
function due(page) {
  return page.evaluate(() => {
    if (!document.getElementById("end").hidden) return "over";
    if (!document.getElementById("throw-button").disabled) return "throw";
    return document.querySelector("#move-choices button") ? "move" : "idle";
  });
}

/**
 * Plays a game to its end by tapping: the throw button, a move button, or now and then the
 * movable piece itself. After every action the page must not have scrolled and the board must
 * lie inside the viewport; every control is checked to be in view before it is tapped.
 */
async function playByTaps(page, { limit = 200000, onAction } = {}) {
  const start = Date.now();
  let actions = 0;
  let maxScroll = 0;
  const sample = async () => {
    const scrollY = await page.evaluate(() => window.scrollY);
    maxScroll = Math.max(maxScroll, scrollY);
    assert.equal(scrollY, 0, `the page scrolled by itself after action ${actions}`);
    await assertInView(page, "#board", `the board after action ${actions}`);
  };
  while (Date.now() - start < limit) {
    const now = await due(page);
    if (now === "over") break;
    if (now === "idle") { await page.waitForTimeout(15); continue; }
    if (now === "throw") {
      await assertInView(page, "#throw-button", "the throw button");
      await assertInView(page, "#sticks", "the sticks");
      await page.tap("#throw-button");
    } else {
      const buttons = await page.locator("#move-choices button").count();
      for (let i = 0; i < buttons; i++) await assertInView(page, `#move-choices button:nth-child(${i + 1})`, `move button ${i + 1} of ${buttons}`);
      if (actions % 3 === 1 && await page.locator(".piece.movable").count()) await page.locator(".piece.movable").first().tap();
      else await page.tap("#move-choices button");
    }
    actions++;
    await sample();
    if ((await page.textContent("#message")).trim()) await assertInView(page, "#message", "the message");
    if (onAction) await onAction(actions);
  }
  assert.equal(await due(page), "over", `the game did not end within ${limit} ms`);
  await sample();
  return { actions, maxScroll };
}

test("on a phone the start button is on the first screen", { timeout: 60000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  for (const lang of LANGS) {
    await page.goto(`${server.url}/${lang}/`);
    await assertInView(page, "#start-form button[type=submit]", `the start button (${lang})`);
    if (lang === "en") await page.screenshot({ path: join(ensureArtifacts(), "phone-home-en.png") });
  }
  const button = await placed(page, "#start-form button[type=submit]");
  figures.push(`home start button bottom (pl): ${button.box.bottom.toFixed(0)} px of 844`);
  await context.close();
});

test("on a phone a whole local game fits one screen and the page never scrolls by itself", { timeout: 300000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await startGame(page, server.url, { opponent: "local", ruleset: "standard", lang: "en" });
  await page.waitForSelector("#throw-button:not([disabled])");

  const square = await smallestSquare(page);
  assert.equal(square.count, 30);
  assert.ok(square.width >= 44 && square.height >= 44, `every square is at least 44 × 44 px: ${JSON.stringify(square)}`);
  const numberPx = await page.evaluate(() => Math.min(...[...document.querySelectorAll(".board .square-number")].map((n) => n.getBoundingClientRect().height)));
  assert.ok(numberPx >= 10, `the square numbers are readable (${numberPx} px)`);
  // The path reads down the first column, up the second and down the third.
  const centre = (n) => page.evaluate((s) => {
    const r = document.querySelector(`.square[data-square="${s}"]`).getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }, n);
  const [c1, c10, c11, c20, c21, c30] = await Promise.all([1, 10, 11, 20, 21, 30].map(centre));
  assert.ok(c1.y < c10.y && Math.abs(c1.x - c10.x) < 1, "1 to 10 run down the first column");
  assert.ok(Math.abs(c10.y - c11.y) < 1 && c11.x > c10.x, "11 sits beside 10");
  assert.ok(c20.y < c11.y && Math.abs(c20.y - c21.y) < 1 && c21.x > c20.x, "20 and 21 share the top");
  assert.ok(c30.y > c21.y && Math.abs(c30.x - c21.x) < 1, "21 to 30 run down the third column");

  let checked = false;
  const { actions, maxScroll } = await playByTaps(page, {
    onAction: async (n) => {
      if (n === 40 && !checked) {
        checked = true;
        await page.screenshot({ path: join(ensureArtifacts(), "phone-play-en.png") });
        const violations = await axe(page);
        assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
      }
    },
  });
  assert.ok(checked, "the game lasted long enough to be checked mid-way");
  await assertInView(page, "#end", "the end panel");
  await assertInView(page, "#result", "the result");
  await assertResultShown(server.url, "en", "standard", [[page, [0, 1]]], { local: true });
  await page.screenshot({ path: join(ensureArtifacts(), "phone-end-en.png") });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  // The move list kept every move, scrolled inside its own box.
  const list = await page.evaluate(() => {
    const l = document.getElementById("move-list");
    return { items: l.children.length, scrollTop: l.scrollTop, scrollHeight: l.scrollHeight, clientHeight: l.clientHeight };
  });
  assert.ok(list.items > 10 && list.scrollHeight > list.clientHeight && list.scrollTop > 0, JSON.stringify(list));
  figures.push(`phone 390x844: smallest square ${square.width.toFixed(1)} x ${square.height.toFixed(1)} px, square numbers ${numberPx.toFixed(1)} px tall`);
  figures.push(`phone local game (standard, en): ${actions} taps, max scrollY ${maxScroll}, board inside the viewport after every tap`);
  assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
  await context.close();
});

test("on a phone a Bell game against the computer in Polish is played by taps without scrolling", { timeout: 300000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await startGame(page, server.url, { opponent: "computer", level: "beginner", ruleset: "bell", lang: "pl" });
  const square = await smallestSquare(page);
  assert.ok(square.width >= 44 && square.height >= 44, JSON.stringify(square));
  let shot = false;
  const { actions, maxScroll } = await playByTaps(page, {
    onAction: async (n) => {
      if (n >= 20 && !shot && await page.locator("#move-choices button").count() >= 2) {
        shot = true;
        await page.screenshot({ path: join(ensureArtifacts(), "phone-play-pl.png") });
      }
    },
  });
  await assertInView(page, "#end", "the end panel");
  await assertResultShown(server.url, "pl", "bell", [[page, [0]]]);
  await page.screenshot({ path: join(ensureArtifacts(), "phone-end-pl.png") });
  figures.push(`phone Bell game against the computer (pl): ${actions} taps, max scrollY ${maxScroll}`);
  assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
  await context.close();
});

test("on a desktop the board is the centre of the page", { timeout: 240000 }, async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  // The standard game: Jéquier's, played by always taking the first move offered, can go on
  // for thousands of actions (pieces sent back and forced backward), past the time limit below.
  await startGame(page, server.url, { opponent: "local", ruleset: "standard", lang: "fi" });
  for (let n = 0; n < 30; n++) {
    const now = await due(page);
    if (now === "throw") await page.click("#throw-button");
    else if (now === "move") await page.click("#move-choices button");
    else await page.waitForTimeout(15);
    assert.equal(await page.evaluate(() => window.scrollY), 0, "the page did not scroll by itself");
  }
  const { board, width } = await page.evaluate(() => {
    const r = document.getElementById("board").getBoundingClientRect();
    return { board: { left: r.left, right: r.right, top: r.top, bottom: r.bottom }, width: document.documentElement.clientWidth };
  });
  const offset = (board.left + board.right) / 2 - width / 2;
  assert.ok(Math.abs(offset) <= 3, `the board is centred (${offset.toFixed(1)} px off)`);
  assert.ok(board.right - board.left > board.bottom - board.top, "the board lies across");
  await assertInView(page, "#board", "the board");
  await assertInView(page, "#throw-button", "the throw button");
  const square = await smallestSquare(page);
  figures.push(`desktop 1280x800: board centre ${offset.toFixed(1)} px from the page's centre, squares ${square.width.toFixed(1)} px`);
  await page.screenshot({ path: join(ensureArtifacts(), "desktop-play-fi.png") });
  // To the end: the end panel shows under the board, in view.
  const start = Date.now();
  for (let now = await due(page); now !== "over" && Date.now() - start < 150000; now = await due(page)) {
    if (now === "throw") await page.click("#throw-button");
    else if (now === "move") await page.click("#move-choices button");
    else await page.waitForTimeout(15);
  }
  await assertInView(page, "#end", "the end panel");
  await assertResultShown(server.url, "fi", "standard", [[page, [0, 1]]], { local: true });
  assert.equal(await page.evaluate(() => window.scrollY), 0, "the page did not scroll by itself");
  await page.screenshot({ path: join(ensureArtifacts(), "desktop-end-fi.png") });
  await context.close();
});
