// The board explains itself: move buttons and highlighted destinations name the move's kind
// (swap, House of Water with the square the piece ends on, bear-off) by icon and words; the
// houses carry their names; the move list says where a piece ended, the same after a reload;
// a legend that stays out of the way on a phone; dark mode that passes axe-core; and the
// home page's start button on a phone's first screen with the computer chosen.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { axe, ensureArtifacts, LANGS, launchBrowser, startServer, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const shot = (page, name) => page.screenshot({ path: join(ensureArtifacts(), `board-${name}.png`) });

/**
 * A local game created through the API with a fixed client seed: with the server's test seed
 * every throw is then the same on every run. Returns the game's id once the page shows it.
 */
async function localGame(page, { lang = "en", ruleset = "standard", seed = "board-test-1" } = {}) {
  await page.goto(`${server.url}/${lang}/`);
  const game = await page.evaluate(async ({ ruleset, lang, seed }) => {
    const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ruleset, opponent: "local", side: "first", lang }) });
    const g = await r.json();
    localStorage.setItem(`senet.seed.${g.game}`, seed);
    return g;
  }, { ruleset, lang, seed });
  await page.goto(`${server.url}${game.watchUrl}#seat=${encodeURIComponent(game.secret)}`);
  await page.waitForSelector("#throw-button:not([disabled])");
  return game.game;
}

/** The move buttons as the page shows them: move, kind, destination, visible text and accessible name. */
function buttons(page) {
  return page.$$eval("#move-choices button", (list) => list.map((b) => ({
    move: b.dataset.move, kind: b.dataset.kind ?? "", dest: Number(b.dataset.dest ?? 0),
    text: [...b.querySelectorAll("[aria-hidden=true]")].map((n) => n.textContent).join(" ").replace(/\s+/g, " ").trim(),
    name: b.querySelector(".visually-hidden")?.textContent ?? "", icon: !!b.querySelector("svg.kind-icon"),
  })));
}

const listTexts = (page) => page.$$eval("#move-list li", (items) => items.map((li) => li.textContent));

/** Waits until the page offers a throw or moves (or the game ended); returns which. */
async function due(page) {
  const h = await page.waitForFunction(() => {
    if (!document.getElementById("end").hidden) return "over";
    if (!document.getElementById("throw-button").disabled) return "throw";
    return document.querySelector("#move-choices button") ? "move" : false;
  }, null, { timeout: 15000 });
  return h.jsonValue();
}

/** Clicks a control from inside the page: quicker than a pointer click, for the many routine actions of a game. */
const press = (page, selector) => page.$eval(selector, (b) => b.click());

const reach = (move) => (move.endsWith("-off") ? 31 : Number(move.split("-")[1]));

