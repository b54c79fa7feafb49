// Checkpoints in the real desktop window (Xvfb, WebDriver) with the real
// llama.cpp peer; the tool calls are scripted at a proxy (a 135M model
// will not make given calls on cue) and the real model writes every
// answer after them. The conversation's folder is moved to a project
// through GTK's folder chooser. Turn 1 writes plan.txt with the write tool
// and changes two far-apart lines of n.txt with `run_command sed -i`;
// turn 2 removes c.txt and changes b.txt, which the user then edits by
// hand. The turn's review undoes one hunk of n.txt; the rewind to turn 1
// previews four files (b.txt flagged), restores the other three and keeps
// b.txt; its undo brings them back. Then a fork and main each rewrite
// notes.txt (one clean hunk each, one overlap): the merge dialog shows the
// overlap, settled for the fork the merge writes the three-way result,
// and after a restart its undo gives main's bytes back.
// Screenshots: e2e/out/rewind-desktop-*.png.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checker, startLoggingProxy, startPeer, tempDir } from "./lib.mjs";
import { chooseFolder, desktopSuite, newConversation, sleep, useLocalServer } from "./webdriver.mjs";

const TEXT = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";
const { check, finish } = checker();
const data = tempDir("desktop-rewind");
const project = join(data, "project");
mkdirSync(project);
writeFileSync(join(project, "n.txt"), TEXT);
writeFileSync(join(project, "b.txt"), "alpha\nbeta\n");
writeFileSync(join(project, "c.txt"), "keep me\n");
writeFileSync(join(project, "notes.txt"), TEXT);
// The merge's two sides of notes.txt: one clean hunk each, one overlap.
const edit = (pairs) => pairs.reduce((t, [from, to]) => t.replace(`${from}\n`, `${to}\n`), TEXT);
const IDEA = edit([["three", "three (idea)"], ["ten", "TEN"]]);
const MAIN = edit([["three", "three (main)"], ["six", "SIX"]]);
const MERGED = edit([["three", "three (idea)"], ["six", "SIX"], ["ten", "TEN"]]);
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
const proxy = await startLoggingProxy(0, new URL(peer.url).origin, (body) => {
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
  for (const [asked, content] of [["Idea's notes", IDEA], ["Main's notes", MAIN]]) {
    if (text.includes(asked) && results === 0) return { tool: { name: "run_command", args: { command: `printf '%s' '${content}' > notes.txt` } } };
  }
  return passOn();
});
const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
const approval = "document.querySelector('[aria-label=\"Approve tool calls\"]')";

await desktopSuite("rewind-desktop", { check, finish }, { data, cleanup: () => { proxy.close(); peer.stop(); } }, async ({ open, display }) => {
  const s = await open();
  await useLocalServer(s, proxy.url);
  await newConversation(s);
  // The folder: the home folder keeps no checkpoints; the project does.
  const moved = await chooseFolder(s, display, project);
  check(moved === project, `the folder moves to the project through GTK's chooser (${moved || "not moved"})`);

  const turn = async (text, approvals) => {
    await s.type(box, `${text}${ENTER}`);
    // The list draws only the rows in view: the question is told by its
    // text (it is the newest, so drawn) or by the state leaving Idle.
    await s.until("the question", "return [...document.querySelectorAll('.message.user')].some((m) => m.textContent.includes(arguments[0])) || !(document.querySelector('[data-testid=state]')?.textContent ?? '').startsWith('Idle')", 10000, text);
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

  // A merge with files: a fork and main each rewrite notes.txt; the merge
  // dialog shows the overlap, settled for the fork; the three-way result
  // is written; after a restart the merge's undo gives main's bytes back.
  const branchNamed = (name) => `return (document.querySelector('details.branches summary')?.textContent ?? '').includes(${JSON.stringify(name)})`;
  await s.clickHidden(".message.assistant", -1, "Fork from here");
  await s.until("the fork", branchNamed("Branch 2"), 10000);
  await turn("Idea's notes, please.", 1);
  check(file("notes.txt") === IDEA, "the fork's command rewrote notes.txt");
  await s.js("const d = document.querySelector('details.branches'); if (d && !d.open) d.open = true; return true");
  await s.click("//ul[@aria-label='Branches']//button[starts-with(., 'main ')]");
  await s.until("main", branchNamed("main"), 10000);
  await turn("Main's notes, please.", 1);
  check(file("notes.txt") === MAIN, "main's command rewrote it its own way");
  await s.js("const d = document.querySelector('details.branches'); if (d && !d.open) d.open = true; return true");
  await s.click("//button[@aria-label='Merge Branch 2 into main']");
  const append = "const i = [...document.querySelectorAll('dialog.merge-dialog .strategies label')].find((l) => l.textContent.trim() === 'Append')?.querySelector('input'); if (i && !i.checked) i.click(); return !!i?.checked";
  await s.until("the Append strategy", append, 10000);
  const settle = await s.until("the file to settle", "return document.querySelector('dialog.merge-dialog fieldset[aria-label=\"Settle notes.txt\"]')?.textContent ?? ''", 30000);
  check(settle.includes("three (main)") && settle.includes("three (idea)"), "the merge dialog shows the overlapping lines, each side's");
  // A script click until it holds: the preview re-renders the fieldset.
  const theirs = "const i = [...document.querySelectorAll('dialog.merge-dialog fieldset[aria-label=\"Settle notes.txt\"] label')].find((l) => l.textContent.startsWith(\"Take the source's\"))?.querySelector('input'); if (i && !i.checked) i.click(); return !!i?.checked";
  await s.until("the source's side chosen", theirs, 10000);
  await s.until("the merge button", "return !document.querySelector('dialog.merge-dialog .primary').disabled", 15000);
  await sleep(300);
  await s.shot("merge-files");
  check(file("notes.txt") === MAIN, "nothing is written before the merge");
  await s.click("//dialog//button[.='Merge']");
  await s.until("the dialog to close", "return !document.querySelector('dialog.merge-dialog')", 15000);
  check(file("notes.txt") === MERGED, "the merge wrote the three-way result: both clean hunks, the fork's side of the overlap");

  await s.close();
  await sleep(500);
  const again = await open();
  await again.until("the merge card", "return !!document.querySelector('[data-testid=merge-card] button')", 30000);
  await again.js("[...document.querySelectorAll('[data-testid=merge-card] button')].find((b) => b.textContent.includes('Undo merge')).click(); return true");
  await again.until("the merge undone", "return !!document.querySelector('[data-testid=merge-card].undone')", 15000);
  check(file("notes.txt") === MAIN, "after a restart, undoing the merge gives main's bytes back");
});
