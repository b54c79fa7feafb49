// Every dialog by keyboard, in a real browser with the echo model: each
// one opened as a user opens it gets the focus inside it, passes
// axe-core with no serious problem, and closes with Esc (a question it
// asks is answered no). Help, Settings, what the model saw, the team,
// rewind, a summary's preview, compare, merge, and the confirmation.
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, clickOnHover, echoChat, tempDir } from "./lib.mjs";

const { check, finish } = checker();
await browserSuite("dialogs", { check, finish }, { db: join(tempDir("dialogs"), "d.db"), args: ["--echo"], page: { viewport: { width: 1280, height: 860 } } }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const { say } = echoChat(page);
  await say("first question");
  await say("second question");
  await say("third question");

  const audit = async (name, open, dialog) => {
    await open();
    await dialog.waitFor({ timeout: 10000 });
    await page.waitForTimeout(250);
    const focused = await dialog.evaluate((d) => d.contains(document.activeElement));
    const problems = await accessibilityProblems(page);
    await page.keyboard.press("Escape");
    const closed = await dialog.waitFor({ state: "hidden", timeout: 3000 }).then(() => true, () => false);
    check(focused && problems.length === 0 && closed, `${name}: the focus is inside on open (${focused}), axe-core finds nothing serious (${problems.join("; ") || "none"}), Esc closes it (${closed})`);
  };

  await audit("the keyboard shortcuts", () => page.getByRole("button", { name: "Keyboard shortcuts" }).click(), page.getByRole("dialog", { name: /Keyboard shortcuts/ }));
  await audit("the settings", () => page.getByRole("button", { name: "Settings", exact: true }).click(), page.getByRole("dialog", { name: "Settings" }));
  await audit("what the model saw", () => page.keyboard.press("Control+Shift+I"), page.getByRole("dialog", { name: "What the model sees" }));
  await audit("the team", () => page.getByRole("button", { name: /^Team/ }).click(), page.getByRole("dialog", { name: /team/i }));
  await audit("rewind", () => clickOnHover(page.locator(".message.user").filter({ hasText: "second question" }), "Rewind to here"), page.getByRole("dialog", { name: /Rewind/ }));
  const box = page.getByLabel("Message", { exact: true });
  await audit(
    "a summary's preview",
    async () => {
      await box.fill("/compact");
      await box.press("Enter");
    },
    page.getByRole("dialog", { name: /Summary of/ }),
  );
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 15000 });
  // A second branch for compare and merge.
  await clickOnHover(page.locator(".message.assistant").first(), "Fork from here");
  await page.locator("details.branches summary").filter({ hasText: "Branch 2" }).waitFor();
  await say("on the fork");
  const openBranches = async () => {
    const d = page.locator("details.branches");
    if ((await d.getAttribute("open")) === null) await d.locator("summary").click();
  };
  await audit("merge", async () => {
    await openBranches();
    await page.getByRole("button", { name: /^Merge main into Branch 2$/ }).click();
  }, page.getByRole("dialog", { name: /Merge/ }));
  await audit("compare", async () => {
    await page.keyboard.press("Control+Shift+H");
    await page.locator(".graph-row").filter({ hasText: "second question" }).first().click();
    await page.getByRole("button", { name: /^Compare with/ }).click();
  }, page.locator("dialog.compare-dialog"));
  await page.getByRole("button", { name: "Close the history graph" }).click();
  await audit("the confirmation", async () => {
    await page.getByRole("button", { name: /^Actions for / }).first().click();
    await page.getByRole("menuitem", { name: "Delete…" }).click();
  }, page.getByRole("alertdialog"));
  check(await page.getByRole("button", { name: /^Actions for / }).count() === 1, "Esc on the confirmation deletes nothing");
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join(" | ")})`);
});
