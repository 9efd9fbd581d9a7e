// The language menu in use: switching language mid-game keeps the seat where storage is blocked
// (the menu's links carry the play page's fragment); the menu closes with Escape (focus back on
// its summary) and with a press outside it, on every kind of page, on a phone and a desktop; the
// invite and watch links are language-neutral, so a friend lands on a page in their own language.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ensureArtifacts, launchBrowser, startGame, startServer, storageBlockedContext, waitUntil, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const shot = (page, name) => page.screenshot({ path: join(ensureArtifacts(), `langswitch-${name}.png`) });
const isOpen = (page) => page.$eval(".lang-menu", (d) => d.open);
const focusIsSummary = (page) => page.evaluate(() => document.activeElement === document.querySelector(".lang-menu summary"));
/** The fragment's values of a page. */
const fragmentOf = (page) => Object.fromEntries(new URLSearchParams(new URL(page.url()).hash.slice(1)));
/** Every language menu link's fragment (without the "#"), by language. */
const menuFragments = (page) => page.$$eval(".lang-switch a[hreflang]", (links) =>
  Object.fromEntries(links.map((a) => [a.hreflang, new URL(a.href).hash.slice(1)])));

/** Opens the language menu as the device does (a tap on a phone, a click on a desktop). */
async function openMenu(page, touch) {
  if (touch) await page.tap(".lang-menu summary");
  else await page.click(".lang-menu summary");
  await page.waitForSelector(".lang-menu ul", { state: "visible" });
}

/**
 * A point of the page's main part that no control, link or the menu covers: a press there only
 * means "somewhere else". Scans the viewport below the header.
 */
const outsidePoint = (page) => page.evaluate(() => {
  const top = document.querySelector(".site-header").getBoundingClientRect().bottom + 8;
  for (let y = top; y < innerHeight - 8; y += 16)
    for (let x = 8; x < innerWidth - 8; x += 16) {
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest("main") && !hit.closest("a, button, input, label, summary, details, select, textarea, [tabindex]:not(#main), #board"))
        return { x, y };
    }
  return null;
});

test("with storage blocked, choosing another language mid-game from the menu keeps the seat", { timeout: 60000 }, async () => {
  const context = await storageBlockedContext(browser, DESKTOP);
  const page = await context.newPage();
  const problems = watchConsole(page);
  const path = await startGame(page, server.url, { lang: "de", opponent: "local" });
  assert.equal(await page.evaluate(() => { try { localStorage.length; return "open"; } catch { return "blocked"; } }), "blocked");
  await waitUntil(page, "a throw is due in the local game", () => page.waitForSelector("#throw-button:not([disabled])"));
  await page.click("#throw-button");
  await waitUntil(page, "a move is offered", () => page.waitForSelector("#move-choices button"));
  await waitUntil(page, "the seed is in the fragment", () => page.waitForFunction(() => location.hash.includes("seed=")));
  const before = fragmentOf(page);
  assert.match(before.seat ?? "", /^[A-Za-z0-9_-]{43}$/);
  await openMenu(page, false);
  await Promise.all([page.waitForURL(new RegExp(`/ar${path.slice(3)}#`)), page.click(".lang-menu a[hreflang=ar]")]);
  assert.equal(await page.getAttribute("html", "lang"), "ar");
  // A seat's page offers the move the German page offered; a spectator's never shows it.
  await waitUntil(page, "the Arabic page holds the seat (a move is offered)", () => page.waitForSelector("#move-choices button", { timeout: 10000 }));
  assert.equal(await page.locator("#share-resume").isVisible(), true, "the resume link shows: a seat, not a spectator");
  assert.deepEqual(fragmentOf(page), before, "the same seat, seed and commitment");
  // Every language's link on the new page leads to this game with the page's fragment too.
  const links = await menuFragments(page);
  assert.equal(Object.keys(links).length, 9);
  for (const [lang, hash] of Object.entries(links))
    assert.deepEqual(Object.fromEntries(new URLSearchParams(hash)), before, `the ${lang} link carries the fragment`);
  await shot(page, "ar-after-switch-storage-blocked");
  assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
  await context.close();
});

