// The context window under the user's hand in the real desktop window
// (Xvfb, WebDriver) with the real llama.cpp peer (4,096-token window),
// every request seen at a logging proxy. Answers are held to 4 tokens, so
// each is cut and goes on by itself once: two requests, one answer. Then
// `/context` shows the next request by part, following the draft; the
// files group, called for by the draft, is dropped and the count falls;
// `/compact keep the numbers` has the real model write a summary that
// waits for approval, is edited and approved, and the next request
// carries it first; Undo sends the originals again. What the model writes
// is never checked, only what Braid sent, stored and showed.
// Screenshots: e2e/out/desktop-window-*.png.
import { checker, startLoggingProxy, startPeer, tempDir } from "./lib.mjs";
import { desktopSuite, newConversation, useLocalServer } from "./webdriver.mjs";

const { check, finish } = checker();
const data = tempDir("desktop-window");
const peer = startPeer();
const proxy = await startLoggingProxy(0, new URL(peer.url).origin);
const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
const chats = () => proxy.bodies.filter((b) => b.path.endsWith("/chat/completions")).map((b) => JSON.parse(b.body));
const text = (c) => (typeof c === "string" ? c : (c ?? []).map((p) => p.text ?? "").join(""));
const firstUser = (body) => text(body.messages.find((m) => m.role === "user")?.content);
const answers = "return document.querySelectorAll('.message.assistant').length";

await desktopSuite("desktop-window", { check, finish }, { data, cleanup: () => { proxy.close(); peer.stop(); } }, async ({ open }) => {
  const s = await open();
  await useLocalServer(s, proxy.url);
  await newConversation(s);

  // Short answers: each is cut at the limit and goes on once by itself.
  await s.until("the conversation's header", "return [...document.querySelectorAll('button')].some((b) => b.textContent === 'Options')", 30000);
  await s.click("//button[.='Options']");
  await s.type("//input[@aria-label='Longest answer (tokens)']", `4${ENTER}`);
  await s.js("document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))");
  await s.until("the options to close", "return !document.querySelector('.generation-panel')", 5000).catch(() => undefined);
  const questions = ["The budget is 40.", "The deadline is May.", "The team is five people."];
  /** Sends `q` and waits for its answer: one more answer row (the
   *  summarised view shows fewer than were written) and Idle. */
  const ask = async (q) => {
    const rows = await s.js(answers);
    await s.type(box, `${q}${ENTER}`);
    await s.until(`the answer to ${q}`, `return document.querySelectorAll('.message.assistant').length > arguments[0] && (document.querySelector('[data-testid=state]')?.textContent ?? '').startsWith('Idle')`, 300000, rows);
  };
  for (const [i, q] of questions.entries()) {
    const before = chats().length;
    await ask(q);
    const sent = chats().slice(before).filter((b) => !text(b.messages[0]?.content).startsWith("Write a title"));
    const cont = sent.at(-1);
    if (i === 0) {
      const rows = await s.js("return document.querySelectorAll('.message.assistant').length");
      check(
        sent.length === 2 && text(cont.messages[0].content).includes("cut off at the output limit") && cont.messages.at(-1).role === "assistant" && rows === 1,
        `a cut answer goes on by itself once, and shows as one answer (${sent.length} requests, ${rows} answer rows)`,
      );
    }
  }
  await s.shot("answers");

  // `/context`: the window by part; the draft is counted as it is typed.
  await s.type(box, `/context${ENTER}`);
  const total = () => s.js("return Number((document.querySelector('[data-testid=context-total] strong')?.textContent ?? '0').replace(/,/g, ''))");
  await s.until("the context view", "return !!document.querySelector('[data-testid=context-total]')", 15000);
  const base = await total();
  await s.type(box, "Please read the file notes.txt and the folder src, then summarise them.");
  const typed = await s.until("the draft counted", "const n = Number((document.querySelector('[data-testid=context-total] strong')?.textContent ?? '0').replace(/,/g, '')); return n > arguments[0] ? n : 0", 10000, base);
  check(typed > base, `the draft is counted as it is typed (${base} → ${typed})`);
  const toolTokens = () => s.js("return Number((document.querySelector('[data-testid=part-tools] summary .tokens')?.textContent ?? '0').replace(/,/g, ''))");
  const toolsBefore = await s.until("the tools the draft calls for", "const n = Number((document.querySelector('[data-testid=part-tools] summary .tokens')?.textContent ?? '0').replace(/,/g, '')); return n", 10000);
  await s.js("document.querySelector('[data-testid=part-tools] details').open = true");
  await s.click("//li[@data-testid='part-tools']//li[span[@title='Files']]//button[.='Drop for this conversation']");
  await s.until("the files group dropped", "return !!document.querySelector(\"[data-testid=part-tools] span[title='Files (dropped here)']\")", 10000);
  const toolsAfter = await toolTokens();
  check(toolsAfter < toolsBefore, `dropping the files group makes the tools' count fall (${toolsBefore} → ${toolsAfter})`);
  await s.shot("context");
  await s.click("//button[@aria-label='Close the context view']");
  await s.js("const t = document.querySelector('textarea[aria-label=Message]'); Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(t, ''); t.dispatchEvent(new Event('input', { bubbles: true }))");

  // `/compact keep the numbers`: the real model writes it; it waits.
  await s.type(box, `/compact keep the numbers${ENTER}`);
  await s.until("the summary to approve", "return !!document.querySelector('dialog.summary-preview[open]')", 300000);
  const asked = chats().at(-1);
  check(text(asked.messages[0].content).endsWith("keep this: keep the numbers"), "the summariser was told what to keep");
  const stored = await s.js("return document.querySelectorAll('[data-testid=summary]').length");
  check(stored === 0, "nothing is replaced before approval");
  await s.js("const t = document.querySelector('dialog.summary-preview textarea'); Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(t, 'Budget 40, deadline May, five people (approved).'); t.dispatchEvent(new Event('input', { bubbles: true }))");
  await s.shot("summary-preview");
  await s.click("//dialog//button[.='Approve edited']");
  await s.until("the summary card", "return document.querySelectorAll('[data-testid=summary]').length > 0", 10000);
  let n = chats().length;
  await ask("Next?");
  const withSummary = chats().slice(n).find((b) => !text(b.messages[0]?.content).startsWith("Write a title"));
  check(firstUser(withSummary).includes("Budget 40, deadline May, five people (approved).") && !withSummary.messages.some((m) => text(m.content) === "The budget is 40."), `the next request carries the approved summary instead of the messages (${firstUser(withSummary).slice(0, 70)})`);

  // Undo: the originals go again.
  await s.js("document.querySelector('[data-testid=summary]').open = true");
  await s.click("//details[@data-testid='summary']//button[.='Undo summary']");
  await s.until("the summary taken back", "return document.body.innerText.includes('taken back: the messages are sent again')", 10000);
  n = chats().length;
  await ask("Again?");
  const afterUndo = chats().slice(n).find((b) => !text(b.messages[0]?.content).startsWith("Write a title"));
  check(firstUser(afterUndo) === "The budget is 40.", `after Undo the originals are sent again (${firstUser(afterUndo).slice(0, 40)})`);
  await s.shot("undone");
});
