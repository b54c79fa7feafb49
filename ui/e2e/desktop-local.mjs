// The built-in model in the real desktop window, on a fresh data folder
// with no provider and no model server: braid-desktop under Xvfb over
// WebDriver, the starter GGUF (SmolLM2-135M, from scripts/starter-model.sh)
// in its models folder. The first question is answered in-process (what
// the model writes is its own: only that an answer came is checked); Esc
// stops a long answer at once; a forced tool call comes with valid JSON
// arguments and runs; the settings' shelf imports a second model, makes it
// the default (the header follows), tunes the window and removes it.
// Screenshots: e2e/out/local-desktop-*.png.
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { REAL_MODEL_MS, checker, tempDir } from "./lib.mjs";
import { desktopSuite, newConversation, sleep } from "./webdriver.mjs";

const { check, finish } = checker();
const data = tempDir("desktop-local");
const models = join(data, "share", "dev.braid.app", "models");
const starter = execFileSync(join(import.meta.dirname, "../../scripts/starter-model.sh"), [models], { encoding: "utf8" }).trim();
// A second model to import: the same weights under another name, as a
// user's download would be.
const downloads = join(data, "Downloads");
mkdirSync(downloads, { recursive: true });
const other = join(downloads, "Pocket-Chat.Q4_1.gguf");
linkSync(starter, other);
writeFileSync(join(data, "notes.txt"), "The spare key is under the blue flowerpot.\n");
const ENTER = "\uE007";
const ESC = "\uE00C";
const box = "//textarea[@aria-label='Message']";
const lastAnswer = "const a = document.querySelectorAll('.message.assistant .markdown'); return a.length ? a[a.length - 1].textContent : ''";
await desktopSuite("local-desktop", { check, finish }, { data }, async ({ open }) => {
  let s = await open();

  // 1. No welcome screen: the built-in model is named, and answers.
  const hint = await s.until("the built-in model's hint", "return document.querySelector('.hint.built-in')?.textContent ?? ''", 30000);
  check(hint.includes("built-in SmolLM2-135M-Instruct (Q4_1), a small local model"), `with nothing set up, the built-in model is named (${JSON.stringify(hint.slice(0, 90))})`);
  await s.shot("empty");
  await newConversation(s);
  // A question that draws more than a few words: the pace shows a rate
  // only for an answer that streamed at least 100 ms (describeSpeed), and
  // "The capital of France is Paris." once came in under that (CI).
  await s.type(box, `Describe Paris in three sentences.${ENTER}`);
  await s.answered(1);
  const answer = await s.js(lastAnswer);
  check(answer.trim().length > 0, `the first question is answered by the model in the app (${JSON.stringify(answer.slice(0, 60))})`);
  const pace = await s.js("const p = document.querySelectorAll('.message.assistant [data-testid=speed]'); return p.length ? p[p.length - 1].textContent : ''");
  // A short burst gets the wait alone, by design: a rate over a few
  // milliseconds would mean nothing.
  const paced = /s to the first token · (about )?[\d.]+ tokens\/s$/.test(pace) || (answer.trim().length < 40 && /^\d+\.\d s to the first token$/.test(pace));
  check(paced, `the answer says how fast it came (${pace})`);
  await s.shot("answer");

  // 2. Esc mid-answer stops the model at once.
  await s.type(box, `Write a very long story about a dragon and a lighthouse.${ENTER}`);
  await s.until("streamed text", "return (document.querySelector('.message.streaming')?.textContent.length ?? 0) > 40", REAL_MODEL_MS);
  const t0 = Date.now();
  await s.type(box, ESC);
  // How fast is the benchmarks' business; this only bounds a stop that failed.
  await s.state("Idle", 10000);
  const stopMs = Date.now() - t0;
  const before = (await s.js(lastAnswer)).length;
  await sleep(1000);
  const after = (await s.js(lastAnswer)).length;
  check(before === after, `Esc stops the built-in model in ${stopMs} ms and nothing more arrives (${before} characters kept)`);

  // 3. A forced tool call: valid JSON arguments, approved, run.
  await s.type(box, `/tool read_file What is in notes.txt?${ENTER}`);
  const asked = await s.until("the approval dialog", "return document.querySelector('[aria-label=\"Approve tool calls\"]')?.textContent ?? ''", REAL_MODEL_MS);
  check(asked.includes("read_file"), `the model's forced call asks for approval (${JSON.stringify(asked.slice(0, 80))})`);
  const args = await s.js("const c = [...document.querySelectorAll('[data-testid=tool-card] .tool-args')]; return c.length ? c[c.length - 1].getAttribute('title') : ''");
  let parsed = null;
  try {
    parsed = JSON.parse(args);
  } catch {
    parsed = null;
  }
  check(parsed !== null && typeof parsed === "object" && typeof parsed.path === "string", `its arguments are valid JSON for the tool (${args})`);
  await s.shot("tool-call");
  // The dialog's default (Approve, or Approve and overwrite when the
  // model's own call writes over a file it never read).
  await s.click("//section[@aria-label='Approve tool calls']//button[contains(@class, 'primary')]");
  const ran = await s.until("the tool's result", "const c = [...document.querySelectorAll('[data-testid=tool-card]')].find(c => /done|failed/.test(c.querySelector('.tool-state')?.textContent ?? '')); return c ? c.querySelector('.tool-state').textContent : ''", 60000);
  // The path is the model's choice; the outcome must follow from it: a
  // file that exists in the folder is read, any other path fails.
  const target = typeof parsed?.path === "string" ? resolve(data, parsed.path) : "";
  const readable = target.startsWith(`${data}/`) && existsSync(target) && statSync(target).isFile();
  check(readable ? /done/.test(ran) : /failed/.test(ran), `the approved call ran, ${readable ? "reading the file" : "failing on a path that is no file of the folder"} (${parsed?.path}: ${ran})`);
  await s.type(box, ESC);
  await s.state("Idle", 10000);

  // 4. The shelf: import, make default, tune, remove.
  await s.click("//button[.='Settings']");
  const listed = await s.until("the shelf", "return document.querySelector('section[aria-label=\"Built-in model\"] .providers')?.textContent ?? ''", 10000);
  check(/SmolLM2-135M-Instruct \(Q4_1\)default.*\d+ MB/.test(listed), `settings list the starter with its size as the default (${JSON.stringify(listed.slice(0, 90))})`);
  await s.type("//input[@aria-label='Path of a .gguf file to import']", other);
  await s.click("//section[@aria-label='Built-in model']//button[.='Import']");
  await s.until("the imported model", "return document.querySelector('section[aria-label=\"Built-in model\"] .providers')?.textContent.includes('Pocket-Chat (Q4_1)')", 30000);
  await s.js("[...document.querySelectorAll('section[aria-label=\"Built-in model\"] li')].find(l => l.textContent.includes('Pocket-Chat')).querySelector('button').click()");
  const fallback = await s.until("the new default", "return document.querySelector('.settings .hint')?.textContent.includes('Pocket-Chat') ? document.querySelector('.settings .hint').textContent : ''", 10000);
  check(fallback.includes("built-in Pocket-Chat (Q4_1)"), `the imported model is the default and answers now (${JSON.stringify(fallback)})`);
  await s.js("const i = document.querySelector('form[aria-label=\"How the built-in model runs\"] input'); Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(i, '2048'); i.dispatchEvent(new Event('input', { bubbles: true }))");
  await s.click("//form[@aria-label='How the built-in model runs']//button[.='Apply']");
  // Saved: Apply has nothing left to apply, and the fitted values are on offer again.
  await s.until("the saved window", "const b = [...document.querySelectorAll('form[aria-label=\"How the built-in model runs\"] button')]; return b[0]?.disabled && !b[1]?.disabled", 10000);
  await s.shot("shelf");
  await s.js("[...document.querySelectorAll('section[aria-label=\"Built-in model\"] li')].find(l => l.textContent.includes('Pocket-Chat')).querySelector('button.danger').click()");
  // The app's own question, in the window (not "JavaScript – tauri://localhost").
  await s.click("//dialog[@role='alertdialog']//button[.='Delete']");
  await s.until("the model removed", "return !document.querySelector('section[aria-label=\"Built-in model\"] .providers')?.textContent.includes('Pocket-Chat')", 10000);
  // The hint follows the settings, which are read again after the list.
  const hintText = "return document.querySelector('.settings .hint')?.textContent ?? ''";
  const back = await s.until("the starter named again", `const h = (() => { ${hintText} })(); return h.includes('SmolLM2') ? h : ''`, 10000).catch(() => s.js(hintText));
  check(back.includes("SmolLM2"), `removing it goes back to the starter (${JSON.stringify(back)})`);
  await s.click("//button[@aria-label='Close settings']");
  const before2 = await s.js("return document.querySelectorAll('.message.assistant').length");
  await s.type(box, `Name one colour.${ENTER}`);
  await s.answered(before2 + 1);
  const last = await s.js(lastAnswer);
  check(last.trim().length > 0, `with the 2,048-token window it still answers (${JSON.stringify(last.slice(0, 40))})`);
});
