// Scripted measurement of the UI (make bench-ui): braid-server with the
// echo, the built UI in headless Chromium. Prints medians and writes
// e2e/out/perf.json; docs/PERFORMANCE.md records the results.
//  - first paint of the last conversation (10,000 messages) after load
//  - showing all 10,000 messages, and how many rows are in the DOM
//  - content_delta arriving in the page -> its text in the DOM
//  - frame times while streaming ~1,000 tokens/s
//  - memory at idle: server RSS, page JS heap
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { launchBrowser, startServer, tempDir } from "./lib.mjs";

const RUNS = Number(process.env.RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const dir = tempDir("perf");
const db = join(dir, "perf.db");
execFileSync(process.env.BRAID_SEED_BIN ?? resolve("../target/debug/examples/seed"), [db, "10000", "Ten thousand"]);
const { server, url: started } = startServer(db, ["--echo", "--echo-delay-ms", process.env.ECHO_DELAY_MS ?? "1"]);
const url = await started;
const browser = await launchBrowser();
const results = {};
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  // Records when each content_delta reaches the page, and when the DOM
  // first shows as many words as have arrived.
  await context.addInitScript(() => {
    window.__lat = [];
    window.__frames = [];
    const pending = [];
    let words = 0;
    const Orig = window.EventSource;
    window.EventSource = class extends Orig {
      addEventListener(name, fn, ...rest) {
        if (name !== "content_delta") return super.addEventListener(name, fn, ...rest);
        return super.addEventListener(name, (e) => {
          words += JSON.parse(e.data).delta.split(/\s+/).filter(Boolean).length;
          pending.push({ at: performance.now(), words });
          fn(e);
        }, ...rest);
      }
    };
    new MutationObserver(() => {
      const el = document.querySelector(".message.streaming .markdown");
      if (!el) return;
      const shown = el.textContent.split(/\s+/).filter(Boolean).length;
      const now = performance.now();
      while (pending.length && pending[0].words <= shown) window.__lat.push(now - pending.shift().at);
    }).observe(document, { subtree: true, childList: true, characterData: true });
    window.__startFrames = () => {
      window.__frames = [];
      let last = performance.now();
      const tick = (t) => {
        window.__frames.push(t - last);
        last = t;
        if (!window.__stopFrames) requestAnimationFrame(tick);
      };
      window.__stopFrames = false;
      requestAnimationFrame(tick);
    };
  });
  const page = await context.newPage();

  const firstPaint = [];
  const showAll = [];
  let rendered = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = Date.now();
    await page.goto(i === 0 ? url : url.replace(/\?.*$/, ""));
    await page.getByText("Answer 9999:").waitFor({ timeout: 30000 });
    firstPaint.push(Date.now() - t0);
    const t1 = Date.now();
    await page.getByRole("button", { name: "Show all" }).click();
    await page.locator('.messages[data-rows="10000"]').waitFor({ timeout: 60000 });
    await page.getByText("Answer 9999:").waitFor();
    showAll.push(Date.now() - t1);
    rendered = Number(await page.locator(".messages").getAttribute("data-rendered"));
  }
  // Scrolling to the top of 10,000 messages draws the first ones.
  const t2 = Date.now();
  await page.locator(".messages").evaluate((el) => (el.scrollTop = 0));
  await page.getByText("Answer 1:").waitFor({ timeout: 10000 }).catch(async (e) => {
    await page.screenshot({ path: "e2e/out/perf-failure.png" });
    throw e;
  });
  results.scroll_to_top_ms = Date.now() - t2;
  results.first_paint_last_conversation_ms = median(firstPaint);
  results.show_all_10000_ms = median(showAll);
  results.rows_in_dom_of_10000 = rendered;

  // Streaming ~1,000 words/s into a fresh conversation.
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  await box.waitFor();
  // 2,000 words: the message must fit the echo model's 8,192-token window.
  const words = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(" ");
  await box.fill(words);
  await page.evaluate(() => window.__startFrames());
  const t3 = Date.now();
  await box.press("Enter");
  await page.getByTestId("state").filter({ hasText: "Streaming" }).waitFor({ timeout: 10000 });
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 60000 });
  const streamMs = Date.now() - t3;
  const { lat, frames } = await page.evaluate(() => {
    window.__stopFrames = true;
    return { lat: window.__lat, frames: window.__frames.slice(1) };
  });
  results.stream_words = 2000;
  results.stream_ms = streamMs;
  results.stream_words_per_s = Math.round(2000 / (streamMs / 1000));
  results.delta_to_dom_median_ms = +median(lat).toFixed(1);
  results.delta_to_dom_p95_ms = +pct(lat, 0.95).toFixed(1);
  results.delta_samples = lat.length;
  results.frame_median_ms = +median(frames).toFixed(1);
  results.frame_p95_ms = +pct(frames, 0.95).toFixed(1);
  results.frames_over_50ms = frames.filter((f) => f > 50).length;
  results.frames = frames.length;

  await page.waitForTimeout(2000);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  // Live objects only: without a collection first the figure is whatever
  // garbage happened to be around (7 to 32 MB in successive runs).
  await cdp.send("HeapProfiler.collectGarbage");
  const { metrics } = await cdp.send("Performance.getMetrics");
  results.page_js_heap_mb = +(metrics.find((m) => m.name === "JSHeapUsedSize").value / 2 ** 20).toFixed(1);
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  results.server_rss_mb = +(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024).toFixed(1);
} finally {
  await browser.close();
  server.kill();
}
mkdirSync("e2e/out", { recursive: true });
writeFileSync("e2e/out/perf.json", JSON.stringify(results, null, 2));
console.log(results);
