// MCP servers in a real browser against braid-server: server-everything
// (from tests/mcp-servers) starts in the background and shows as ready
// with its tools, a command that does not exist shows as failed with the
// reason; a server is turned off and on; a settings file that is not
// valid is refused with the reason and the typed text kept; a scripted
// model calls the server's echo tool: the approval dialog names the
// server and the tool, Approve, and the result reaches the model.
// The workspace's own .mcp.json waits for trust, then for the secret it
// names, set in a password field; a server's call limit is changed in
// its form; a resource template chosen in the @ picker is filled in by
// a form and its resource reaches the model.
// Screenshots: e2e/out/mcp-settings.png, mcp-approval.png, mcp-prompt.png,
// mcp-workspace.png, mcp-template.png.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, startScriptedModel, tempDir, unwrapped } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("mcp");
const everything = join(import.meta.dirname, "../../tests/mcp-servers/node_modules/.bin/mcp-server-everything");
writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: { everything: { command: everything, args: ["stdio"] }, missing: { command: "braid-no-such-mcp-server" } } }));
const work = join(dir, "work");
mkdirSync(work, { recursive: true });
writeFileSync(join(work, ".mcp.json"), JSON.stringify({ mcpServers: { repo: { command: everything, args: ["stdio"], env: { REPO_TOKEN: "${secret:repo-token}" } } } }));
const told = [];
const text = (m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));
const model = await startScriptedModel((body) => {
  const last = body.messages.at(-1);
  if (last.role === "tool") {
    told.push(unwrapped(text(last)));
    return { text: `The server said: ${told.at(-1)}` };
  }
  if (text(last).includes("echo server")) return { tool: { name: "mcp__everything__echo", args: { message: "hello from the browser" } } };
  // Anything else: say which resources came with the question.
  const read = body.messages.map(text).filter((t) => t.startsWith("Resource ")).map((t) => t.split("\n")[0]);
  return { text: `I was given: ${read.join("; ") || "nothing"}` };
});
const out = join(import.meta.dirname, "out");
mkdirSync(out, { recursive: true });
await browserSuite("mcp", { check, finish }, { db: join(dir, "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, page: { viewport: { width: 1200, height: 900 } }, cleanup: () => model.close() }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "Settings" }).click();
  const panel = page.getByRole("region", { name: "MCP servers" });
  const row = (name) => panel.locator("li[data-state]").filter({ has: page.locator("strong", { hasText: new RegExp(`^${name}$`) }) });
  await row("everything").and(page.locator('[data-state="ready"]')).waitFor({ timeout: 30000 });
  const ready = await row("everything").locator(".badge").innerText();
  check(/ready · \d+ tools/.test(ready), `server-everything starts in the background and is ready with its tools (${ready})`);
  await row("everything").getByText("Tools", { exact: true }).click();
  check(await row("everything").getByText("mcp__everything__echo").isVisible(), "its tools are listed by their catalogue names");
  await row("everything").getByText(/^Resources \(\d+\)$/).click();
  await row("everything").getByText("demo://resource/dynamic/text/{resourceId}").waitFor();
  await row("everything").getByText(/^Prompts \(\d+\)$/).click();
  check(await row("everything").getByText("/everything:args-prompt").isVisible(), "its resources, templates and prompts are listed too");
  await row("missing").and(page.locator('[data-state="failed"]')).waitFor({ timeout: 30000 });
  const failed = await row("missing").locator(".badge").innerText();
  check(failed.includes('"braid-no-such-mcp-server" was not found'), `a command that does not exist is shown as failed with the reason (${failed})`);
  await page.screenshot({ path: join(out, "mcp-settings.png") });

  // The workspace's server waits for trust, then for its secret.
  const trust = panel.getByRole("group", { name: "Workspace MCP servers" });
  check((await row("repo").innerText()).includes("waits for you to trust the workspace") && (await row("repo").innerText()).includes("from the workspace"), "a workspace's server waits for the user's trust");
  await trust.getByRole("button", { name: "Trust and start them" }).click();
  await row("repo").and(page.locator('[data-state="failed"]')).waitFor({ timeout: 10000 });
  const needs = await row("repo").locator(".badge").first().innerText();
  check(needs.includes('"repo-token" (REPO_TOKEN) is not set'), `trusted, it says which secret it needs (${needs})`);
  const secrets = page.getByRole("region", { name: "MCP secrets" });
  await secrets.getByLabel("Value of repo-token").fill("kumquat-4417");
  await secrets.getByRole("button", { name: "Set" }).click();
  await row("repo").and(page.locator('[data-state="ready"]')).waitFor({ timeout: 30000 });
  const shown = await page.content();
  check(!shown.includes("kumquat-4417") && (await secrets.innerText()).includes("set"), "with the secret set it starts, and the secret is never shown");
  check(await trust.getByRole("button", { name: "Stop trusting" }).isVisible(), "the workspace shows as trusted");
  await page.screenshot({ path: join(out, "mcp-workspace.png"), fullPage: true });

  // A server's call limit, changed in its form, is saved to the file.
  await row("everything").getByText(/^Limits:/).click();
  await row("everything").getByLabel("Limit per call (s)").fill("120");
  await row("everything").getByRole("button", { name: "Save limits" }).click();
  await row("everything").getByText("Limits: 30 s to start, 120 s per call").waitFor({ timeout: 10000 });
  await row("everything").and(page.locator('[data-state="ready"]')).waitFor({ timeout: 30000 });
  check(true, "a server's limits are changed in its form (it starts again with them)");

  await row("missing").getByRole("button", { name: "Turn off" }).click();
  await row("missing").and(page.locator('[data-state="disabled"]')).waitFor();
  check(true, "a server is turned off from its row");

  await panel.getByRole("button", { name: "Edit settings" }).click();
  const editor = panel.getByLabel("MCP settings (JSON)");
  await editor.fill('{"mcpServers": {"broken": {}}}');
  await panel.getByRole("button", { name: "Save and apply" }).click();
  const why = await panel.getByRole("alert").innerText();
  check(why.includes('"broken" needs either a command') && (await editor.inputValue()).includes("broken"), `a settings file that cannot be used is refused with the reason, the text kept (${why})`);
  await editor.press("Escape");
  check(await editor.isVisible(), "Esc in the editor does not throw the typed text away");
  await panel.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Close settings" }).click();

  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  await box.fill("say hello through the echo server");
  await box.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Approve tool calls" });
  await dialog.waitFor({ timeout: 15000 });
  const asked = await dialog.innerText();
  check(asked.includes("mcp__everything__echo") && asked.includes("from the MCP server everything"), `the approval dialog names the server and the tool (${asked.split("\n").slice(0, 3).join(" | ")})`);
  await page.screenshot({ path: join(out, "mcp-approval.png") });
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await page.getByText("The server said: Echo: hello from the browser").waitFor({ timeout: 15000 });
  check(told.at(-1) === "Echo: hello from the browser", `the server's result reaches the model (${told.at(-1)})`);

  // `@` offers the server's resources; the one chosen comes with the question.
  await box.fill("@archi");
  const picker = page.getByRole("listbox", { name: "Workspace files" });
  await picker.getByRole("option", { name: /everything:demo:\/\/resource\/static\/document\/architecture\.md/ }).waitFor({ timeout: 10000 });
  await box.press("Enter");
  await box.pressSequentially("what is this about?");
  const typed = await box.inputValue();
  check(typed === "@everything:demo://resource/static/document/architecture.md what is this about?", `@ offers an MCP resource and inserts it (${typed})`);
  await box.press("Enter");
  await page.getByText("I was given: Resource demo://resource/static/document/architecture.md from everything:").waitFor({ timeout: 15000 });
  check(true, "the resource, read from the server, reaches the model with the question");
  // The streamed answer can show before the refreshed transcript brings the
  // resource's row, so the chip is waited for rather than counted at once.
  const chips = page.locator("summary", { hasText: "everything:demo://resource/static/document/architecture.md" });
  await chips.first().waitFor({ timeout: 5000 }).catch(() => {});
  const chip = await chips.count();
  check(chip === 1, `the resource shows in the chat as a chip named by server and URI (${chip})`);
  await box.fill("@everything:demo://no/such/thing tell me");
  await box.press("Enter");
  const refused = await page.getByRole("alert").filter({ hasText: "no/such/thing" }).first().innerText({ timeout: 10000 });
  check(refused.includes("@everything:demo://no/such/thing"), `a resource the server lacks stops the message with the reason (${refused.slice(0, 100)})`);

  // A template chosen in `@` is filled in by a form, then read like any resource.
  await box.fill("@dynamic/text");
  await picker.getByRole("option", { name: /everything:demo:\/\/resource\/dynamic\/text\/\{resourceId\}/ }).waitFor({ timeout: 10000 });
  await box.press("Enter");
  const tform = page.getByRole("form", { name: "Resource Dynamic Text Resource of everything" });
  await tform.waitFor({ timeout: 10000 });
  check(await tform.getByRole("button", { name: "Fill in" }).isDisabled(), "a template waits for its variables");
  await tform.getByLabel("resourceId").fill("7");
  await page.screenshot({ path: join(out, "mcp-template.png") });
  await tform.getByRole("button", { name: "Fill in" }).click();
  const filled = await box.inputValue();
  check(filled.startsWith("@everything:demo://resource/dynamic/text/7"), `the mention becomes the resource's URI (${filled})`);
  await box.focus();
  await box.press("End");
  await box.pressSequentially("what is it?");
  await box.press("Enter");
  await page.getByText(/I was given: .*Resource demo:\/\/resource\/dynamic\/text\/7 from everything:/).waitFor({ timeout: 15000 });
  check(true, "the template's resource reaches the model");

  // `/` offers the server's prompts; one with arguments asks for them.
  await box.fill("/args");
  await page.getByRole("list", { name: "MCP prompts" }).getByRole("button", { name: /everything:args-prompt/ }).click();
  const form = page.getByRole("form", { name: "Prompt args-prompt of everything" });
  check(await form.getByRole("button", { name: "Insert" }).isDisabled(), "a prompt waits for its required arguments");
  await form.getByLabel("city *").fill("Lyon");
  await form.getByRole("button", { name: "Insert" }).click();
  await page.waitForFunction(() => document.querySelector("textarea[aria-label=Message]")?.value === "What's weather in Lyon?");
  check(true, "the filled-in prompt lands in the message box, to read before sending");
  await page.screenshot({ path: join(out, "mcp-prompt.png") });

  // The refused save answers 400, which the browser logs; nothing else may.
  const unexpected = consoleErrors.filter((e) => !e.includes("status of 400"));
  check(unexpected.length === 0, `no console errors but the refused save's 400 (${unexpected.join("; ")})`);
});
