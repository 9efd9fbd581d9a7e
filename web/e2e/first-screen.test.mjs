// The first screen a player meets, at two laptop sizes (1280 × 800, 1366 × 768) and on a phone
// (390 × 844, touch), in every language: the home page shows a picture of the board (none of
// its labels cut) and the start button without scrolling, whichever opponent is chosen (the
// computer's levels too);
// after "Start" with a friend the invite link (the whole link readable in its box), its copy
// button and its QR code are on the first screen beside the board; the header links to the tutorials.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { LANGS, LANG_DIRS, launchBrowser, message, startGame, startServer } from "./helpers.mjs";

export const SCREENS = {
  "1280x800": { viewport: { width: 1280, height: 800 } },
  "1366x768": { viewport: { width: 1366, height: 768 } },
  "390x844": { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
};

let server, browser;
// Twenty-seven friend games from one address, none of them joined: above the server's default
// burst of creations (19) and its cap on waiting friend games per address (20).
before(async () => { server = await startServer(["--create-burst", "100", "--max-waiting-games", "100"]); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** The element's box, or null when it is absent or not shown. */
function box(page, selector) {
  return page.evaluate((sel) => {
    const node = document.querySelector(sel);
    if (!node || node.getClientRects().length === 0) return null;
    const r = node.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, vw: innerWidth, vh: innerHeight };
  }, selector);
}

/** Fails unless `selector` is shown wholly inside the viewport (the page not scrolled). */
async function assertOnFirstScreen(page, selector, what) {
  const b = await box(page, selector);
  assert.ok(b, `${what} is shown`);
  assert.equal(await page.evaluate(() => window.scrollY), 0, `${what}: the page is not scrolled`);
  assert.ok(b.top >= 0 && b.left >= 0 && b.bottom <= b.vh + 0.5 && b.right <= b.vw + 0.5,
    `${what} lies on the first screen: top ${b.top.toFixed(0)}, bottom ${b.bottom.toFixed(0)} of ${b.vh} px`);
}

for (const [size, options] of Object.entries(SCREENS)) {
  test(`${size}: the home page shows the board and the start button on the first screen in every language`, { timeout: 120000 }, async () => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    for (const lang of LANGS) {
      await page.goto(`${server.url}/${lang}/`);
      await assertOnFirstScreen(page, ".home-board svg", `the picture of the board (${lang}, ${size})`);
      // Nothing in the picture is clipped: every label's box (its font's ascent and descent, so
      // Arabic's deep letters too) lies inside the picture, which clips what overflows it.
      const clipped = await page.$eval(".home-board svg", (svg) => {
        const s = svg.getBoundingClientRect();
        return [...svg.querySelectorAll("text")].map((t) => ({ text: t.textContent, b: t.getBoundingClientRect() }))
          .filter(({ b }) => b.left < s.left - 0.01 || b.top < s.top - 0.01 || b.right > s.right + 0.01 || b.bottom > s.bottom + 0.01)
          .map(({ text, b }) => `${text}: ${b.left.toFixed(1)}–${b.right.toFixed(1)} × ${b.top.toFixed(1)}–${b.bottom.toFixed(1)} in ${s.left.toFixed(1)}–${s.right.toFixed(1)} × ${s.top.toFixed(1)}–${s.bottom.toFixed(1)}`);
      });
      assert.deepEqual(clipped, [], `no label of the picture is cut (${lang}, ${size})`);
      // For every opponent: the computer's levels, shown only when it is chosen, must not push the button down.
      for (const opponent of ["anyone", "friend", "computer", "local"]) {
        await page.check(`input[name=opponent][value=${opponent}]`);
        await assertOnFirstScreen(page, "#start-form button[type=submit]", `the start button (${lang}, ${size}, ${opponent})`);
      }
      // The header's link to the tutorials, in the page's language.
      const learn = page.locator(`.site-nav a[href="/${lang}/learn/standard"]`);
      assert.equal(await learn.count(), 1, `the header links to the tutorials (${lang})`);
      assert.equal((await learn.textContent()).trim(), message(lang, "nav.learn"));
    }
    await context.close();
  });

  test(`${size}: after starting a friend game the invite link, copy and QR are on the first screen beside the board in every language`, { timeout: 180000 }, async () => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    for (const lang of LANGS) {
      await startGame(page, server.url, { lang, opponent: "friend" });
      await page.waitForSelector("#share-invite:not([hidden])");
      await page.waitForFunction(() => document.getElementById("invite-link").value.includes("#invite="));
      const what = `(${lang}, ${size})`;
      await assertOnFirstScreen(page, "#invite-link", `the invite link ${what}`);
      await assertOnFirstScreen(page, "[data-copy=invite-link]", `the invite's copy button ${what}`);
      await assertOnFirstScreen(page, "#qr-details summary", `the invite's QR code ${what}`);
      // The whole link is readable in its box (it wraps; nothing scrolled out of sight), and
      // without the Web Share API (headless Chromium has none) the copy button is there.
      const link = await page.$eval("#invite-link", (e) => ({ sw: e.scrollWidth, cw: e.clientWidth, sh: e.scrollHeight, ch: e.clientHeight, value: e.value }));
      assert.ok(link.sw <= link.cw + 1 && link.sh <= link.ch + 1,
        `the whole invite link is readable ${what}: ${link.sw}×${link.sh} px of text in a ${link.cw}×${link.ch} px box`);
      assert.equal(await page.evaluate(() => typeof navigator.share), "undefined");
      assert.equal(await page.locator("#share-button").isHidden(), true, `no share button without the Web Share API ${what}`);
      assert.ok(await page.locator("[data-copy=invite-link]").isVisible(), `the copy button is shown ${what}`);
      await assertOnFirstScreen(page, "#board", `the board ${what}`);
      const board = await box(page, "#board");
      const invite = await box(page, "#share-invite");
      // Beside the board: on a laptop in the column at its end side, on a phone in the column
      // next to the upright board.
      const beside = LANG_DIRS[lang] === "rtl" ? invite.right <= board.left + 1 : invite.left >= board.right - 1;
      assert.ok(beside, `the invite is beside the board ${what}: board ${board.left.toFixed(0)}–${board.right.toFixed(0)}, invite ${invite.left.toFixed(0)}–${invite.right.toFixed(0)}`);
    }
    await context.close();
  });
}

test("the header's tutorial link is marked current on every tutorial page", { timeout: 60000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  for (const ruleset of ["standard", "jequier", "bell"]) {
    await page.goto(`${server.url}/de/learn/${ruleset}`);
    assert.equal(await page.getAttribute(".site-nav a[href='/de/learn/standard']", "aria-current"), "page", ruleset);
  }
  await page.goto(`${server.url}/de/rules`);
  assert.equal(await page.getAttribute(".site-nav a[href='/de/learn/standard']", "aria-current"), null);
  await context.close();
});
