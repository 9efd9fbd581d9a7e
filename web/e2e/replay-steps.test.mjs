// The replay of a Piccione record opened as a file (the fixture of the CLI contract): the
// ruleset named above the board, and under it the pieces in each hand and the turn's steps (the
// remainder of the throw, the direction, the throws owed) at each position, as `senet replay
// --positions` gives them.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { REPO, ensureArtifacts, launchBrowser, message, startServer, waitUntil, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const tmp = mkdtempSync(join(tmpdir(), "senet-replay-steps-"));
const cli = () => process.env.SENET_CLI ?? join(REPO, "build", "cli", "senet");
let server, browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.stop(); rmSync(tmp, { recursive: true, force: true }); });

/** Waits for position n (the first one waits for the curve the browser computes, slow on a busy machine). */
async function expectAt(page, n) {
  await waitUntil(page, `position ${n}`, () => page.waitForFunction((k) => document.getElementById("replay")?.dataset.ply === String(k), n, { timeout: 60000 }));
}

test("a Piccione record: the ruleset named, the hands and the turn's steps under the board at each position", { timeout: 90000 }, async () => {
  const text = readFileSync(join(REPO, "tests", "cli", "fixtures", "piccione.json"), "utf8");
  writeFileSync(join(tmp, "piccione.json"), text);
  const native = execFileSync(cli(), ["replay", "--positions", join(tmp, "piccione.json")], { encoding: "utf8" }).trim().split("\n");
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(`${server.url}/en/replay`);
  await page.setInputFiles("#record-file", { name: "piccione.json", mimeType: "application/json", buffer: Buffer.from(text) });
  await expectAt(page, 0);
  assert.equal(await page.textContent("#replay-ruleset"), message("en", "ruleset.piccione"));
  const hands = (a, b) => message("en", "replay.hands", { side1: message("en", "play.side.1"), hand1: message("en", "play.hand", { count: a }),
    side2: message("en", "play.side.2"), hand2: message("en", "play.hand", { count: b }) });
  assert.equal(await page.textContent("#replay-steps"), hands(5, 5));
  // The first position with a remainder: "N of M left" after the hands, M the throw of the ply.
  const plies = JSON.parse(text).plies;
  const n = native.findIndex((p) => Number(p.split(":")[5]) > 0);
  assert.ok(n > 0, "the fixture has a split throw");
  const thrown = plies.slice(0, n).reverse().find((p) => p.throw !== undefined);
  await page.locator("#replay-slider").fill(String(n));
  await expectAt(page, n);
  assert.equal(await page.evaluate(() => document.getElementById("replay").dataset.position), native[n]);
  const left = message("en", "play.steps.left", { left: Number(native[n].split(":")[5]), value: thrown.throw });
  assert.ok((await page.textContent("#replay-steps")).includes(` · ${left}`), await page.textContent("#replay-steps"));
  await page.screenshot({ path: join(ensureArtifacts(), "replay-piccione-phone.png") });
  assert.deepEqual(problems, []);
  await context.close();
});
