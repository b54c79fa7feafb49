// Branches and merges in the real desktop app (Xvfb, WebDriver) with the
// real llama.cpp peer: fork twice from the UI, chat on both forks, have
// an answer written again on a new branch, merge one fork by summary (the
// real model writes it), undo that merge, append the other, rebase with
// "answer again" (the model answers the fork's question anew on main),
// and look at the history graph. Screenshots: e2e/out/branches-*.png.
import { checker, startLoggingProxy, startPeer, tempDir } from "./lib.mjs";
import { desktopApp, sleep } from "./webdriver.mjs";

const { check, finish } = checker();
const data = tempDir("desktop-branches");
const peer = startPeer();
// On 127.0.0.1:8080, where first run looks for local servers.
const proxy = await startLoggingProxy(8080, new URL(peer.url).origin);
const { openApp, stop, session } = desktopApp(data, "branches");

const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
let s = null;
try {
  await sleep(500);
  s = session(await openApp());
  await s.until("the welcome screen", "return document.body.innerText.includes('Welcome to Braid')", 30000);
  await s.until("the detected server", "return [...document.querySelectorAll('button')].some(b => b.textContent.startsWith('Use llama.cpp at'))", 15000);
  await s.click("//button[starts-with(., 'Use llama.cpp at')]");
  await s.until("the welcome screen to go", "return !document.body.innerText.includes('Welcome to Braid')", 10000);
  await s.click("//button[.='New conversation']");
  await s.until("the composer", "return !!document.querySelector('textarea')", 10000);

  const answers = () => s.js("return document.querySelectorAll('.message.assistant').length");
  // Waits for the answer itself: the state line says Idle before a sent
  // message is taken up.
  const settled = async (before) => {
    await s.until("a new answer", `return document.querySelectorAll('.message.assistant').length > ${before}`, 120000);
    await s.state("Idle", 120000);
  };
  // A message's own buttons show on hover; WebDriver clicks only what is
  // visible, so these are clicked from the page.
  const hidden = (index, label) =>
    s.js(
      "const all = [...document.querySelectorAll('.message.assistant')]; const m = all.at(arguments[0]); m.querySelector(`[aria-label='${arguments[1]}']`).click(); return true",
      index,
      label,
    );
  const ask = async (text) => {
    const before = await answers();
    await s.type(box, `${text}${ENTER}`);
    await settled(before);
  };
  const branchNamed = (name) => `return (document.querySelector('details.branches summary')?.textContent ?? '').includes(${JSON.stringify(name)})`;
  const openBranches = "const d = document.querySelector('details.branches'); if (d && !d.open) d.open = true; return true";
  const switchTo = async (name) => {
    await s.js(openBranches);
    await s.click(`//ul[@aria-label='Branches']//button[starts-with(., '${name} ')]`);
    await s.until(`branch ${name}`, branchNamed(name), 10000);
  };

  await ask("Name one fruit.");
  // Two forks from the first answer: the Fork button on the message.
  for (const [name, q] of [["Branch 2", "Name one vegetable."], ["Branch 3", "Name one colour."]]) {
    await hidden(0, "Fork from here");
    await s.until(`the fork ${name}`, branchNamed(name), 10000);
    await ask(q);
    await switchTo("main");
  }
  await ask("Name one animal.");
  check(true, "forked twice from the UI and chatted with the real model on both forks and on main");

  // Answer again: a new branch with a new answer; main keeps its own.
  const before = await s.js("const a = document.querySelectorAll('.message.assistant .markdown'); return a[a.length - 1].textContent");
  await hidden(-1, "Answer again");
  await s.until("the new branch", branchNamed("Again"), 10000);
  await settled(1);
  const again = await answers();
  check(again === 2, `answering again puts a new answer on a new branch (${again} answers there)`);
  await switchTo("main");
  const kept = await s.js("const a = document.querySelectorAll('.message.assistant .markdown'); return a[a.length - 1].textContent");
  check(kept === before, "main keeps the answer it had");

  // Summary merge of Branch 2: the real model drafts the summary.
  await s.js(openBranches);
  await s.click("//button[@aria-label='Merge Branch 2 into main']");
  await s.until("the merge dialog", "return !!document.querySelector('dialog.merge-dialog[open]')", 10000);
  await s.click("//button[.='Write it with the model']");
  const draft = await s.until("the model's summary", "return document.querySelector('textarea[aria-label=\"Summary to merge\"]')?.value ?? ''", 120000);
  check(draft.trim().length > 0, `the real model writes the merge summary (${JSON.stringify(draft.slice(0, 60))})`);
  await s.shot("merge");
  await s.until("the merge button", "return !document.querySelector('dialog.merge-dialog .primary').disabled", 10000);
  await s.click("//dialog//button[.='Merge']");
  await s.until("the merge card", "return !!document.querySelector('[data-testid=merge-card]')", 10000);
  check(true, "the summary merge leaves a card in main");
  await s.click("//div[@data-testid='merge-card']//button[.='Undo merge']");
  await s.until("the undone card", "return document.querySelector('[data-testid=merge-card]')?.classList.contains('undone')", 10000);
  check(true, "the merge is undone and its card stays, marked undone");

  // Append Branch 3, then rebase Branch 2 with "answer again".
  const merge = async (branch, strategy, extra = async () => undefined) => {
    await s.js(openBranches);
    await s.click(`//button[@aria-label='Merge ${branch} into main']`);
    await s.until("the merge dialog", "return !!document.querySelector('dialog.merge-dialog[open]')", 10000);
    await s.click(`//dialog//label[normalize-space(.)='${strategy}']/input`);
    await extra();
    await s.until("the merge button", "return !document.querySelector('dialog.merge-dialog .primary').disabled", 10000);
    await s.click("//dialog//button[.='Merge']");
    await s.until("the dialog to close", "return !document.querySelector('dialog.merge-dialog')", 10000);
  };
  await merge("Branch 3", "Append");
  await s.until("the appended question", "return document.body.innerText.includes('Name one colour.')", 10000);
  check(true, "append copies Branch 3's turn into main");
  const count = await answers();
  await merge("Branch 2", "Rebase", () => s.click("//dialog//label[contains(., 'Answer again')]/input"));
  await settled(count);
  const after = await answers();
  const last = await s.js("const u = document.querySelectorAll('.message.user .text'); return u[u.length - 1].textContent");
  check(after === count + 1 && last === "Name one vegetable.", `rebase with answer again sends Branch 2's question to the model anew on main (${after - count} new answer, last question ${JSON.stringify(last)})`);

  // The graph of it all, in the window.
  await s.js(openBranches);
  await s.click("//button[.='History graph']");
  await s.until("the graph", "return document.querySelectorAll('.graph-row').length > 10", 10000);
  const merges = await s.js("return [...document.querySelectorAll('.graph-row')].filter(r => r.textContent.includes('merged Branch')).length");
  check(merges === 3, `the graph shows the three merges (${merges})`);
  await s.js("document.querySelector('details.branches').open = false; return true");
  await s.shot("graph");
  await s.close();
} catch (e) {
  check(false, `desktop branches flow: ${e.message}`);
  await s?.shot("failure").catch(() => undefined);
} finally {
  stop();
  proxy.close();
  peer.stop();
}
finish();