test("move buttons, board marks and the move list name swaps, the House of Water and bear-offs", { timeout: 90000 }, async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await localGame(page, { lang: "en" });

  // The houses carry their names on the board.
  const info = JSON.parse(await page.getAttribute("#play", "data-board"));
  const names = { return: "return square", beauty: "House of Beauty", water: "House of Water", "three-truths": "House of the Three Truths", "re-atoum": "House of Re-Atoum" };
  for (const [square, key] of info.houses) {
    const title = await page.textContent(`.board .square[data-square="${square}"] > title`).catch(() => null);
    assert.equal(title, `Square ${square}, ${names[key]}`, `square ${square} is named`);
  }
  // The legend explains the markings; on a desktop it is open.
  const legend = await page.$eval("#legend", (d) => ({ open: d.open, text: d.textContent }));
  assert.ok(legend.open, "the legend is open on a desktop");
  for (const words of ["Last move", "Possible destination", "Safe square", "House of Water", "Swap", "Bear off", "House of Beauty", "return square"])
    assert.ok(legend.text.includes(words), `the legend explains "${words}": ${legend.text}`);

  const seen = {};
  let waterDone = null, swapDone = false, waterShot = false, actions = 0;
  const start = Date.now();
  while (Date.now() - start < 60000 && !(seen.swap && waterDone && seen.bearOff)) {
    const now = await due(page);
    if (now === "over") break;
    actions++;
    if (now === "throw") { await press(page, "#throw-button"); continue; }
    const list = await buttons(page);
    for (const b of list) {
      if (!b.kind || seen[b.kind]) continue;
      seen[b.kind] = b;
      assert.ok(b.icon, `the ${b.kind} button has an icon: ${JSON.stringify(b)}`);
      const [from, to] = b.move.split("-");
      if (b.kind === "swap") {
        assert.match(b.text, /Swap/, JSON.stringify(b));
        assert.match(b.name, new RegExp(`piece on ${from} to ${to} and swap`), JSON.stringify(b));
        assert.ok(await page.$(`.board .marks .destination.kind-swap[data-square="${to}"] title`), "the swap destination is marked as a swap");
      } else if (b.kind === "water") {
        assert.equal(to, String(info.water));
        assert.ok(b.dest > 0 && b.dest < info.water, JSON.stringify(b));
        assert.match(b.text, new RegExp(`House of Water.*${b.dest}`), JSON.stringify(b));
        assert.match(b.name, new RegExp(`House of Water on ${to}.*ends on ${b.dest}`), JSON.stringify(b));
        assert.ok(await page.$(`.board .marks .destination.kind-water[data-square="${to}"] title`), "the water destination is marked");
        assert.ok(await page.$(`.board .marks .water-landing[data-square="${b.dest}"]`), "the square the piece will end on is marked");
      } else if (b.kind === "bearOff") {
        assert.equal(to, "off");
        assert.match(b.text, /Bear off/, JSON.stringify(b));
        assert.match(b.name, new RegExp(`Bear off the piece on ${from}`), JSON.stringify(b));
        assert.ok(await page.$(".board .marks .destination.kind-bearOff title"), "the tray is marked for the bear-off");
      }
    }
    // The choice: a House of Water landing and a swap once each, else the furthest-reaching move.
    let pick = !waterDone && list.find((b) => b.kind === "water");
    if (pick && !waterShot) { waterShot = true; await shot(page, "water-choice-desktop-en"); }
    if (!pick && !swapDone) pick = list.find((b) => b.kind === "swap");
    if (!pick) pick = [...list].sort((a, b) => reach(b.move) - reach(a.move))[0];
    if (pick.kind === "swap") swapDone = true;
    if (pick.kind !== "water") { await press(page, `#move-choices button[data-move="${pick.move}"]`); continue; }
    const before = (await listTexts(page)).length;
    await page.click(`#move-choices button[data-move="${pick.move}"]`);
    {
      waterDone = pick;
      await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length > n, before);
      const [from] = pick.move.split("-");
      const last = (await listTexts(page)).at(-1);
      assert.match(last, new RegExp(`${from} → ${pick.dest} \\(House of Water\\)`), `the water move in the list: ${last}`);
    }
  }
  console.log(`board test: ${actions} actions in ${Date.now() - start} ms`);
  assert.ok(seen.swap, "a swap was offered");
  assert.ok(waterDone, "a House of Water landing was offered and made");
  assert.ok(seen.bearOff, "a bear-off was offered");

  // The list names swaps; it never shows a bare dash; a reload rebuilds it word for word.
  const live = await listTexts(page);
  assert.ok(live.some((l) => /swapped with the (cone|spool) on \d+/.test(l)), `a swap in the list:\n${live.join("\n")}`);
  assert.ok(!live.some((l) => /—|· $/.test(l)), `no bare dash in the list:\n${live.join("\n")}`);
  await page.reload();
  await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length >= n, live.length);
  const rebuilt = await listTexts(page);
  assert.deepEqual(rebuilt, live, "the move list after a reload is the same");
  assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
  await context.close();
});

