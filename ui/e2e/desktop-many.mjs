// Many things at once in the real window (Xvfb, WebDriver). A private
// session bus (dbus-daemon) carries a stand-in notification service and
// tray (tests/src/bin/notification-service.rs: prints what it is shown,
// clicks on request, reads the tray icon). Two providers: the real
// llama.cpp peer behind a logging proxy, and a scripted model for what a
// 135M model will not do on cue (a given tool call, a long steady
// answer, three sub-agents).
//
// Three conversations work at once — one on the real peer, one writing a
// long answer, one whose write_file call arrives while a fourth is in
// front: the list shows all three busy, then the one that waits; the
// title and the tray icon count it, a notification names it, a click
// brings it in front with its approval. Then three sub-agents stream
// their answers: each is watched live beside the parent, one is stopped,
// the others finish. What the real model writes is not checked, only
// that it answered. The scripted answers are held by gates the test
// opens, so no step depends on how fast the machine is. Screenshots:
// e2e/out/many-*.png.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { join, resolve } from "node:path";
import { REAL_MODEL_MS, checker, lastUserText, startLoggingProxy, startPeer, startScriptedModel, tempDir } from "./lib.mjs";
import { desktopSuite, newConversation, sleep } from "./webdriver.mjs";

const { check, finish } = checker();
const data = tempDir("desktop-many");
const dir = join(data, "share", "dev.braid.app");
mkdirSync(dir, { recursive: true });

/** A promise the test resolves when it has seen what it waits for. */
function gate() {
  let open;
  const opened = new Promise((ok) => (open = ok));
  return { opened, open };
}
const peerGo = gate();
const callGo = gate();
const words = (n, every) => ({ words: Array.from({ length: n }, (_, i) => `w${i + 1}`), everyMs: every });
const model = await startScriptedModel((body) => {
  const system = body.messages.find((m) => m.role === "system")?.content ?? "";
  const last = body.messages.at(-1);
  const said = lastUserText(body);
  const child = /You are a sub-agent named (\w+)/.exec(system)?.[1];
  if (child) {
    // Its answer first, streamed steadily; asked to submit, it does.
    if (body.messages.some((m) => m.role === "assistant")) return { tool: { name: "submit_result", args: { result: `${child} counted` } } };
    return { text: `${child} counts:`, ...words(80, 150) };
  }
  if (!body.tools?.length) return { text: "A title" };
  const spawned = body.messages.some((m) => m.tool_calls?.some((c) => c.function.name === "spawn_agents"));
  if (last.role === "tool") return { text: spawned ? "The sub-agents reported." : "Written." };
  if (said.includes("write the notes")) return callGo.opened.then(() => ({ tool: { name: "write_file", args: { path: "notes.md", content: "notes\n" } } }));
  if (said.includes("Count to three hundred")) return { text: "1", ...words(300, 100) };
  if (said.includes("Split three ways")) {
    const tasks = ["alpha", "beta", "gamma"].map((name) => ({ name, instructions: "Count steadily." }));
    return { tool: { name: "spawn_agents", args: { tasks } } };
  }
  return { text: "Fine." };
});
// The real model, its first request held until the test lets it go.
const peer = startPeer();
const proxy = await startLoggingProxy(0, new URL(peer.url).origin, () => peerGo.opened.then(() => null));
writeFileSync(
  join(dir, "settings.json"),
  JSON.stringify({
    providers: [
      { id: "scripted", kind: "open_ai_compatible", name: "Scripted", base_url: model.url, default_model: "gpt-4o" },
      { id: "peer", kind: "open_ai_compatible", name: "Peer", base_url: proxy.url, default_model: "smollm2-135m" },
    ],
    default_provider: "scripted",
  }),
);

