// How the replay page and the throw button look: the phone replay graph as wide as the screen
// with labels of at least 12 CSS px, no move-list row clipped (neither cut at the list's top
// edge above the current move nor overflowing sideways) in English, German, Finnish and Arabic
// on a phone and a desktop, and a disabled throw button that looks disabled yet stays legible.
// With $SHOTS set (a path prefix, e.g. /tmp/shots/replay-) each test saves a screenshot, taken
// before its checks, for a look by eye.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { axe, launchBrowser, startGame, startServer, waitUntil, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const SHOTS = process.env.SHOTS;

let server, browser, game;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  game = (await startGame(page, server.url, { opponent: "local", ruleset: "standard" })).split("/").pop();
  const outcome = await page.evaluate(async () => {
    const until = Date.now() + 90000;
    while (Date.now() < until) {
      if (!document.getElementById("end").hidden) return "over";
      const throwButton = document.getElementById("throw-button");
      const choice = document.querySelector("#move-choices button");
      if (!throwButton.disabled) throwButton.click();
      else if (choice) choice.click();
      await new Promise((r) => setTimeout(r, 4));
    }
    return "timeout";
  });
  assert.equal(outcome, "over", "the game ended");
  await context.close();
});
after(async () => { await browser?.close(); await server?.stop(); });

/** Opens the replay at position `ply` and waits for the graph. */
async function openReplay(options, lang, ply) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(`${server.url}/${lang}/replay/${game}#ply=${ply}`);
  await waitUntil(page, "the replay", () => page.waitForFunction((k) => document.getElementById("replay")?.dataset.ply === String(k), ply, { timeout: 15000 }));
  await page.waitForSelector("#replay-graph .graph-point");
  return { context, page };
}

