// The first load of the play page and of the home page on a phone over slow 4G, timed: Debian's
// Chromium on a 390×844 touch screen with 150 ms of latency, 200 kB/s each way and a 4× slower
// CPU (Chrome DevTools Protocol emulation), with an empty cache. The play page is a game opened
// on one device (#seat=, the link a creator is sent to), timed to the throw button enabled; the
// home page to its start form ready (home.js has run). Prints, per run and as the median, the
// time from the navigation's start (the page's own clock) and the request waves after the page (by timing and by the initiator
// chain, e2e/load-watch.mjs), and the machine's load average, which these figures depend on.
// Usage: node bench/first-load.mjs [runs=5] [cpu=4]  (cpu: the CPU slow-down; 1 leaves the network
// alone to set the pace; the server is build/server/senet-server, or
// $SENET_SERVER, on a fresh data directory).
import { cpus, loadavg } from "node:os";
import { launchBrowser, startServer } from "../e2e/helpers.mjs";
import { SLOW_4G, chainWaves, timedWaves, watchLoad } from "../e2e/load-watch.mjs";

const runs = Number(process.argv[2] ?? 5);
const cpu = Number(process.argv[3] ?? 4);
if (!(runs >= 1) || !(cpu >= 1)) throw new Error("usage: node bench/first-load.mjs [runs >= 1] [cpu >= 1]");
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };

/** Creates a game on one device and returns the URL of its play page with the seat secret. */
async function newLocalGame(url) {
  const response = await fetch(`${url}/api/games`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ ruleset: "standard", opponent: "local", side: "first" }),
  });
  if (response.status !== 201) throw new Error(`POST /api/games: ${response.status}`);
  return `${url}${(await response.json()).resumeUrl}`;
}

/**
 * One cold load of `url`: milliseconds from the navigation's start (the page's time origin) until
 * `ready` holds in the page, and the request waves seen. `ready` is checked by a
 * MutationObserver the page is given before its first script (through the DevTools protocol,
 * not Playwright's page functions, whose injected script and polling would run on the same
 * slowed main thread and be counted in the figure), which reports once through a binding.
 */
async function oneLoad(browser, url, ready) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const requests = await watchLoad(cdp, { network: SLOW_4G, cpu });
  await cdp.send("Runtime.enable");
  await cdp.send("Runtime.addBinding", { name: "senetBenchReady" });
  let readyWall = Infinity;  // ms since the requests' start, for the waves
  const reported = new Promise((resolve) => cdp.on("Runtime.bindingCalled", (e) => {
    if (e.name === "senetBenchReady") { readyWall = Date.now() - requests.t0; resolve(Number(e.payload)); }
  }));
  const watch = (isReady) => {
    let done = false;
    const check = () => {
      if (done || !isReady()) return;
      done = true;
      observer.disconnect();
      window.senetBenchReady(String(performance.now()));
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden", "disabled"] });
  };
  await cdp.send("Page.enable");
  await cdp.send("Page.addScriptToEvaluateOnNewDocument", { source: `(${watch})(${ready})` });
  await page.goto(url, { waitUntil: "commit" });
  const at = Math.round(await Promise.race([reported, new Promise((_, reject) => setTimeout(() => reject(new Error(`not ready after 60 s: ${url}`)), 60000))]));
  const seen = requests.filter((r) => r.start <= readyWall);
  await context.close();
  return { at, waves: timedWaves(seen), chain: chainWaves(seen).deepest };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const PAGES = {
  "play page": { url: newLocalGame, what: "the throw button", ready: () => { const b = document.getElementById("throw-button"); return b && !b.hidden && !b.disabled; } },
  "home page": { url: async (base) => `${base}/en/`, what: "the start form", ready: () => document.getElementById("level-fieldset")?.hidden === true },
};

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const [name, { url, what, ready }] of Object.entries(PAGES)) {
    const results = [];
    const load = loadavg()[0];
    for (let i = 0; i < runs; ++i) {
      const r = await oneLoad(browser, await url(server.url), ready);
      results.push(r);
      console.log(`${name} run ${i + 1}: ${what} ready after ${r.at} ms, ${r.waves} request waves after the page (${r.chain} by initiator)`);
    }
    console.log(`[ figures ] ${name}, first load on slow 4G (150 ms, 200 kB/s, CPU ${cpu}x): median ${median(results.map((r) => r.at))} ms to ${what}, `
      + `at most ${Math.max(...results.map((r) => r.waves))} request waves after the page, over ${runs} runs (load average ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
  }
} finally {
  await browser.close();
  await server.stop();
}
