// Scripted measurement of the history graph (make bench-ui): a seeded
// conversation of 5,000 messages over 50 branches, opened in headless
// Chromium. Prints medians and writes e2e/out/graph-perf.json:
//  - Ctrl+Shift+H -> the graph's rows painted (fetch, layout in the core,
//    first frame), and how many elements the panel holds
//  - frame times while scrolling the whole history (a missed frame shows
//    as ~33 ms: the display's 16.7 ms twice)
import { execFileSync } from "node:child_process";
import { writeFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { launchBrowser, startServer, tempDir } from "./lib.mjs";

const RUNS = Number(process.env.RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = tempDir("graph-perf");
const db = join(dir, "graph.db");
execFileSync(process.env.BRAID_SEED_BIN ?? resolve("../target/debug/examples/seed"), [db, "5000", "Fifty branches", "50"]);
const { server, url: started } = startServer(db, ["--echo"]);
const url = await started;
const browser = await launchBrowser();
const results = {};
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(url);
  await page.getByText("Fifty branches").click();
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 30000 });
  const opens = [];
  const fetches = [];
  let nodes = 0;
  for (let i = 0; i < RUNS; i++) {
    const ms = await page.evaluate(
      () =>
        new Promise((done) => {
          const t0 = performance.now();
          const seen = new MutationObserver(() => {
            if (document.querySelector(".graph-row")) {
              seen.disconnect();
              requestAnimationFrame(() => done(performance.now() - t0));
            }
          });
          seen.observe(document.body, { childList: true, subtree: true });
          window.dispatchEvent(new window.KeyboardEvent("keydown", { key: "H", ctrlKey: true, shiftKey: true }));
        }),
    );
    opens.push(ms);
    fetches.push(await page.evaluate(() => performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/api/command")).at(-1)?.duration ?? 0));
    nodes = await page.locator(".graph-panel *").count();
    await page.keyboard.press("Control+Shift+H");
    await page.locator(".graph-panel").waitFor({ state: "detached" });
  }
  results.open_ms_median = median(opens);
  // The answer to branch_graph (the core's layout, 5,000 rows of JSON).
  results.fetch_ms_median = median(fetches);
  results.paint_after_fetch_ms_median = median(opens.map((o, i) => o - fetches[i]));
  results.panel_elements = nodes;
  await page.keyboard.press("Control+Shift+H");
  await page.locator(".graph-row").first().waitFor();
  const rows = await page.locator(".graph-rows").evaluate((el) => el.scrollHeight / 28);
  const frames = await page.locator(".graph-rows").evaluate(
    (el) =>
      new Promise((done) => {
        // 240 frames, each scrolling 1/240 of the history: the whole graph.
        const times = [];
        let last = performance.now();
        let n = 0;
        const step = el.scrollHeight / 240;
        const tick = (now) => {
          times.push(now - last);
          last = now;
          el.scrollTop = ++n * step;
          if (n < 240) requestAnimationFrame(tick);
          else done(times.slice(1));
        };
        requestAnimationFrame(tick);
      }),
  );
  results.rows = Math.round(rows);
  results.scroll_frame_ms_median = median(frames);
  results.scroll_frame_ms_max = Math.max(...frames);
  // Frame times come in steps of the display's 16.7 ms: a frame that
  // missed one shows as ~33 ms.
  results.scroll_frames_missed = frames.filter((f) => f > 20).length;
  results.scroll_elements_max = await page.locator(".graph-panel *").count();
  console.log(JSON.stringify(results, null, 2));
  mkdirSync(join(import.meta.dirname, "out"), { recursive: true });
  writeFileSync(join(import.meta.dirname, "out", "graph-perf.json"), JSON.stringify(results, null, 2));
} finally {
  await browser.close();
  server.kill();
}
