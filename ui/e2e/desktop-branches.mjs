// Branches and merges in the real desktop app (Xvfb, WebDriver) with the
// real llama.cpp peer: fork twice from the UI, chat on both forks, have
// an answer written again on a new branch, merge one fork by summary (the
// real model writes it), undo that merge, append the other, rebase with
// "answer again" (the model answers the fork's question anew on main),
// fast-forward, cherry-pick a tool result (its call comes along after a
// warning), and look at the history graph; then Markdown rendered in the
// window, copy as Markdown and the raw view, a pin, a question edited
// and sent again on a new branch, and a reference left out of what is sent.
// Screenshots: e2e/out/branches-*.png.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { checker, startLoggingProxy, startPeer, tempDir } from "./lib.mjs";
import { desktopSuite, newConversation, sleep, useLocalServer } from "./webdriver.mjs";

const { check, finish } = checker();
const data = tempDir("desktop-branches");
const peer = startPeer();
// On a free port, which first run looks at (BRAID_LOCAL_PORTS).
const proxy = await startLoggingProxy(0, new URL(peer.url).origin);
// A conversation whose main and "idea 2" both wrote notes.txt, differently
// (the model does not write the same file twice on cue): its conflict is
// resolved in the window.
const dbDir = join(data, "share", "dev.braid.app");
mkdirSync(dbDir, { recursive: true });
const seed = process.env.BRAID_SEED_BIN ?? resolve("../target/debug/examples/seed");
execFileSync(seed, [join(dbDir, "braid.db"), "4", "Both wrote notes.txt", "2", "conflict"]);
// An answer with every Markdown feature the chat renders.
execFileSync(seed, [join(dbDir, "braid.db"), "2", "Markdown sampler", "1", "markdown"]);
// An @notes.md reference followed by 22 questions and answers.
execFileSync(seed, [join(dbDir, "braid.db"), "23", "Notes far back", "1", "leftout"]);

