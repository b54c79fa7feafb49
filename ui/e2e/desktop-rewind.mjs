// Checkpoints in the real desktop window (Xvfb, WebDriver) with the real
// llama.cpp peer; the tool calls are scripted at a proxy (a 135M model
// will not make given calls on cue) and the real model writes every
// answer after them. The conversation's folder is moved to a project
// through GTK's folder chooser. Turn 1 writes plan.txt with the write tool
// and changes two far-apart lines of n.txt with `run_command sed -i`;
// turn 2 removes c.txt and changes b.txt, which the user then edits by
// hand. The turn's review undoes one hunk of n.txt; the rewind to turn 1
// previews four files (b.txt flagged), restores the other three and keeps
// b.txt; its undo brings them back. Screenshots: e2e/out/rewind-desktop-*.png.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { checker, startLoggingProxy, startPeer, tempDir } from "./lib.mjs";
import { desktopSuite, newConversation, sleep, useLocalServer } from "./webdriver.mjs";

const TEXT = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";
const { check, finish } = checker();
const data = tempDir("desktop-rewind");
const project = join(data, "project");
mkdirSync(project);
writeFileSync(join(project, "n.txt"), TEXT);
writeFileSync(join(project, "b.txt"), "alpha\nbeta\n");
writeFileSync(join(project, "c.txt"), "keep me\n");
const file = (name) => (existsSync(join(project, name)) ? readFileSync(join(project, name), "utf8") : null);

/** The last question, and how many tool results came after it. */
function turnOf(body) {
  const messages = body.messages ?? [];
  const at = messages.findLastIndex((m) => m.role === "user");
  const q = messages[at]?.content;
  const text = typeof q === "string" ? q : JSON.stringify(q ?? "");
  return { text, results: messages.slice(at + 1).filter((m) => m.role === "tool").length };
}
const peer = startPeer();
// Requests after a turn's calls that went on to the real model.
let answeredByModel = 0;
const proxy = await startLoggingProxy(8080, new URL(peer.url).origin, (body) => {
  const { text, results } = turnOf(body);
  const passOn = () => {
    if (results > 0) answeredByModel += 1;
    return null;
  };
  if (text.includes("Write the plan")) {
    if (results === 0) return { tool: { name: "write_file", args: { path: "plan.txt", content: "made by the model\n" } } };
    if (results === 1) return { tool: { name: "run_command", args: { command: "sed -i -e s/two/TWO/ -e s/eleven/ELEVEN/ n.txt" } } };
  }
  if (text.includes("Tidy up") && results === 0) return { tool: { name: "run_command", args: { command: "rm c.txt && sed -i s/beta/BETA/ b.txt" } } };
  return passOn();
});
const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
const approval = "document.querySelector('[aria-label=\"Approve tool calls\"]')";

