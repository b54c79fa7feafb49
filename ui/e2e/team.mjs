// Team chat in a real browser against braid-server. The team is set up in
// the team panel: two members on the conversation's (scripted) model and
// two Claude Code stand-ins (tests/fixtures/agents, which speak claude's
// stream-json exactly). A CLI that is not installed is refused with what
// to do, nothing typed lost; `[NEXT:` offers the members; a chain runs in
// turn, each member given the previous answer without markers; names show
// in their colours; the route shows and the running member can be skipped.
// Screenshots: e2e/out/team-panel.png, e2e/out/team-chat.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, startScriptedModel, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("team");
const work = join(dir, "work");
mkdirSync(work, { recursive: true });
const standin = join(import.meta.dirname, "../../tests/fixtures/agents/claude");
const asked = [];
const model = await startScriptedModel((body) => {
  const system = body.messages.find((m) => m.role === "system")?.content ?? "";
  const prompt = body.messages.at(-1).content;
  // Titles are asked of the model too; only the members' turns count.
  if (prompt.includes("Message:\n")) asked.push({ system, prompt });
  const who = /You are (\w+)\./.exec(system)?.[1] ?? "nobody";
  return { text: `${who[0].toUpperCase()}${who.slice(1)} here.` };
});
const out = join(import.meta.dirname, "out");
mkdirSync(out, { recursive: true });
await browserSuite("team", { check, finish }, { db: join(dir, "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, page: { viewport: { width: 1280, height: 900 } }, cleanup: () => model.close() }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();

  await page.getByRole("button", { name: "Team…" }).click();
  const panel = page.getByRole("dialog", { name: "Team" });
  await panel.getByLabel("Name of member 1").waitFor();
  await panel.getByLabel("Name of member 1").fill("max");
  await panel.getByLabel("Name of member 2").fill("sarah");
  const add = async (name, instruction, program) => {
    await panel.getByRole("button", { name: "Add a member" }).click();
    const n = await panel.locator("fieldset.member").count();
    await panel.getByLabel(`Name of member ${n}`).fill(name);
    await panel.getByLabel(`Agent of ${name}`).selectOption("claude-code");
    await panel.getByLabel(`Instructions of ${name}`).fill(instruction);
    await panel.getByLabel(`Program of ${name}`).fill(program);
  };
  await add("cc", "REPLY: Claude reviewed it.", "/nowhere/claude");
  await add("slowpoke", "REPLY: SLOW", standin);
  await panel.getByLabel("Team task").fill("Ship the release");
  await panel.getByRole("button", { name: "Save team" }).click();
  const refusal = panel.getByRole("alert");
  await refusal.waitFor({ timeout: 15000 });
  const said = await refusal.innerText();
  check(said.includes("cc: `/nowhere/claude` is not installed (npm install -g @anthropic-ai/claude-code"), `a CLI that is not installed is refused, with what to do (${said})`);
  check((await panel.getByLabel("Instructions of cc").inputValue()) === "REPLY: Claude reviewed it.", "nothing typed is lost");
  await panel.getByLabel("Program of cc").fill(standin);
  await page.screenshot({ path: join(out, "team-panel.png") });
  const panelProblems = await accessibilityProblems(page);
  check(panelProblems.length === 0, `axe-core finds no serious problem in the team panel (${panelProblems.join("; ")})`);
  await panel.getByRole("button", { name: "Save team" }).click();
  await panel.waitFor({ state: "hidden", timeout: 15000 });
  // The header follows the saved team on its next refresh.
  const header = await page.getByRole("button", { name: "Team (4)" }).waitFor({ timeout: 10000 }).then(() => true, () => false);
  check(header, "the header shows the team");

  const box = page.getByLabel("Message");
  await box.pressSequentially("[NEXT:m");
  const members = page.getByRole("listbox", { name: "Team members" });
  await members.waitFor({ timeout: 5000 });
  check((await members.getByRole("option").allInnerTexts()).join(",") === "max", "typing [NEXT:m offers max");
  await box.press("Enter");
  check((await box.inputValue()) === "[NEXT:max] ", "Enter completes the marker");
  await box.pressSequentially("[NEXT:cc] [NEXT:sarah] Hi team");
  await box.press("Enter");
  await page.getByTestId("speaker").filter({ hasText: "sarah" }).waitFor({ timeout: 20000 });
  await page.getByTestId("team-route").waitFor({ state: "hidden", timeout: 10000 });
  const speakers = await page.getByTestId("speaker").allTextContents();
  check(speakers.join(",") === "max,cc,sarah", `each member answered in turn, under its name (${speakers})`);
  const colour = await page.getByTestId("speaker").first().evaluate((e) => window.getComputedStyle(e).color);
  check(colour === "rgb(29, 78, 216)", `a member's name shows in its colour (${colour})`);
  const last = asked.at(-1);
  check(last.system.startsWith("You are sarah.") && last.system.includes("Team task:\nShip the release"), "sarah's own instruction and the task are its system prompt");
  check(last.prompt.endsWith('Message:\ncc: <untrusted source="team member cc">\nClaude reviewed it.\n</untrusted>') && !last.prompt.includes("[NEXT:"), `sarah was given cc's answer, without markers (${JSON.stringify(last.prompt)})`);

  await box.fill("[NEXT:slowpoke] [NEXT:max] again");
  await box.press("Enter");
  const route = page.getByTestId("team-route");
  await route.getByText("slowpoke").first().waitFor({ timeout: 15000 });
  const shown = await route.innerText();
  check(/slowpoke is answering/.test(shown) && /Next:\s*max/.test(shown), `the route shows who answers and who follows (${shown.replace(/\s+/g, " ")})`);
  await page.screenshot({ path: join(out, "team-chat.png") });
  await route.getByRole("button", { name: "Skip", exact: true }).click();
  await page.getByTestId("speaker").filter({ hasText: "max" }).nth(1).waitFor({ timeout: 15000 });
  await route.waitFor({ state: "hidden", timeout: 10000 });
  const after = await page.getByTestId("speaker").allTextContents();
  check(after.join(",") === "max,cc,sarah,max", `skipping the running member goes on with the next (${after})`);
  const problems = await accessibilityProblems(page);
  check(problems.length === 0, `axe-core finds no serious problem in the team chat (${problems.join("; ")})`);
  // The refused save is the one 400 the browser logs.
  const unexpected = consoleErrors.filter((e) => !e.includes("status of 400"));
  check(unexpected.length === 0 && consoleErrors.length === 1, `no console errors but the refused save (${consoleErrors.join(" | ")})`);
});