test("the phone replay graph is as wide as the screen and its labels are 12 px or more (390×844)", { timeout: 90000 }, async () => {
  const { context, page } = await openReplay(PHONE, "en", 5);
  const problems = watchConsole(page);
  const m = await page.evaluate(() => {
    const svg = document.querySelector("#replay-graph svg");
    const scale = svg.getScreenCTM().a;
    const labels = [...svg.querySelectorAll("text")].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    return { width: svg.getBoundingClientRect().width, viewport: document.documentElement.clientWidth, labels };
  });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}graph-phone.png`, fullPage: true });
  assert.ok(m.width >= m.viewport - 20, `graph ${m.width} px wide on a ${m.viewport} px screen`);
  assert.equal(m.labels.length, 3, "the 0, 50 and 100 % labels");
  for (const size of m.labels) assert.ok(size >= 12, `a label of ${size.toFixed(1)} px`);
  const table = await page.$eval("#graph-figures, .graph-figures", (t) => getComputedStyle(t).fontSize);
  assert.ok(parseFloat(table) >= 12, `the table's text ${table}`);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Every move-list row that is cut: overflowing sideways, or shown only in part at the list's top edge. */
const clippedRows = (page) => page.evaluate(() => {
  const list = document.getElementById("replay-moves");
  const box = list.getBoundingClientRect();
  const cut = [];
  for (const li of list.children) {
    const r = li.getBoundingClientRect();
    const sideways = [li, ...li.children].some((e) => e.scrollWidth > e.clientWidth + 1);
    // A sliver of under a pixel (the scroll rounded to whole pixels) is not a cut line.
    const atTop = r.top < box.top - 1 && r.bottom > box.top + 1;
    if (sideways || atTop) cut.push({ n: li.dataset.n, sideways, atTop, top: r.top - box.top });
  }
  return cut;
});

for (const lang of ["en", "de", "fi", "ar"]) {
  for (const [name, options] of [["phone", PHONE], ["desktop", DESKTOP]]) {
    test(`no move-list row is clipped above the current move (${lang}, ${name})`, { timeout: 180000 }, async () => {
      const { context, page } = await openReplay(options, lang, 0);
      const last = Number(await page.getAttribute("#replay-slider", "max"));
      // The page scrolls the list itself when the position moves out of it: by the slider, the
      // keys and the buttons (a click on a line would let the test driver scroll the list first).
      const at = async (n, how) => {
        await page.waitForFunction((k) => document.getElementById("replay").dataset.ply === String(k), n);
        const cut = await clippedRows(page);
        if (SHOTS && cut.length) await page.screenshot({ path: `${SHOTS}${lang}-${name}.png`, fullPage: true });
        assert.deepEqual(cut, [], `at position ${n} (${how})`);
        const shown = await page.evaluate((k) => {
          const box = document.getElementById("replay-moves").getBoundingClientRect();
          const r = document.querySelector(`#replay-moves li[data-n="${k}"]`).getBoundingClientRect();
          return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
        }, n);
        assert.ok(shown, `position ${n} (${how}): its line is in view`);
      };
      for (const n of [Math.floor(last / 3), Math.floor(last / 2), last - 12]) {
        await page.locator("#replay-slider").fill(String(n));
        await at(n, "slider");
      }
      await page.keyboard.press("Home");
      await at(0, "Home");
      for (let n = 1; n <= 24; n++) { await page.keyboard.press("ArrowRight"); await at(n, "→"); }
      await page.keyboard.press("End");
      await at(last, "End");
      for (let n = last - 1; n >= last - 24; n--) { await page.evaluate(() => document.getElementById("replay-prev").click()); await at(n, "‹"); }
      await page.locator("#replay-slider").fill(String(Math.floor(last / 2)));
      await at(Math.floor(last / 2), "slider");
      if (SHOTS) await page.screenshot({ path: `${SHOTS}${lang}-${name}.png`, fullPage: true });
      await context.close();
    });
  }
}

/** The relative luminance of a CSS rgb() colour (WCAG 2). */
function luminance(rgb) {
  const [r, g, b] = rgb.match(/[\d.]+/g).slice(0, 3).map(Number).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };

test("the disabled throw button looks disabled and stays legible (390×844, light and dark)", { timeout: 90000 }, async () => {
  for (const colorScheme of ["light", "dark"]) {
    const context = await browser.newContext({ ...PHONE, colorScheme });
    const page = await context.newPage();
    await startGame(page, server.url, { opponent: "local", ruleset: "standard" });
    const look = () => page.$eval("#throw-button", (b) => {
      const s = getComputedStyle(b);
      let panel = b.parentElement, bg = "rgba(0, 0, 0, 0)";
      while (panel && (bg = getComputedStyle(panel).backgroundColor) === "rgba(0, 0, 0, 0)") panel = panel.parentElement;
      return { disabled: b.disabled, color: s.color, background: s.backgroundColor, border: s.borderTopStyle, under: bg };
    });
    await page.waitForFunction(() => !document.getElementById("throw-button").disabled);
    const enabled = await look();
    await page.click("#throw-button");
    await page.waitForFunction(() => document.getElementById("throw-button").disabled);
    const disabled = await look();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}throw-disabled-${colorScheme}.png` });
    const fill = (l) => (l.background === "rgba(0, 0, 0, 0)" ? l.under : l.background);
    assert.notEqual(disabled.border, enabled.border, `${colorScheme}: the border's style differs (${disabled.border})`);
    assert.notEqual(fill(disabled), fill(enabled), `${colorScheme}: the fill differs`);
    assert.ok(contrast(fill(disabled), fill(enabled)) >= 1.5 || contrast(disabled.color, enabled.color) >= 1.5, `${colorScheme}: unlike the enabled button`);
    const legible = contrast(disabled.color, fill(disabled));
    assert.ok(legible >= 4.5, `${colorScheme}: the disabled text's contrast ${legible.toFixed(2)}`);
    assert.deepEqual(await axe(page), []);
    await context.close();
  }
});
