// Every turn is a checkpoint, in a real browser against a scripted model
// (a 135M model will not make given tool calls on cue): one turn writes a
// file and edits another through a shell command, the next removes a file
// with `rm`; the user then edits a file by hand. Rewinding from the first
// question previews the three files (the user's flagged, with its diff),
// "Files only" puts the others back and keeps the user's; the restore's
// card undoes it; Esc Esc opens the rewind of the last question, and
// "Conversation only" forks before it with the question in the composer.
// Screenshot: e2e/out/rewind-preview.png.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, startScriptedModel, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("rewind");
const work = join(dir, "work");
mkdirSync(work);
writeFileSync(join(work, "b.txt"), "alpha\nbeta\n");
writeFileSync(join(work, "c.txt"), "keep me\n");
const model = await startScriptedModel((body) => {
  const last = body.messages.at(-1);
  if (last.role === "tool") return { text: "Done." };
  const said = typeof last.content === "string" ? last.content : JSON.stringify(last.content);
  if (said.includes("remove")) return { tool: { name: "run_command", args: { command: "rm c.txt" } } };
  return { tool: { name: "run_command", args: { command: "printf 'made by the model\\n' > new.txt && sed -i s/beta/BETA/ b.txt" } } };
});
const file = (name) => (existsSync(join(work, name)) ? readFileSync(join(work, name), "utf8") : null);
mkdirSync("e2e/out", { recursive: true });
await browserSuite("rewind", { check, finish }, { db: join(dir, "data", "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, cleanup: () => model.close() }, async ({ page, url }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  const turn = async (text, n) => {
    await box.fill(text);
    await box.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Approve tool calls" });
    await dialog.waitFor({ timeout: 15000 });
    await dialog.getByRole("button", { name: "Approve", exact: true }).first().click();
    await page.getByText("Done.").nth(n).waitFor({ timeout: 20000 });
  };
  await turn("make a file and shout beta", 0);
  await turn("now remove c", 1);
  check(file("new.txt") === "made by the model\n" && file("b.txt") === "alpha\nBETA\n" && file("c.txt") === null, "the commands changed the folder");
  writeFileSync(join(work, "b.txt"), "alpha\nBETA\nmine\n");

  const first = page.locator(".message.user").first();
  await first.hover();
  await first.getByRole("button", { name: "Rewind to here" }).click();
  const dialog = page.getByRole("dialog", { name: "Rewind to this question" });
  await dialog.waitFor({ timeout: 10000 });
  const list = dialog.getByRole("list", { name: "Files the rewind would write" });
  await list.waitFor({ timeout: 15000 });
  const rows = await list.locator("li").allInnerTexts();
  check(rows.length === 3, `three files in the preview (${JSON.stringify(rows)})`);
  check(rows[0].includes("b.txt") && rows[0].includes("you changed it since"), `the user's file is flagged (${JSON.stringify(rows[0])})`);
  check(rows.some((r) => r.includes("c.txt") && r.includes("written again")) && rows.some((r) => r.includes("new.txt") && r.includes("removed")), "the removed file comes back, the new one goes");
  await list.locator("li").first().locator("summary").click();
  const diff = await list.locator("pre.diff").first().innerText();
  check(diff.includes("-mine") && diff.includes("+beta"), `the diff of the user's file is shown (${JSON.stringify(diff.slice(0, 120))})`);
  check(file("new.txt") !== null, "a preview writes nothing");
  await page.screenshot({ path: "e2e/out/rewind-preview.png" });
  await dialog.getByRole("button", { name: "Files only" }).click();
  const card = page.getByTestId("restore-card");
  await card.waitFor({ timeout: 15000 });
  check(file("new.txt") === null && file("c.txt") === "keep me\n", "the model's changes are undone on disk");
  check(file("b.txt") === "alpha\nBETA\nmine\n", "the user's edit is kept (not ticked)");
  const said = await card.innerText();
  check(said.includes("Files restored: 2 files") && said.includes("b.txt"), `the card says what was restored and kept (${JSON.stringify(said)})`);

  await card.getByRole("button", { name: "Undo restore" }).click();
  await page.getByTestId("restore-card").filter({ hasText: "File restore undone" }).waitFor({ timeout: 15000 });
  check(file("new.txt") === "made by the model\n" && file("c.txt") === null, "undoing the restore brings the files back as they were");

  // Esc Esc: the rewind of the last question.
  await page.evaluate(() => document.activeElement?.blur?.());
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ timeout: 10000 });
  await dialog.getByRole("button", { name: "Conversation only" }).click();
  await page.waitForFunction(() => document.querySelector("textarea[aria-label='Message']")?.value === "now remove c", null, { timeout: 10000 }).catch(() => undefined);
  const composed = await box.inputValue();
  check(composed === "now remove c", `the question is back in the composer (${JSON.stringify(composed)})`);
  check(file("new.txt") === "made by the model\n", "the conversation alone leaves the files as they are");
  // The branch is switched, then the transcript reloads: waited for.
  await page.waitForFunction(() => document.querySelectorAll(".message.user").length === 1, null, { timeout: 10000 }).catch(() => undefined);
  const questions = await page.locator(".message.user").count();
  check(questions === 1, `the new branch holds what came before the question (${questions} question shown)`);
});
