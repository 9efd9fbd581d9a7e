// Honest outages, with a real server killed and started again on the same data and port: the
// moment the game socket closes both seats say "connection lost", every action control is
// disabled and says why, and a throw tapped while the server could not answer (stopped, then
// killed) is delivered after the reconnect at the same ply instead of being lost.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ensureArtifacts, launchBrowser, message, startGame, startServer, waitForText } from "./helpers.mjs";

let server, browser;
const dataDir = mkdtempSync(join(tmpdir(), "senet-e2e-outage-"));
before(async () => { server = await startServer([], { dataDir }); browser = await launchBrowser(); });
after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** Kills the server at once (SIGKILL: its sockets are reset, nothing is said to the pages). */
async function killServer() {
  await server.stop("SIGKILL");
}

/** Starts the server again on the same data directory and port; the pages reconnect by themselves. */
async function restartServer() {
  server = await startServer([], { dataDir, port: Number(new URL(server.url).port) });
}

/** Each seat's presence words on `page`. */
const presenceWords = (page) => page.$$eval(".seat .presence", (all) => all.map((p) => p.textContent));

test("an outage shows at once on both seats, disables every control with its reason, and a throw tapped into it is not lost", { timeout: 120000 }, async () => {
  const hostContext = await browser.newContext(DESKTOP);
  const guestContext = await browser.newContext(DESKTOP);
  try {
    const host = await hostContext.newPage();
    const guest = await guestContext.newPage();
    await startGame(host, server.url, { opponent: "friend", side: "first" });
    await host.waitForSelector("#share-invite:not([hidden])");
    await guest.goto(await host.inputValue("#invite-link"));
    await host.waitForSelector("#throw-button:not([disabled])");
    const online = message("en", "play.online");
    assert.deepEqual(await presenceWords(host), [online, online]);

    // The server dies: both pages say so for both seats, and nothing can be tapped.
    await killServer();
    const lost = message("en", "play.presence-lost");
    const reconnecting = message("en", "play.status.reconnecting");
    for (const page of [host, guest]) {
      await page.waitForFunction((word) => [...document.querySelectorAll(".seat .presence")].every((p) => p.textContent === word), lost, { timeout: 5000 });
      await waitForText(page, "#status", reconnecting, { timeout: 5000 });
      // The sign before the words cannot be read as the board's capture (a cross: ×, ✕, x).
      const signs = await page.$$eval(".seat .presence", (ps) => ps.map((p) => getComputedStyle(p, "::before").content));
      for (const sign of signs) assert.ok(sign !== "none" && !/[×✕✖✗xX+]/.test(sign), `the connection-lost sign ${sign} is no cross`);
      for (const control of ["#throw-button", "#resign-button"]) {
        assert.equal(await page.locator(control).isDisabled(), true, `${control} is disabled while the connection is lost`);
        assert.equal(await page.getAttribute(control, "title"), reconnecting, `${control} says why`);
      }
    }
    await host.screenshot({ path: join(ensureArtifacts(), "outage-lost-desktop-en.png"), clip: { x: 0, y: 60, width: 1280, height: 200 } });
    await restartServer();
    await host.waitForSelector("#throw-button:not([disabled])", { timeout: 15000 });
    assert.deepEqual(await presenceWords(host), [online, online]);
    assert.equal(await host.getAttribute("#throw-button", "title"), null);
    assert.equal(await host.locator("#resign-button").isDisabled(), false);
    await guest.waitForFunction((word) => document.querySelector("#seat-0 .presence")?.textContent === word, online);

    // A throw tapped while the server cannot answer (stopped: the socket still looks open),
    // then the server killed: after the reconnect the same throw goes out at the same ply.
    server.proc.kill("SIGSTOP");
    await host.click("#throw-button");
    assert.equal(await host.textContent("#throw-value"), "", "no answer while the server is stopped");
    await killServer();
    await waitForText(host, "#status", reconnecting, { timeout: 5000 });
    await restartServer();
    await host.waitForFunction(() => document.querySelector("#throw-value")?.textContent !== "", undefined, { timeout: 15000 });
    const game = new URL(host.url()).pathname.split("/").pop();
    const summary = await (await fetch(`${server.url}/api/games/${game}`)).json();
    assert.equal(summary.ply, 1, "the throw tapped into the outage was made once, after the reconnect");
    await guest.waitForFunction(() => document.querySelector("#throw-value")?.textContent !== "");
  } finally {
    await hostContext.close();
    await guestContext.close();
  }
});
