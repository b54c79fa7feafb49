// Codebase tools in a real browser against braid-server, working in a
// copy of tests/fixtures/codebase: the header shows the index built; a
// scripted model calls codebase_search, the result reaches it, and the
// tool card's results open the file at the line in a dialog.
// Screenshot: e2e/out/codebase-open.png.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, startScriptedModel, tempDir, unwrapped } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("codebase");
const work = join(dir, "work");
cpSync(join(import.meta.dirname, "../../tests/fixtures/codebase"), work, { recursive: true });
writeFileSync(join(work, ".gitignore"), "build/\n");
mkdirSync(join(work, "build"), { recursive: true });
writeFileSync(join(work, "build/generated.rs"), "pub fn parse_config() {}\n");
const told = [];
const text = (m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));
const model = await startScriptedModel((body) => {
  const last = body.messages.at(-1);
  if (last.role === "tool") {
    told.push(unwrapped(text(last)));
    return { text: `Found: ${told.at(-1).split("\n")[2]}` };
  }
  return { tool: { name: "codebase_search", args: { query: "parse_config" } } };
});
const out = join(import.meta.dirname, "out");
mkdirSync(out, { recursive: true });
await browserSuite("codebase", { check, finish }, { db: join(dir, "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, page: { viewport: { width: 1200, height: 900 } }, cleanup: () => model.close() }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const status = page.getByTestId("index-status");
  await status.getByText(/^Code index: \d+ files/).waitFor({ timeout: 20000 });
  const built = await status.innerText();
  check(/Code index: 13 files, \d+ symbols/.test(built), `the header shows the index of the folder, built (${built})`);

  const box = page.getByLabel("Message");
  await box.fill("where is parse_config defined?");
  await box.press("Enter");
  // Read tools are asked for under the default policy.
  const dialog0 = page.getByRole("dialog", { name: "Approve tool calls" });
  await dialog0.waitFor({ timeout: 15000 });
  await dialog0.getByRole("button", { name: "Approve", exact: true }).click();
  await page.getByText(/^Found: /).waitFor({ timeout: 15000 });
  const result = told.at(-1) ?? "";
  check(result.includes("rust/src/lib.rs:7 · mod config › impl Loader › fn parse_config · definition"), `the search result, widened to its definition, reaches the model (${result.split("\n")[2]})`);
  check(!result.includes("generated"), "an ignored file is not searched");

  const card = page.getByTestId("tool-card").filter({ hasText: "codebase_search" });
  await card.locator("summary").click();
  const link = card.getByRole("button", { name: "rust/src/lib.rs:7" });
  check(await link.isVisible(), "the tool card lists the results as links");
  await link.click();
  const dialog = page.getByRole("dialog", { name: "rust/src/lib.rs:7" });
  await dialog.waitFor({ timeout: 10000 });
  const target = await dialog.locator('[aria-current="true"]').innerText();
  check(target.includes("pub fn parse_config(&self, text: &str) -> Settings {"), `the file opens at the line, marked (${target.trim()})`);
  await page.screenshot({ path: join(out, "codebase-open.png") });
  const problems = await accessibilityProblems(page);
  check(problems.length === 0, `axe-core finds no serious problem with the file open (${problems.join("; ")})`);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  check(true, "Esc closes the file");
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join(" | ")})`);
});
