// A sub-agent in its own git worktree, in the real desktop window (Xvfb,
// WebDriver), while the same files change in the conversation's folder.
// The folder is a git repository, chosen through GTK's folder chooser.
// The calls are scripted at a proxy in front of the real llama.cpp peer
// (a 135M model will not make given calls on cue): the parent hands one
// task out with spawn_agents (isolated), the child edits notes.txt and
// plan.txt with `run_command sed -i` — in its worktree — and, before it
// submits, the same two files are edited in the folder itself (another
// line of work: a far-apart line of notes.txt, the same line of
// plan.txt). When the child submits, its changes are merged back: notes
// holds both edits, plan both lines between conflict markers, nothing is
// lost; the card says so; the worktree is gone from the repository and
// the disk. Screenshots: e2e/out/copies-desktop-*.png.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { checker, startLoggingProxy, startPeer, tempDir, forcedTool } from "./lib.mjs";
import { chooseFolder, desktopSuite, newConversation, sleep, useLocalServer } from "./webdriver.mjs";

const TEXT = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";
const { check, finish } = checker();
const data = tempDir("desktop-copies");
const project = join(data, "project");
mkdirSync(project);
writeFileSync(join(project, "notes.txt"), TEXT);
writeFileSync(join(project, "plan.txt"), TEXT);
const git = (...args) => execFileSync("git", ["-C", project, ...args]).toString();
git("init", "-q");
git("add", ".");
git("-c", "user.name=e2e", "-c", "user.email=e2e@braid", "commit", "-qm", "start");
const file = (name) => readFileSync(join(project, name), "utf8");

const system = (body) => JSON.stringify(body.messages?.[0] ?? "");
const tools = (body) => (body.messages ?? []).filter((m) => m.role === "tool").length;
// The child's submission waits for the folder's own edits.
let childWaits = false;
let letChildSubmit;
const childMaySubmit = new Promise((go) => (letChildSubmit = go));
const peer = startPeer();
const proxy = await startLoggingProxy(0, new URL(peer.url).origin, (body) => {
  if (system(body).includes("sub-agent named editor")) {
    if (tools(body) === 0) {
      const command = "sed -i 's/^two$/two (editor)/' notes.txt && sed -i 's/^three$/three (editor)/' plan.txt";
      return { tool: { name: "run_command", args: { command } } };
    }
    childWaits = true;
    return childMaySubmit.then(() => ({ tool: { name: "submit_result", args: { result: "edited both files" } } }));
  }
  if (forcedTool(body) === "spawn_agents") {
    const tasks = [{ name: "editor", instructions: "Edit notes.txt and plan.txt.", isolated: true }];
    return { tool: { name: "spawn_agents", args: { tasks } } };
  }
  return tools(body) > 0 ? { text: "The editor is done." } : null;
});
const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
const rows = "[...document.querySelectorAll('[data-testid=sub-agents] li')].map((l) => l.textContent)";

await desktopSuite("copies-desktop", { check, finish }, { data, cleanup: () => { proxy.close(); peer.stop(); } }, async ({ open, display }) => {
  const s = await open();
  await useLocalServer(s, proxy.url);
  await newConversation(s);
  const moved = await chooseFolder(s, display, project);
  check(moved === project, `the folder moves to the git repository (${moved || "not moved"})`);

  await s.type(box, `/tool spawn_agents Hand the notes to an editor.${ENTER}`);
  await s.until("the approval", "return !!document.querySelector(\"section[aria-label='Approve tool calls']\")", 60000);
  await s.click("//section[@aria-label='Approve tool calls']//button[.='Approve']");
  // The child's command is asked in the parent, under the child's name.
  const asked = await s.until(
    "the editor's command",
    `const d = [...document.querySelectorAll("section[role=dialog]")].find((d) => /^Approve editor's tool calls$/.test(d.getAttribute("aria-label") ?? ""));
     if (!d) return null; d.querySelector('button.primary')?.click(); return d.getAttribute('aria-label')`,
    60000,
  );
  check(!!asked, `the editor's command is asked in the parent (${asked})`);
  for (let i = 0; !childWaits; i++, await sleep(100)) if (i > 600) throw new Error("the editor never came back from its command");
  const running = await s.until("the card", `const r = ${rows}; return r.length ? r : null`, 10000);
  check(running.some((r) => r.includes("own copy")), `the card shows the editor works in its own copy (${running.join(" | ")})`);
  check(file("notes.txt") === TEXT, "its edit is in its copy, not in the folder, while it works");
  await sleep(300);
  await s.shot("working");

  // Meanwhile the folder itself changes: a far line of notes, the same
  // line of plan.
  writeFileSync(join(project, "notes.txt"), TEXT.replace("nine\n", "nine (main)\n"));
  writeFileSync(join(project, "plan.txt"), TEXT.replace("three\n", "three (main)\n"));
  letChildSubmit();

  const ended = await s.until("the editor's end", `const r = ${rows}; return r.length && r.every((t) => /submitted|failed/.test(t)) ? r : null`, 60000);
  check(
    ended[0]?.includes("own git worktree · 2 files merged back · conflict markers in plan.txt"),
    `the card says what came back from its worktree (${ended.join(" | ")})`,
  );
  const notes = file("notes.txt");
  check(notes === TEXT.replace("two\n", "two (editor)\n").replace("nine\n", "nine (main)\n"), `notes.txt holds both edits:\n${notes}`);
  const plan = file("plan.txt");
  check(
    ["<<<<<<<", "three (main)", "=======", "three (editor)", ">>>>>>>"].every((l) => plan.includes(l)),
    `plan.txt keeps both lines between conflict markers:\n${plan}`,
  );
  check(git("worktree", "list").trim().split("\n").length === 1, "the worktree is gone from the repository");
  const folder = await s.js("return document.querySelector('[data-testid=sub-agents] .child-copy')?.title.split('\\n')[0] ?? ''");
  check(folder !== "" && !existsSync(folder), `and from the disk (${folder})`);
  await s.until("idle", "return (document.querySelector('[data-testid=state]')?.textContent ?? '').startsWith('Idle')", 60000);
  await sleep(300);
  await s.shot("merged");
});
