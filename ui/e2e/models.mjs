// The model hub in a real browser, against the stand-in hub (the tests'
// `stand-in-hub` binary serving the real starter GGUF, slowed to 10 MB/s,
// named by HF_ENDPOINT as Hugging Face's own tools read it). The first
// page offers the pick for this machine; Settings → Get models searches,
// opens a repository's files with the memory each would take here, and
// downloads one with its progress and pace; braid-server is killed
// (SIGKILL) in the middle and started again on the same data: the
// download goes on from where it was (a range request from past the
// start), is checked against the SHA-256 and lands on the shelf.
// Screenshots: e2e/out/models-*.png.
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { checker, launchBrowser, OUT, scaled, startServer, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const data = tempDir("models");
const models = join(data, "models");
const starter = execFileSync(join(import.meta.dirname, "../../scripts/starter-model.sh"), [models], { encoding: "utf8" }).trim();
const size = statSync(starter).size;
const target = dirname(resolve(process.env.BRAID_SERVER_BIN ?? "../target/debug/braid-server"));
const hub = spawn(join(target, "stand-in-hub"), [starter, String(10_000_000)], { stdio: ["ignore", "pipe", "inherit"] });
const hubUrl = await new Promise((ok, fail) => {
  hub.stdout.once("data", (d) => ok(String(d).trim()));
  hub.once("exit", (code) => fail(new Error(`stand-in-hub exited with ${code}`)));
});
const FILE = "SmolLM2-copy-Q4_1.gguf";
const part = join(models, `${FILE}.download`);
const db = join(data, "braid.db");
const env = { HF_ENDPOINT: hubUrl };
let run = startServer(db, [], undefined, env);
const browser = await launchBrowser();
mkdirSync(OUT, { recursive: true });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(await run.url);

  // 1. The first page names the pick for this machine, with its size.
  const offer = page.getByRole("group", { name: "A better model" });
  await offer.waitFor({ timeout: scaled(15000) });
  const offered = await offer.innerText();
  check(/Get a better model: .+ is the pick for this machine/.test(offered) && /Download .+ \(\d.* (MB|GB)\)/.test(offered), `the first page offers a better model (${JSON.stringify(offered.slice(0, 120))})`);
  await page.screenshot({ path: join(OUT, "models-first-page.png") });

  // 2. Search, open a repository, see each file's memory here.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const hubPanel = page.getByRole("region", { name: "Get models" });
  await hubPanel.scrollIntoViewIfNeeded();
  check(await hubPanel.getByText("the pick here").isVisible(), "the recommended list marks the pick here");
  await hubPanel.getByLabel("Search the hub for GGUF models").fill("smollm2");
  await hubPanel.getByRole("button", { name: "Search" }).click();
  const repo = hubPanel.getByRole("button", { name: "braid-test/SmolLM2-copy-GGUF" });
  await repo.waitFor({ timeout: scaled(15000) });
  check(await hubPanel.getByText("↓ 1k · ♥ 7 · apache-2.0").first().isVisible(), "a result shows downloads, likes and licence");
  await repo.click();
  const files = hubPanel.getByRole("list", { name: "Files of braid-test/SmolLM2-copy-GGUF" });
  await files.getByText(/needs ≈ \d+ MB · fits/).waitFor({ timeout: scaled(15000) });
  check((await files.locator("li").count()) === 1, "one model file is offered (not the README or the projector)");

  // 3. Download: progress with pace and time left.
  await files.getByRole("button", { name: "Download Q4_1" }).click();
  const item = hubPanel.getByRole("list", { name: "Downloads" }).locator("li").first();
  await item.getByText(/MB\/s · \d+ (s|min) left/).waitFor({ timeout: scaled(15000) }).catch(() => undefined);
  const progress = await item.locator(".download-progress").innerText();
  check(/^\d+ MB of 98 MB · \d+ MB\/s · \d+ (s|min) left$/.test(progress), `a running download shows its pace and time left (${JSON.stringify(progress)})`);
  await hubPanel.getByRole("heading", { name: "Get models" }).evaluate((h) => h.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: join(OUT, "models-downloading.png") });
  const notice = page.getByRole("status", { name: "Model downloads" });
  await notice.waitFor({ timeout: scaled(10000) });
  check(/\d+ MB of 98 MB/.test(await notice.innerText()), "a corner notice shows the download too");

  // 4. Killed in the middle: what came stays, and the start goes on.
  const deadline = Date.now() + scaled(30000);
  while (!(existsSync(part) && statSync(part).size > 20_000_000) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  run.server.kill("SIGKILL");
  await once(run.server, "exit");
  const kept = statSync(part).size;
  check(kept > 20_000_000 && kept < size, `the partial file stays after the kill (${kept} of ${size} bytes)`);
  check(!existsSync(join(models, FILE)), "a partial file is not offered as a model");
  run = startServer(db, [], undefined, env);
  await page.goto(await run.url);
  await page.getByRole("status", { name: "Model downloads" }).waitFor({ timeout: scaled(15000) });
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const shelf = page.getByRole("region", { name: "Built-in model" });
  await shelf.getByText(FILE).first().waitFor({ timeout: scaled(60000) });
  const fetches = await (await fetch(`${hubUrl}/_test/fetches`)).json();
  const mine = fetches.filter((f) => f.repo === "braid-test/SmolLM2-copy-GGUF" && f.status === 206);
  const resumed = mine.find((f) => f.from > 0);
  check(resumed !== undefined && resumed.from <= kept, `after the restart it went on from byte ${resumed?.from} (${kept} were kept), not from 0`);
  await page.getByRole("list", { name: "Downloads" }).getByText("On the shelf").waitFor({ timeout: scaled(15000) });
  check(existsSync(join(models, FILE)) && statSync(join(models, FILE)).size === size && !existsSync(part), "the whole file is on the shelf, checked, and the partial is gone");
  await page.screenshot({ path: join(OUT, "models-landed.png") });
} catch (e) {
  check(false, `model hub flow: ${e.stack ?? e}`);
} finally {
  await browser.close();
  run.server.kill();
  hub.kill();
}
finish();