const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
await desktopSuite("branches", { check, finish }, { data, cleanup: () => { proxy.close(); peer.stop(); } }, async ({ open, display }) => {
  let s = await open();
  // What the window's CSP refuses (the WebKit console is out of reach).
  await s.js("window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`), true); return true");
  await useLocalServer(s);
  await newConversation(s);

  const answers = () => s.js("return document.querySelectorAll('.message.assistant').length");
  // The list draws only the rows in view, so a long answer can leave
  // fewer answers in the page than before: a new answer is told by the
  // key of the last one (the list follows the end, so it is drawn).
  const lastAnswer = () => s.js("return [...document.querySelectorAll('.messages .row')].filter((r) => r.querySelector('.message.assistant')).at(-1)?.dataset.key ?? null");
  // Waits for the answer itself: the state line says Idle before a sent
  // message is taken up.
  const settled = async (before) => {
    await s.until("a new answer", "const k = [...document.querySelectorAll('.messages .row')].filter((r) => r.querySelector('.message.assistant')).at(-1)?.dataset.key; return k && k !== arguments[0]", 120000, before);
    await s.state("Idle", 120000);
  };
  const hidden = (index, label) => s.clickHidden(".message.assistant", index, label);
  const ask = async (text) => {
    const before = await lastAnswer();
    const asked = await s.js("return document.querySelectorAll('.message.user').length");
    await s.type(box, `${text}${ENTER}`);
    // Typed while the composer was being replaced (a new conversation,
    // a branch switch), the keys can be lost: type again once, but only
    // when nothing shows they arrived (a question, a busy state line, the
    // text still in the box), as a second question would keep the model
    // busy past this step.
    const took = await s
      .until("the question", `return document.querySelectorAll('.message.user').length > ${asked} || !(document.querySelector('[data-testid=state]')?.textContent ?? '').startsWith('Idle') || null`, 5000)
      .catch(() => false);
    if (!took) {
      const left = await s.js("return document.querySelector('textarea[aria-label=Message]')?.value ?? ''");
      await s.type(box, left.trim() === text ? ENTER : `${text}${ENTER}`);
    }
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

  // With three branches the header still fits: at 1024, 1280 and 1920 px
  // every control is inside the window (it wraps onto a second row).
  const outside = `const W = document.documentElement.clientWidth; return [...document.querySelectorAll('.chat-header button, .chat-header select, .chat-header summary, .chat-header [data-testid=meter]')].filter((e) => e.offsetParent !== null).filter((e) => { const r = e.getBoundingClientRect(); return r.right > W + 1 || r.left < 0; }).map((e) => (e.getAttribute('aria-label') || e.textContent.trim()).slice(0, 24))`;
  for (const width of [1024, 1280, 1920]) {
    await s.rect(width, 800);
    await s.until(`the window at ${width} px`, `return Math.abs(window.outerWidth - ${width}) < 40 || null`, 5000).catch(() => null);
    await sleep(300);
    const [inner, out] = [await s.js("return window.innerWidth"), await s.js(outside)];
    check(out.length === 0 && Math.abs(inner - width) < 40, `at ${width} px (${inner} inside) every header control is in the window (${out.join(", ") || "all"})`);
    await s.shot(`header-${width}`);
  }
  await s.rect(1200, 800);

  // Answer again: a new version of the answer (an unnamed branch), shown
  // where the first was with ‹ 2 / 2 ›; main keeps its own.
  const before = await s.js("const a = document.querySelectorAll('.message.assistant .markdown'); return a[a.length - 1].textContent");
  const beforeAgain = await lastAnswer();
  await hidden(-1, "Answer again");
  await s.until("the new version", branchNamed("unnamed"), 10000);
  await settled(beforeAgain);
  const again = await answers();
  const version = await s.js("const g = document.querySelectorAll('.message.assistant'); return g[g.length - 1].querySelector('.versions')?.getAttribute('aria-label') ?? 'none'");
  check(again === 2 && version === "Version 2 of 2", `answering again puts a new answer in place of the old, as its second version (${again} answers there, ${version})`);
  await s.click("(//div[contains(@class,'message') and contains(@class,'assistant')])[last()]//button[@aria-label='Previous version']");
  await s.until("the first version", "return (document.querySelector('details.branches summary')?.textContent ?? '').includes('main')", 10000);
  const first = await s.js("const a = document.querySelectorAll('.message.assistant .markdown'); return a[a.length - 1].textContent");
  check(first === before, "‹ on the answer shows the first version again, on main");
  await switchTo("main");
  const kept = await s.js("const a = document.querySelectorAll('.message.assistant .markdown'); return a[a.length - 1].textContent");
  check(kept === before, "main keeps the answer it had");

  // Summary merge of Branch 2: the real model drafts the summary.
  await s.js(openBranches);
  await s.click("//button[@aria-label='Merge Branch 2 into main']");
  await s.until("the merge dialog", "return !!document.querySelector('dialog.merge-dialog[open]')", 10000);
  const said = "return document.querySelector('dialog.merge-dialog .merge-blocked')?.textContent ?? ''";
  const blockedBefore = await s.js(said);
  await s.click("//button[.='Write it with the model']");
  // Braid's part, not the model's words: the draft ends with a summary
  // in the box or the reason there is none (a 135M model may stop at
  // once); with none, the user writes it.
  const ended = await s.until("the draft to end", `return document.querySelector('textarea[aria-label="Summary to merge"]')?.value || ((${JSON.stringify(blockedBefore)} !== (document.querySelector('dialog.merge-dialog .merge-blocked')?.textContent ?? '')) ? document.querySelector('dialog.merge-dialog .merge-blocked').textContent : '')`, 120000);
  check(ended.trim().length > 0, `drafting ends with a summary or the reason there is none (${JSON.stringify(ended.slice(0, 60))})`);
  const summaryBox = "document.querySelector('textarea[aria-label=\"Summary to merge\"]')";
  if (!(await s.js(`return ${summaryBox}.value`)).trim()) await s.js(`const t = ${summaryBox}; const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set; set.call(t, 'Branch 2 asked for an animal.'); t.dispatchEvent(new Event('input', { bubbles: true }))`);
  await s.shot("merge");
  await s.until("the merge button", "return !document.querySelector('dialog.merge-dialog .primary').disabled", 10000);
  await s.click("//dialog//button[.='Merge']");
  await s.until("the merge card", "return !!document.querySelector('[data-testid=merge-card]')", 10000);
  check(true, "the summary merge leaves a card in main");
  await s.click("//div[@data-testid='merge-card']//button[.='Undo merge']");
  await s.until("the undone card", "return document.querySelector('[data-testid=merge-card]')?.classList.contains('undone')", 10000);
  check(true, "the merge is undone and its card stays, marked undone");

  // Opens the merge dialog for a branch and picks a strategy; chosen from
  // the page and checked until it took, as the dialog may still be
  // settling from its first preview.
  const openMerge = async (branch, strategy) => {
    await s.js(openBranches);
    await s.click(`//button[@aria-label='Merge ${branch} into main']`);
    await s.until("the merge dialog", "return !!document.querySelector('dialog.merge-dialog[open]')", 10000);
    const choose = `const i = [...document.querySelectorAll('dialog.merge-dialog .strategies label')].find((l) => l.textContent.trim() === arguments[0])?.querySelector('input'); if (i && !i.checked) i.click(); return !!i?.checked`;
    await s.until(`the ${strategy} strategy`, choose, 10000, strategy);
  };
  const confirmMerge = async () => {
    await s.until("the merge button", "return !document.querySelector('dialog.merge-dialog .primary').disabled", 10000);
    await s.click("//dialog//button[.='Merge']");
    await s.until("the dialog to close", "return !document.querySelector('dialog.merge-dialog')", 10000);
  };
  // Append Branch 3, then rebase Branch 2 with "answer again".
  const merge = async (branch, strategy, extra = async () => undefined) => {
    await openMerge(branch, strategy);
    await extra();
    await confirmMerge();
  };
  await merge("Branch 3", "Append");
  await s.until("the appended question", "return document.body.innerText.includes('Name one colour.')", 10000);
  check(true, "append copies Branch 3's turn into main");
  const count = await lastAnswer();
  await merge("Branch 2", "Rebase", () =>
    s.until("answer again", "const i = [...document.querySelectorAll('dialog.merge-dialog label')].find((l) => l.textContent.includes('Answer again'))?.querySelector('input'); if (i && !i.checked) i.click(); return !!i?.checked", 10000),
  );
  await settled(count);
  // The rows after the last question: its new answer and nothing else.
  const after = await s.js("const rows = [...document.querySelectorAll('.messages .row')]; const q = rows.findLastIndex((r) => r.querySelector('.message.user')); return rows.slice(q + 1).filter((r) => r.querySelector('.message.assistant')).length");
  const last = await s.js("const u = document.querySelectorAll('.message.user .text'); return u[u.length - 1].textContent");
  check(after === 1 && last === "Name one vegetable.", `rebase with answer again sends Branch 2's question to the model anew on main (${after} new answer, last question ${JSON.stringify(last)})`);

  // Fast-forward: a fork from main's tip, main not moved since.
  await hidden(-1, "Fork from here");
  await s.until("the fork Branch 5", branchNamed("Branch 5"), 10000);
  await ask("Name one tree.");
  await switchTo("main");
  await merge("Branch 5", "Fast-forward");
  await s.until("the fast-forwarded question", "return document.body.innerText.includes('Name one tree.')", 10000);
  check(true, "a fast-forward gives main the fork's messages when main has not moved");

  // Cherry-pick with a dependency: a tool round on a fork; picking only
  // its result warns that it needs its call, and brings the call along.
  await hidden(-1, "Fork from here");
  await s.until("the fork Branch 6", branchNamed("Branch 6"), 10000);
  // The app's default folder is the home folder: the first read there
  // is asked, with the reason; approved, it runs.
  const before6 = await lastAnswer();
  await s.type(box, `/tool read_file Read the file notes.txt${ENTER}`);
  const why = await s.until("the home-folder note", "return document.querySelector('[data-testid=broad-folder]')?.textContent ?? ''", 120000);
  check(why.includes("your home folder or one above it: Braid asks before the first read"), `in the home folder the first read is asked, and the dialog says why (${why.slice(0, 70)}…)`);
  await s.click("//section[@aria-label='Approve tool calls']//button[.='Approve']");
  await settled(before6);
  await switchTo("main");
  await openMerge("Branch 6", "Cherry-pick");
  await s.until("the checklist", "return [...document.querySelectorAll('.merge-items li')].some(l => l.textContent.includes('tool result'))", 10000);
  await s.until("the tool result's box", "const i = [...document.querySelectorAll('.merge-items li')].find(l => l.textContent.includes('tool result'))?.querySelector('input'); if (!i) return null; i.click(); return true", 10000);
  const warning = await s.until("the dependency warning", "return document.querySelector('.merge-warning')?.textContent ?? ''", 10000);
  check(warning.includes("a tool result needs its call"), `picking a tool result alone warns that it needs its call (${warning})`);
  await s.shot("cherry-pick");
  await confirmMerge();
  // The chat reloads after the dialog closes: wait for the card.
  const cards = await s.until("the tool card", "return document.querySelectorAll('[data-testid=tool-card]').length || null", 10000).catch(() => 0);
  check(cards >= 1, `the cherry-picked result comes with its call, as one tool card on main (${cards})`);

  // The graph of it all, in the window.
  await s.js(openBranches);
  await s.click("//button[.='History graph']");
  await s.until("the graph", "return document.querySelectorAll('.graph-row').length > 10", 10000);
  // Only the rows in view are in the page: step through the whole list
  // (how tall it is depends on what the model did in each turn).
  const seen = new Set();
  const [total, view] = await s.js("const g = document.querySelector('.graph-rows'); return [g.scrollHeight, g.clientHeight]");
  for (let where = 0; ; where += Math.max(100, Math.floor(view / 2))) {
    await s.js(`document.querySelector('.graph-rows').scrollTop = ${where}; return true`);
    await sleep(300);
    const ids = await s.js("return [...document.querySelectorAll('.graph-row')].filter(r => r.textContent.includes('merged Branch')).map(r => r.id)");
    ids.forEach((id) => seen.add(id));
    if (where >= total) break;
  }
  const merges = seen.size;
  check(merges === 5, `the graph shows the five merges (${merges})`);
  await s.js("document.querySelector('details.branches').open = false; return true");
  await s.shot("graph");
  await s.click("//button[@aria-label='Close the history graph']");

  // A file both branches wrote: the conflict panel, resolved for the
  // source; main then holds the source's write and not its own.
  await s.click("//button[contains(., 'Both wrote notes.txt')]");
  await s.until("the seeded conversation", "return document.querySelector('.chat-header h1')?.textContent === 'Both wrote notes.txt'", 10000);
  await openMerge("idea 2", "Append");
  const legend = await s.until("the conflict", "return document.querySelector('dialog .conflict legend')?.textContent ?? ''", 10000);
  check(legend === "Both branches wrote notes.txt", `the merge preview shows the file conflict (${legend})`);
  // Chosen the way the strategies are (a script click until it holds): a
  // WebDriver click can land while the preview re-renders the fieldset.
  const keepSource = "const i = [...document.querySelectorAll('dialog fieldset.conflict label')].find((l) => l.textContent.startsWith(\"Keep the source's\"))?.querySelector('input'); if (i && !i.checked) i.click(); return !!i?.checked";
  await s.until("the source's account chosen", keepSource, 10000);
  // The preview follows the choice; the choice must still stand after it.
  await sleep(500);
  await s.until("the choice to stand", keepSource, 10000);
  await s.shot("conflict");
  await confirmMerge();
  // The chat reloads after the dialog closes: wait for the write.
  const writes = await s
    .until("idea's write", "const t = [...document.querySelectorAll('[data-testid=tool-card]')].map(c => c.textContent).join(' | '); return t.includes('idea wrote this') ? t : null", 30000)
    .catch(() => s.js("return [...document.querySelectorAll('[data-testid=tool-card]')].map(c => c.textContent).join(' | ')"));
  check(writes.includes("idea wrote this") && !writes.includes("main wrote this"), `keeping the source's account leaves main with idea's write only (${writes.slice(0, 120)})`);

  // Markdown in the window, and the message actions on it: copy as
  // Markdown puts the source on the system clipboard, the raw view shows
  // it; a pin moves the conversation into Pinned.
  await s.click("//button[contains(., 'Markdown sampler')]");
  await s.until("the sampler", "return document.querySelector('.chat-header h1')?.textContent === 'Markdown sampler'", 10000);
  const rendered =
    "const m = document.querySelector('.message.assistant .markdown'); if (!m) return null; const n = (q) => m.querySelectorAll(q).length; return { cells: n('table td'), tasks: n('input[type=checkbox]'), struck: n('del'), maths: n('.katex'), display: n('.katex-display'), footnotes: n('section[data-footnotes] li'), code: n('pre code [class^=hljs-]') }";
  // Maths and highlighting load on first need: wait until both drew.
  const md = await s
    .until("the rendered answer", `const r = (() => { ${rendered} })(); return r && r.maths && r.code ? r : null`, 10000)
    .catch(() => s.js(rendered));
  check(
    md.cells === 4 && md.tasks === 2 && md.struck === 1 && md.maths >= 2 && md.display === 1 && md.footnotes === 1 && md.code > 0,
    `the window renders a GFM table, a task list, strikethrough, maths, a footnote and highlighted code (${JSON.stringify(md)})`,
  );
  await s.shot("markdown");
  const refused = await s.js("return window.__csp ?? ['the listener is gone']");
  check(refused.length === 0, `the window's CSP refuses nothing: not the maths' styles and fonts, not the IPC (${refused.join(", ")})`);
  await s.clickHidden(".message.assistant", 0, "Copy as Markdown");
  await sleep(300);
  const copied = spawnSync("xclip", ["-o", "-selection", "clipboard"], { env: { ...process.env, DISPLAY: display } }).stdout.toString();
  check(copied.startsWith("| Crate | Purpose |") && copied.includes("$$"), `copy as Markdown puts the answer's source on the system clipboard (${JSON.stringify(copied.slice(0, 40))})`);
  await s.clickHidden(".message.assistant", 0, "Show raw text");
  const raw = await s.until("the raw text", "return document.querySelector('.message.assistant .raw-text')?.textContent ?? ''", 5000).catch(() => "");
  check(raw.includes("- [x] parse the config"), `the raw view shows the Markdown as written (${JSON.stringify(raw.slice(0, 40))})`);
  await s.click("//button[@aria-label='Pin Markdown sampler']");
  const pinned = await s.until("the pinned group", "const g = [...document.querySelectorAll('.conversations section')].find((x) => x.querySelector('h3')?.textContent === 'Pinned'); return g?.textContent ?? ''", 5000).catch(() => "");
  check(pinned.includes("Markdown sampler"), "a pin moves the conversation into Pinned");

  // Edit and send again: the edited question goes to a new branch, where
  // the real model answers it; main keeps the question and answer it had.
  const beforeEdit = await lastAnswer();
  await s.clickHidden(".message.user", 0, "Edit and send again");
  await s.until("the editor", "return !!document.querySelector('textarea[aria-label=\"Edited message\"]')", 5000);
  // Ctrl+A, then the new question over it, then Enter.
  await s.type("//textarea[@aria-label='Edited message']", `\uE009a\uE009Name one bird.${ENTER}`);
  await settled(beforeEdit);
  const [onBranch, questions] = await s.js("return [document.querySelector('details.branches summary')?.textContent ?? '', [...document.querySelectorAll('.message.user')].map((m) => m.textContent).join(' | ')]");
  check(onBranch.includes("unnamed") && questions.includes("Name one bird.") && !questions.includes("Show me what Markdown"), `an edited question goes to a new branch, answered there by the real model (${onBranch}; ${questions})`);
  await switchTo("main");
  const original = await s.until("main's question", "const q = document.querySelector('.message.user')?.textContent ?? ''; return q.includes('Show me what Markdown can do.') && document.querySelector('.message.assistant table') ? q : ''", 10000).catch(() => "");
  check(original !== "", "main keeps the original question and its answer");

  // A reference left out of what is sent, with the real model: sending
  // only the latest 20 messages leaves the seeded @notes.md behind; its
  // chip and the meter say so.
  await s.click("//button[contains(., 'Notes far back')]");
  await s.until("the seeded notes", "return document.querySelector('.chat-header h1')?.textContent === 'Notes far back'", 10000);
  await s.click("//button[.='Options']");
  await s.js("const l = document.querySelector('select[aria-label=\"Context strategy\"]'); l.value = 'recent_n'; l.dispatchEvent(new Event('change', { bubbles: true })); return true");
  await s.until("the strategy", "return document.querySelector('select[aria-label=\"Context strategy\"]')?.value === 'recent_n'", 5000);
  await s.click("//button[.='Options']");
  await ask("In one word: when is the launch?");
  const meter = await s.until("the meter", "const m = document.querySelector('[data-testid=meter]')?.textContent ?? ''; return m.includes('left out') ? m : ''", 10000).catch(() => "");
  // The list draws only the rows in view: back to the chip at the top.
  await s.js("document.querySelector('.messages').scrollTop = 0; return true");
  const leftOut = await s.until("the left-out mark", "return document.querySelector('[data-testid=left-out-mark]')?.textContent ?? ''", 10000).catch(() => "");
  await sleep(300);
  await s.shot("left-out");
  check(meter.includes("1 reference left out") && leftOut.startsWith("Left out of the last request"), `a reference left out of the request is marked on its chip and in the meter (${meter}; ${leftOut.slice(0, 50)})`);
  await s.close();
});
