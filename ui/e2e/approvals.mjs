// The approval dialog in a real browser, against a scripted model that
// asks for given tool calls: a write over an existing file the model never
// read shows its diff, the warning and "Approve and overwrite"; Esc
// denies it and the model hears so; a call with an empty path never
// reaches the dialog and goes back to the model as an error; a denial's
// reason reaches the model.
// Screenshot: e2e/out/approval-diff.png.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, startScriptedModel, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("approvals");
const work = join(dir, "work");
mkdirSync(work);
writeFileSync(join(work, "notes.md"), "the user's notes\nkept line\n");
const told = [];
const model = await startScriptedModel((body) => {
  const last = body.messages.at(-1);
  if (last.role === "tool") {
    told.push(typeof last.content === "string" ? last.content : JSON.stringify(last.content));
    return { text: "Understood." };
  }
  const said = typeof last.content === "string" ? last.content : JSON.stringify(last.content);
  const path = said.includes("empty") ? "" : "notes.md";
  return { tool: { name: "write_file", args: { path, content: "agent's notes\nkept line\n" } } };
});
mkdirSync("e2e/out", { recursive: true });
await browserSuite("approvals", { check, finish }, { db: join(dir, "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, cleanup: () => model.close() }, async ({ page, url }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  await box.fill("write the notes");
  await box.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Approve tool calls" });
  await dialog.waitFor({ timeout: 15000 });
  const diff = await dialog.getByTestId("write-diff").innerText();
  check(diff.includes("Changes to notes.md") && diff.includes("-the user's notes") && diff.includes("+agent's notes") && diff.includes(" kept line"), `the dialog shows the write as a diff against the file (${JSON.stringify(diff.slice(0, 90))})`);
  const warning = await dialog.getByTestId("overwrite-warning").innerText();
  check(warning.startsWith("notes.md exists and the model has not read it"), `it says the model never read the file (${warning.slice(0, 60)}…)`);
  check(await dialog.getByRole("button", { name: "Approve and overwrite" }).isVisible(), "and offers Approve and overwrite");
  const focused = await page.evaluate(() => document.activeElement?.textContent ?? "");
  check(focused === "Approve and overwrite" && (await dialog.getByRole("button", { name: "Approve", exact: true }).count()) === 0, `the focused default is the action that works: Enter overwrites (${focused})`);
  await page.screenshot({ path: "e2e/out/approval-diff.png" });
  await page.keyboard.press("Escape");
  await page.getByText("Understood.").waitFor({ timeout: 15000 });
  // The card takes the denial from the call's result: wait for it rather
  // than read it once (CI once read it the moment the answer came).
  await page.getByTestId("tool-card").filter({ hasText: "the user denied this tool call" }).first().waitFor({ timeout: 10000 }).catch(() => undefined);
  const card = await page.getByTestId("tool-card").last().innerText();
  check(card.includes("the user denied this tool call"), `Esc denies, and the model hears so (${JSON.stringify(card.slice(0, 80))})`);
  check(readFileSync(join(work, "notes.md"), "utf8") === "the user's notes\nkept line\n", "the file is untouched");

  await box.fill("now with an empty path");
  await box.press("Enter");
  await page.getByText("Understood.").nth(1).waitFor({ timeout: 15000 });
  const invalid = await page.getByTestId("tool-card").last().innerText();
  check(invalid.includes('invalid arguments: the "path" of write_file is empty'), `a call with an empty path goes back to the model as an error (${JSON.stringify(invalid.slice(0, 100))})`);
  check((await dialog.count()) === 0, "and never reached the dialog");

  // Denied with a reason: the model is told why.
  await box.fill("write the notes again");
  await box.press("Enter");
  await dialog.waitFor({ timeout: 15000 });
  await dialog.getByLabel("Why deny write_file").fill("keep my notes as they are");
  await dialog.getByLabel("Why deny write_file").press("Enter");
  await page.getByText("Understood.").nth(2).waitFor({ timeout: 15000 });
  check(told.at(-1)?.includes("the user denied this tool call: keep my notes as they are"), `a denial's reason reaches the model (${JSON.stringify(told.at(-1))})`);

  // Enter on the focused default writes over the file the model never read.
  await box.fill("write the notes, and mean it");
  await box.press("Enter");
  await dialog.waitFor({ timeout: 15000 });
  await dialog.getByRole("button", { name: "Approve and overwrite" }).waitFor({ timeout: 5000 });
  await page.keyboard.press("Enter");
  await page.getByText("Understood.").nth(3).waitFor({ timeout: 15000 });
  check(readFileSync(join(work, "notes.md"), "utf8") === "agent's notes\nkept line\n", "Enter on the dialog's default writes the file");
});
