// "What the model sees", in a real browser, against braid-server and the
// real llama.cpp peer behind a logging proxy: the conversation is set to
// the Planner role in a folder with an AGENTS.md; after an answer, the
// view (opened from the meter's context view, and with Ctrl+Shift+I) shows the system
// prompt part by part with tokens, the messages and the tools, and the
// system prompt, the messages and the tool names are exactly what the
// model's server received. AGENTS.md edited between two requests: the next
// request and the view carry the new text. Then a workflow from the composer:
// `/` lists it, `/greet ` opens its form, Run sends the filled-in prompt to
// the model and the run's card says it completed. Screenshots:
// e2e/out/prompt-*.png.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, startLoggingProxy, startPeer, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("prompt");
const project = join(dir, "project");
mkdirSync(project);
writeFileSync(join(project, "AGENTS.md"), "Always answer in one short sentence.\n");
mkdirSync(join(project, ".braid", "workflows"), { recursive: true });
writeFileSync(join(project, ".braid", "workflows", "greet.md"), "---\ndescription: Greet someone\nparameters:\n  - name: who\n    description: Whom to greet\n  - name: tone\n    default: warmly\n---\nGreet {{who}} {{tone}}, in one sentence.\n");
const peer = startPeer();
const proxy = await startLoggingProxy(0, new URL(peer.url).origin);
mkdirSync("e2e/out", { recursive: true });

/** The last chat request the model's server received for the conversation
 *  (not a title request: those have no tools and their own prompt). */
const lastChat = () =>
  proxy.bodies
    .map((b) => { try { return JSON.parse(b.body); } catch { return null; } })
    .filter((b) => b?.messages && b.messages[0]?.role === "system" && b.messages[0].content.startsWith("You are the assistant in Braid"))
    .at(-1);
const text = (c) => (typeof c === "string" ? c : (c ?? []).map((p) => p.text ?? "").join(""));

