// Controls that stay under the finger on a phone (390 × 844, touch): when the claim countdown
// and then "Claim the win" appear (the friend gone, --grace-seconds 3), no move button and not
// the throw button moves; the throw button stays put when the throw (sticks or Bell's die and
// its words) appears, on a phone and a laptop (1280 × 800), in English and German; Bell's ten
// captures after the opening throw all fit on the first screen, each one tappable.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ensureArtifacts, launchBrowser, startGame, startServer, step, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const GRACE = 3;

let server, browser;
before(async () => { server = await startServer(["--grace-seconds", String(GRACE)]); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** Where each control of the turn is now: the throw button and every move button (CSS px). */
function controls(page) {
  return page.evaluate(() => [document.getElementById("throw-button"), ...document.querySelectorAll("#move-choices button")]
    .filter((b) => b.getClientRects().length > 0)
    .map((b) => { const r = b.getBoundingClientRect(); return { id: b.id || b.dataset.move, top: Math.round(r.top), left: Math.round(r.left) }; }));
}

/** Fails unless every control of `before` is still where it was. */
async function assertUnmoved(page, before, when) {
  const now = await controls(page);
  assert.deepEqual(now, before, `no control moved when ${when}`);
}

test("on a phone no control moves when the claim countdown and the claim button appear", { timeout: 90000 }, async () => {
  const hostContext = await browser.newContext(PHONE);
  const guestContext = await browser.newContext(DESKTOP);
  const host = await hostContext.newPage();
  const guest = await guestContext.newPage();
  const problems = watchConsole(host);
  await startGame(host, server.url, { opponent: "friend", lang: "en" });
  await host.waitForSelector("#share-invite:not([hidden])");
  await host.waitForFunction(() => document.getElementById("invite-link").value.includes("#invite="));
  await guest.goto(await host.inputValue("#invite-link"));
  await guest.waitForSelector("#status:not(:empty)");
  // Both play until the host (on the phone) has thrown and holds a choice of moves.
  const start = Date.now();
  while (Date.now() - start < 40000 && await host.locator("#move-choices button").count() === 0) {
    await step(host);
    await host.waitForTimeout(40);
    if (await host.locator("#move-choices button").count() > 0) break;
    await step(guest);
    await host.waitForTimeout(40);
  }
  const before = await controls(host);
  assert.ok(before.length >= 2, `the host holds a choice of moves: ${JSON.stringify(before)}`);
  await guestContext.close();
  await host.waitForSelector("#claim-wait:not([hidden])");
  await assertUnmoved(host, before, "the countdown appeared");
  await host.waitForSelector("#claim-button:not([hidden])", { timeout: (GRACE + 5) * 1000 });
  await assertUnmoved(host, before, "the claim button appeared");
  await host.screenshot({ path: join(ensureArtifacts(), "steady-claim-phone-en.png") });
  assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
  await hostContext.close();
});

/** The throw button's box now (CSS px, rounded to a tenth). */
function throwBox(page) {
  return page.$eval("#throw-button", (b) => {
    const r = b.getBoundingClientRect();
    return Object.fromEntries(["left", "top", "width", "height"].map((k) => [k, Math.round(r[k] * 10) / 10]));
  });
}

test("the throw button stays where it is when the throw appears: every ruleset, phone and laptop, English and German", { timeout: 120000 }, async () => {
  for (const [screen, options] of [["phone", PHONE], ["laptop", DESKTOP]]) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    for (const lang of ["en", "de"]) {
      for (const ruleset of ["standard", "jequier", "bell"]) {
        await startGame(page, server.url, { opponent: "local", ruleset, lang });
        await page.waitForSelector("#throw-button:not([disabled])");
        const before = await throwBox(page);
        await (screen === "phone" ? page.tap("#throw-button") : page.click("#throw-button"));
        await page.waitForFunction(() => document.getElementById("throw-value").textContent !== "" && document.querySelector("#sticks svg"));
        assert.deepEqual(await throwBox(page), before, `${ruleset}, ${lang}, ${screen}: the throw button did not move when the throw appeared`);
        if (lang === "de") await page.screenshot({ path: join(ensureArtifacts(), `steady-throw-${screen}-${ruleset}-de.png`) });
      }
    }
    await context.close();
  }
});

/**
 * Starts Bell games on this device until the opening throw is odd (any of them lets each of the
 * ten cones, alternating with the spools on 1 to 20, capture); resolves to that throw.
 */
async function openingOddThrow(page, lang) {
  for (let tries = 0; tries < 40; tries++) {
    await startGame(page, server.url, { opponent: "local", ruleset: "bell", lang });
    await page.waitForSelector("#throw-button:not([disabled])");
    await page.tap("#throw-button");
    await page.waitForSelector("#move-choices button");
    const value = Number(/\d/.exec(await page.textContent("#throw-value"))?.[0]);
    if (value % 2 === 1) return value;
  }
  throw new Error("no odd opening throw in 40 Bell games");
}

test("on a phone Bell's ten captures after the opening throw all fit on the first screen", { timeout: 60000 }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  for (const lang of ["en", "pl"]) {
    const value = await openingOddThrow(page, lang);
    const count = await page.locator("#move-choices button").count();
    assert.equal(count, 10, `${lang}: ten captures after a ${value}`);
    const boxes = await page.$$eval("#move-choices button", (bs) => bs.map((b) => {
      const r = b.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
    }));
    for (const [i, b] of boxes.entries()) {
      assert.ok(b.top >= 0 && b.bottom <= 844 && b.left >= 0 && b.right <= 390, `${lang}: move button ${i + 1} of ${count} is on the first screen: ${JSON.stringify(b)}`);
      assert.ok(b.width >= 44 && b.height >= 44, `${lang}: move button ${i + 1} is a 44 px target: ${JSON.stringify(b)}`);
    }
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    await page.screenshot({ path: join(ensureArtifacts(), `steady-bell-moves-phone-${lang}.png`) });
    await page.locator("#move-choices button").last().tap();
    await page.waitForFunction(() => document.querySelectorAll("#move-choices button").length === 0);
  }
  await context.close();
});
