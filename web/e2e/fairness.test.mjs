// The Fair throws panel's own check: the page records the commitment before it sends its seed,
// and at the end it recomputes every throw with WebCrypto and shows "verified"; a commitment
// that does not fit (here changed on its way to the page) shows a warning instead.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchBrowser, playToEnd, startGame, startServer, step, watchConsole } from "./helpers.mjs";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** Waits for the verdict of the Fair throws panel; returns its class and text. */
async function verdict(page) {
  await page.waitForFunction(() => {
    const v = document.querySelector("#fair-verdict");
    return v && !v.hidden && /verified|warning/.test(v.className);
  }, null, { timeout: 20000 });
  return page.evaluate(() => {
    const v = document.querySelector("#fair-verdict");
    return { kind: v.className.replace("fair-verdict", "").trim(), text: v.textContent };
  });
}

// Standard (sticks) and Bell (die): the two mappings from HMAC to a throw. (Jéquier maps like
// standard; its local games by random moves run for minutes, too long for this suite.)
for (const [ruleset, lang] of [["standard", "en"], ["bell", "pl"]]) {
  test(`a finished ${ruleset} game shows its throws verified (${lang})`, { timeout: 180000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    // The order on the wire: the commitment is fetched (or came with the create answer) before
    // the hello that carries the client seed.
    const order = [];
    page.on("request", (r) => { if (/\/api\/games\/[^/]+$/.test(new URL(r.url()).pathname) && r.method() === "GET") order.push("summary"); });
    page.on("websocket", (ws) => ws.on("framesent", (f) => {
      if (String(f.payload).includes('"hello"') && String(f.payload).includes("clientSeed")) order.push("hello-with-seed");
    }));
    await startGame(page, server.url, { ruleset, opponent: "local", lang });
    // The page may still be sending its hello when the game is on screen (a busy machine): wait for it.
    for (let i = 0; i < 200 && !order.includes("hello-with-seed"); i++) await page.waitForTimeout(50);
    const recorded = await page.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith("senet.commitment."))?.[1]);
    assert.match(recorded ?? "", /^[0-9a-f]{64}$/, "the commitment is recorded in the page");
    assert.ok(order.indexOf("hello-with-seed") >= 0, order.join(","));
    // Recorded before the seed went out: from the create answer (nothing fetched) or the summary first.
    if (order.includes("summary")) assert.ok(order.indexOf("summary") < order.indexOf("hello-with-seed"), order.join(","));
    await playToEnd([page], { limit: 150000 });
    const v = await verdict(page);
    assert.equal(v.kind, "verified", v.text);
    const throws = Number(/\d+/.exec(v.text)?.[0]);
    assert.ok(throws > 10, v.text);
    assert.equal(recorded, (await page.textContent("#commitment")).trim());
    assert.deepEqual(problems.filter((m) => !/WebSocket/.test(m)), []);
    await context.close();
  });
}

/** Whether the page shows a remainder of a throw to spend (Piccione's "2 of 4 left"). */
function remainderShown(page) {
  return page.evaluate(() => (document.querySelector("#steps .steps-left")?.textContent ?? "").trim().length > 0);
}

// Piccione: a throw spent over several steps is one throw (the remainder's steps have none). The
// game is played with the first move button until a step has left a remainder, then resigned.
test("a resigned Piccione game whose throws were split shows its throws verified", { timeout: 180000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await startGame(page, server.url, { ruleset: "piccione", opponent: "local" });
  let split = false;
  for (let i = 0; i < 4000 && !split; i++) {
    if ((await step(page)) === "over") break;
    split = await remainderShown(page);  // "N of M left": a throw is being spent in steps
    await page.waitForTimeout(5);
  }
  assert.ok(split, "a throw was split");
  for (let i = 0; i < 400 && (await remainderShown(page)); i++) {
    await step(page);
    await page.waitForTimeout(5);
  }
  await page.waitForSelector("#resign-button:not([hidden])");
  page.once("dialog", (d) => d.accept());
  await page.click("#resign-button");
  const v = await verdict(page);
  assert.equal(v.kind, "verified", v.text);
  await context.close();
});

/** Plays a local Bell game whose API answers pass through `change(path, body)`; returns the verdict. */
async function tamperedGame(change) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.route(/\/api\/games(\/[^/]+(\/record)?)?$/, async (route) => {
      // A request still in flight when the test ends meets a closed context: not a failure of
      // the test, and never an unhandled rejection.
      try {
        const response = await route.fetch();
        const body = await response.json();
        change(new URL(route.request().url()).pathname, body);
        await route.fulfill({ response, json: body });
      } catch (error) {
        if (!page.isClosed()) await route.abort().catch(() => {});
      }
    });
    await startGame(page, server.url, { ruleset: "bell", opponent: "local" });
    await playToEnd([page], { limit: 150000 });
    const v = await verdict(page);
    // No route callback may outlive the context: remove them, waiting for none that is running.
    await page.unrouteAll({ behavior: "ignoreErrors" });
    return v;
  } finally {
    await context.close();
  }
}

test("a commitment that does not fit the revealed seed shows a warning", { timeout: 180000 }, async () => {
  // Every API answer that carries a commitment (the create answer, the game summary) gets another
  // one, as if a dishonest server had committed to a seed it does not reveal at the end.
  const fake = "f".repeat(64);
  const v = await tamperedGame((path, body) => {
    if (path.endsWith("/record")) return;
    if (typeof body.commitment === "string") body.commitment = fake;
    if (body.fairness && typeof body.fairness.commitment === "string") body.fairness.commitment = fake;
  });
  assert.equal(v.kind, "warning", v.text);
  assert.match(v.text, /^Warning: .*commitment/);
});

test("a throw that does not follow from the seeds shows a warning naming it", { timeout: 180000 }, async () => {
  // The fourth throw of the record is changed to another face of the die.
  const v = await tamperedGame((path, body) => {
    if (path.endsWith("/record") && body.plies?.length > 3) body.plies[3].throw = (body.plies[3].throw % 4) + 1;
  });
  assert.equal(v.kind, "warning", v.text);
  assert.match(v.text, /^Warning: throw 4 does not follow from the seeds/);
});