await browserSuite("prompt", { check, finish }, { db: join(dir, "braid.db"), args: ["--base-url", proxy.url, "--model", "smollm2-135m"], cwd: project, env: { HOME: dir }, page: { viewport: { width: 1200, height: 860 } }, cleanup: () => { proxy.close(); peer.stop(); } }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message", { exact: true });
  await box.waitFor();
  // Idle again after a new request reached the model's server (the state
  // line may still say Idle the moment Enter is pressed). The count is
  // taken before the message goes: a quick answer can reach the server
  // before the key press returns.
  const idle = async (before) => {
    for (let i = 0; proxy.bodies.length === before; i++) {
      if (i === 600) throw new Error("no request reached the model's server in 60 s");
      await new Promise((r) => setTimeout(r, 100));
    }
    for (let i = 0; i < 6 && !(await page.getByTestId("state").filter({ hasText: "Idle" }).isVisible()); i++) {
      await page.getByRole("button", { name: "Deny" }).first().click({ timeout: 20000 }).catch(() => {});
    }
    await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 180000 });
  };

  // Before any request: the view says so.
  await page.keyboard.press("Control+Shift+I");
  const view = page.getByRole("dialog", { name: "What the model sees" });
  const nothing = await view.getByText("Nothing was sent from this conversation").waitFor({ timeout: 5000 }).then(() => true, () => false);
  check(nothing, "before any request the view (Ctrl+Shift+I) says nothing was sent yet");
  await view.getByRole("button", { name: "Close" }).click();

  // The Planner role, from the Options panel.
  await page.getByRole("button", { name: "Options" }).click();
  await page.getByLabel("Role").selectOption("planner");
  await page.waitForFunction(() => document.querySelector('select[aria-label="Role"]')?.value === "planner");
  // A local server's model gets tools only when told to.
  await page.getByLabel("Tool use").selectOption("auto");
  await page.waitForFunction(() => document.querySelector('select[aria-label="Tool use"]')?.value === "auto");
  await page.keyboard.press("Escape");

  await box.fill("Say hello.");
  await box.press("Enter");
  await idle(0);
  const sentBody = lastChat();
  check(!!sentBody, `the model's server received the request (${proxy.bodies.length} bodies through the proxy)`);

  // From the meter: the window by part, and from there what the model
  // saw, every part named, with tokens.
  await page.locator("button.meter").click();
  await page.getByTestId("context-panel").getByRole("button", { name: "What the model saw last" }).click();
  await view.getByTestId("sent-summary").waitFor({ timeout: 5000 });
  const parts = await view.locator(".sent-part").evaluateAll((ds) => ds.map((d) => ({ part: d.dataset.part, label: d.querySelector("summary").textContent, text: d.querySelector("pre").textContent })));
  const names = parts.map((p) => p.part);
  check(["base", "role", "workspace", "instructions", "tools"].every((n) => names.includes(n)), `the parts are named in order (${names.join(", ")})`);
  check(parts.every((p) => /\d+ tokens/.test(p.label)), `each part shows its tokens (${parts.map((p) => p.label).join(" | ")})`);
  const shownSystem = parts.map((p) => p.text).join("\n\n");
  check(shownSystem === sentBody.messages[0].content, `the system prompt shown is exactly the one the server received (${shownSystem.length} characters)`);
  check(shownSystem.includes("Your role is Planner") && shownSystem.includes("Always answer in one short sentence."), "it carries the Planner role and the project's AGENTS.md");
  const shownMessages = await view.locator(".sent-messages li").evaluateAll((ls) => ls.map((l) => ({ role: l.dataset.role, text: l.querySelector("pre").textContent })));
  const received = sentBody.messages.slice(1).map((m) => ({ role: m.role, text: text(m.content) }));
  check(
    shownMessages.length === received.length && shownMessages.every((m, i) => m.role === received[i].role && (m.role === "assistant" && received[i].text === "" ? true : m.text === received[i].text)),
    `the messages shown are the ones received (${shownMessages.map((m) => m.role).join(", ")})`,
  );
  const shownTools = await view.locator(".sent-tools code").allInnerTexts();
  const receivedTools = (sentBody.tools ?? []).map((t) => t.function.name);
  // The small model may answer nothing with tools offered; the request
  // then goes again without them, and the view must say so.
  const dropped = await view.getByTestId("tools-dropped").isVisible();
  const offered = proxy.bodies.map((b) => JSON.parse(b.body)).filter((b) => b.messages?.[0]?.content === sentBody.messages[0].content && b.tools).at(-1);
  const offeredTools = (offered?.tools ?? []).map((t) => t.function.name);
  check(
    dropped ? receivedTools.length === 0 && JSON.stringify(shownTools) === JSON.stringify(offeredTools) : JSON.stringify(shownTools) === JSON.stringify(receivedTools),
    `the tools shown are the ones received (${shownTools.join(", ")}${dropped ? "; then sent again without them, as the view says" : ""})`,
  );
  const changing = ["write_file", "edit_file", "run_command"];
  check(shownTools.includes("read_file") && shownTools.includes("codebase_search") && !shownTools.some((t) => changing.includes(t)), `a Planner is offered read tools only (${shownTools.join(", ")})`);
  const problems = await accessibilityProblems(page);
  check(problems.length === 0, `axe-core finds no serious problem in the view (${problems.join("; ") || "none"})`);
  await page.screenshot({ path: "e2e/out/prompt-view.png" });
  await view.getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "Close the context view" }).click();

  // AGENTS.md changes: the next request and the view carry the new text.
  writeFileSync(join(project, "AGENTS.md"), "Answer like a pirate.\n");
  await box.fill("Say hello again.");
  const asked = proxy.bodies.length;
  await box.press("Enter");
  await idle(asked);
  await page.keyboard.press("Control+Shift+I");
  await view.locator('.sent-part[data-part="instructions"]').waitFor({ timeout: 5000 });
  const instructions = await view.locator('.sent-part[data-part="instructions"] pre').textContent();
  const again = lastChat();
  check(instructions.includes("Answer like a pirate.") && again.messages[0].content.includes("Answer like a pirate.") && !again.messages[0].content.includes("one short sentence"), "an edited AGENTS.md is read again for the next request (Ctrl+Shift+I opens the view)");
  await page.screenshot({ path: "e2e/out/prompt-again.png" });
  await view.getByRole("button", { name: "Close" }).click();

  // A workflow from the composer: "/" lists it, "/greet " opens its form,
  // Run sends the filled-in prompt; its card records the outcome.
  await box.fill("/");
  await page.getByRole("list", { name: "Workflows" }).getByText("/greet").waitFor({ timeout: 5000 });
  check(true, "typing / lists the folder's workflows");
  await box.fill("/greet ");
  const form = page.getByRole("form", { name: "Workflow greet" });
  await form.waitFor({ timeout: 5000 });
  check(await form.getByRole("button", { name: "Run" }).isDisabled(), "Run waits for the required parameter");
  await form.getByLabel("who").fill("Ada");
  await page.screenshot({ path: "e2e/out/prompt-workflow-form.png" });
  const sentBefore = proxy.bodies.length;
  await form.getByRole("button", { name: "Run" }).click();
  await idle(sentBefore);
  const cardText = await page.getByText(/Workflow \/greet \(tone=warmly, who=Ada\): completed/).first().textContent({ timeout: 15000 }).catch(async () => `not found; system rows: ${(await page.locator(".message.system").allInnerTexts()).join(" | ")}`);
  const ran = proxy.bodies.slice(sentBefore).map((b) => JSON.parse(b.body)).filter((b) => b.messages).at(-1);
  const lastUser = ran?.messages.filter((m) => m.role === "user").at(-1);
  check(text(lastUser?.content) === "Greet Ada warmly, in one sentence.", `the filled-in prompt reached the model (${JSON.stringify(text(lastUser?.content))})`);
  check(cardText.startsWith("Workflow /greet (tone=warmly, who=Ada): completed") && (await box.inputValue()) === "", `the run is recorded with its outcome (${cardText}) and the message box is empty again`);
  await page.screenshot({ path: "e2e/out/prompt-workflow.png" });
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join("; ") || "none"})`);
});
