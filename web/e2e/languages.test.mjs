// The nine languages in the browser: the play page of every language complete and clean under
// axe-core; right-to-left Arabic with the board kept left to right; the language switcher as a
// keyboard-usable menu on a phone with no sideways scrolling; Accept-Language with region
// variants; screenshots of the Arabic pages on a desktop and a phone (test-artifacts/).
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { LANGS, LANG_DIRS, axe, ensureArtifacts, launchBrowser, startServer, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const shot = (page, name) => page.screenshot({ path: join(ensureArtifacts(), `lang-${name}.png`) });
const press = (page, selector) => page.$eval(selector, (b) => b.click());

/** A local game of `lang` through the API with a fixed client seed; resolves once a throw is due. */
async function localGame(page, lang, ruleset = "standard") {
  await page.goto(`${server.url}/${lang}/`);
  const game = await page.evaluate(async ({ ruleset, lang }) => {
    const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ruleset, opponent: "local", side: "first", lang }) });
    const g = await r.json();
    localStorage.setItem(`senet.seed.${g.game}`, "languages-test");
    return g;
  }, { ruleset, lang });
  await page.goto(`${server.url}${game.watchUrl}#seat=${encodeURIComponent(game.secret)}`);
  await page.waitForSelector("#throw-button:not([disabled])");
}

/** Plays `plies` throws and first moves of a local game. */
async function play(page, plies) {
  for (let n = 0; n < plies; n++) {
    const due = await (await page.waitForFunction(() => {
      if (!document.getElementById("end").hidden) return "over";
      if (!document.getElementById("throw-button").disabled) return "throw";
      return document.querySelector("#move-choices button") ? "move" : false;
    }, null, { timeout: 15000 })).jsonValue();
    if (due === "over") return;
    await press(page, due === "throw" ? "#throw-button" : "#move-choices button");
  }
}

/** Where square `n`'s cell is on the screen. */
const squareBox = (page, n) => page.$eval(`#board .square[data-square="${n}"] .cell`, (c) => {
  const r = c.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
});

test("the play page of every language: direction, no missing string, axe-core clean", { timeout: 110000 }, async () => {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchConsole(page);
  for (const lang of LANGS) {
    await localGame(page, lang);
    await play(page, 2);
    assert.equal(await page.getAttribute("html", "dir"), LANG_DIRS[lang], `${lang} dir`);
    assert.equal(await page.getAttribute("#board", "dir"), "ltr", `${lang}: the board is laid out left to right`);
    const text = await page.textContent("body");
    assert.ok(!text.includes("\u27E6"), `${lang}: the play page has a missing string`);
    assert.ok((await page.locator("#move-list li").count()) >= 1, `${lang}: the move list has moves`);
    const violations = await axe(page);
    assert.deepEqual(violations, [], `${lang} play page: ${JSON.stringify(violations, null, 1)}`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test("Arabic: mirrored page, the board's path still from the top left to the right; screenshots", { timeout: 90000 }, async () => {
  for (const [size, options] of [["desktop", DESKTOP], ["phone", PHONE]]) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const problems = watchConsole(page);
    for (const [name, path] of [["home", ""], ["rules", "rules"], ["variant", "variants/jequier"]]) {
      await page.goto(`${server.url}/ar/${path}`);
      assert.equal(await page.getAttribute("html", "dir"), "rtl");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= options.viewport.width, `/ar/${path} (${size}) is ${width} px wide`);
      await shot(page, `ar-${name}-${size}`);
    }
    // The note on the board's orientation is on the Arabic rules page, and only there.
    await page.goto(`${server.url}/ar/rules`);
    assert.equal(await page.locator("#board-orientation").count(), 1);
    await page.goto(`${server.url}/en/rules`);
    assert.equal(await page.locator("#board-orientation").count(), 0);
    // Right to left: the brand at the right end of the header, the switcher at the left.
    await page.goto(`${server.url}/ar/`);
    const brand = await page.$eval(".brand", (b) => b.getBoundingClientRect().right);
    const menu = await page.$eval(".lang-menu summary", (b) => b.getBoundingClientRect().left);
    assert.ok(brand > options.viewport.width - 40 && menu < 40, `brand ends at ${brand}, switcher starts at ${menu}`);

    await localGame(page, "ar");
    await play(page, 7);
    const [one, two, ten, eleven] = await Promise.all([1, 2, 10, 11].map((n) => squareBox(page, n)));
    if (size === "desktop") {
      assert.ok(one.x < two.x && one.x < ten.x && Math.abs(one.y - ten.y) < 1, "square 1 at the top left, 10 to its right");
      assert.ok(eleven.y > ten.y && Math.abs(eleven.x - ten.x) < 1, "11 under 10");
    } else {
      assert.ok(one.y < two.y && one.y < ten.y && Math.abs(one.x - ten.x) < 1, "on a phone square 1 at the top, 10 below it");
      assert.ok(eleven.x > ten.x, "11 beside 10");
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= options.viewport.width, `/ar/play (${size}) is ${width} px wide`);
    await shot(page, `ar-play-${size}`);
    if (size === "phone") {
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await shot(page, `ar-play-phone-below`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test("on a phone the language menu opens from the keyboard, fits the screen and switches", { timeout: 60000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  for (const lang of LANGS) {
    await page.goto(`${server.url}/${lang}/rules`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `/${lang}/rules is ${width} px wide on a phone`);
    assert.equal(await page.locator(".lang-menu ul").isVisible(), false, `${lang}: the menu starts closed`);
  }
  for (const lang of ["ar", "fi"]) {
    await page.goto(`${server.url}/${lang}/rules`);
    await page.focus(".lang-menu summary");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".lang-menu ul", { state: "visible" });
    const boxes = await page.$$eval(".lang-menu a", (links) => links.map((a) => {
      const r = a.getBoundingClientRect();
      return { lang: a.lang, left: r.left, right: r.right, height: r.height };
    }));
    assert.equal(boxes.length, LANGS.length);
    for (const b of boxes) assert.ok(b.left >= 0 && b.right <= 390 && b.height >= 32, `${lang}: the entry ${JSON.stringify(b)} fits`);
    assert.deepEqual(await axe(page), [], `${lang}: the open menu passes axe-core`);
    if (lang === "ar") await shot(page, "ar-menu-phone");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("hreflang")), LANGS[0]);
    const target = lang === "ar" ? "de" : "ar";
    await Promise.all([page.waitForURL(new RegExp(`/${target}/rules$`)), page.click(`.lang-menu a[hreflang=${target}]`)]);
    assert.equal(await page.getAttribute("html", "lang"), target);
  }
  await context.close();
});

test("the root sends a region variant to its language", { timeout: 30000 }, async () => {
  const cases = [["de-AT,de;q=0.9", "de"], ["ar-EG", "ar"], ["fr-CA,en;q=0.5", "fr"], ["es-419", "es"], ["pt-BR,pt;q=0.9", "en"],
    ["pt, ar;q=0.3, de-CH;q=0.6", "de"]];
  for (const [header, lang] of cases) {
    const response = await fetch(`${server.url}/`, { headers: { "Accept-Language": header }, redirect: "manual" });
    assert.equal(response.headers.get("location"), `/${lang}/`, header);
  }
});