test("Jéquier: the record's water moves, turns lost and backward moves read the same after a reload", { timeout: 90000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await localGame(page, { lang: "en", ruleset: "jequier", seed: "board-test-jequier" });
  // The legend folds away on a phone and leaves the board and the controls on the first screen.
  assert.equal(await page.$eval("#legend", (d) => d.open), false, "the legend is folded on a phone");
  // The furthest-reaching moves, a House of Water landing whenever one is offered, until one was made.
  let actions = 0, water = -Infinity;
  const start = Date.now();
  for (let now = await due(page); now !== "over" && Date.now() - start < 40000 && actions < 300 && water < actions - 6; now = await due(page)) {
    if (now === "throw") await press(page, "#throw-button");
    else {
      const list = await buttons(page);
      const pick = list.find((b) => b.kind === "water") ?? [...list].sort((a, b) => reach(b.move) - reach(a.move))[0];
      if (pick.kind === "water" && water < 0) await shot(page, "water-choice-phone-en");
      if (pick.kind === "water") water = actions;
      await press(page, `#move-choices button[data-move="${pick.move}"]`);
    }
    actions++;
  }
  await shot(page, "jequier-phone-en");
  await due(page);
  const live = await listTexts(page);
  assert.ok(live.some((l) => /\(House of Water\)/.test(l)), `a water move in the list:\n${live.join("\n")}`);
  await page.reload();
  await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length >= n, live.length);
  assert.deepEqual(await listTexts(page), live, "the Jéquier move list after a reload is the same");
  assert.ok(!live.some((l) => /—/.test(l)), live.join("\n"));
  await context.close();
});

test("Bell: a capture is named on its button, on the board and in the move list", { timeout: 60000 }, async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  await localGame(page, { lang: "en", ruleset: "bell", seed: "board-test-bell" });
  let capture = null;
  for (let n = 0; n < 60 && !capture; n++) {
    const now = await due(page);
    if (now === "throw") { await press(page, "#throw-button"); continue; }
    const list = await buttons(page);
    capture = list.find((b) => b.kind === "capture") ?? null;
    if (!capture) await press(page, "#move-choices button");
  }
  assert.ok(capture, "a capture was offered");
  const [from, to] = capture.move.split("-");
  assert.ok(capture.icon && /Capture/.test(capture.text), JSON.stringify(capture));
  assert.match(capture.name, new RegExp(`piece on ${from} to ${to} and capture`));
  assert.ok(await page.$(`.board .marks .destination.kind-capture[data-square="${to}"] title`), "the capture's destination is marked");
  const before = (await listTexts(page)).length;
  await page.click(`#move-choices button[data-move="${capture.move}"]`);
  await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length > n, before);
  const last = (await listTexts(page)).at(-1);
  assert.match(last, new RegExp(`${from} → ${to}, captured the (cone|spool) on ${to}$`), last);
  const live = await listTexts(page);
  await page.reload();
  await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length >= n, live.length);
  assert.deepEqual(await listTexts(page), live, "the Bell move list after a reload is the same");
  await context.close();
});

