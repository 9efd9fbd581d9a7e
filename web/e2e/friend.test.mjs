// Two browser contexts play a whole game of each ruleset through the invite link; a reload
// keeps the seat; a third context watches. Also: the first load of the play page is measured
// and desktop and phone screenshots are saved.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { after, before, test } from "node:test";
import { assertResultShown, axe, ensureArtifacts, launchBrowser, message, playToEnd, seatsShown, startGame, startServer, step, textNow, watchConsole } from "./helpers.mjs";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

for (const ruleset of ["standard", "jequier", "bell"]) {
  test(`two players finish a ${ruleset} game through the invite link`, { timeout: 300000 }, async () => {
    const phone = ruleset === "bell";
    const hostContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const lang = ruleset === "jequier" ? "nl" : "en";
    // The friend's browser reads the game's language (the invite link opens the page in the visitor's language).
    const guestContext = await browser.newContext({ locale: lang, ...(phone
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
      : { viewport: { width: 1100, height: 850 } }) });
    const host = await hostContext.newPage();
    const guest = await guestContext.newPage();
    const problems = [...[host, guest].map(watchConsole)];
    const path = await startGame(host, server.url, { ruleset, opponent: "friend", lang });
    await host.waitForSelector("#share-invite:not([hidden])");
    const invite = await host.inputValue("#invite-link");
    assert.match(invite, /#invite=/);
    assert.ok(host.url().includes("#seat="), "the seat stays in the address (a reload keeps it without storage)");

    await guest.goto(invite);
    await guest.waitForFunction(() => /[#&]seat=/.test(location.hash) && document.querySelector("#status")?.textContent !== "");
    await host.waitForSelector("#share-invite[hidden]", { state: "attached" });

    // A spectator through the watch link.
    const watcherContext = await browser.newContext();
    const watcher = await watcherContext.newPage();
    await watcher.goto(`${server.url}${path}`);
    await watcher.waitForSelector("#status:not(:empty)");
    // The fairness panel shows the commitment from the start; the seed stays hidden until the end.
    // (The status line already reads "Connecting…" before the first state arrives, so wait for
    // the commitment itself.)
    const hasCommitment = () => /^[0-9a-f]{64}$/.test(document.querySelector("#commitment")?.textContent?.trim() ?? "");
    await watcher.waitForFunction(hasCommitment);
    await host.waitForFunction(hasCommitment);
    const commitment = (await watcher.textContent("#commitment")).trim();
    assert.match(commitment, /^[0-9a-f]{64}$/);
    assert.equal(await host.textContent("#commitment"), commitment);
    assert.equal(await watcher.locator("#server-seed-row").isHidden(), true);

    // The first move by a click (or tap) on the board itself.
    const mover = async () => {
      for (let i = 0; i < 400; i++) {
        for (const p of [host, guest]) {
          if (await p.locator(".piece.movable").count()) return p;
          await step(p).then((r) => r);  // throws until a move is due
          if (await p.locator(".piece.movable").count()) return p;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error("no move became due");
    };
    const p = await mover();
    const before = await p.locator("#move-list li:not(.empty)").count();
    const piece = p.locator(".piece.movable").first();
    if (p === guest && phone) await piece.tap(); else await piece.click();
    await p.waitForFunction((n) => document.querySelectorAll("#move-list li:not(.empty)").length > n, before);

    let reloaded = false;
    let shot = false;
    await playToEnd([host, guest], {
      limit: 240000,
      onStep: async (n) => {
        if (n === 12 && !reloaded) {
          reloaded = true;
          await guest.reload();
          await guest.waitForSelector("#status:not(:empty)");
          await guest.waitForFunction(() => !/watching|kijkt|seuraat|guardando|Oglądasz/.test(document.querySelector("#status").textContent));
          // The resume link shows once the seat's snapshot came (not merely once a status is written).
          await guest.locator("#share-resume").waitFor({ state: "visible", timeout: 30000 })
            .catch(() => assert.fail("the reloaded page does not show its seat's resume link: it lost its seat"));
        }
        if (n === 30 && !shot) {
          shot = true;
          const dir = ensureArtifacts();
          await host.screenshot({ path: join(dir, `play-${ruleset}-desktop.png`), fullPage: true });
          await guest.screenshot({ path: join(dir, `play-${ruleset}-${phone ? "phone" : "desktop-guest"}.png`), fullPage: true });
          // The spectator's status names a side and its seat, in the page's language.
          const [status, seats] = [await textNow(watcher, "#status"), await seatsShown(watcher)];
          const names = seats.map((s, seat) => message(lang, "play.name-seat",
            { side: message(lang, `play.side.${s.player}`), seat: message(lang, seat ? "play.seat.second" : "play.seat.first") }));
          const statuses = names.flatMap((name) => [message(lang, "play.status.throw", { viewer: "watch", name }),
            ...[1, 2, 3, 4, 5, 6].map((value) => message(lang, "play.status.move", { viewer: "watch", name, value }))]);
          assert.ok(statuses.includes(status), `the spectator's status ${JSON.stringify(status)} is one of ${JSON.stringify(statuses.slice(0, 2))}…`);
          assert.equal(await watcher.locator("#throw-button:not([disabled])").count(), 0, "the spectator cannot throw");
          assert.equal(await watcher.locator("#move-choices button").count(), 0, "the spectator cannot move");
        }
      },
    });
    // The winner and the reason, from the server's result (checked against the board), in each viewer's words.
    await assertResultShown(server.url, lang, ruleset, [[host, [0]], [guest, [1]], [watcher, []]]);
    const results = [await textNow(host, "#result"), await textNow(guest, "#result")];
    assert.ok((await watcher.locator("#move-list li").count()) > 5);
    if (ruleset === "jequier") {
      // The opening is in the list: its throws (the last one a 1), then the move from 10 to 11.
      for (const page of [host, watcher]) {
        const lines = await page.locator("#move-list li").allTextContents();
        const opening = lines.filter((l) => /openingsworp/.test(l));
        assert.ok(opening.length >= 1, lines.slice(0, 5).join(" | "));
        assert.match(opening[opening.length - 1], /openingsworp 1$/);
        assert.match(lines[opening.length], /, worp 1: 10 → 11$/);
      }
    }
    // Revealed at the end, and it is the seed the commitment promised.
    await watcher.waitForSelector("#server-seed-row:not([hidden])");
    const seed = (await watcher.textContent("#server-seed")).trim();
    assert.match(seed, /^[0-9a-f]{64}$/);
    assert.equal(createHash("sha256").update(Buffer.from(seed, "hex")).digest("hex"), commitment);
    if (ruleset === "standard") {
      writeFileSync(join(ensureArtifacts(), "play-end-desktop.txt"), results.join("\n"));
      await host.screenshot({ path: join(ensureArtifacts(), "play-end-desktop.png"), fullPage: true });
      const violations = await axe(host);
      assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
    }
    assert.deepEqual(problems.flat().filter((m) => !/WebSocket/.test(m)), []);
    await Promise.all([hostContext.close(), guestContext.close(), watcherContext.close()]);
  });
}

test("the play page's first load stays under 60 KB compressed and passes axe-core", { timeout: 120000 }, async () => {
  const context = await browser.newContext();
  // When the play page marks its board drawn (the class that lets the display face load).
  await context.addInitScript(() => {
    new MutationObserver(() => {
      if (window.__faceAt === undefined && document.getElementById("play")?.classList.contains("display-face")) window.__faceAt = performance.now();
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["class"] });
  });
  const page = await context.newPage();
  const path = await startGame(page, server.url, { opponent: "friend" });
  const sizes = [];
  page.on("response", async (r) => {
    try {
      const body = await r.body();
      sizes.push({ url: r.url().replace(server.url, ""), raw: body.length, gzip: gzipSync(body, { level: 6 }).length, encoding: r.headers()["content-encoding"] ?? "" });
    } catch { /* redirects have no body */ }
  });
  // A first load: nothing from the cache of the home page just seen (its heading loaded the face).
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await page.goto(`${server.url}${path}`);
  await page.waitForSelector("#status:not(:empty)");
  await page.waitForLoadState("networkidle");
  // The headings' display face (site.css) comes after the board is drawn, outside the budget:
  // every font request starts after the board's first render (the class play.ts then adds).
  const fonts = sizes.filter((s) => s.url.endsWith(".woff2"));
  const firstLoad = sizes.filter((s) => !fonts.includes(s));
  const timing = await page.evaluate(() => ({
    fonts: performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".woff2")).map((e) => e.startTime),
    face: window.__faceAt,
  }));
  assert.ok(timing.face > 0, "the play page asks for the display face once the board is drawn");
  assert.ok(timing.fonts.every((t) => t >= timing.face), `font requests at ${timing.fonts} ms, the board drawn at ${timing.face} ms`);
  assert.equal(fonts.length, 1, `one font file, the Latin face: ${fonts.map((f) => f.url).join(" ")}`);
  const total = firstLoad.reduce((s, x) => s + x.gzip, 0);
  const line = (s) => `${s.url}\t${s.raw} B\t${s.gzip} B gzip`;
  const report = firstLoad.map(line).join("\n") + `\ntotal\t${firstLoad.reduce((s, x) => s + x.raw, 0)} B\t${total} B gzip\n` +
    `after the board is drawn:\n${fonts.map(line).join("\n")}\n`;
  writeFileSync(join(ensureArtifacts(), "first-load.txt"), report);
  console.log(report);
  assert.ok(total <= 60 * 1024, `first load ${total} B compressed`);
  assert.ok(fonts.every((f) => f.gzip <= 16 * 1024), "the display face's Latin file is at most 16 KB");
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  await context.close();
});
