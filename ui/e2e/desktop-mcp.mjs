// An MCP tool in the real desktop window with the real LLM peer:
// braid-desktop under Xvfb over WebDriver, server-everything (from
// tests/mcp-servers) named in the app's mcp.json. The settings show it
// ready with its tools; the model is made to call its echo tool
// (`/tool mcp__everything__echo …`; that call is scripted at the proxy,
// see below); the approval dialog names the server
// and the tool; Approve runs it on the server; the result reaches the
// model (seen at a logging proxy) and its answer shows.
// Screenshots: e2e/out/mcp-desktop-*.png.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checker, lastUserText, startLoggingProxy, startPeer, tempDir } from "./lib.mjs";
import { desktopSuite, newConversation, useLocalServer } from "./webdriver.mjs";

const { check, finish } = checker();
const data = tempDir("desktop-mcp");
const appData = join(data, "share", "dev.braid.app");
mkdirSync(appData, { recursive: true });
const everything = join(import.meta.dirname, "../../tests/mcp-servers/node_modules/.bin/mcp-server-everything");
writeFileSync(join(appData, "mcp.json"), JSON.stringify({ mcpServers: { everything: { command: everything, args: ["stdio"] } } }));
const peer = startPeer();
// SmolLM-135M, forced to call the tool, writes arguments that are not
// JSON (the core hands them back as an error): that one call is answered
// at the proxy. The answer after the tool's result is the real model's.
const proxy = await startLoggingProxy(0, new URL(peer.url).origin, (body) =>
  lastUserText(body).includes("through the echo tool") ? { tool: { name: "mcp__everything__echo", args: { message: "hello from the window" } } } : null,
);
const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
await desktopSuite("mcp-desktop", { check, finish }, { data, cleanup: () => { proxy.close(); peer.stop(); } }, async ({ open }) => {
  let s = await open();
  await useLocalServer(s, proxy.url);

  await s.click("//button[.='Settings']");
  const ready = await s.until("the MCP server ready", "const b = [...document.querySelectorAll('.mcp-servers li[data-state=ready] .badge')]; return b.length ? b[0].textContent : ''", 60000);
  check(/ready · \d+ tools/.test(ready), `the settings show server-everything ready with its tools (${ready})`);
  await s.shot("settings");
  await s.click("//button[@aria-label='Close settings']");

  await newConversation(s);
  await s.type(box, `/tool mcp__everything__echo Say hello through the echo tool.${ENTER}`);
  const asked = await s.until("the approval dialog", "return document.querySelector('[aria-label=\"Approve tool calls\"]')?.textContent ?? ''", 180000);
  check(asked.includes("mcp__everything__echo") && asked.includes("from the MCP server everything"), `the approval dialog names the server and the tool (${JSON.stringify(asked.slice(0, 90))})`);
  await s.shot("approval");
  await s.click("//section[@aria-label='Approve tool calls']//button[.='Approve']");
  const card = await s.until("the tool card's result", "const c = [...document.querySelectorAll('[data-testid=tool-card]')].find(c => /done|failed/.test(c.querySelector('.tool-state')?.textContent ?? '')); return c ? c.textContent : ''", 60000);
  check(card.includes("done"), `approving runs the tool on the MCP server (${JSON.stringify(card.slice(0, 100))})`);
  await s.state("Idle", 180000);
  const sent = proxy.bodies.map((b) => b.body).filter((b) => b.includes('"role":"tool"'));
  const echoed = sent.some((b) => b.includes("Echo: hello from the window"));
  check(echoed, `the server's result reaches the real model (${sent.length} requests carried a tool result)`);
  const answer = await s.js("const a = document.querySelectorAll('.message.assistant .markdown'); return a.length ? a[a.length - 1].textContent : ''");
  check(answer.trim().length > 0, `the model's answer after the result shows (${JSON.stringify(answer.slice(0, 60))})`);
  await s.shot("answer");
});
