// A turn's review, in a real browser against a scripted model (a 135M
// model will not make given tool calls on cue): one turn changes two
// far-apart lines of a file with `sed -i` and writes a new file. The chip
// after the turn counts the files and lines; the review lists both files
// hunk by hunk; undoing one hunk writes only that back, keeping another
// takes it off the list; the undo's card undoes it; a hunk whose lines
// the user changed since is refused with why; the history graph shows the
// files and lines on the node that made the calls.
// Screenshot: e2e/out/changes-review.png.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, startScriptedModel, tempDir } from "./lib.mjs";

const TEXT = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";
const { check, finish } = checker();
const dir = tempDir("changes");
const work = join(dir, "work");
mkdirSync(work);
writeFileSync(join(work, "n.txt"), TEXT);
const model = await startScriptedModel((body) => {
  const last = body.messages.at(-1);
  if (last.role === "tool") return { text: "Done." };
  return { tool: { name: "run_command", args: { command: "sed -i -e s/two/TWO/ -e s/eleven/ELEVEN/ n.txt && printf 'made\\n' > new.txt" } } };
});
const file = (name) => (existsSync(join(work, name)) ? readFileSync(join(work, name), "utf8") : null);
mkdirSync("e2e/out", { recursive: true });
await browserSuite("changes", { check, finish }, { db: join(dir, "data", "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, cleanup: () => model.close() }, async ({ page, url }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  await box.fill("shout two and eleven");
  await box.press("Enter");
  const approve = page.getByRole("dialog", { name: "Approve tool calls" });
  await approve.waitFor({ timeout: 15000 });
  await approve.getByRole("button", { name: "Approve", exact: true }).first().click();
  await page.getByText("Done.").first().waitFor({ timeout: 20000 });
  check(file("n.txt") === TEXT.replace("two", "TWO").replace("eleven", "ELEVEN"), "the command changed the file");

  const chip = page.getByTestId("changes-chip");
  await chip.waitFor({ timeout: 15000 });
  const counted = await chip.innerText();
  check(counted.includes("2 files") && counted.includes("+3") && counted.includes("−2"), `the chip counts files and lines (${JSON.stringify(counted)})`);
  await chip.getByRole("button", { name: "Review changes" }).click();
  const dialog = page.getByRole("dialog", { name: "Changes of this turn" });
  await dialog.waitFor({ timeout: 10000 });
  const list = dialog.getByRole("list", { name: "Files this turn changed" });
  await list.locator(".changes-hunk").first().waitFor({ timeout: 15000 });
  const hunks = await list.locator("li[data-path='n.txt'] .changes-hunk").count();
  check(hunks === 2, `the far-apart lines are two hunks (${hunks})`);
  check((await list.locator("li[data-path='new.txt']").innerText()).includes("new"), "the new file is listed as new");
  await page.screenshot({ path: "e2e/out/changes-review.png" });

  // Undo the second hunk only.
  await dialog.getByRole("button", { name: "Undo hunk 2 of n.txt" }).click();
  await list.locator("li[data-path='n.txt'] .changes-hunk").nth(1).waitFor({ state: "detached", timeout: 15000 });
  check(file("n.txt") === TEXT.replace("two", "TWO"), "only that hunk went back on disk");
  // Keep the new file: it leaves the list, the file stays.
  await dialog.getByRole("button", { name: "Keep new.txt" }).click();
  check((await list.locator("li[data-path='new.txt']").count()) === 0 && file("new.txt") === "made\n", "a kept file leaves the list and stays");
  await dialog.getByRole("button", { name: "Close" }).click();

  const card = page.getByTestId("restore-card").filter({ hasText: "Changes undone" });
  await card.waitFor({ timeout: 15000 });
  await card.getByRole("button", { name: "Undo restore" }).click();
  await page.getByTestId("restore-card").filter({ hasText: "File restore undone" }).waitFor({ timeout: 15000 });
  check(file("n.txt") === TEXT.replace("two", "TWO").replace("eleven", "ELEVEN"), "the undo is itself undone");

  // The user changes the first hunk's line by hand: its undo is refused.
  writeFileSync(join(work, "n.txt"), TEXT.replace("two", "TWO!").replace("eleven", "ELEVEN"));
  await page.getByTestId("changes-chip").getByRole("button", { name: "Review changes" }).click();
  await list.locator(".changes-hunk").first().waitFor({ timeout: 15000 });
  check((await list.locator("li[data-path='n.txt']").innerText()).includes("changed since this turn"), "the file changed since is flagged");
  await dialog.getByRole("button", { name: "Undo hunk 1 of n.txt" }).click();
  const refused = await dialog.getByRole("alert").innerText({ timeout: 10000 });
  check(refused.includes("in the same lines"), `a clashing undo is refused with why (${JSON.stringify(refused)})`);
  check(file("n.txt") === TEXT.replace("two", "TWO!").replace("eleven", "ELEVEN"), "and nothing is written");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached", timeout: 5000 });

  // The history graph: the node that made the calls shows what it changed.
  await page.keyboard.press("Control+Shift+H");
  await page.getByRole("listbox", { name: /Messages of every branch/ }).waitFor();
  const badge = await page.locator(".graph-row .change-badge").first().innerText({ timeout: 10000 });
  check(badge.includes("2 files") && badge.includes("+3"), `the graph node shows files and lines (${JSON.stringify(badge)})`);
  await page.keyboard.press("Escape");

  // Settings → Checkpoints: the space they take, and how long they are kept.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const panel = page.getByRole("region", { name: "Checkpoints" });
  const space = await panel.getByTestId("checkpoint-space").innerText({ timeout: 10000 });
  check(/\d+(\.\d)? (KB|MB)/.test(space), `the settings show the space checkpoints take (${space})`);
  const days = panel.getByLabel("Days to keep checkpoints");
  check((await days.inputValue()) === "30", "kept 30 days by default");
  await days.fill("0");
  await panel.getByRole("button", { name: "Save and prune" }).click();
  check((await panel.getByRole("alert").innerText()).includes("at least one day"), "a bad setting is refused with why");
  await days.fill("60");
  await panel.getByRole("button", { name: "Save and prune" }).click();
  await panel.getByRole("button", { name: "Save and prune" }).waitFor();
  await page.waitForFunction(() => !document.querySelector("[aria-label=Checkpoints] [role=alert]"), null, { timeout: 10000 });
  await page.getByRole("button", { name: "Close settings" }).click();
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  check((await page.getByRole("region", { name: "Checkpoints" }).getByLabel("Days to keep checkpoints").inputValue()) === "60", "the setting is kept");
  await page.screenshot({ path: "e2e/out/changes-settings.png" });
});
