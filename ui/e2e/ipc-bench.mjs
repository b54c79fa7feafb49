// Channel per subscription vs window events, in the real window (make
// bench-ipc, which builds braid-desktop with the ipc-bench feature).
// Prints the medians; docs/PERFORMANCE.md records them.
import { tempDir } from "./lib.mjs";
import { desktopApp } from "./webdriver.mjs";

const N = Number(process.env.N ?? 1000);
const { openApp, session, stop } = desktopApp(tempDir("ipc"), "ipc");
try {
  const s = session(await openApp());
  await s.until("the UI", "return document.body.innerText.includes('New conversation')", 30000);
  const result = await s.jsAsync("const done = arguments[arguments.length - 1]; window.__braidIpcBench(arguments[0]).then(done, (e) => done({ error: String(e) }));", N);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const summary = Object.fromEntries(
    Object.entries(result).map(([k, runs]) => [k, { median_us: median(runs.map((r) => r.median_us)), p95_us: median(runs.map((r) => r.p95_us)), per_s: median(runs.map((r) => r.per_s)) }]),
  );
  console.log(JSON.stringify({ n: N, runs: 3, summary }, null, 2));
  await s.close();
} finally {
  stop();
}
