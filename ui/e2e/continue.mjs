// An answer cut at the output limit, in a real browser against a scripted
// OpenAI-compatible model (a real model will not stop on cue): it goes on
// by itself once and shows as one answer; with "Stop and wait for
// Continue" it stops marked, and Continue extends the same answer.
import { join } from "node:path";
import { browserSuite, checker, startScriptedModel, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const bodies = [];
const text = (c) => (typeof c === "string" ? c : (c ?? []).map((p) => p.text ?? "").join(""));
const model = await startScriptedModel((body) => {
  const system = text(body.messages[0]?.content);
  // The conversation's title is asked of the same model: not an answer.
  if (system.startsWith("Write a title")) return { text: "Poems" };
  bodies.push(body);
  const last = body.messages.at(-1);
  // Asked to go on: the rest of the answer.
  if (system.includes("cut off at the output limit") && last.role === "assistant") return { text: " red, violets are blue." };
  return { text: "Roses are", finish: "length" };
});
await browserSuite("continue", { check, finish }, { db: join(tempDir("continue"), "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cleanup: () => model.close() }, async ({ page, url }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  const idle = () => page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 15000 });
  await box.fill("Write a poem.");
  await box.press("Enter");
  await page.locator(".message.assistant", { hasText: "Roses are red, violets are blue." }).waitFor({ timeout: 15000 });
  await idle();
  const answers = await page.locator(".message.assistant").allInnerTexts();
  check(answers.length === 1 && (await page.getByTestId("cut-marker").count()) === 0, `the cut answer went on by itself and shows as one finished answer (${answers.length} answer rows)`);
  const cont = bodies.at(-1);
  check(bodies.length === 2 && text(cont.messages.at(-1).content) === "Roses are" && text(cont.messages[0].content).includes("Continue exactly where it stopped"), `the second request carried the cut answer and the instruction to go on (${bodies.length} requests)`);

  // Off: it stops, marked; Continue extends the same answer.
  await page.getByRole("button", { name: "Options" }).click();
  await page.getByLabel("Answers cut at the output limit").selectOption({ label: "Stop and wait for Continue" });
  await page.keyboard.press("Escape");
  await box.fill("Another poem.");
  await box.press("Enter");
  const marker = page.getByTestId("cut-marker");
  await marker.waitFor({ timeout: 15000 });
  await idle();
  check(bodies.length === 3, `with continuing off, one request and the answer waits, marked cut (${bodies.length} requests)`);
  await marker.getByRole("button", { name: "Continue" }).click();
  await page.locator(".message.assistant", { hasText: "Roses are red, violets are blue." }).nth(1).waitFor({ timeout: 15000 });
  await idle();
  const after = await page.locator(".message.assistant").count();
  check(after === 2 && (await marker.count()) === 0, `Continue extended the same answer (${after} answer rows for 2 questions)`);
});
