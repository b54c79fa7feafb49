// A merge carries files, in a real browser against a scripted model (a
// 135M model will not make given tool calls on cue): a fork and main
// each rewrite notes.txt by a command — one clean hunk each, one
// overlapping. Compare shows the file with the overlap said. The merge dialog lists the file as a conflict and will
// not merge until it is settled; taking the source's side there, the
// merge writes the three-way result on disk; undoing the merge from its
// card gives main's bytes back; switching to the fork with its files
// (after a preview) puts the fork's bytes back.
// Screenshots: e2e/out/merge-files.png, e2e/out/switch-files.png.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, clickOnHover, lastUserText, startScriptedModel, tempDir } from "./lib.mjs";

const BASE = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";
const edit = (pairs) => pairs.reduce((t, [from, to]) => t.replace(`${from}\n`, `${to}\n`), BASE);
const IDEA = edit([["two", "two (idea)"], ["eleven", "ELEVEN"]]);
const MAIN = edit([["two", "two (main)"], ["five", "FIVE"]]);
const MERGED = edit([["two", "two (idea)"], ["five", "FIVE"], ["eleven", "ELEVEN"]]);

const { check, finish } = checker();
const dir = tempDir("merge-files");
const work = join(dir, "work");
mkdirSync(work);
writeFileSync(join(work, "notes.txt"), BASE);
const model = await startScriptedModel((body) => {
  const last = body.messages.at(-1);
  if (last.role === "tool") return { text: "Done." };
  const asked = lastUserText(body);
  const content = asked.includes("idea") ? IDEA : asked.includes("main") ? MAIN : null;
  if (!content) return { text: "Ready." };
  return { tool: { name: "run_command", args: { command: `printf '%s' '${content}' > notes.txt` } } };
});
const file = () => readFileSync(join(work, "notes.txt"), "utf8");
const out = join(import.meta.dirname, "out");
mkdirSync(out, { recursive: true });
await browserSuite("merge-files", { check, finish }, { db: join(dir, "data", "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, cleanup: () => model.close(), page: { viewport: { width: 1200, height: 900 } } }, async ({ page, url }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  const idle = () => page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 20000 });
  const ask = async (text, tool) => {
    await box.fill(text);
    await box.press("Enter");
    if (tool) {
      const approve = page.getByRole("dialog", { name: "Approve tool calls" });
      await approve.waitFor({ timeout: 15000 });
      await approve.getByRole("button", { name: "Approve", exact: true }).first().click();
      await approve.waitFor({ state: "detached", timeout: 15000 });
    }
    await idle();
  };
  await ask("start", false);
  await page.getByText("Ready.").first().waitFor({ timeout: 15000 });
  await clickOnHover(page.locator(".message.assistant").first(), "Fork from here");
  await page.locator("details.branches summary").filter({ hasText: "Branch 2" }).waitFor();
  await ask("the idea's edit", true);
  check(file() === IDEA, "the fork's command rewrote notes.txt");
  const panel = page.locator("details.branches");
  if ((await panel.getAttribute("open")) === null) await panel.locator("summary").click();
  await page.locator(".branches-panel").getByRole("button", { name: /^main / }).click();
  await page.locator("details.branches summary").filter({ hasText: "main" }).waitFor();
  await ask("the main edit", true);
  check(file() === MAIN, "main's command rewrote it its own way");

  // Compare, from the graph: the fork's file against the one here.
  await page.keyboard.press("Control+Shift+H");
  await page.locator(".graph-row").filter({ hasText: "the idea's edit" }).first().click();
  await page.getByRole("button", { name: "Compare with main" }).click();
  const compare = page.getByRole("dialog", { name: "main and Branch 2" });
  const compared = compare.getByRole("region", { name: "Files Branch 2 has otherwise" });
  await compared.locator("code", { hasText: "notes.txt" }).waitFor({ timeout: 15000 });
  check((await compared.innerText()).includes("changed here too, in the same lines"), "compare shows the file both changed, with the overlap said");
  await compare.getByRole("button", { name: "Close" }).click();
  await page.keyboard.press("Control+Shift+H");
  await page.locator(".graph-panel").waitFor({ state: "detached" });

  if ((await panel.getAttribute("open")) === null) await panel.locator("summary").click();
  await page.getByRole("button", { name: "Merge Branch 2 into main" }).click();
  const dialog = page.getByRole("dialog", { name: "Merge into main" });
  await dialog.waitFor();
  await dialog.getByLabel("Append").check();
  const files = dialog.getByRole("region", { name: "Files the merge writes" });
  await files.getByText("1 to settle").waitFor({ timeout: 15000 });
  const settle = files.getByRole("group", { name: "Settle notes.txt" });
  const shown = await settle.innerText();
  check(shown.includes("two (main)") && shown.includes("two (idea)"), "the overlapping lines are shown, each side's");
  check(await dialog.getByRole("button", { name: "Merge", exact: true }).isDisabled(), "the merge waits until the file is settled");
  check(file() === MAIN, "the preview wrote nothing");
  await settle.getByLabel("Take the source's").check();
  await files.getByText("1 merged").waitFor({ timeout: 15000 });
  check(await settle.getByLabel("Take the source's").isChecked(), "the settled file stays shown with its choice, to change");
  await files.getByRole("button", { name: "notes.txt" }).click();
  const diff = await files.locator("pre").first().innerText();
  check(diff.includes("+two (idea)") && diff.includes("+ELEVEN"), "settled, the preview shows what the file gets");
  await page.screenshot({ path: join(out, "merge-files.png") });
  await dialog.getByRole("button", { name: "Merge", exact: true }).click();
  await dialog.waitFor({ state: "detached", timeout: 15000 });
  check(file() === MERGED, "the merge wrote the three-way result: both clean hunks, the source's side of the overlap");

  const card = page.getByTestId("merge-card").last();
  await card.getByRole("button", { name: "Undo merge" }).click();
  await card.filter({ hasText: "undone" }).waitFor({ timeout: 15000 });
  check(file() === MAIN, "undoing the merge gives main's bytes back");

  // Switching to the fork with its files: a preview, then the fork's bytes.
  if ((await panel.getAttribute("open")) === null) await panel.locator("summary").click();
  await page.getByRole("button", { name: "Switch to Branch 2 with its files" }).click();
  const switching = page.getByRole("dialog", { name: "Switch to Branch 2 with its files" });
  await switching.getByRole("list", { name: "Files the switch would write" }).locator("code", { hasText: "notes.txt" }).waitFor({ timeout: 15000 });
  await page.screenshot({ path: join(out, "switch-files.png") });
  check(file() === MAIN, "the switch's preview lists notes.txt and writes nothing");
  await switching.getByRole("button", { name: "Switch with its files" }).click();
  await switching.waitFor({ state: "detached", timeout: 15000 });
  await page.locator("details.branches summary").filter({ hasText: "Branch 2" }).waitFor();
  check(file() === IDEA, "switched with its files, the fork's notes.txt is back on disk");
});
