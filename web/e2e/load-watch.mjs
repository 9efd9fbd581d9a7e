// A page's first load as the browser makes it, through the Chrome DevTools Protocol: every
// request (and WebSocket) with its start and end in ms since the navigation, its URL and what
// started it, counted in "waves" two ways. Used by the first-load test (first-load.test.mjs)
// and the benchmark (bench/first-load.mjs).

/** Slow 4G as the benchmark emulates it: 150 ms of latency, 200 kB/s each way. */
export const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 200 * 1024, uploadThroughput: 200 * 1024 };

/**
 * Starts watching `page`'s requests (CDP session `cdp`, network emulated as `network` when
 * given, CPU slowed `cpu` times when above 1). Returns the list it fills: { id, url, start, end,
 * from } (`from`: the URL of the document or script that started it, "" for the navigation).
 */
export async function watchLoad(cdp, { network, cpu = 1 } = {}) {
  const requests = [];
  const byId = new Map();
  const t0 = Date.now();
  const bare = (url) => url.replace(/#.*/, "");
  const starter = (initiator) => {
    if (!initiator) return "";
    if (initiator.url) return bare(initiator.url);
    for (let stack = initiator.stack; stack; stack = stack.parent)
      for (const frame of stack.callFrames) if (frame.url) return bare(frame.url);
    return "";
  };
  const add = (id, url, initiator) => {
    const r = { id, url: bare(url), start: Date.now() - t0, end: Infinity, from: starter(initiator) };
    requests.push(r);
    byId.set(id, r);
  };
  await cdp.send("Network.enable");
  if (network) await cdp.send("Network.emulateNetworkConditions", network);
  if (cpu > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
  cdp.on("Network.requestWillBeSent", (e) => { if (!e.redirectResponse) add(e.requestId, e.request.url, e.initiator); });
  cdp.on("Network.loadingFinished", (e) => { const r = byId.get(e.requestId); if (r) r.end = Date.now() - t0; });
  cdp.on("Network.webSocketCreated", (e) => add(e.requestId, e.url, e.initiator));
  cdp.on("Network.webSocketHandshakeResponseReceived", (e) => { const r = byId.get(e.requestId); if (r) r.end = Date.now() - t0; });
  return Object.assign(requests, { t0 });
}

/**
 * The waves after the page by timing: a request starts a new wave when it starts after the
 * current wave's first request has finished (it could have waited for it), unless it went out
 * in the same millisecond as that first request (times are whole ms: a request answered within
 * its millisecond would otherwise part two that went out together). The page is wave 0.
 */
export function timedWaves(requests, until = Infinity) {
  const spans = requests.filter((r) => r.start <= until).sort((a, b) => a.start - b.start);
  let waves = 0, waveStart = -1, waveEnd = -1;
  for (const { start, end } of spans) if (start >= waveEnd && start > waveStart) { waves += 1; waveStart = start; waveEnd = end; }
  return waves - 1;
}

/**
 * The waves after the page by the initiator chain: a request is one wave after the document or
 * script that started it (the page's own HTML is wave 0). Returns the deepest, and each request's.
 */
export function chainWaves(requests) {
  const depth = new Map();
  const of = (r) => {
    if (depth.has(r)) return depth.get(r);
    depth.set(r, 0);
    const parent = requests.find((p) => p !== r && p.url === r.from);
    const d = r.from === "" ? 0 : parent ? of(parent) + 1 : 1;
    depth.set(r, d);
    return d;
  };
  const each = requests.map((r) => ({ url: r.url, wave: of(r) }));
  return { deepest: Math.max(0, ...each.map((e) => e.wave)), each };
}
