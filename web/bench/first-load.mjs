// The first load of a play page on a phone over slow 4G, timed: Debian's Chromium on a 390×844
// touch screen with 150 ms of latency, 200 kB/s each way and a 4× slower CPU (Chrome DevTools
// Protocol emulation), opening a game on one device (#seat=, the link a creator is sent to)
// with an empty cache. Prints, per run and as the median, the time from navigation to the throw
// button enabled and how many requests waited for an earlier one's answer ("waves" after the
// page). Usage: node bench/first-load.mjs [runs=5]  (the server is build/server/senet-server, or
// $SENET_SERVER, on a fresh data directory).
import { launchBrowser, startServer } from "../e2e/helpers.mjs";

const runs = Number(process.argv[2] ?? 5);
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

/** One cold load: milliseconds to the enabled throw button, and the request waves seen. */
async function oneLoad(browser, url) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: 200 * 1024, uploadThroughput: 200 * 1024 });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const started = new Map();  // request id → [start, end] in ms since navigation
  const t0 = Date.now();
  cdp.on("Network.requestWillBeSent", (e) => started.set(e.requestId, [Date.now() - t0, Infinity]));
  cdp.on("Network.loadingFinished", (e) => { const s = started.get(e.requestId); if (s) s[1] = Date.now() - t0; });
  cdp.on("Network.webSocketCreated", (e) => started.set(e.requestId, [Date.now() - t0, Infinity]));
  cdp.on("Network.webSocketHandshakeResponseReceived", (e) => { const s = started.get(e.requestId); if (s) s[1] = Date.now() - t0; });
  await page.goto(await newLocalGame(url), { waitUntil: "commit" });
  await page.waitForFunction(() => {
    const b = document.getElementById("throw-button");
    return b && !b.hidden && !b.disabled;
  }, undefined, { timeout: 60000, polling: 20 });
  const ready = Date.now() - t0;
  // A wave is a request that started after every earlier wave's first request had finished.
  const spans = [...started.values()].filter(([s]) => s <= ready).sort((a, b) => a[0] - b[0]);
  let waves = 0, waveEnd = -1;
  for (const [s, e] of spans) if (s >= waveEnd) { waves += 1; waveEnd = e; }
  await context.close();
  return { ready, waves: waves - 1 };  // the page itself is the first wave
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const results = [];
  for (let i = 0; i < runs; ++i) {
    const r = await oneLoad(browser, server.url);
    results.push(r);
    console.log(`run ${i + 1}: throw button enabled after ${r.ready} ms, ${r.waves} request waves after the page`);
  }
  const sorted = results.map((r) => r.ready).sort((a, b) => a - b);
  console.log(`[ figures ] first load on slow 4G (150 ms, 200 kB/s, CPU 4x): median ${sorted[Math.floor(sorted.length / 2)]} ms to the throw button, over ${runs} runs`);
} finally {
  await browser.close();
  await server.stop();
}