/** The relative luminance of a CSS rgb() colour. */
function luminance(css) {
  const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

for (const [size, options] of [["phone", PHONE], ["desktop", DESKTOP]]) {
  test(`dark mode on the ${size}: every page passes axe-core, the board's pieces stay distinct`, { timeout: 90000 }, async () => {
    const context = await browser.newContext({ ...options, colorScheme: "dark" });
    const page = await context.newPage();
    // Every content page on the desktop; the home page on the phone.
    for (const path of size === "desktop" ? ["", "rules", "variants/jequier", "variants/bell", "fairness"] : [""]) {
      await page.goto(`${server.url}/en/${path}`);
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.ok(luminance(bg) < 0.05, `/${path} has a dark background (${bg})`);
      const violations = await axe(page);
      assert.deepEqual(violations, [], `/${path}: ${JSON.stringify(violations, null, 1)}`);
      if (path === "") await shot(page, `dark-home-${size}-en`);
    }
    for (const lang of size === "phone" ? ["pl"] : ["en"]) {
      await localGame(page, { lang, seed: `dark-${size}` });
      // A few actions, so that the board shows highlights, a last move and the sticks.
      for (let n = 0; n < 7; n++) {
        const now = await due(page);
        if (now === "throw") await press(page, "#throw-button");
        else await press(page, "#move-choices button");
      }
      await due(page);
      const colours = await page.evaluate(() => {
        const fill = (sel) => { const n = document.querySelector(sel); return n ? getComputedStyle(n).fill : null; };
        return { p1: fill(".board .piece-1 .piece-body"), p2: fill(".board .piece-2 .piece-body"), cell: fill(".board .square .cell") };
      });
      assert.ok(Math.abs(luminance(colours.p1) - luminance(colours.p2)) > 0.3, `cones and spools differ in colour: ${JSON.stringify(colours)}`);
      const violations = await axe(page);
      assert.deepEqual(violations, [], `play (${lang}): ${JSON.stringify(violations, null, 1)}`);
      await shot(page, `dark-play-${size}-${lang}`);
    }
    await context.close();
  });
}

test("light screenshots of the play page with the legend, phone and desktop, two languages", { timeout: 60000 }, async () => {
  for (const [size, options] of [["phone", PHONE], ["desktop", DESKTOP]]) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    for (const lang of ["en", "nl"]) {
      await localGame(page, { lang, seed: `light-${size}` });
      for (let n = 0; n < 5; n++) {
        const now = await due(page);
        if (now === "throw") await press(page, "#throw-button");
        else await press(page, "#move-choices button");
      }
      await due(page);
      if (size === "phone") {
        const box = await page.$eval("#move-choices", (n) => n.getBoundingClientRect().bottom);
        assert.ok(box <= 844, `the move controls stay on the first screen with the legend (${box})`);
        await page.tap("#legend summary");
      }
      await shot(page, `light-play-${size}-${lang}`);
    }
    await context.close();
  }
});

test("on a phone the start button is on the first screen in every language with the computer chosen", { timeout: 60000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const bottoms = [];
  for (const lang of LANGS) {
    await page.goto(`${server.url}/${lang}/`);
    await page.check("input[name=opponent][value=computer]");
    const bottom = await page.$eval("#start-form button[type=submit]", (b) => b.getBoundingClientRect().bottom);
    bottoms.push(`${lang} ${bottom.toFixed(0)}`);
    if (lang === "it") await shot(page, "home-computer-phone-it");
    assert.ok(bottom <= 844, `the start button (${lang}) ends at ${bottom.toFixed(0)} px of 844`);
  }
  console.log(`start button bottoms: ${bottoms.join(", ")}`);
  await context.close();
});

test("on a phone the move buttons hold their kind's icon and words in every language (Jéquier, fi and pl)", { timeout: 60000 }, async () => {
  for (const lang of ["fi", "pl"]) {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await localGame(page, { lang, ruleset: "jequier", seed: `board-test-kinds-${lang}` });
    let kinds = 0;
    for (let n = 0; n < 50; n++) {
      const now = await due(page);
      if (now === "throw") { await press(page, "#throw-button"); continue; }
      // Every part of every move button lies inside the button (no word cut, no icon outside).
      const spills = await page.$$eval("#move-choices button", (list) => list.flatMap((b) => {
        const box = b.getBoundingClientRect();
        const out = [...b.querySelectorAll("*")].filter((c) => {
          const r = c.getBoundingClientRect();
          return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5);
        });
        return out.length || b.scrollWidth > b.clientWidth + 1 ? [b.textContent] : [];
      }));
      assert.deepEqual(spills, [], `${lang}: move buttons whose contents spill out`);
      kinds += await page.locator("#move-choices .choice-kind").count();
      await press(page, "#move-choices button");
    }
    assert.ok(kinds >= 3, `${lang}: move buttons with a kind were seen (${kinds})`);
    await context.close();
  }
});
