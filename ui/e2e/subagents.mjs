// Sub-agents in a real browser against braid-server, with a scripted
// model: the parent calls spawn_agents with two tasks (asked, approved);
// each child asks to run a command — asked in the parent's approval area,
// under the child's name — then submits what it read; the card lists the
// children live and how each ended, opens a child's conversation (which
// leads back), and the model's next request carries both results.
// Screenshots: e2e/out/subagents-*.png.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, startScriptedModel, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("subagents");
const work = join(dir, "work");
mkdirSync(work, { recursive: true });
writeFileSync(join(work, "notes.txt"), "ship on friday\n");
const asked = [];
const model = await startScriptedModel((body) => {
  const system = body.messages.find((m) => m.role === "system")?.content ?? "";
  const last = body.messages.at(-1);
  const child = /You are a sub-agent named (\w+)/.exec(system)?.[1];
  if (child) {
    if (last.role === "tool") return { tool: { name: "submit_result", args: { result: `${child} read: ${last.content.trim()}` } } };
    return { tool: { name: "run_command", args: { command: "cat notes.txt" } } };
  }
  if (!body.tools?.length) return { text: "A title" };
  asked.push(body);
  if (last.role === "tool") return { text: JSON.stringify(body.messages).includes("Split three ways") ? "The sub-agents reported." : "Both sub-agents reported." };
  if (JSON.stringify(last.content).includes("Split three ways")) {
    const three = ["alpha", "beta", "gamma"].map((name) => ({ name, instructions: "Read notes.txt." }));
    return { tool: { name: "spawn_agents", args: { tasks: three } } };
  }
  const tasks = [
    { name: "reader", instructions: "Read notes.txt and say when we ship." },
    { name: "checker", instructions: "Read notes.txt and check the day." },
  ];
  return { tool: { name: "spawn_agents", args: { tasks } } };
});
const out = join(import.meta.dirname, "out");
mkdirSync(out, { recursive: true });
await browserSuite("subagents", { check, finish }, { db: join(dir, "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, page: { viewport: { width: 1280, height: 900 } }, cleanup: () => model.close() }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  await box.fill("Split the release check between two sub-agents.");
  await box.press("Enter");

  const parentAsks = page.getByRole("dialog", { name: "Approve tool calls" });
  await parentAsks.getByText("spawn_agents", { exact: true }).waitFor({ timeout: 15000 });
  check(true, "spawn_agents is asked like any tool");
  await parentAsks.getByRole("button", { name: "Approve", exact: true }).click();

  for (const name of ["reader", "checker"]) {
    const childAsks = page.getByRole("dialog", { name: `Approve ${name}'s tool calls` });
    await childAsks.waitFor({ timeout: 15000 });
    const said = await childAsks.locator("header").innerText();
    check(said.startsWith(`The sub-agent ${name} wants to run a tool`), `${name}'s command is asked in the parent, under its name (${said})`);
    if (name === "reader") {
      const rows = await page.getByTestId("sub-agents").locator("li").allInnerTexts();
      check(rows.length === 2 && rows.some((r) => r.includes("Awaiting approval: run_command")), `the card shows each child live (${rows.join(" | ")})`);
      // Watched live beside the parent: its state, turns and last call.
      await page.getByRole("button", { name: "Watch reader" }).click();
      const watch = page.getByRole("complementary", { name: "Sub-agent reader, live" });
      await watch.waitFor({ timeout: 5000 });
      // The panel opens at once and fills in as the child's snapshot
      // arrives (a loaded machine: seconds later).
      await page
        .waitForFunction(() => document.querySelector("[data-testid=child-stats]")?.textContent?.includes("Awaiting approval"), null, { timeout: 15000 })
        .catch(() => undefined);
      const stats = await watch.getByTestId("child-stats").innerText();
      check(stats.includes("Awaiting approval") && stats.includes("1 turn") && stats.includes("last call run_command") && (await watch.innerText()).includes("Read notes.txt"), `a child's conversation shows live beside the parent (${stats})`);
      await page.screenshot({ path: join(out, "subagents-asking.png") });
      const problems = await accessibilityProblems(page);
      check(problems.length === 0, `axe-core finds no serious problem while a child asks (${problems.join("; ")})`);
    }
    await childAsks.getByRole("button", { name: "Approve", exact: true }).click();
  }

  await page.getByText("Both sub-agents reported.").waitFor({ timeout: 15000 });
  const watched = page.getByRole("complementary", { name: "Sub-agent reader, live" }).getByTestId("child-stats");
  const later = await page.waitForFunction(() => document.querySelector("[data-testid=child-stats]")?.textContent?.includes("last call submit_result"), null, { timeout: 10000 }).then(() => watched.innerText(), () => watched.innerText());
  check(later.includes("2 turns") && later.includes("last call submit_result"), `the watched child follows live to its submission (${later})`);
  await page.getByRole("button", { name: "Close reader's live view" }).click();
  const rows = page.getByTestId("sub-agents").locator("li");
  await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=sub-agents] li")].every((l) => l.textContent.includes("submitted")), null, { timeout: 10000 });
  check((await rows.count()) === 2, "after the call, the card still lists both children, each submitted");
  const result = asked.at(-1).messages.find((m) => m.role === "tool")?.content ?? "";
  check(result.includes("## reader (1 of 2)\nSubmitted") && result.includes("reader read:") && result.includes("ship on friday") && result.includes("## checker (2 of 2)"), `the model's next request carries both results (${JSON.stringify(result.slice(0, 90))}…)`);
  await page.screenshot({ path: join(out, "subagents-done.png") });

  await page.getByRole("button", { name: "Open reader's conversation" }).click();
  const banner = page.getByTestId("child-banner");
  await banner.waitFor({ timeout: 10000 });
  check((await banner.innerText()).startsWith("Sub-agent reader"), "the card opens the child's conversation, which says whose task it does");
  check(await page.locator(".tool-name", { hasText: "submit_result" }).first().isVisible(), "the child's conversation ends with its submission");
  const listed = await page.locator(".conversation-groups section > ul > li").count();
  check(listed === 1, `only the parent is in the conversation list (${listed})`);
  const problems = await accessibilityProblems(page);
  check(problems.length === 0, `axe-core finds no serious problem in the child's conversation (${problems.join("; ")})`);
  await page.screenshot({ path: join(out, "subagents-child.png") });
  await banner.getByRole("button", { name: "Back to the parent conversation" }).click();
  await page.getByTestId("sub-agents").waitFor({ timeout: 10000 });
  check(true, "the child leads back to its parent");

  // Three children; one stopped while it waits: the others go on, and the
  // parent's model hears which one was cancelled.
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  await box.fill("Split three ways.");
  await box.press("Enter");
  await parentAsks.getByText("spawn_agents", { exact: true }).waitFor({ timeout: 15000 });
  await parentAsks.getByRole("button", { name: "Approve", exact: true }).click();
  await page.getByRole("dialog", { name: "Approve beta's tool calls" }).waitFor({ timeout: 15000 });
  await page.getByRole("button", { name: "Stop beta" }).click();
  await page.getByRole("dialog", { name: "Approve beta's tool calls" }).waitFor({ state: "detached", timeout: 10000 });
  // Stop on the parent while two still work: asked, never dropped.
  const requests = asked.length;
  await page.locator(".composer button.interrupt, button.interrupt").first().click();
  const question = page.getByRole("alertdialog", { name: "Sub-agents are working" });
  await question.waitFor({ timeout: 5000 });
  const said = await question.innerText();
  await question.getByRole("button", { name: "Stop after they finish" }).click();
  for (const name of ["alpha", "gamma"]) {
    const childAsks = page.getByRole("dialog", { name: `Approve ${name}'s tool calls` });
    await childAsks.waitFor({ timeout: 15000 });
    await childAsks.getByRole("button", { name: "Approve", exact: true }).click();
  }
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 20000 });
  await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=sub-agents] li")].filter((l) => l.textContent.includes("submitted")).length === 2, null, { timeout: 10000 }).catch(() => undefined);
  const ended = await page.getByTestId("sub-agents").locator("li").allInnerTexts();
  check(said.includes("2 sub-agents still work"), `Stop while sub-agents work asks first, saying what happens to them (${said.replace(/\s+/g, " ").slice(0, 120)})`);
  check(
    ended.filter((r) => r.includes("submitted")).length === 2 && ended.some((r) => r.startsWith("beta") && /cancel/i.test(r)) && asked.length === requests,
    `one child stopped, the other two finish and are kept, and nothing more is asked of the model (${ended.join(" | ")}; ${asked.length - requests} more requests)`,
  );
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join(" | ")})`);
});
