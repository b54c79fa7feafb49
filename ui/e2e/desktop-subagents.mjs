// Sub-agents in the real desktop window (Xvfb, WebDriver) with the real
// llama.cpp peer behind a logging proxy. The parent's forced spawn_agents
// call (`/tool`) is answered at the proxy with two tasks: its content is
// forced, as a 135M model's arguments for two tasks can run past a short
// answer limit. The call is approved in the dialog; each child runs on the
// real model and is made to submit on its grace turn; the tool card lists
// the children with how each ended and opens a child's conversation, which
// says whose task it does and leads back; the history graph shows the
// children as side lanes. What the children write is not checked.
// Screenshots: e2e/out/subagents-desktop-*.png.
import { REAL_MODEL_MS, checker, startLoggingProxy, startPeer, tempDir, forcedTool } from "./lib.mjs";
import { desktopSuite, newConversation, sleep, useLocalServer } from "./webdriver.mjs";

const { check, finish } = checker();
const data = tempDir("desktop-subagents");
const peer = startPeer();
const tasks = [
  { name: "painter", instructions: "Name one colour." },
  { name: "grocer", instructions: "Name one fruit." },
];
// The parent's answer once the children are done is scripted too: a 135M
// model may write 800 tokens of echoed markup there, which scrolls the
// tool card out of the (virtualised) list the test reads it from.
const afterChildren = (body) =>
  body.messages?.at(-1)?.role === "tool" &&
  body.messages.some((m) => m.tool_calls?.some((c) => c.function?.name === "spawn_agents"));
const proxy = await startLoggingProxy(0, new URL(peer.url).origin, (body) =>
  forcedTool(body) === "spawn_agents"
    ? { tool: { name: "spawn_agents", args: { tasks } } }
    : afterChildren(body)
      ? { text: "Both sub-agents are done." }
      : null,
);
const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
const rows = "[...document.querySelectorAll('[data-testid=sub-agents] li')].map((l) => l.textContent)";
await desktopSuite("subagents-desktop", { check, finish }, { data, cleanup: () => { proxy.close(); peer.stop(); } }, async ({ open }) => {
  let s = await open();
  await useLocalServer(s, proxy.url);
  await newConversation(s);

  // Tools only with /tool, short answers, temperature 0: the children copy
  // the parent's settings, so a small model on two cores answers them in
  // words, quickly, and its grace turn makes it submit.
  await s.until("the header's options", "return [...document.querySelectorAll('button')].some((b) => b.textContent === 'Options')", 10000);
  await s.click("//button[.='Options']");
  await s.click("//select[@aria-label='Tool use']/option[@value='on_request']");
  await s.until("tools on request", "return document.querySelector('select[aria-label=\"Tool use\"]')?.value === 'on_request'", 5000);
  await s.type("//input[@aria-label='Temperature']", "0");
  await s.type("//input[@aria-label='Longest answer (tokens)']", `400${ENTER}`);
  await s.until("the settings kept", "return document.querySelector('input[aria-label=\"Longest answer (tokens)\"]')?.value === '400'", 5000);
  await s.click("//button[.='Options']");
  await s.type(box, `/tool spawn_agents Hand out two tasks: one sub-agent names a colour, another names a fruit.${ENTER}`);
  await s.until("the approval", "return !!document.querySelector(\"section[aria-label='Approve tool calls']\")", 60000);
  const asked = await s.js("return document.querySelector(\"section[aria-label='Approve tool calls'] strong\")?.textContent ?? ''");
  check(asked === "spawn_agents", `spawn_agents is asked like any tool (${asked})`);
  await s.click("//section[@aria-label='Approve tool calls']//button[.='Approve']");
  const live = await s.until("the children on the card", `const r = ${rows}; return r.length ? r : null`, 60000);
  check(live.length === tasks.length, `the card lists the children while they run (${live.join(" | ")})`);
  await sleep(300);
  await s.shot("running");
  // A child may call a tool the policy asks about (the app's folder is the
  // home folder: reads are asked there): it is asked here, in the parent,
  // under the child's name, and approved from here.
  const answered = [];
  const deadline = Date.now() + REAL_MODEL_MS;
  for (;;) {
    const v = await s.until(
      "the parent's turn over, or a child asking",
      `const child = [...document.querySelectorAll("section[role=dialog]")].find((d) => /^Approve .+'s tool calls$/.test(d.getAttribute("aria-label") ?? ""));
       if (child) { const label = child.getAttribute('aria-label'); child.querySelector('button.primary')?.click(); return { asked: label }; }
       const idle = (document.querySelector('[data-testid=state]')?.textContent ?? '').startsWith('Idle');
       return idle && document.querySelectorAll('[data-testid=sub-agents] li').length > 0 ? { idle: true } : null`,
      Math.max(1000, deadline - Date.now()),
    );
    if (v.idle) break;
    answered.push(v.asked);
    await sleep(500); // the dialog goes once the child moves on
  }
  // Whether a child calls a tool at all is the model's choice: this is
  // reported, not checked (e2e/subagents.mjs checks it with a scripted model).
  console.log(`children's calls asked in the parent and approved there: ${answered.length ? answered.join(", ") : "none this run"}`);
  const ended = await s.until("every child's end", `const r = ${rows}; return r.length && r.every((t) => /submitted|failed/.test(t)) ? r : null`, 20000);
  check(ended.length === tasks.length, `the card shows how each child ended (${ended.join(" | ")})`);
  await sleep(300);
  await s.shot("done");

  await s.click("(//button[starts-with(@aria-label, 'Open ') and contains(@aria-label, \"'s conversation\")])[1]");
  const banner = await s.until("the child's banner", "return document.querySelector('[data-testid=child-banner]')?.textContent ?? ''", 10000);
  check(banner.startsWith("Sub-agent "), `the card opens the child's conversation, which says whose task it does (${banner.slice(0, 70)}…)`);
  const submitted = await s.until("the child's submission", "return [...document.querySelectorAll('.tool-name')].some((n) => n.textContent === 'submit_result')", 10000);
  check(submitted, "the child's conversation ends with its submit_result");
  const listed = await s.js("return document.querySelectorAll('.conversation-groups section > ul > li').length");
  check(listed === 1, `only the parent is in the conversation list, not its children (${listed} listed)`);
  await sleep(300);
  await s.shot("child");
  await s.click("//button[.='Back to the parent conversation']");
  await s.until("the parent again", "return document.querySelectorAll('[data-testid=sub-agents] li').length || null", 10000);
  check(true, "the child leads back to its parent");

  // Ctrl+Shift+H: the history graph (a conversation of one branch shows
  // no branch list to open it from).
  await s.js("window.dispatchEvent(new KeyboardEvent('keydown', { key: 'H', ctrlKey: true, shiftKey: true, bubbles: true })); return true");
  const lanes = await s.until("the side lanes", "const l = [...document.querySelectorAll('[data-testid=side-lanes] button')].map((b) => b.textContent); return l.length ? l : null", 10000);
  check(lanes.length === ended.length, `the history graph shows each child as a side lane (${lanes.join(", ")})`);
  await sleep(300);
  await s.shot("graph");
});
