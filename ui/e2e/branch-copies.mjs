// A branch in its own copy of the folder, in a real browser against a
// scripted model (a 135M model will not make given tool calls on cue):
// the fork is given a copy from the branch panel; its command rewrites
// notes.txt in the copy while the folder keeps its bytes; main's command
// rewrites another line in the folder. Deleting the fork asks first —
// its copy holds a change the folder lacks, named — and keeps it when
// told to. Merged, both edits are in the folder and the copy is gone.
// Screenshot: e2e/out/branch-copies.png.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, clickOnHover, lastUserText, startScriptedModel, tempDir } from "./lib.mjs";

const BASE = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";
const edit = (pairs) => pairs.reduce((t, [from, to]) => t.replace(`${from}\n`, `${to}\n`), BASE);
const IDEA = edit([["two", "two (idea)"]]);
const MAIN = edit([["nine", "NINE"]]);
const MERGED = edit([["two", "two (idea)"], ["nine", "NINE"]]);

const { check, finish } = checker();
const dir = tempDir("branch-copies");
const work = join(dir, "work");
mkdirSync(work);
writeFileSync(join(work, "notes.txt"), BASE);
const model = await startScriptedModel((body) => {
  if (body.messages.at(-1).role === "tool") return { text: "Done." };
  const asked = lastUserText(body);
  const content = asked.includes("idea") ? IDEA : asked.includes("main") ? MAIN : null;
  if (!content) return { text: "Ready." };
  return { tool: { name: "run_command", args: { command: `printf '%s' '${content}' > notes.txt` } } };
});
const read = (folder) => readFileSync(join(folder, "notes.txt"), "utf8");
const out = join(import.meta.dirname, "out");
mkdirSync(out, { recursive: true });
await browserSuite("branch-copies", { check, finish }, { db: join(dir, "data", "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, cleanup: () => model.close(), page: { viewport: { width: 1200, height: 900 } } }, async ({ page, url }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  const idle = () => page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 20000 });
  const ask = async (text) => {
    await box.fill(text);
    await box.press("Enter");
    const approve = page.getByRole("dialog", { name: "Approve tool calls" });
    await approve.waitFor({ timeout: 15000 });
    await approve.getByRole("button", { name: "Approve", exact: true }).first().click();
    await approve.waitFor({ state: "detached", timeout: 15000 });
    await idle();
  };
  await box.fill("start");
  await box.press("Enter");
  await page.getByText("Ready.").first().waitFor({ timeout: 15000 });
  await idle();
  await clickOnHover(page.locator(".message.assistant").first(), "Fork from here");
  await page.locator("details.branches summary").filter({ hasText: "Branch 2" }).waitFor();
  const panel = page.locator("details.branches");
  const openPanel = async () => {
    if ((await panel.getAttribute("open")) === null) await panel.locator("summary").click();
  };

  await openPanel();
  await page.getByRole("button", { name: "Give Branch 2 its own copy of the folder" }).click();
  const badge = page.locator(".branches-panel .copy-badge");
  await badge.waitFor({ timeout: 15000 });
  const copy = (await badge.getAttribute("title")).split(": ").at(-1);
  check(existsSync(join(copy, "notes.txt")) && read(copy) === BASE, `the fork gets a copy of the folder as it is (${copy})`);

  await ask("the idea's edit");
  check(read(copy) === IDEA && read(work) === BASE, "the fork's command rewrote notes.txt in its copy; the folder kept its bytes");
  await openPanel();
  await page.locator(".branches-panel").getByRole("button", { name: /^main / }).click();
  await page.locator("details.branches summary").filter({ hasText: "main" }).waitFor();
  await ask("the main edit");
  check(read(work) === MAIN && read(copy) === IDEA, "main's command works in the folder, never in the fork's copy");

  // Deleting the fork would lose its change: asked, named, kept on no.
  await openPanel();
  await page.getByRole("button", { name: "Delete Branch 2" }).click();
  await page.getByRole("alertdialog", { name: "Delete the branch?" }).getByRole("button", { name: "Delete" }).click();
  const discard = page.getByRole("alertdialog", { name: "Discard the copy's changes?" });
  await discard.waitFor({ timeout: 15000 });
  check((await discard.innerText()).includes("does not have: notes.txt"), "deleting the fork asks first, naming the change only its copy has");
  await discard.getByRole("button", { name: "Cancel" }).click();
  await discard.waitFor({ state: "detached" });
  check(existsSync(copy) && read(copy) === IDEA, "told no, the copy and its change stay");

  await openPanel();
  await page.getByRole("button", { name: "Merge Branch 2 into main" }).click();
  const dialog = page.getByRole("dialog", { name: "Merge into main" });
  await dialog.waitFor();
  await dialog.getByLabel("Append").check();
  await dialog.getByRole("region", { name: "Files the merge writes" }).getByText("1 merged").waitFor({ timeout: 15000 });
  await page.screenshot({ path: join(out, "branch-copies.png") });
  await dialog.getByRole("button", { name: "Merge", exact: true }).click();
  await dialog.waitFor({ state: "detached", timeout: 15000 });
  check(read(work) === MERGED, "merged, both lines of work are in the folder");
  await page.waitForFunction((c) => !document.querySelector(".branches-panel .copy-badge") && c, copy, { timeout: 15000 }).catch(() => undefined);
  check(!existsSync(copy), "and the fork's copy is gone, nothing of it lost");
});