// The test's own session bus and notification service (stopped by pid).
// (Its complaint that root may not raise its file limit is harmless.)
const bus = spawn("dbus-daemon", ["--session", "--nofork", "--print-address=1", `--address=unix:path=${join(data, "bus")}`], { stdio: ["ignore", "pipe", "ignore"] });
const address = await new Promise((ok) => createInterface({ input: bus.stdout }).once("line", ok));
process.env.DBUS_SESSION_BUS_ADDRESS = address.trim();
const bin = process.env.BRAID_NOTIFICATION_SERVICE_BIN ?? resolve("../target/debug/notification-service");
const service = spawn(bin, [], { stdio: ["pipe", "pipe", "inherit"], env: process.env });
const shown = [];
createInterface({ input: service.stdout }).on("line", (l) => shown.push(JSON.parse(l)));
const stopAll = () => {
  peerGo.open();
  callGo.open();
  service.kill();
  bus.kill();
  proxy.close();
  model.close();
  peer.stop();
};
for (let i = 0; i < 50 && !shown.some((s) => s.ready); i++) await sleep(100);
/** What the tray icon shows now: its label (the count) and status. */
const tray = async () => {
  const before = shown.length;
  service.stdin.write("tray\n");
  for (let i = 0; i < 50 && !shown.slice(before).some((n) => "tray" in n); i++) await sleep(100);
  return shown.slice(before).find((n) => "tray" in n)?.tray ?? null;
};

const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
const lives = "return [...document.querySelectorAll('.conversations li')].map((li) => li.querySelector('[data-testid=life]')?.textContent ?? '')";
const approval = "section[aria-label='Approve tool calls']";

