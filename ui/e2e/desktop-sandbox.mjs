// The command sandbox in the real desktop window with the real LLM peer:
// braid-desktop under Xvfb over WebDriver. The conversation runs
// sandboxed commands without asking; the model is made to call
// run_command with a write outside the workspace (`/tool run_command …`,
// that call scripted at the proxy as the small model will not write it on
// cue); bubblewrap stops it, the dialog and the card say why, "Run outside
// the sandbox" runs it once with full rights, the write lands, and the
// result reaches the real model, which answers. Secrets: the workspace's
// .env and Braid's environment hold tokens; a question naming one reaches
// the model (through a logging proxy) as a placeholder, a command the
// model writes with that placeholder runs with the real value, a variable
// the user did not keep never reaches a command, and no request holds a
// real value. Then the conversation is
// exported as Markdown and as Braid JSON through the system's save dialog,
// and the JSON comes back in through Braid's open dialog as a new
// conversation; the Markdown holds the placeholder, never the token.
// Screenshots: e2e/out/sandbox-desktop-*.png.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checker, lastUserText, startLoggingProxy, startPeer, tempDir } from "./lib.mjs";
import { desktopSuite, newConversation, sleep, useLocalServer } from "./webdriver.mjs";

const { check, finish } = checker();
const data = tempDir("desktop-sandbox");
// Outside the workspace (the app's home, `data`) and outside /tmp (the
// sandbox's /tmp is its own).
const outside = mkdtempSync("/var/tmp/braid-sandbox-e2e-");
const note = join(outside, "note.txt");
// The workspace is the app's home (`data`): its .env holds a token, and
// Braid runs with that token (kept for commands by settings.json's
// sandbox.env) and another secret-named variable (not kept).
const TOKEN = "ghp_E2ETOKENe2etokenE2ETOKENe2etoken1234";
const OTHER = "e2e-other-secret-value-42";
writeFileSync(join(data, ".env"), `GITHUB_TOKEN=${TOKEN}\n`);
const appData = join(data, "share", "dev.braid.app");
mkdirSync(appData, { recursive: true });
writeFileSync(join(appData, "settings.json"), JSON.stringify({ sandbox: { env: ["GITHUB_TOKEN"] } }));
process.env.GITHUB_TOKEN = TOKEN;
process.env.DEMO_SECRET_KEY = OTHER;
const PLACEHOLDER = /secret-[a-z-]+-[0-9a-f]{8}/;
const peer = startPeer();
const proxy = await startLoggingProxy(0, new URL(peer.url).origin, (body) => {
  const asked = lastUserText(body);
  if (asked.includes("Save the note outside")) return { tool: { name: "run_command", args: { command: `echo saved > ${note}` } } };
  // What the model saw of the token is all it can write back.
  const seen = asked.includes("Check the token") ? asked.match(PLACEHOLDER)?.[0] : null;
  if (seen) return { tool: { name: "run_command", args: { command: `test "$GITHUB_TOKEN" = "${seen}" && echo token-matches; echo "other=[$DEMO_SECRET_KEY]"; printenv GITHUB_TOKEN` } } };
  // The answer to that command's (withheld) result is scripted too: what
  // the request held is checked, and a 135M model may write thousands of
  // words there, minutes on a loaded machine.
  const afterCheck = body.messages?.at(-1)?.role === "tool" && body.messages.some((m) => m.role === "user" && JSON.stringify(m.content).includes("Check the token"));
  if (afterCheck) return { text: "The command ran; what it printed was kept from me." };
  return null;
});
const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
const dialog = "(document.querySelector('[aria-label=\"Approve tool calls\"]')?.textContent ?? '')";
const lastCard = "([...document.querySelectorAll('[data-testid=tool-card]')].at(-1)?.textContent ?? '')";
await desktopSuite("sandbox-desktop", { check, finish }, { data, cleanup: () => { proxy.close(); peer.stop(); rmSync(outside, { recursive: true, force: true }); } }, async ({ open, display }) => {
  let s = await open();
  await useLocalServer(s, proxy.url);
  await newConversation(s);

  // 1. The policy: sandboxed commands run without asking. The options say
  //    in plain words what the sandbox lets a command do.
  await s.until("the header's options", "return [...document.querySelectorAll('button')].some((b) => b.textContent === 'Options')", 10000);
  await s.click("//button[.='Options']");
  await s.click("//select[@aria-label='Tool approval']/option[@value='sandboxed']");
  await s.until("the sandboxed policy", "return document.querySelector('select[aria-label=\"Tool approval\"]').value === 'sandboxed'", 5000);
  const explained = await s.js("return document.querySelector('[data-testid=sandbox-explain]')?.textContent ?? ''");
  check(explained.includes("never your home's other files, keys or Braid's data") && explained.includes("change only this folder") && explained.includes("Network: off"), `the options explain the sandbox level (${JSON.stringify(explained.slice(0, 80))})`);
  await sleep(300); // the window paints a moment after the page changes
  await s.shot("options");
  await s.click("//button[.='Options']");

  // 2. The forced call runs in the sandbox without a question, and is stopped.
  await s.type(box, `/tool run_command Save the note outside the workspace.${ENTER}`);
  const asked = await s.until("the sandbox's question", `const t = ${dialog}; return t.includes('leave the sandbox') ? t : ''`, 180000);
  const reason = await s.js("return document.querySelector('[data-testid=blocked-reason]')?.textContent ?? ''");
  check(/refused a write/.test(reason), `the sandbox stopped the write and the dialog says why (${JSON.stringify(reason.slice(0, 90))})`);
  check(asked.includes("Run outside the sandbox") && !asked.includes("Always allow"), "it offers to run that command once outside the sandbox, never always");
  // The focus is on the default, inside the dialog: Enter keeps it in the
  // sandbox and Esc denies (a page-body focus heard neither).
  const focused = await s.until("the focus in the question", "return document.activeElement?.closest('section.approval') ? document.activeElement.textContent : ''", 5000).catch(() => "");
  check(focused === "Keep it in the sandbox", `the sandbox's question has the focus on its default (${JSON.stringify(focused)})`);
  const card = await s.js(`return ${lastCard}`);
  check(card.includes("blocked by the sandbox"), `the card says the sandbox blocked it (${JSON.stringify(card.slice(0, 100))})`);
  check(!existsSync(note), "nothing was written outside the workspace");
  const before = proxy.bodies.length;
  await sleep(300); // the window paints a moment after the page changes
  await s.shot("blocked");

  // 3. Run it outside: the write lands, the card says there was no sandbox.
  await s.click("//section[@aria-label='Approve tool calls']//button[.='Run outside the sandbox']");
  const done = await s.until("the card's new result", `const t = ${lastCard}; return /done/.test(t) ? t : ''`, 60000);
  check(done.includes("run outside the sandbox (you approved)"), `run outside, the card says so (${JSON.stringify(done.slice(0, 100))})`);
  check(existsSync(note) && readFileSync(note, "utf8") === "saved\n", "the write landed outside the workspace");
  await s.state("Idle", 180000);
  const sent = proxy.bodies.slice(before).map((b) => b.body).filter((b) => b.includes('"role":"tool"'));
  check(sent.length > 0 && sent[0].includes("sandbox: none (full access)") && !sent[0].includes("blocked by the sandbox"), `only the run outside reached the real model (${sent.length} requests with a tool result)`);
  const answer = await s.js("const a = document.querySelectorAll('.message.assistant .markdown'); return a.length ? a[a.length - 1].textContent : ''");
  check(answer.trim().length > 0, `the model answers after the result (${JSON.stringify(answer.slice(0, 60))})`);
  await s.shot("outside");

  // 4. Secrets. The question names the token; the model gets a placeholder
  //    and calls run_command with it (scripted at the proxy). A call that
  //    runs with a secret is asked, sandboxed policy or not, and the
  //    approval names it; the command sees the real value, the variable
  //    not kept is empty, and as it prints the token, what it printed is
  //    kept from the model (told by the placeholder) for the user to read.
  const sentBefore = proxy.bodies.length;
  // The notice lasts until the next one: every notice shown is kept.
  await s.js("window.__notices = []; new MutationObserver(() => { const t = document.querySelector('.notice')?.textContent; if (t && !window.__notices.includes(t)) window.__notices.push(t); }).observe(document.body, { subtree: true, childList: true, characterData: true }); return true");
  await s.type(box, `/tool run_command Check the token ${TOKEN} in the command.${ENTER}`);
  const secretAsked = await s.until("the secret command's question", `const t = ${dialog}; return t.includes('Runs with a secret') ? t : ''`, 180000);
  check(/Runs with a secret: github-token \(secret-github-token-[0-9a-f]{8}\)/.test(secretAsked), `the approval names the secret the command runs with (${JSON.stringify(secretAsked.slice(0, 120))})`);
  await s.click("//section[@aria-label='Approve tool calls']//button[.='Approve']");
  // The card keeps what it printed from the model; opened, it shows it.
  const secretCard = await s.until("the token command's result", `const t = ${lastCard}; return /Kept from the model/.test(t) && /done/.test(t) ? t : ''`, 180000);
  await s.click("(//*[@data-testid='withheld'])[last()]//summary");
  const printed = await s.js("return [...document.querySelectorAll('[data-testid=withheld] pre')].at(-1)?.textContent ?? ''");
  check(secretCard.includes("Kept from the model: this call ran with secret-github-token-"), "the card says the output was kept from the model");
  check(printed.includes("token-matches"), `a command written with the placeholder runs with the real token (${JSON.stringify(printed.slice(0, 100))})`);
  check(printed.includes("other=[]"), "a secret-named variable the user did not keep never reaches the command");
  await s.state("Idle", 180000);
  const notices = await s.js("return window.__notices");
  const hiddenNote = notices.find((t) => t.includes("hidden from the model")) ?? notices.join(" | ");
  const bodies = proxy.bodies.map((b) => b.body);
  // Where a real value went, in a few words around it.
  const leaks = proxy.bodies.flatMap(({ path, body }) =>
    [TOKEN, OTHER].filter((v) => body.includes(v)).map((v) => `${path}: …${body.slice(Math.max(0, body.indexOf(v) - 80), body.indexOf(v))}`),
  );
  const leaked = leaks.length;
  const later = bodies.slice(sentBefore);
  const placeholder = later.map((b) => b.match(PLACEHOLDER)?.[0]).find(Boolean) ?? "";
  check(leaked === 0 && placeholder !== "", `no request to the model holds a real secret (${bodies.length} requests; the model saw ${placeholder})${leaks.length ? `: ${leaks.join(" | ")}` : ""}`);
  check(later.some((b) => b.includes('"role":"tool"') && b.includes("[output withheld") && b.includes(placeholder)), "the model was told the output was withheld, by the secret's placeholder");
  check(hiddenNote.includes("hidden from the model"), `a notice says what was hidden (${JSON.stringify(hiddenNote.slice(0, 80))})`);
  await s.shot("secrets");

  // Export in the window: GTK's own save dialog, opened by Braid (the
  // page never names a path), a path typed as a person would.
  await s.click("(//button[starts-with(@aria-label, 'Actions for')])[1]");
  await s.click("//*[@role='menuitem'][.='Export as Markdown']");
  const x = (...args) => spawnSync("xdotool", args, { env: { ...process.env, DISPLAY: display } }).stdout.toString().trim();
  let saving = "";
  for (let i = 0; i < 50 && !saving; i++, await sleep(100)) saving = x("search", "--name", "Export the conversation").split("\n")[0];
  const saved = join(data, "exported.md");
  x("windowfocus", "--sync", saving);
  x("key", "--window", saving, "ctrl+a");
  x("type", "--delay", "20", saved);
  spawnSync("import", ["-window", "root", "e2e/out/sandbox-desktop-export.png"], { env: { ...process.env, DISPLAY: display } });
  x("key", "Return");
  const exported = await s.until("the export's note", "return document.querySelector('[data-testid=app-note]')?.textContent ?? ''", 10000).catch(() => "");
  const md = existsSync(saved) ? readFileSync(saved, "utf8") : "";
  check(exported.includes(`Exported to ${saved}`) && md.includes("**User:**") && md.includes("run_command"), `Export as Markdown saves through the system's dialog (${saving ? "dialog shown" : "no dialog"}; ${md.length} characters)`);
  check(!md.includes(TOKEN) && PLACEHOLDER.test(md), "the export holds the placeholder, never the token");

  // Export as Braid JSON the same way, then import that file through the
  // open dialog (GTK's, from the import button): a new conversation with
  // the same messages comes in beside the original.
  const dialogNamed = async (name) => {
    let w = "";
    for (let i = 0; i < 150 && !w; i++, await sleep(100)) w = x("search", "--onlyvisible", "--name", name).split("\n")[0];
    return w;
  };
  const typePath = (w, path, select = "ctrl+a") => {
    x("windowfocus", "--sync", w);
    x("key", "--window", w, select);
    x("type", "--delay", "20", path);
    x("key", "Return");
  };
  await s.js("document.querySelector('[data-testid=app-note] button')?.click(); return true");
  await s.click("(//button[starts-with(@aria-label, 'Actions for')])[1]");
  await s.click("//*[@role='menuitem'][.='Export as Braid JSON']");
  const json = join(data, "exported.json");
  typePath(await dialogNamed("Export the conversation"), json);
  await s.until("the JSON export's note", "const t = document.querySelector('[data-testid=app-note]')?.textContent ?? ''; return t.includes('.json') ? t : ''", 20000);
  const listed = await s.js("return document.querySelectorAll('.conversations li[class]').length");
  await s.js("document.querySelector('[data-testid=app-note] button')?.click(); return true");
  await s.click("//button[@aria-label='Import a conversation']");
  // Braid's own open dialog (GTK's): Ctrl+L gives the location field.
  const opening = await dialogNamed("Import conversations");
  x("windowfocus", "--sync", opening);
  x("key", "--window", opening, "ctrl+l");
  await sleep(300); // the location field appears a moment after Ctrl+L
  x("type", "--delay", "20", json);
  spawnSync("import", ["-window", "root", "e2e/out/sandbox-desktop-import.png"], { env: { ...process.env, DISPLAY: display } });
  x("key", "Return");
  const imported = await s.until("the import's note", "const t = document.querySelector('[data-testid=app-note]')?.textContent ?? ''; return t.startsWith('Imported') ? t : ''", 15000).catch(() => "");
  // The note comes with the import's answer; the list follows on its refresh.
  const after = await s
    .until("the imported conversation in the list", `const n = document.querySelectorAll('.conversations li[class]').length; return n > ${listed} ? n : null`, 10000)
    .catch(() => s.js("return document.querySelectorAll('.conversations li[class]').length"));
  check(imported.startsWith("Imported “") && after === listed + 1, `a Braid JSON export comes back in through the open dialog as a new conversation (${opening ? "dialog shown" : "no dialog"}; ${imported}; ${listed} → ${after} in the list)`);
  await s.shot("imported");
});
