// What the end-to-end scripts share: checks that count, the server, the
// browser, a browser suite's whole set-up (`browserSuite`), and the real
// LLM peer from tests/llm-peer.sh.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export function checker() {
  const failures = [];
  let count = 0;
  const check = (ok, what) => {
    count += 1;
    console.log(`${ok ? "ok" : "FAILED"}: ${what}`);
    if (!ok) failures.push(what);
  };
  const finish = () => {
    console.log(`${count - failures.length} passed, ${failures.length} failed`);
    // A passing suite leaves no folders behind (a model copy is ~95 MB);
    // a failing one keeps them to look at.
    if (failures.length) console.log(`kept for a look: ${made.join(" ")}`);
    else {
      for (const dir of made) {
        try {
          rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
        } catch (e) {
          console.log(`could not remove ${dir}: ${e.message}`);
        }
      }
    }
    process.exit(failures.length ? 1 : 0);
  };
  return { check, finish };
}

/** `BRAID_TEST_TIME_SCALE` (1 when unset): a slower or busier machine
 *  gives every wait more time without editing a test. */
const TIME_SCALE = Number(process.env.BRAID_TEST_TIME_SCALE) > 0 ? Number(process.env.BRAID_TEST_TIME_SCALE) : 1;

/** A wait's limit in ms, scaled by `BRAID_TEST_TIME_SCALE`. */
export const scaled = (ms) => Math.round(ms * TIME_SCALE);

/** How long a wait on a real model may take: a first answer of the 135M
 *  model on a 2-core machine busy with other work took over a minute, so
 *  the limit is far above it (a wait ends at the event, not the limit). */
export const REAL_MODEL_MS = 600000;

/** The folders `tempDir` made, removed when the suite passes. */
const made = [];

export const tempDir = (name) => {
  const dir = mkdtempSync(join(tmpdir(), `braid-${name}-`));
  made.push(dir);
  return dir;
};

/** braid-server on a free port (in `cwd`, its default folder, with `env`
 *  added); resolves with its URL (token included). */
export function startServer(db, extra = [], cwd = undefined, env = {}) {
  const bin = resolve(process.env.BRAID_SERVER_BIN ?? "../target/debug/braid-server");
  const server = spawn(bin, ["--bind", "127.0.0.1:0", "--db", db, "--ui", resolve(process.env.BRAID_UI_DIR ?? "dist"), ...extra], {
    env: { ...process.env, BRAID_SERVER_TOKEN: "e2e-token-0123456789abcdef", BRAID_NO_KEYCHAIN: "1", ...env },
    stdio: ["ignore", "pipe", "inherit"],
    cwd,
  });
  const url = new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("braid-server did not start")), 15000);
    server.stdout.on("data", (d) => {
      const m = /running at (\S+)/.exec(String(d));
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    server.on("exit", (code) => fail(new Error(`braid-server exited with ${code}`)));
  });
  return { server, url };
}

/** The set-up every browser suite shares, as a Playwright Test fixture
 *  gives it: braid-server on `db` (a fresh folder's unless given; with
 *  `args`, in `cwd`, with `env`), a headless browser, and a page (`page`:
 *  its options, 1200×800 unless given) whose console errors and uncaught
 *  errors are kept. `body({ page, url, browser, server, consoleErrors })`
 *  makes the suite's checks. Whatever happens: a throw is a failed check
 *  with a screenshot (`e2e/out/<name>-failed.png`), an uncaught error in
 *  the page is a failed check, the browser closes, the server stops,
 *  `cleanup` runs, and the tally is printed (the exit code says whether
 *  every check passed). */
export async function browserSuite(name, { check, finish }, options, body) {
  const { db = join(tempDir(name), "braid.db"), args = [], cwd, env = {}, page: pageOptions = {}, cleanup } = options;
  const { server, url: started } = startServer(db, args, cwd, env);
  let browser;
  let page;
  try {
    const url = await started;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1200, height: 800 }, ...pageOptions });
    const consoleErrors = [];
    const pageErrors = [];
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    page.on("pageerror", (e) => pageErrors.push(String(e.stack ?? e)));
    await body({ page, url, browser, server, consoleErrors });
    check(pageErrors.length === 0, `no uncaught error in the page (${pageErrors.join(" | ")})`);
  } catch (e) {
    check(false, String(e?.stack ?? e));
    if (page) {
      mkdirSync(OUT, { recursive: true });
      await page.screenshot({ path: join(OUT, `${name}-failed.png`) }).catch(() => undefined);
    }
  } finally {
    await browser?.close();
    server.kill();
    await cleanup?.();
  }
  finish();
}

/** Where the suites leave their screenshots. */
export const OUT = fileURLToPath(new URL("./out", import.meta.url));

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** `BRAID_LLM_PEER_SCRIPT`, else the project's own tests/llm-peer.sh:
 *  nothing outside the repository is read. */
