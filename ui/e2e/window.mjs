// The context window under the user's hand, in a real browser with the
// echo model (Braid's own deterministic test model, so the summary's text
// is known): `/context` shows the next request by part and follows the
// draft as it is typed; dropping a tool group makes its count fall;
// `/compact keep the numbers` shows the summary before anything is
// replaced, the edited text is approved and is what the next request
// carries (read in "What the model saw"); Undo sends the originals again;
// a default set in Settings is what a new conversation starts with; a
// provider preset fills the form, and Save closes it with the connection's result.
// Screenshots: e2e/out/context-window.png, e2e/out/summary-preview.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, echoChat, tempDir } from "./lib.mjs";

const { check, finish } = checker();
mkdirSync("e2e/out", { recursive: true });
await browserSuite("window", { check, finish }, { db: join(tempDir("window"), "braid.db"), args: ["--echo", "--echo-delay-ms", "0"] }, async ({ page, url }) => {
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const { box, say } = echoChat(page);
  for (const q of ["The budget is 40.", "The deadline is May.", "Go."]) await say(q);

  // `/context`: the window by part.
  await box.fill("/context");
  await box.press("Enter");
  const panel = page.getByTestId("context-panel");
  await panel.getByTestId("context-total").waitFor({ timeout: 10000 });
  check((await box.inputValue()) === "", "`/context` opens the view and is not sent");
  const total = async () => Number((await panel.getByTestId("context-total").locator("strong").innerText()).replace(/,/g, ""));
  const names = async () => panel.locator(".context-part > details > summary .name").allInnerTexts();
  const before = await total();
  check(before > 0 && (await names()).includes("Messages") && (await names()).includes("Base prompt"), `the parts are listed with a total (${before}: ${(await names()).join(", ")})`);

  // Typing: the draft is counted, live.
  await box.fill(`Please run the tests in src and tell me ${"what failed ".repeat(40)}`);
  await page.waitForFunction(
    (b) => Number(document.querySelector("[data-testid=context-total] strong")?.textContent?.replace(/,/g, "") ?? 0) > b,
    before,
    { timeout: 10000 },
  ).catch(() => undefined);
  const typed = await total();
  check(typed > before + 80 && (await names()).includes("What you are typing"), `what is typed is counted as it is typed (${before} → ${typed})`);

  // Dropping a tool group: its definitions leave the count.
  const tools = panel.getByTestId("part-tools");
  const toolTokens = async () => Number((await tools.locator("summary .tokens").innerText()).replace(/,/g, ""));
  await tools.locator("summary").click();
  const commands = tools.locator("ul > li:has(> .name[title='Commands'])");
  await commands.waitFor({ timeout: 5000 });
  const toolsBefore = await toolTokens();
  await commands.getByRole("button", { name: "Drop for this conversation" }).click();
  await tools.locator("ul > li:has(> .name[title='Commands (dropped here)'])").waitFor({ timeout: 10000 });
  const toolsAfter = await toolTokens();
  check(toolsAfter < toolsBefore, `dropping the commands group makes the tools' count fall (${toolsBefore} → ${toolsAfter})`);
  const problems = await accessibilityProblems(page);
  check(problems.length === 0, `axe-core finds no serious problem with the view open (${problems.join("; ") || "none"})`);
  await page.screenshot({ path: "e2e/out/context-window.png" });
  await panel.focus();
  await page.keyboard.press("Escape");
  const closed = await panel.waitFor({ state: "detached", timeout: 5000 }).then(() => true, () => false);
  check(closed, "Esc closes the view");

  // `/compact keep the numbers`: a preview, edited, approved.
  await box.fill("/compact keep the numbers");
  await box.press("Enter");
  const dialog = page.getByRole("dialog", { name: /Summary of \d+ messages/ });
  await dialog.waitFor({ timeout: 15000 });
  const title = await dialog.getByRole("heading").innerText();
  const draft = await dialog.getByLabel("Summary (edit before approving)").inputValue();
  check(title === "Summary of 4 messages" && draft.includes("The budget is 40.") && (await dialog.innerText()).includes("keep the numbers"), `the summary waits for approval, with what to keep (${title}; ${draft.slice(0, 60)})`);
  check((await page.getByTestId("summary").count()) === 0, "nothing is replaced before approval");
  const dialogProblems = await accessibilityProblems(page);
  check(dialogProblems.length === 0, `axe-core finds no serious problem in the preview (${dialogProblems.join("; ") || "none"})`);
  await dialog.getByLabel("Summary (edit before approving)").fill("Budget 40, deadline May (approved).");
  await page.screenshot({ path: "e2e/out/summary-preview.png" });
  await dialog.getByRole("button", { name: "Approve edited" }).click();
  const marker = page.getByTestId("summary");
  await marker.waitFor({ timeout: 10000 });
  // The preview closes once the approval is answered, which may come just
  // after the marker's event.
  await dialog.waitFor({ state: "detached", timeout: 10000 });
  await say("Next?");
  const seen = page.getByRole("dialog", { name: "What the model sees" });
  const firstSent = async () => {
    await page.keyboard.press("Control+Shift+I");
    await seen.locator(".sent-messages li").first().waitFor({ timeout: 5000 });
    const text = await seen.locator(".sent-messages li pre").first().textContent();
    await seen.getByRole("button", { name: "Close" }).click();
    return text ?? "";
  };
  const afterSummary = await firstSent();
  check(afterSummary.includes("Budget 40, deadline May (approved).") && !afterSummary.startsWith("The budget is 40."), `the next request carries the approved summary first (${afterSummary.slice(0, 80)})`);

  // Undo: the originals go again; they never left.
  await marker.first().locator("summary").click();
  await marker.first().getByRole("button", { name: "Undo summary" }).click();
  await page.getByText("taken back: the messages are sent again").first().waitFor({ timeout: 10000 });
  await say("Again?");
  const afterUndo = await firstSent();
  check(afterUndo === "The budget is 40.", `after Undo the originals are sent again (${afterUndo.slice(0, 60)})`);

  // What new conversations start with, from the settings.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByLabel("New conversations summarise at").selectOption("0");
  await page.waitForFunction(() => document.querySelector('select[aria-label="New conversations summarise at"]')?.value === "0", null, { timeout: 5000 });
  await settings.getByRole("button", { name: "Close settings" }).click();
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  await say("Fresh start.");
  await box.fill("/context");
  await box.press("Enter");
  const threshold = await panel.getByLabel("Summarise at").inputValue();
  check(threshold === "0", `a new conversation starts with the default from the settings: summaries only when asked (${threshold})`);

  // The failed connection test below answers 502, which the console logs.
  const quiet = [...errors];
  // Connecting a server: a preset fills the form in; Save closes it and
  // says what the connection found (nothing answers on port 9).
  await page.getByRole("button", { name: "Close the context view" }).click();
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await settings.getByRole("button", { name: "Add provider" }).click();
  const form = settings.getByRole("form", { name: "Add a provider" });
  check((await form.getByLabel("Name").inputValue()) === "", "a new provider's form starts empty, not as OpenAI");
  await form.getByRole("group", { name: "Start from" }).getByRole("button", { name: "Ollama" }).click();
  const filled = [await form.getByLabel("Name").inputValue(), await form.getByLabel("Base URL").inputValue()];
  check(filled[0] === "Ollama" && filled[1] === "http://127.0.0.1:11434/v1", `the Ollama preset fills in name and URL (${filled.join(", ")})`);
  await form.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
  await form.getByRole("button", { name: "Save" }).click();
  const said = await settings.getByTestId("provider-saved").innerText({ timeout: 15000 });
  check(said.startsWith("Saved Ollama, but the connection failed") && said.includes("nothing answers at 127.0.0.1:9") && (await form.count()) === 0, `Save closes the form and says, in plain words, what the connection found (${said.slice(0, 120)})`);
  const after = errors.slice(quiet.length);
  check(quiet.length === 0 && after.every((e) => e.includes("502")), `no console errors but the refused connection test's (${errors.join(" | ")})`);
});
