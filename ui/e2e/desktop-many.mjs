// Notifications in the real window: a private session bus (dbus-daemon)
// with a stand-in notification service (tests/src/bin/notification-
// service.rs, which prints what it is shown and clicks on request), and
// a scripted model. A conversation asks for an approval while another is
// in front: its row says so, the window's title counts it, a notification
// names it; clicking the notification brings the conversation, with its
// approval, in front. Screenshots: e2e/out/notify-*.png.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { join, resolve } from "node:path";
import { checker, startScriptedModel, tempDir } from "./lib.mjs";
import { desktopSuite, sleep } from "./webdriver.mjs";

const { check, finish } = checker();
const data = tempDir("desktop-notify");
const dir = join(data, "share", "dev.braid.app");
mkdirSync(dir, { recursive: true });
const model = await startScriptedModel((body) => {
  const last = body.messages.at(-1);
  const said = typeof last.content === "string" ? last.content : JSON.stringify(last.content);
  if (last.role === "tool") return { text: "Written." };
  // The call arrives once the user has moved on to another conversation.
  if (said.includes("write the notes")) return { tool: { name: "write_file", args: { path: "notes.md", content: "notes\n" } }, delayMs: 4000 };
  return { text: "Fine." };
});
writeFileSync(join(dir, "settings.json"), JSON.stringify({ providers: [{ id: "scripted", kind: "open_ai_compatible", name: "Scripted", base_url: model.url, default_model: "gpt-4o" }], default_provider: "scripted" }));

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
  service.kill();
  bus.kill();
  model.close();
};
for (let i = 0; i < 50 && !shown.some((s) => s.ready); i++) await sleep(100);

await desktopSuite("notify", { check, finish }, { data, cleanup: stopAll }, async ({ open }) => {
  const s = await open();
  const box = "//textarea[@aria-label='Message']";
  await s.until("the window", "return [...document.querySelectorAll('button')].some((b) => b.textContent === 'New conversation') || null", 30000);
  await s.click("//button[.='New conversation']");
  await s.until("the composer", "return !!document.querySelector('textarea')", 10000);
  await s.type(box, "write the notes\uE007");
  // Another conversation comes in front before the call arrives.
  await s.until("the question sent", "return document.querySelectorAll('.message.user').length > 0 || null", 10000);
  await s.click("//button[.='New conversation']");
  await s.until("the second conversation", "return document.querySelectorAll('.conversations li button.open').length >= 2 || null", 10000);
  const mark = await s.until("the waiting mark", "return [...document.querySelectorAll('[data-testid=life]')].map((e) => e.textContent).find((t) => t.startsWith('Needs your approval')) ?? null", 20000).catch(() => "");
  const title = await s.js("return document.title");
  check(mark === "Needs your approval: write_file" && title === "(1) Braid", `the conversation behind says it waits, and the title counts it (${mark}; ${title})`);
  for (let i = 0; i < 50 && !shown.some((n) => n.summary); i++) await sleep(100);
  const note = shown.find((n) => n.summary);
  check(!!note && note.summary.endsWith("needs your approval") && note.body.includes("write_file") && note.actions.includes("default"), `the desktop's notification service is asked to show it (${JSON.stringify(note ?? null)})`);
  await s.shot("waiting");
  // A click on the notification: that conversation, with its approval.
  if (note) service.stdin.write(`click ${note.id}\n`);
  const front = await s.until("the approval in front", "return document.querySelector('[role=dialog][aria-label=\"Approve tool calls\"], dialog[aria-label=\"Approve tool calls\"], .approval')?.textContent?.includes('write_file') || null", 10000).catch(() => false);
  const selected = await s.js("return document.querySelector('.conversations li.selected [data-testid=life]')?.textContent ?? ''");
  check(front === true && selected.startsWith("Needs your approval"), `a click on the notification opens that conversation with its approval in front (${selected})`);
  await s.shot("clicked");
});
