// The conversation's folder in a real browser, against braid-server
// started in a stand-in home folder (its default folder, and $HOME) and a
// scripted model that reads notes.txt when asked: there the first read is
// asked, with the reason, and an approved read lets the next run by
// itself; the folder moves from the Options panel (a missing folder is
// refused in place and loses nothing; Esc leaves the path, not the
// panel), the next read runs in the new folder without asking, and the
// move lasts a reload. Then a file reference that falls out of what is
// sent is marked on its chip and in the meter, and kept, it is sent again.
// axe-core finds no serious problem with the panel and the row menu open.
// Screenshots: e2e/out/workspace-*.png.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, startScriptedModel, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("workspace");
const home = join(dir, "home");
const project = join(dir, "project");
for (const [folder, text] of [[home, "home secret"], [project, "project plan"]]) {
  mkdirSync(folder);
  writeFileSync(join(folder, "notes.txt"), `${text}\n`);
}
/** What each read returned to the model, in order. */
const told = [];
const model = await startScriptedModel((body) => {
  const last = body.messages.at(-1);
  const said = typeof last.content === "string" ? last.content : JSON.stringify(last.content);
  if (last.role === "tool") {
    told.push(said);
    return { text: "I read it." };
  }
  return said.includes("read the notes") ? { tool: { name: "read_file", args: { path: "notes.txt" } } } : { text: "ok" };
});
mkdirSync("e2e/out", { recursive: true });
await browserSuite("workspace", { check, finish }, { db: join(dir, "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: home, env: { HOME: home }, cleanup: () => model.close() }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  const idle = () => page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 15000 });
  const cards = page.getByTestId("tool-card");
  const say = async (text) => {
    await box.fill(text);
    await box.press("Enter");
  };
  const options = page.getByRole("button", { name: "Options" });
  const panel = page.getByRole("group", { name: "Conversation settings" });
  const shownFolder = () => panel.getByRole("group", { name: "Folder" }).locator("code").innerText();

  // The stand-in home folder: the first read is asked, with the reason.
  await options.click();
  const homeNote = await panel.getByText("Your home folder or one above it: Braid asks before the first read.").isVisible();
  check(homeNote && (await shownFolder()).endsWith("/home"), `the Options panel shows the folder and that reads are asked there (${await shownFolder()})`);
  await page.keyboard.press("Escape");
  await say("read the notes");
  const dialog = page.getByRole("dialog", { name: "Approve tool calls" });
  await dialog.waitFor({ timeout: 15000 });
  const why = await dialog.getByTestId("broad-folder").innerText();
  check(why.includes("your home folder or one above it: Braid asks before the first read"), `the first read in the home folder is asked, and the dialog says why (${why.slice(0, 60)}…)`);
  await page.screenshot({ path: "e2e/out/workspace-home-read.png" });
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await cards.nth(0).filter({ hasText: "done" }).waitFor({ timeout: 15000 });
  await idle();
  await say("read the notes again");
  await cards.nth(1).filter({ hasText: "done" }).waitFor({ timeout: 15000 });
  await idle();
  check(!(await dialog.isVisible()) && told.length === 2 && told.every((t) => t.includes("home secret")), `an approved read lets the next run by itself (${told.length} reads, ${JSON.stringify(told.map((t) => t.slice(0, 30)))})`);

  // Moving the folder: a missing one is refused in place, the path kept.
  await options.click();
  await panel.getByRole("button", { name: "Change…" }).click();
  const path = panel.getByLabel("Folder path");
  await path.fill(join(dir, "nowhere"));
  await path.press("Enter");
  const refused = await panel.getByRole("alert").innerText();
  check(refused.includes("does not exist") && (await path.inputValue()).endsWith("nowhere"), `a folder that does not exist is refused in place, the typed path kept (${refused})`);
  await path.press("Escape");
  check((await panel.isVisible()) && (await shownFolder()).endsWith("/home"), "Esc leaves the path, not the panel, and the folder is unchanged");
  await panel.getByRole("button", { name: "Change…" }).click();
  await path.fill(project);
  await path.press("Enter");
  await panel.locator("code", { hasText: "/project" }).waitFor({ timeout: 5000 });
  const broadAfter = await panel.getByText("Your home folder").count();
  check(broadAfter === 0, `the conversation moves to the project folder, where reads are not asked (${await shownFolder()})`);
  const listed = await page.locator(".conversations li.selected .folder").innerText();
  check(listed === "project", `the conversation list shows the new folder (${listed})`);
  await page.keyboard.press("Escape");
  await say("read the notes there");
  await cards.nth(2).filter({ hasText: "done" }).waitFor({ timeout: 15000 });
  await idle();
  check(told.length === 3 && told[2].includes("project plan"), `the next read runs in the new folder without asking (${JSON.stringify(told[2]?.slice(0, 40))})`);
  await page.reload();
  await page.locator(".conversations li.selected .open").click();
  await options.click();
  check((await shownFolder()).endsWith("/project"), "the move lasts a reload");

  // A reference that falls out of what is sent: marked, then kept.
  await panel.getByLabel("Context strategy").selectOption("recent_n");
  await page.keyboard.press("Escape");
  await say("@notes.txt remember this");
  await page.getByTestId("file-chip").waitFor({ timeout: 15000 });
  await idle();
  const mark = page.getByTestId("left-out-mark");
  const meterText = () => page.getByTestId("meter").innerText();
  // The latest 20 messages are sent: ten more exchanges push it out.
  for (let i = 0; i < 11 && !(await meterText()).includes("left out"); i++) {
    await say(`small talk ${i}`);
    await page.getByText(`small talk ${i}`).waitFor({ timeout: 15000 });
    await idle();
  }
  // The list draws only the rows in view: back to the chip at the top.
  const toTop = () => page.locator(".messages").evaluate((el) => (el.scrollTop = 0));
  await toTop();
  const marked = await mark.waitFor({ timeout: 5000 }).then(() => true, () => false);
  const meter = await page.getByTestId("meter").innerText();
  check(marked && meter.includes("1 reference left out"), `a reference left out of the request is marked on its chip and in the meter (${marked ? await mark.innerText() : "no mark"}; ${meter})`);
  await page.screenshot({ path: "e2e/out/workspace-left-out.png" });
  await mark.getByRole("button", { name: "Keep in context" }).click();
  // Still left out of the last request, now kept for the next.
  await mark.getByRole("button", { name: "Stop keeping" }).waitFor({ timeout: 5000 });
  await say("one more");
  // The list stays where the reader scrolled: wait on the meter instead.
  await page.waitForFunction(() => !document.querySelector("[data-testid=meter]")?.textContent?.includes("left out"), null, { timeout: 15000 }).catch(() => undefined);
  await idle();
  const after = await meterText();
  await toTop();
  const keptShown = await page.getByTestId("kept-mark").waitFor({ timeout: 5000 }).then(() => true, () => false);
  check(keptShown && !after.includes("left out") && !(await mark.isVisible()), `kept, the reference is sent again and the meter no longer counts it (${after})`);

  // The panel and the row menu, checked by axe-core while open.
  await options.click();
  await page.screenshot({ path: "e2e/out/workspace-options.png" });
  const panelProblems = await accessibilityProblems(page);
  await page.keyboard.press("Escape");
  await page.locator(".conversations li.selected").getByRole("button", { name: /^Actions for / }).click();
  await page.getByRole("menuitem", { name: /^Rename/ }).waitFor({ timeout: 5000 });
  await page.screenshot({ path: "e2e/out/workspace-menu.png" });
  const menuProblems = await accessibilityProblems(page);
  await page.keyboard.press("Escape");
  const problems = [...panelProblems, ...menuProblems];
  check(problems.length === 0, `axe-core finds no serious problem with the Options panel or the row menu open (${problems.join("; ")})`);
  // The browser logs the refused move (a 400 answer) itself; nothing else.
  const unexpected = consoleErrors.filter((e) => !e.includes("status of 400"));
  check(unexpected.length === 0, `no console errors but the refused move's (${unexpected.join(" | ")})`);
});