for (const [device, options] of [["phone", PHONE], ["desktop", DESKTOP]]) {
  test(`on a ${device} the language menu closes with Escape and with a press outside, and still switches`, { timeout: 60000 }, async () => {
    const touch = device === "phone";
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const problems = watchConsole(page);
    const play = await startGame(page, server.url, { lang: "de", opponent: "local" });
    for (const path of ["/de/", "/de/rules", "/de/variants/bell", "/de/fairness", "/de/no-such-page", play]) {
      await page.goto(`${server.url}${path}`);
      await page.waitForLoadState("load");
      assert.equal(await isOpen(page), false, `${path}: the menu starts closed`);

      // Escape from a link inside the menu: closed, the focus back on the summary.
      await openMenu(page, touch);
      await page.focus(".lang-menu a[hreflang=fr]");
      await page.keyboard.press("Escape");
      await waitUntil(page, `${path}: Escape closes the menu`, () => page.waitForSelector(".lang-menu ul", { state: "hidden", timeout: 5000 }));
      assert.equal(await focusIsSummary(page), true, `${path}: the focus is back on the summary`);

      // Escape with the focus on the summary itself.
      await openMenu(page, touch);
      await page.focus(".lang-menu summary");
      await page.keyboard.press("Escape");
      await waitUntil(page, `${path}: Escape closes the menu (focus on the summary)`, () => page.waitForSelector(".lang-menu ul", { state: "hidden", timeout: 5000 }));

      // A press outside closes it; the page stays where it is.
      await openMenu(page, touch);
      if (path === "/de/rules") await shot(page, `menu-open-${device}`);
      const point = await outsidePoint(page);
      assert.ok(point, `${path}: a free point outside the menu`);
      if (touch) await page.touchscreen.tap(point.x, point.y);
      else await page.mouse.click(point.x, point.y);
      await waitUntil(page, `${path}: a press outside closes the menu`, () => page.waitForSelector(".lang-menu ul", { state: "hidden", timeout: 5000 }));
      assert.equal(new URL(page.url()).pathname, path);

      // A press inside the open list does not close it.
      await openMenu(page, touch);
      const box = await page.$eval(".lang-menu ul", (u) => { const r = u.getBoundingClientRect(); return { x: r.left + 3, y: r.top + 2 }; });
      if (touch) await page.touchscreen.tap(box.x, box.y);
      else await page.mouse.click(box.x, box.y);
      assert.equal(await isOpen(page), true, `${path}: a press on the open list keeps it open`);
      await page.keyboard.press("Escape");
      await page.waitForSelector(".lang-menu ul", { state: "hidden" });
    }
    // The menu still switches language.
    await page.goto(`${server.url}/de/rules`);
    await openMenu(page, touch);
    await Promise.all([page.waitForURL(/\/fr\/rules$/), touch ? page.tap(".lang-menu a[hreflang=fr]") : page.click(".lang-menu a[hreflang=fr]")]);
    assert.equal(await page.getAttribute("html", "lang"), "fr");
    assert.deepEqual(problems.filter((m) => !/WebSocket|404/.test(m)), []);
    await context.close();
  });
}

test("the invite and watch links are language-neutral: a German friend of an Arabic creator plays in German", { timeout: 60000 }, async () => {
  const hostContext = await browser.newContext({ ...DESKTOP, locale: "ar-EG" });
  // The share sheet, as a phone browser offers it: what it was given is kept for the test.
  await hostContext.addInitScript(() => {
    navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };
  });
  const guestContext = await browser.newContext({ ...PHONE, locale: "de-DE" });
  const host = await hostContext.newPage();
  const guest = await guestContext.newPage();
  const problems = [host, guest].map(watchConsole);
  const path = await startGame(host, server.url, { lang: "ar", opponent: "friend", side: "first" });
  const game = path.split("/").pop();
  await host.waitForSelector("#share-invite:not([hidden])");
  const invite = await host.inputValue("#invite-link");
  assert.match(invite, new RegExp(`^${server.url}/play/${game}#invite=[A-Za-z0-9_-]+$`));
  assert.equal(await host.inputValue("#watch-link"), `${server.url}/play/${game}`);
  // The share sheet and the QR code get the same link.
  await host.click("#share-button");
  assert.equal(await host.evaluate(() => window.__shared?.url), invite);
  await host.click("#qr-details summary");
  await waitUntil(host, "the QR code is drawn", () => host.waitForSelector("#qr [data-text]"));
  assert.equal(await host.getAttribute("#qr [data-text]", "data-text"), invite);

  await guest.goto(invite);
  await waitUntil(guest, "the friend lands on the German play page", () => guest.waitForURL(new RegExp(`/de/play/${game}#`)));
  assert.equal(await guest.getAttribute("html", "lang"), "de");
  await waitUntil(guest, "the friend holds the second seat", () => guest.waitForFunction(() => location.hash.includes("seat=")));
  await guest.waitForSelector("#share-resume:not([hidden])");
  assert.equal(fragmentOf(guest).invite, undefined, "the invite was exchanged for a seat");
  await host.waitForSelector("#share-invite[hidden]", { state: "attached" });
  await waitUntil(host, "the creator may throw", () => host.waitForSelector("#throw-button:not([disabled])"));
  await shot(guest, "friend-de-phone");
  // The menu's links now carry the seat, not the used invite.
  const seat = fragmentOf(guest).seat;
  for (const [lang, hash] of Object.entries(await menuFragments(guest)))
    assert.equal(new URLSearchParams(hash).get("seat"), seat, `the ${lang} link carries the friend's seat`);
  assert.deepEqual(problems.flat().filter((m) => !/WebSocket/.test(m)), []);
  await Promise.all([hostContext.close(), guestContext.close()]);
});
