// @file references in a real browser: braid-server (echo) working in a
// temporary workspace, the built UI in headless Chromium. Typing @ opens
// the file picker, Enter inserts the path, the sent message shows the
// reference as a chip with the referenced lines, and after the file is
// changed on disk the files in play say so. Screenshot: e2e/out/files.png.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const work = tempDir("files");
mkdirSync(join(work, "docs"));
writeFileSync(join(work, "docs", "notes.md"), "hello notes\nsecond line\nthird line\n");
writeFileSync(join(work, "main.rs"), "fn main() {}\n");
const other = tempDir("files-other");
writeFileSync(join(other, "elsewhere.txt"), "in another folder\n");
mkdirSync("e2e/out", { recursive: true });
await browserSuite("files", { check, finish }, { db: join(tempDir("files-db"), "braid.db"), args: ["--echo", "--echo-delay-ms", "0"], cwd: work, page: { viewport: { width: 1100, height: 700 } } }, async ({ page, url }) => {
  const errors = [];
  // A refused message is a 400 by design (the browser logs every 4xx).
  page.on("console", (m) => m.type() === "error" && !m.text().includes("status of 400") && errors.push(m.text()));
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  await box.click();
  await box.pressSequentially("explain @nots");
  const picker = page.getByRole("listbox", { name: "Workspace files" });
  await picker.waitFor({ timeout: 5000 });
  const first = await picker.getByRole("option").first().innerText();
  check(first === "docs/notes.md", `typing @nots offers docs/notes.md first (${first})`);
  await box.press("Enter");
  await box.pressSequentially(":2-3 please");
  const typed = await box.inputValue();
  check(typed === "explain @docs/notes.md :2-3 please" || typed === "explain @docs/notes.md:2-3 please", `Enter inserts the path (${JSON.stringify(typed)})`);
  // Keep the range attached to the path.
  await box.fill("explain @docs/notes.md:2-3 please");
  await box.press("Enter");
  const chip = page.getByTestId("file-chip");
  await chip.waitFor({ timeout: 10000 });
  check((await chip.locator("summary").innerText()).includes("docs/notes.md:2-3"), "the reference shows as a chip with path and lines");
  await chip.locator("summary").click();
  check((await chip.locator("pre").innerText()) === "second line\nthird line", "clicking the chip shows the referenced lines");
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 10000 });
  // A bad reference is refused with the reason, and nothing is added.
  await box.fill("and @missing.md too");
  await box.press("Enter");
  await page.locator(".notice", { hasText: "@missing.md: no such file" }).waitFor({ timeout: 10000 });
  await page.waitForFunction(() => document.querySelector("textarea")?.value === "and @missing.md too", null, { timeout: 5000 });
  check(true, "a missing file is refused with the reason, and the text comes back to the composer");
  await box.fill("");
  // The file changes on disk: the files in play say so.
  writeFileSync(join(work, "docs", "notes.md"), "hello notes\nsecond line, edited by hand\nthird line\n");
  await box.fill("thanks");
  await box.press("Enter");
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 10000 });
  const panel = page.getByTestId("files-in-play");
  await panel.locator("summary").click();
  await panel.getByText("changed outside Braid").waitFor({ timeout: 5000 });
  check((await panel.innerText()).includes("docs/notes.md"), "the files in play mark docs/notes.md as changed outside Braid");
  await page.screenshot({ path: "e2e/out/files.png" });

  check(errors.length === 0, `no console errors (${errors.join(" | ")})`);

  // A conversation working in another folder, chosen by the user (the
  // refused folder is answered 400, which the browser logs).
  await page.getByRole("button", { name: "New conversation in a folder" }).click();
  const folder = page.getByLabel("Workspace folder");
  await folder.fill("/no/such/folder");
  await folder.press("Enter");
  await page.getByText("does not exist or is not a directory").waitFor({ timeout: 5000 });
  check(true, "a folder that does not exist is refused with the reason");
  await folder.fill(other);
  await folder.press("Enter");
  await folder.waitFor({ state: "detached", timeout: 5000 });
  await box.click();
  await box.pressSequentially("@elsew");
  await picker.waitFor({ timeout: 5000 });
  const offered = await picker.getByRole("option").first().innerText();
  check(offered === "elsewhere.txt", `the new conversation works in the chosen folder (picker offers ${offered})`);
});