function peerScript() {
  return process.env.BRAID_LLM_PEER_SCRIPT ?? fileURLToPath(new URL("../../tests/llm-peer.sh", import.meta.url));
}

/** A port free now on 127.0.0.1 (asked of the system, synchronously). */
function freePort() {
  const code = "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])";
  return Number(execFileSync("python3", ["-c", code]).toString().trim());
}

/** Names `port` to the Braid processes this suite starts next, as a user
 *  names a server on a port of their own: first run's detection probes it
 *  beside the usual ones. */
function detectable(port) {
  const named = (process.env.BRAID_LOCAL_PORTS ?? "").split(",").filter(Boolean);
  process.env.BRAID_LOCAL_PORTS = [...named, String(port)].join(",");
}

/** Starts the real llama.cpp server (no API key) on a port of this suite's
 *  own: the script keys its pidfile by port, so the stop returned stops
 *  this suite's server and never another run's (a `make test` beside). */
export function startPeer() {
  const script = peerScript();
  const env = { ...process.env, LLM_PEER_PORT: process.env.LLM_PEER_PORT ?? String(freePort()) };
  delete env.LLM_PEER_API_KEY;
  execFileSync("bash", [script, "start"], { env, stdio: ["ignore", "ignore", "inherit"] });
  const url = execFileSync("bash", [script, "url"], { env }).toString().trim();
  detectable(env.LLM_PEER_PORT);
  return { url, stop: () => execFileSync("bash", [script, "stop"], { env, stdio: "ignore" }) };
}

/** The text of a chat request's last message when the user sent it
 *  (what a proxy's script decides by); "" otherwise. */
/** The tool a request forces, in either form Braid sends: `tool_choice`
 *  naming a function, or (to llama.cpp's server, whose grammar lets a
 *  small model talk first) the tool's schema as `response_format`. */
export function forcedTool(body) {
  return body.tool_choice?.function?.name ?? body.response_format?.json_schema?.name ?? null;
}

export function lastUserText(body) {
  const m = body.messages?.at(-1);
  return m?.role === "user" ? (typeof m.content === "string" ? m.content : JSON.stringify(m.content)) : "";
}

/** A transparent HTTP proxy on 127.0.0.1:`port` (0: any free one, as every suite asks) to `target` (an origin)
 *  that keeps every request body: what Braid really sent to the model.
 *  `script` (optional) sees each chat request's body first and may answer
 *  it itself (as `startScriptedModel`'s `reply`, or a promise of it), for
 *  a call a small model will not make on cue; `null` passes it on. */
export async function startLoggingProxy(port, target, script = () => null) {
  const http = await import("node:http");
  const bodies = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (body.length) bodies.push({ path: req.url, body: body.toString() });
      let scripted = null;
      try {
        scripted = req.method === "POST" && body.length ? script(JSON.parse(body.toString())) : null;
      } catch {
        // Not JSON: passed on as it is.
      }
      const passOn = () => {
        const up = http.request(new URL(req.url, target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.on("error", () => res.destroy());
        // The client gave up (Cancel): so does the upstream request.
        res.on("close", () => up.destroy());
        up.end(body);
      };
      // A script may take its time (a promise): to answer once the test
      // has done something meanwhile.
      Promise.resolve(scripted).then((r) => (r ? streamReply(res, r) : passOn()));
    });
  });
  await new Promise((ok, fail) => server.once("error", fail).listen(port, "127.0.0.1", ok));
  // Port 0: one the system chose, which first run then finds.
  detectable(server.address().port);
  return { url: `http://127.0.0.1:${server.address().port}/v1`, bodies, close: () => server.close() };
}

/** `{ tool: { name, args } }` or `{ text }` streamed as the OpenAI API does. */
function streamReply(res, r) {
  const delta = r.tool
    ? { role: "assistant", tool_calls: [{ index: 0, id: `call_${Date.now()}`, type: "function", function: { name: r.tool.name, arguments: JSON.stringify(r.tool.args) } }] }
    : { role: "assistant", content: r.text };
  const event = (choice) => `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", model: "gpt-4o", choices: [choice] })}\n\n`;
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  res.write(event({ index: 0, delta, finish_reason: null }));
  const end = () => {
    res.write(event({ index: 0, delta: {}, finish_reason: r.finish ?? (r.tool ? "tool_calls" : "stop") }));
    res.end("data: [DONE]\n\n");
  };
  // `words` with `everyMs`: the rest of the answer, a word at a time, as
  // a model writes (to watch it arrive); then it ends.
  if (r.words?.length) {
    let i = 0;
    const next = setInterval(() => {
      if (res.destroyed) return clearInterval(next);
      res.write(event({ index: 0, delta: { content: ` ${r.words[i++]}` }, finish_reason: null }));
      if (i === r.words.length) {
        clearInterval(next);
        end();
      }
    }, r.everyMs ?? 100);
    return;
  }
  // `delayMs`: the answer stays open that long after its first words.
  if (r.delayMs) setTimeout(end, r.delayMs);
  else end();
}

