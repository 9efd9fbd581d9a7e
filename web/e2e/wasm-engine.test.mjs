// The engine in the browser, in Chromium on a page of the real server: the wrapper
// (src/engine/wasm.ts) fetches the fingerprinted engine.wasm from /static/ and compiles it under
// the site's Content-Security-Policy, then answers as the engine does.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import * as esbuild from "esbuild";
import { WEB, launchBrowser, startServer, watchConsole } from "./helpers.mjs";

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The wrapper as a classic script defining `SenetWasm`, with the URL the web build gives it. */
function wrapperScript() {
  const manifest = JSON.parse(readFileSync(join(WEB, "dist", "manifest.json"), "utf8"));
  assert.match(manifest["engine.wasm"] ?? "", /^\/static\/engine-[0-9a-f]{10}\.wasm$/, "run npm run build first");
  const out = esbuild.buildSync({
    entryPoints: [join(WEB, "src", "engine", "wasm.ts")], bundle: true, format: "iife", globalName: "SenetWasm",
    target: "es2022", write: false, define: { SENET_ENGINE_WASM_URL: JSON.stringify(manifest["engine.wasm"]) },
  });
  return `${out.outputFiles[0].text}\nwindow.SenetWasm = SenetWasm;`;
}

test("the engine loads on a page of the site, under its CSP, and answers as the engine", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watchConsole(page);
  const wasmResponses = [];
  page.on("response", (r) => { if (r.url().endsWith(".wasm")) wasmResponses.push(r); });
  await page.goto(`${server.url}/en/rules`);
  // Evaluated by the test driver (as axe is): the page's CSP forbids an injected inline script.
  await page.evaluate(wrapperScript());
  const answers = await page.evaluate(async () => {
    const engine = await window.SenetWasm.loadEngine();
    const again = await window.SenetWasm.loadEngine();
    const start = "standard:1212121212....................:1:0:0";
    let error = null;
    try {
      engine.apply(start, 2, "1-3");
    } catch (e) {
      error = e instanceof Error ? e.message : "not an Error";
    }
    return {
      cached: engine === again,
      moves: engine.moves(start, 1),
      apply: engine.apply(start, 2, "9-11"),
      odds: engine.throwOdds("bell").map((o) => o.probability),
      p: engine.winProbability(start),
      error,
    };
  });
  assert.equal(answers.cached, true, "loadEngine loads once");
  assert.deepEqual(answers.moves, ["1-2", "3-4", "5-6", "7-8", "9-10"]);
  assert.deepEqual(answers.apply, { position: "standard:12121212.21...................:2:0:0", status: "ongoing" });
  assert.deepEqual(answers.odds, [0.25, 0.25, 0.25, 0.25]);
  assert.ok(answers.p > 0.4 && answers.p < 0.6, `start position: ${answers.p}`);
  assert.match(answers.error ?? "", /1-3/);
  assert.equal(wasmResponses.length, 1, "fetched once");
  assert.equal(wasmResponses[0].headers()["content-type"], "application/wasm");
  // Compressed: brotli for a browser that accepts it (Chromium does), gzip otherwise.
  assert.equal(wasmResponses[0].headers()["content-encoding"], "br");
  assert.deepEqual(problems, []);
  await context.close();
});
