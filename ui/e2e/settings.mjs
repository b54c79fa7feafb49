// Standing instructions and defaults, in a real browser with the echo
// model (its requests are shown in "What the model saw", so what Braid
// sent is read, not what a model wrote): Settings → Your instructions
// reach the next request after the base prompt; Settings → New
// conversations sets the model's approval policy, sandbox and folder a new
// conversation starts with; the conversation's own system prompt is set
// from Options with one branch; the settings go out as a file without
// keys and come back in, a bad file refused with nothing changed. axe-core
// on the settings dialog. Screenshot: e2e/out/settings-*.png.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, echoChat, openSentView, OUT, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("settings");
const projects = join(dir, "projects");
mkdirSync(projects);
mkdirSync(OUT, { recursive: true });
await browserSuite("settings", { check, finish }, { db: join(dir, "braid.db"), args: ["--echo"], env: { HOME: dir }, page: { viewport: { width: 1280, height: 900 } } }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  const { say } = echoChat(page);
  const openSettings = async () => {
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    return page.getByRole("dialog", { name: "Settings" });
  };

  // Your instructions: saved with Ctrl+Enter, said so.
  let settings = await openSettings();
  await settings.getByLabel("About you").fill("I write Rust on Linux.");
  await settings.getByLabel("How to answer").fill("Be brief.");
  await settings.getByLabel("How to answer").press("Control+Enter");
  const saved = await settings.getByRole("status").filter({ hasText: "Saved" }).innerText({ timeout: 5000 }).catch(() => "");
  check(saved.includes("every conversation"), `standing instructions are saved with Ctrl+Enter, and it says so (${saved})`);

  // New conversations: every tool asked, read-only sandbox, a folder.
  await settings.getByLabel("New conversations: tool approval").selectOption("manual");
  await page.waitForFunction(() => document.querySelector('select[aria-label="New conversations: tool approval"]')?.value === "manual", null, { timeout: 5000 });
  await settings.getByLabel("New conversations: command sandbox").selectOption("read_only");
  await page.waitForFunction(() => document.querySelector('select[aria-label="New conversations: command sandbox"]')?.value === "read_only", null, { timeout: 5000 });
  await settings.getByLabel("New conversations: folder").fill("/no/such/folder");
  await settings.getByLabel("New conversations: folder").press("Enter");
  const refused = await settings.getByRole("alert").innerText({ timeout: 5000 }).catch(() => "");
  check(refused.includes("/no/such/folder is not a folder"), `a folder that does not exist is refused, in words (${refused})`);
  await settings.getByLabel("New conversations: folder").fill(projects);
  await settings.getByLabel("New conversations: folder").press("Enter");
  await page.waitForTimeout(300);
  const problems = await accessibilityProblems(page);
  check(problems.length === 0, `axe-core finds no serious problem in the settings (${problems.join("; ")})`);
  await settings.screenshot({ path: join(OUT, "settings-defaults.png") });

  // Export: providers without keys, defaults and instructions.
  const [download] = await Promise.all([page.waitForEvent("download"), settings.getByRole("button", { name: "Export settings" }).click()]);
  const file = readFileSync(await download.path(), "utf8");
  const exported = JSON.parse(file);
  check(exported.instructions?.about_me === "I write Rust on Linux." && exported.conversations?.tool_policy?.kind === "manual" && exported.conversations?.working_dir === projects, `the exported file holds the instructions and defaults (${file.length} bytes)`);
  await settings.getByRole("button", { name: "Close settings" }).click();

  // A new conversation starts with the defaults.
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  await page.getByRole("button", { name: "Options" }).click();
  const policy = await page.getByLabel("Tool approval", { exact: true }).inputValue();
  const sandbox = await page.getByLabel("Command sandbox", { exact: true }).inputValue();
  const folder = await page.getByRole("group", { name: "Folder" }).locator("code").getAttribute("title");
  check(policy === "manual" && sandbox === "read_only" && folder?.endsWith("/projects"), `a new conversation starts with the default approval, sandbox and folder (${policy}, ${sandbox}, ${folder})`);

  // The conversation's prompt, from Options with one branch.
  await page.getByRole("button", { name: /^System prompt: / }).click();
  await page.getByLabel("System prompt of this conversation").fill("You are a pirate.");
  await page.getByLabel("System prompt of this conversation").press("Control+Enter");
  await page.getByRole("button", { name: /^System prompt: You are a pirate/ }).waitFor({ timeout: 5000 });
  await page.getByRole("button", { name: "Options" }).click();
  await say("Ahoy?");
  const view = await openSentView(page);
  const seen = await view.innerText();
  const pirate = seen.indexOf("You are a pirate.");
  const mine = seen.indexOf("I write Rust on Linux.");
  check(pirate >= 0 && mine > pirate && seen.includes("Be brief.") && !seen.includes("You are the assistant in Braid"), `the request carries the conversation's prompt in place of the base, then your instructions (${pirate}, ${mine})`);
  await page.screenshot({ path: join(OUT, "settings-sent.png") });
  await view.getByRole("button", { name: "Close" }).click();

  // Import: a bad file changes nothing; the edited export comes back in.
  settings = await openSettings();
  const chooser = settings.getByLabel("Settings file to import");
  const bad = join(dir, "bad.json");
  writeFileSync(bad, JSON.stringify({ ...exported, conversations: { summarize_at_percent: 20 } }));
  await chooser.setInputFiles(bad);
  await page.getByRole("alertdialog", { name: "Import these settings?" }).getByRole("button", { name: "Import" }).click();
  const badSaid = await settings.getByTestId("settings-transfer").innerText({ timeout: 5000 });
  const still = await settings.getByLabel("About you").inputValue();
  check(badSaid.includes("bad.json") && badSaid.includes("50 to 100 %") && still === "I write Rust on Linux.", `a file that cannot be used is refused with the reason and nothing changes (${badSaid})`);
  const good = join(dir, "good.json");
  writeFileSync(good, JSON.stringify({ ...exported, instructions: { about_me: "I write Go.", how_to_answer: "" } }));
  await chooser.setInputFiles(good);
  await page.getByRole("alertdialog", { name: "Import these settings?" }).getByRole("button", { name: "Import" }).click();
  await settings.getByTestId("settings-transfer").filter({ hasText: "Imported good.json" }).waitFor({ timeout: 5000 });
  const now = [await settings.getByLabel("About you").inputValue(), await settings.getByLabel("How to answer").inputValue()];
  check(now[0] === "I write Go." && now[1] === "", `an imported file replaces the instructions (${now.join(" | ")})`);
  // The two refusals above answer 400, which the console logs.
  check(consoleErrors.length === 2 && consoleErrors.every((e) => e.includes("400")), `no console errors but the two refusals' (${consoleErrors.join(" | ")})`);
});