/** A scripted OpenAI-compatible model on 127.0.0.1 (a free port): `reply`
 *  gets each chat request's body and returns `{ tool: { name, args } }`
 *  (one tool call) or `{ text }` (with `finish: "length"`, cut at the
 *  output limit; with `delayMs`, finished that long after its first
 *  words; with `words` and `everyMs`, followed by those words one at a
 *  time), or a promise of one; streamed as the OpenAI API does. For
 *  flows a small real model will not produce on cue (a given tool call). */
export async function startScriptedModel(reply) {
  const http = await import("node:http");
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "GET") {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [{ id: "gpt-4o", object: "model" }] }));
        return;
      }
      // A promise: answered once the test has done something meanwhile.
      Promise.resolve(reply(JSON.parse(Buffer.concat(chunks).toString() || "{}"))).then((r) => streamReply(res, r));
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}

/** Draws lines of text into a PNG with the real ImageMagick; its Base64. */
export async function textPng(dir, name, size, lines, bg = "white", fg = "black") {
  const { execFileSync } = await import("node:child_process");
  const { existsSync: exists, readFileSync } = await import("node:fs");
  const convert = exists("/usr/bin/convert") ? "/usr/bin/convert" : "convert";
  const args = ["-size", size, `xc:${bg}`, "-fill", fg, "-font", "DejaVu-Sans", "-pointsize", "30"];
  lines.forEach((l, i) => args.push("-annotate", `+24+${60 + i * 52}`, l));
  execFileSync(convert, [...args, "-define", "png:exclude-chunk=date,time", join(dir, name)]);
  return readFileSync(join(dir, name)).toString("base64");
}

/** In-page script: delivers a file as a drop (or paste) on `selector`, as
 *  the browser does for one dragged from the desktop. Arguments: how,
 *  selector, Base64, name, type. */
export const DELIVER_FILE = `
  const [how, selector, b64, name, type] = arguments;
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const dt = new DataTransfer();
  dt.items.add(new File([bytes], name, { type }));
  const target = document.querySelector(selector);
  if (how === "paste") {
    target.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  } else {
    target.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }
  return true;`;

/** The serious and critical accessibility violations axe-core finds on
 *  the page as it is, each as "rule: the first element it names". */
export async function accessibilityProblems(page) {
  const { createRequire } = await import("node:module");
  const { readFileSync } = await import("node:fs");
  const axe = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  // Evaluated through the debugger, as the page's strict CSP forbids
  // inline scripts (and should).
  await page.evaluate(axe);
  const violations = await page.evaluate(async () => (await globalThis.axe.run(document, { resultTypes: ["violations"] })).violations);
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0]?.target.join(" ")}`);
}

/** Opens "What the model sees" (Ctrl+Shift+I) and waits until the last
 *  request is shown: the view loads it after it opens, and on a busy
 *  machine reading it at once read the empty dialog (CI, two runs at once). */
export async function openSentView(page) {
  await page.keyboard.press("Control+Shift+I");
  const view = page.getByRole("dialog", { name: "What the model sees" });
  await view.getByText(/The last request, to /).first().waitFor({ timeout: 15000 });
  return view;
}

/** Talking to the echo model in `page`: `say(text)` sends it and waits for
 *  the echo and Idle; `idle()` waits for the state line to say Idle. */
export function echoChat(page) {
  // Exactly: a dialog titled "Summary of 4 messages" is labelled so too.
  const box = page.getByLabel("Message", { exact: true });
  const idle = () => page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 15000 });
  const say = async (text) => {
    await box.fill(text);
    await box.press("Enter");
    await page.getByText(`You said: ${text}`).waitFor({ timeout: 15000 });
    await idle();
  };
  return { box, idle, say };
}

/** Clicks the button `name` that shows when `item` is hovered, hovering
 *  again until the click lands: a page that changes beside it (a header
 *  growing as the code index fills) can move the item from under the
 *  pointer, and the button hides (CI once timed out so). */
export async function clickOnHover(item, name) {
  for (let tries = 0; ; tries++) {
    await item.scrollIntoViewIfNeeded();
    await item.hover();
    const clicked = await item.getByRole("button", { name }).click({ timeout: 3000 }).then(() => true, (e) => (tries < 5 ? false : Promise.reject(e)));
    if (clicked) return;
  }
}

/** What a tool result says, without the block Braid sends it in to mark
 *  it as data (`<untrusted source="…">` … `</untrusted>`). */
export function unwrapped(text) {
  const m = /^<untrusted source="[^"]*">\n([\s\S]*)\n<\/untrusted>$/.exec(text);
  return m ? m[1] : text;
}