await desktopSuite("rewind-desktop", { check, finish }, { data, cleanup: () => { proxy.close(); peer.stop(); } }, async ({ open, display }) => {
  const s = await open();
  await useLocalServer(s, proxy.url);
  await newConversation(s);
  const x = (...args) => spawnSync("xdotool", args, { env: { ...process.env, DISPLAY: display } }).stdout.toString().trim();

  // The folder: the home folder keeps no checkpoints; the project does.
  await s.until("the header's options", "return [...document.querySelectorAll('button')].some((b) => b.textContent === 'Options')", 15000);
  await s.click("//button[.='Options']");
  await s.click("//div[@aria-label='Folder']//button[.='Change…']");
  let chooser = "";
  for (let i = 0; i < 150 && !chooser; i++, await sleep(100)) chooser = x("search", "--onlyvisible", "--name", "Choose the conversation's folder").split("\n")[0];
  x("windowfocus", "--sync", chooser);
  x("key", "--window", chooser, "ctrl+l");
  await sleep(300); // the location field appears a moment after Ctrl+L
  x("type", "--delay", "20", project);
  x("key", "Return");
  const moved = await s.until("the project folder", `const t = document.querySelector('[aria-label=Folder] code')?.textContent ?? ''; return t === arguments[0] ? t : ''`, 15000, project).catch(() => "");
  check(moved === project, `the folder moves to the project through GTK's chooser (${chooser ? "chooser shown" : "no chooser"})`);
  await s.click("//button[.='Options']");

  const turn = async (text, approvals) => {
    const before = await s.js("return document.querySelectorAll('.message.user').length");
    await s.type(box, `${text}${ENTER}`);
    await s.until("the question", `return document.querySelectorAll('.message.user').length > ${before}`, 10000);
    // Approves each call as it is asked, until the turn's calls are done.
    const done = "[...document.querySelectorAll('[data-testid=tool-card]')].filter((c) => /done/.test(c.textContent)).length";
    const target = (await s.js(`return ${done}`)) + approvals;
    for (let waited = 0; (await s.js(`return ${done}`)) < target; waited += 500) {
      if (waited > 300000) throw new Error(`the turn's ${approvals} calls did not run`);
      const clicked = await s.js(`const b = [...(${approval}?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Approve'); b?.click(); return !!b`);
      await sleep(clicked ? 1000 : 500);
    }
    await s.state("Idle", 300000);
  };
  await turn("Write the plan and shout two and eleven in n.txt.", 2);
  await turn("Tidy up: remove c and shout beta.", 1);
  check(file("plan.txt") === "made by the model\n" && file("n.txt") === TEXT.replace("two", "TWO").replace("eleven", "ELEVEN"), "turn 1 wrote plan.txt and changed n.txt through sed");
  check(file("c.txt") === null && file("b.txt") === "alpha\nBETA\n", "turn 2 removed c.txt and changed b.txt");
  // What Braid sent, not what the small model wrote back.
  check(answeredByModel >= 2, `Braid sent each turn's results on to the real model (${answeredByModel} requests)`);

  // The first turn's review: one hunk of n.txt undone.
  await s.until("the review chips", "return document.querySelectorAll('[data-testid=changes-chip]').length === 2", 15000);
  const chip = await s.js("return document.querySelector('[data-testid=changes-chip]').textContent");
  check(chip.includes("2 files") && chip.includes("+3") && chip.includes("−2"), `the first turn's chip counts its files and lines (${JSON.stringify(chip)})`);
  await s.js("document.querySelector('[data-testid=changes-chip] button').click(); return true");
  await s.until("the review", "return document.querySelectorAll('.changes-dialog .changes-hunk').length >= 3", 15000);
  await sleep(300); // the window paints a moment after the page changes
  await s.shot("review");
  await s.click("//button[@aria-label='Undo hunk 2 of n.txt']");
  await s.until("the hunk to go", "return document.querySelectorAll('.changes-dialog li[data-path=\"n.txt\"] .changes-hunk').length === 1", 15000);
  check(file("n.txt") === TEXT.replace("two", "TWO"), "undoing one hunk writes only its lines back");
  await s.click("//dialog[contains(@class,'changes-dialog')]//button[.='Close']");

  // The user edits b.txt by hand; the rewind to turn 1 flags it and keeps it.
  writeFileSync(join(project, "b.txt"), "alpha\nBETA\nmine\n");
  await s.js("const q = document.querySelector('.message.user'); q.focus(); q.querySelector('button[aria-label=\"Rewind to here\"]').click(); return true");
  await s.until("the preview", "return document.querySelectorAll('.rewind-dialog .rewind-files li').length === 4", 30000);
  const rows = await s.js("return [...document.querySelectorAll('.rewind-dialog .rewind-files li')].map((l) => l.textContent)");
  check(rows.some((r) => r.includes("b.txt") && r.includes("you changed it since")), `the file changed by hand is flagged (${JSON.stringify(rows)})`);
  check(rows.some((r) => r.includes("c.txt") && r.includes("written again")) && rows.some((r) => r.includes("plan.txt") && r.includes("removed")), "the removed file comes back, the written one goes");
  await sleep(300);
  await s.shot("preview");
  await s.click("//dialog[contains(@class,'rewind-dialog')]//button[.='Files only']");
  await s.until("the restore's card", "return [...document.querySelectorAll('[data-testid=restore-card]')].some((c) => c.textContent.includes('Files restored'))", 15000);
  check(file("plan.txt") === null && file("c.txt") === "keep me\n" && file("n.txt") === TEXT, "the rewind restores all three of the model's files");
  check(file("b.txt") === "alpha\nBETA\nmine\n", "the file changed by hand is kept");

  await s.js("[...document.querySelectorAll('[data-testid=restore-card]')].find((c) => c.textContent.includes('Files restored')).querySelector('button').click(); return true");
  await s.until("the undo's card", "return [...document.querySelectorAll('[data-testid=restore-card]')].some((c) => c.textContent.includes('File restore undone'))", 15000);
  check(file("plan.txt") === "made by the model\n" && file("c.txt") === null && file("n.txt") === TEXT.replace("two", "TWO"), "undoing the rewind brings the files back as they were");
  await s.shot("undone");
});