await desktopSuite("many", { check, finish }, { data, cleanup: stopAll }, async ({ open }) => {
  const s = await open();
  await s.until("the window", "return [...document.querySelectorAll('button')].some((b) => b.textContent === 'New conversation') || null", 30000);

  // Three at once: the real model (held at the proxy), a long answer, and
  // a call still to come.
  await newConversation(s);
  await s.until("the model choice", "return [...document.querySelectorAll(\"select[aria-label='Model for this conversation'] option\")].some((o) => o.textContent.startsWith('Peer')) || null", 10000);
  await s.click("//select[@aria-label='Model for this conversation']//option[starts-with(., 'Peer')]");
  await s.until("the peer chosen", "return document.querySelector(\"select[aria-label='Model for this conversation']\")?.selectedOptions[0]?.textContent.startsWith('Peer') || null", 10000);
  await s.type(box, `Name three rivers.${ENTER}`);
  await s.until("the real model asked", "return document.querySelectorAll('.message.user').length > 0 || null", 10000);
  await newConversation(s);
  await s.type(box, `Count to three hundred.${ENTER}`);
  await s.until("the long answer begun", "return document.querySelectorAll('.message.user').length > 0 || null", 10000);
  await newConversation(s);
  await s.type(box, `write the notes${ENTER}`);
  await s.until("the call asked for", "return document.querySelectorAll('.message.user').length > 0 || null", 10000);
  // A fourth in front; the three go on behind it.
  await newConversation(s);
  // Waiting for the first words is "Working…"; streaming, "Writing…".
  const working = (t) => t === "Writing…" || t === "Working…";
  const busy = await s.until("three busy rows", `const l = (() => { ${lives} })(); return l.filter((t) => t === 'Writing…' || t === 'Working…').length === 3 ? l : null`, 20000).catch(() => null);
  check(busy !== null, `three conversations work at once, each row says so (${JSON.stringify(busy)})`);
  await s.shot("three-busy");

  callGo.open();
  const waiting = await s.until("the waiting mark", `const l = (() => { ${lives} })(); return l.includes('Needs your approval: write_file') ? l : null`, 20000).catch(() => []);
  const title = await s.js("return document.title");
  check(
    waiting.filter(working).length === 2 && title === "(1) Braid",
    `the one behind that waits says so while the other two still write, and the title counts it (${JSON.stringify(waiting)}; ${title})`,
  );
  const icon = await tray();
  check(icon?.label === "1" && icon?.status === "Active", `the tray icon counts it too (${JSON.stringify(icon)})`);
  for (let i = 0; i < 50 && !shown.some((n) => n.summary); i++) await sleep(100);
  const note = shown.find((n) => n.summary);
  check(!!note && note.summary.endsWith("needs your approval") && note.body.includes("write_file") && note.actions.includes("default"), `the desktop's notification service is asked to show it (${JSON.stringify(note ?? null)})`);
  await s.shot("waiting");
  // A click on the notification: that conversation, with its approval.
  if (note) service.stdin.write(`click ${note.id}\n`);
  const front = await s.until("the approval in front", `return document.querySelector("${approval}")?.textContent?.includes('write_file') || null`, 10000).catch(() => false);
  const selected = await s.js("return document.querySelector('.conversations li.selected [data-testid=life]')?.textContent ?? ''");
  check(front === true && selected.startsWith("Needs your approval"), `a click on the notification opens that conversation with its approval in front (${selected})`);
  await s.shot("clicked");
  await s.click(`//section[@aria-label='Approve tool calls']//button[.='Approve']`);
  await s.until("the call run", "return [...document.querySelectorAll('.message.assistant')].some((m) => m.textContent.includes('Written.')) || null", 20000);

  // The real model answers; the long answer ends; both are left unread.
  peerGo.open();
  const ended = await s.until("every row at rest", `const l = (() => { ${lives} })(); return l.some((t) => t === 'Writing…' || t === 'Working…' || t.startsWith('Needs')) ? null : l`, REAL_MODEL_MS).catch(() => null);
  check(ended !== null && ended.filter((t) => t === "Done").length === 2, `the real model's answer and the long one end behind, marked Done until read (${JSON.stringify(ended)})`);
  check(proxy.bodies.some((b) => b.path.endsWith("/chat/completions") && b.body.includes("Name three rivers.")), "the real model was asked through its own provider");

  // Three sub-agents, streaming.
  await newConversation(s);
  await s.type(box, `Split three ways.${ENTER}`);
  await s.until("the approval", `return !!document.querySelector("${approval}")`, 20000);
  await s.click(`//section[@aria-label='Approve tool calls']//button[.='Approve']`);
  await s.until("the children on the card", "return document.querySelectorAll('[data-testid=sub-agents] li').length === 3 || null", 20000);
  const draft = (name) => `return document.querySelector("aside[aria-label='Sub-agent ${name}, live'] [data-testid=child-draft]")?.textContent ?? ''`;
  const grows = async (name) => {
    await s.click(`//button[@aria-label='Watch ${name}']`);
    const first = await s.until(`${name}'s words`, `const t = (() => { ${draft(name)} })(); return t.includes('w') ? t : null`, 20000).catch(() => "");
    const later = await s.until(`more of ${name}'s words`, `const t = (() => { ${draft(name)} })(); return t.length > arguments[0] ? t : null`, 10000, first.length).catch(() => "");
    return { first, later };
  };
  const alpha = await grows("alpha");
  check(
    alpha.first.includes("alpha counts:") && alpha.later.length > alpha.first.length,
    `a child's answer shows beside the parent while it is written, growing (${alpha.first.length} → ${alpha.later.length} characters)`,
  );
  await sleep(300);
  await s.shot("watching");
  await s.click("//button[@aria-label='Stop beta']");
  const gamma = await grows("gamma");
  check(gamma.later.length > gamma.first.length && gamma.later.includes("gamma counts:"), `another child is watched live too (${gamma.first.length} → ${gamma.later.length} characters)`);
  const rows = await s.until(
    "the parent's turn over",
    "const r = [...document.querySelectorAll('[data-testid=sub-agents] li')].map((l) => l.textContent); return document.querySelector('[data-testid=state]')?.textContent?.includes('Idle') && r.filter((t) => t.includes('submitted')).length === 2 ? r : null",
    60000,
  ).catch(() => []);
  check(
    rows.length === 3 && rows.some((r) => r.startsWith("beta") && /cancel/i.test(r)) && rows.filter((r) => /^(alpha|gamma)/.test(r) && r.includes("submitted")).length === 2,
    `one child stopped while it wrote; the other two finish and submit (${rows.join(" | ")})`,
  );
  await s.shot("children-done");
});
