// Where the play page's first load spends its main thread, as bench/first-load.mjs loads it (a
// phone over slow 4G, CPU slowed, empty cache): a Chromium performance trace of each load, and
// per load the main thread's top-level tasks by kind (parse HTML, evaluate script, style,
// layout, paint, …) up to the enabled throw button, the script functions with the most self
// time (the trace's sampling profile) and a timeline of the larger tasks. Prints the medians
// over the runs. Usage: node bench/first-load-profile.mjs [runs=3] [cpu=4] [trace.json]
// (trace.json: the last run's trace, for DevTools' Performance panel).
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { launchBrowser, startServer } from "../e2e/helpers.mjs";
import { SLOW_4G, watchLoad } from "../e2e/load-watch.mjs";

const runs = Number(process.argv[2] ?? 3);
const cpu = Number(process.argv[3] ?? 4);
const traceFile = process.argv[4];
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };
// The sampling profiler slows a throttled page down a lot: only with SAMPLE=1.
const CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink.user_timing", "loading",
  ...(process.env.SAMPLE ? ["disabled-by-default-v8.cpu_profiler"] : [])];

async function newLocalGame(url) {
  const response = await fetch(`${url}/api/games`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ ruleset: "standard", opponent: "local", side: "first" }),
  });
  return `${url}${(await response.json()).resumeUrl}`;
}

/** Marks the enabled throw button in the trace (performance.mark) and reports it through a binding. */
const watch = () => {
  const observer = new MutationObserver(() => {
    const b = document.getElementById("throw-button");
    if (!b || b.hidden || b.disabled) return;
    observer.disconnect();
    performance.mark("senet-ready");
    window.senetBenchReady(String(performance.now()));
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden", "disabled"] });
};

async function oneLoad(browser, url) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await watchLoad(cdp, { network: SLOW_4G, cpu });
  await cdp.send("Runtime.enable");
  await cdp.send("Runtime.addBinding", { name: "senetBenchReady" });
  const reported = new Promise((resolve) => cdp.on("Runtime.bindingCalled", (e) => resolve(Number(e.payload))));
  await cdp.send("Page.enable");
  await cdp.send("Page.addScriptToEvaluateOnNewDocument", { source: `(${watch})()` });
  await browser.startTracing(page, { categories: CATEGORIES });
  await page.goto(url, { waitUntil: "commit" });
  const at = await reported;
  await new Promise((r) => setTimeout(r, 300));
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
  await context.close();
  return { at, trace };
}

/** The main thread's tasks and the sampled functions up to the ready mark. */
function analyse(trace) {
  const events = trace.traceEvents;
  const threads = events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  // The renderer whose main thread has the navigation's start and the ready mark.
  const readyMark = events.find((e) => e.name === "senet-ready");
  const pid = readyMark.pid;
  const tid = threads.find((t) => t.pid === pid).tid;
  const navStart = events.filter((e) => e.pid === pid && e.name === "navigationStart").map((e) => e.ts).sort((a, b) => a - b).pop()
    ?? events.find((e) => e.name === "TracingStartedInBrowser").ts;
  const main = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.ts <= readyMark.ts);
  const ms = (us) => us / 1000;
  // Self time per event name, nested events subtracted from their parents (on one thread they nest properly).
  main.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map();
  const stack = [];
  for (const e of main) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - (e.dur ?? 0));
    self.set(e.name, (self.get(e.name) ?? 0) + (e.dur ?? 0));
    stack.push(e);
  }
  const tasks = main.filter((e) => e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask");
  const busy = tasks.reduce((s, e) => s + e.dur, 0);
  // Larger top-level tasks: when, how long, what is inside (the longest nested event names).
  const timeline = [];
  for (const task of tasks.filter((e) => e.dur > 10000)) {
    const inside = main.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e.dur > 3000 && e.name !== "RunTask");
    const what = [...new Set(inside.map((e) => `${e.name}${e.args?.data?.url ? `(${e.args.data.url.replace(/.*\//, "")})` : ""}${e.args?.data?.functionName ? `(${e.args.data.functionName})` : ""} ${ms(e.dur).toFixed(0)}`))].slice(0, 8);
    timeline.push(`${ms(task.ts - navStart).toFixed(0).padStart(5)} ms +${ms(task.dur).toFixed(0).padStart(4)}: ${what.join(", ")}`);
  }
  // The sampling profile: self time per function (url:line name).
  const nodes = new Map();
  const selfFn = new Map();
  for (const e of events.filter((x) => x.pid === pid && (x.name === "ProfileChunk"))) {
    const data = e.args?.data?.cpuProfile;
    for (const n of data?.nodes ?? []) nodes.set(n.id, n);
    const samples = data?.samples ?? [];
    const deltas = e.args.data.timeDeltas ?? [];
    let t = 0;
    samples.forEach((id, i) => {
      t += deltas[i] ?? 0;
      const n = nodes.get(id);
      if (!n) return;
      const f = n.callFrame;
      const key = `${f.functionName || "(anonymous)"} ${(f.url ?? "").replace(/.*\//, "")}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
      selfFn.set(key, (selfFn.get(key) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0));
    });
  }
  return { ready: ms(readyMark.ts - navStart), busy: ms(busy), self, timeline, selfFn };
}

const server = await startServer();
const browser = await launchBrowser();
const all = [];
const load = loadavg()[0];
try {
  for (let i = 0; i < runs; ++i) {
    const { at, trace } = await oneLoad(browser, await newLocalGame(server.url));
    const a = analyse(trace);
    all.push(a);
    console.log(`run ${i + 1}: ready ${Math.round(at)} ms (trace ${a.ready.toFixed(0)} ms), main thread busy ${a.busy.toFixed(0)} ms`);
    if (i === runs - 1) {
      console.log("timeline (tasks over 10 ms, from the navigation's start):");
      for (const line of a.timeline) console.log(`  ${line}`);
      if (traceFile) writeFileSync(traceFile, JSON.stringify(trace));
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const table = (key, limit, unit) => {
  const names = new Set(all.flatMap((a) => [...a[key].keys()]));
  const rows = [...names].map((n) => [n, median(all.map((a) => (a[key].get(n) ?? 0) / unit))]).sort((a, b) => b[1] - a[1]).slice(0, limit);
  for (const [n, v] of rows) console.log(`  ${v.toFixed(1).padStart(7)} ms  ${n}`);
};
console.log(`main thread self time by event up to the ready mark (median of ${runs}):`);
table("self", 25, 1000);
console.log("script functions by self time (sampled, whole trace):");
table("selfFn", 30, 1000);
console.log(`ready median ${median(all.map((a) => a.ready)).toFixed(0)} ms; load average ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
