// The real desktop app under Xvfb, driven over WebDriver: tauri-driver in
// front of WebKitWebDriver, spoken to with plain fetch (W3C WebDriver).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { REAL_MODEL_MS, scaled } from "./lib.mjs";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A port nothing listens on now: the system's choice for port 0. */
function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** An X display no server holds (no lock file, no socket). */
function freeDisplay() {
  for (let i = 0; i < 500; i++) {
    const n = 110 + Math.floor(Math.random() * 400);
    if (!existsSync(`/tmp/.X${n}-lock`) && !existsSync(`/tmp/.X11-unix/X${n}`)) return `:${n}`;
  }
  throw new Error("no free X display between :110 and :509");
}
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

/** First run: waits for the welcome screen to offer the local server at
 * `url` (any when omitted), takes it, and opens a new conversation.
 * `beforeTaking` runs while the offer is on screen (a screenshot). */
export async function useLocalServer(s, url, beforeTaking = async () => undefined) {
  const offer = url ? `Use llama.cpp at ${url}` : "Use llama.cpp at";
  await s.until("the welcome screen", "return document.body.innerText.includes('Welcome to Braid')", 30000);
  await s.until("the detected server", "return [...document.querySelectorAll('button')].some(b => b.textContent.startsWith(arguments[0]))", 15000, offer);
  await beforeTaking();
  await s.click(`//button[starts-with(., '${offer}')]`);
  await s.until("the welcome screen to go", "return !document.body.innerText.includes('Welcome to Braid')", 10000);
}

/** Opens a new conversation and waits for its composer. */
export async function newConversation(s) {
  await s.click("//button[.='New conversation']");
  // Its composer, and no rows: the composer of the conversation open
  // before is there at once, and a question typed then went to it (on a
  // loaded machine the switch took long enough; CI, two runs at once).
  await s.until("the new conversation", "return !!document.querySelector('textarea') && !document.querySelector('.messages .row')", 10000);
}

/** Moves the open conversation's folder to `folder` through the header's
 *  Options and GTK's real folder chooser (typed in with xdotool); the
 *  folder shown after, or "" when it did not move. Options closed after. */
export async function chooseFolder(s, display, folder) {
  const x = (...args) => spawnSync("xdotool", args, { env: { ...process.env, DISPLAY: display } }).stdout.toString().trim();
  await s.until("the header's options", "return [...document.querySelectorAll('button')].some((b) => b.textContent === 'Options')", 15000);
  await s.click("//button[.='Options']");
  await s.click("//div[@aria-label='Folder']//button[.='Change…']");
  let chooser = "";
  for (let i = 0; i < 150 && !chooser; i++, await sleep(100)) chooser = x("search", "--onlyvisible", "--name", "Choose the conversation's folder").split("\n")[0];
  x("windowfocus", "--sync", chooser);
  x("key", "--window", chooser, "ctrl+l");
  await sleep(300); // the location field appears a moment after Ctrl+L
  x("type", "--delay", "20", folder);
  // GTK completes a folder whose only subfolder is .git to that one, the
  // completion selected: Delete takes it off.
  await sleep(300);
  x("key", "Delete");
  x("key", "Return");
  const moved = await s.until("the folder", `const t = document.querySelector('[aria-label=Folder] code')?.textContent ?? ''; return t === arguments[0] ? t : ''`, 15000, folder).catch(() => "");
  await s.click("//button[.='Options']");
  return moved;
}

// The state line, the composer, the queue, any notice or error, open
// dialogs and the last messages, each cut short.
const DESCRIBE = `const t = (e) => (e?.innerText ?? "").replace(/\\s+/g, " ").trim().slice(0, 120);
return {
  state: t(document.querySelector("[data-testid=state]")),
  composer: document.querySelector("textarea[aria-label=Message]")?.value ?? null,
  queued: [...document.querySelectorAll(".queue li")].map(t),
  alerts: [...document.querySelectorAll("[role=alert], .notice, .error")].map(t).filter(Boolean),
  dialogs: [...document.querySelectorAll("dialog[open]")].map(t),
  branch: t(document.querySelector("details.branches summary")),
  last: [...document.querySelectorAll(".message")].slice(-4).map((m) => m.className.replace("message ", "") + ": " + t(m)),
};`;

/** Every process below `pid` now, deepest first (from /proc, via pgrep). */
function descendants(pid) {
  const kids = spawnSync("pgrep", ["-P", String(pid)]).stdout.toString().split("\n").filter(Boolean).map(Number);
  return kids.flatMap((k) => [...descendants(k), k]);
}

/** The oldest process of `app` that this test started (through
 *  tauri-driver and WebKitWebDriver), never another Braid on the machine. */
function ownApp(app) {
  const argv0 = (p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0")[0];
    } catch {
      return "";
    }
  };
  return descendants(process.pid).filter((p) => argv0(p) === app).at(-1);
}

/** When the running app `app` (ours) started, in ms since the epoch:
 *  its start after boot from /proc (clock ticks, 10 ms steps). */
export function appStartedAt(app) {
  const pid = ownApp(app);
  if (!pid) throw new Error(`${app} is not running under this test`);
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command's name, which may hold spaces: the 22nd is
  // the 20th of them.
  const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  const hz = Number(spawnSync("getconf", ["CLK_TCK"]).stdout.toString().trim()) || 100;
  const uptime = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]);
  return Date.now() - uptime * 1000 + (ticks / hz) * 1000;
}

/** The files the running app `app` has mapped into memory (a model
 *  llama.cpp loaded is one). */
export function appMappedFiles(app) {
  const pid = ownApp(app);
  if (!pid) throw new Error(`${app} is not running under this test`);
  const paths = readFileSync(`/proc/${pid}/maps`, "utf8").split("\n").map((l) => l.split(/\s+/).slice(5).join(" ")).filter((p) => p.startsWith("/"));
  return [...new Set(paths)];
}

/** The memory of the running app `app` (its oldest process of ours) and
 *  of its children (WebKit's web and network processes), in MB: RSS
 *  counts the shared libraries once per process, PSS shares them out fairly. */
export function appMemory(app) {
  const pid = ownApp(app);
  if (!pid) throw new Error(`${app} is not running under this test`);
  const children = descendants(pid);
  const read = (p, field) => {
    try {
      const line = readFileSync(`/proc/${p}/smaps_rollup`, "utf8").split("\n").find((l) => l.startsWith(`${field}:`));
      return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
    } catch {
      return 0;
    }
  };
  const sum = (field) => [pid, ...children].reduce((a, p) => a + read(p, field), 0);
  return { app: { rss: read(pid, "Rss"), pss: read(pid, "Pss") }, children: children.length, rss: sum("Rss"), pss: sum("Pss") };
}

const SPECK_ON = `const d = document.createElement("div");
d.id = "braid-e2e-speck";
d.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none;opacity:0";
document.body.append(d);
d.dataset.timer = String(setInterval(() => (d.style.opacity = d.style.opacity === "0" ? "0.01" : "0"), 50));`;
const SPECK_OFF = `const d = document.getElementById("braid-e2e-speck");
if (d) { clearInterval(Number(d.dataset.timer)); d.remove(); }`;

/** Xvfb and tauri-driver for the app, with its data in `data`, and
 *  `extraEnv` added to its environment. Screenshots are
 *  e2e/out/<prefix>-<name>.png. */
export function desktopApp(data, prefix, extraEnv = {}) {
  const app = process.env.BRAID_DESKTOP_BIN ?? resolve("../target/debug/braid-desktop");
  const driverBin = [process.env.TAURI_DRIVER, join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "bin/tauri-driver")]
    .find((p) => p && existsSync(p)) ?? "tauri-driver";
  const display = freeDisplay();
  mkdirSync("e2e/out", { recursive: true });
  const xvfb = spawn("Xvfb", [display, "-screen", "0", "1920x1080x24"], { stdio: "ignore" });
  // GTK's file chooser keeps its settings in memory, not in a dconf
  // that needs a session bus.
  const env = { ...process.env, DISPLAY: display, HOME: data, XDG_DATA_HOME: join(data, "share"), BRAID_NO_KEYCHAIN: "1", GSETTINGS_BACKEND: "memory", ...extraEnv };
  // Started by the first openApp, on ports the system says are free (a
  // port still held by an earlier run's driver failed a CI run once).
  let driver = null;
  let port = 0;
  let exited = null;

  async function startDriver() {
    port = await freePort();
    const native = await freePort();
    driver = spawn(driverBin, ["--port", String(port), "--native-port", String(native), "--native-driver", "/usr/bin/WebKitWebDriver"], {
      env,
      stdio: ["ignore", "ignore", "inherit"],
    });
    driver.on("exit", (code, signal) => (exited = `tauri-driver exited (${signal ?? code})`));
  }

  async function wd(method, path, body) {
    if (exited) throw new Error(`${method} ${path}: ${exited}`);
    const r = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((e) => {
      throw new Error(`${method} ${path}: ${e.cause?.code ?? e.message}`);
    });
    const json = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(`${method} ${path}: ${json.value?.message || json.value?.error || r.status}`);
    return json.value;
  }

  /** A session on a freshly started app; tauri-driver answers /status
   *  before WebKitWebDriver is ready, so the first attempts may fail. */
  async function openApp() {
    if (!driver) await startDriver();
    await sleep(300);
    const caps = { capabilities: { alwaysMatch: { browserName: "wry", "tauri:options": { application: app } } } };
    let last;
    for (let i = 0; i < 40; i++) {
      try {
        return (await wd("POST", "/session", caps)).sessionId;
      } catch (e) {
        last = e;
        await sleep(500);
      }
    }
    throw last;
  }

  function session(id) {
    const js = (script, ...args) => wd("POST", `/session/${id}/execute/sync`, { script, args });
    const jsAsync = (script, ...args) => wd("POST", `/session/${id}/execute/async`, { script, args });
    const find = async (xpath) => {
      const found = await wd("POST", `/session/${id}/element`, { using: "xpath", value: xpath });
      if (!found?.[ELEMENT]) throw new Error(`no element for ${xpath}: ${JSON.stringify(found)}`);
      return found[ELEMENT];
    };
    /** Acts on the element at `xpath`, finding it again when React
     *  replaced it between the find and the act (a stale node). */
    const fresh = async (act, xpath) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await act(await find(xpath));
        } catch (e) {
          if (attempt >= 5 || !/was not found|no such element|stale/i.test(e.message)) throw e;
          await sleep(200);
        }
      }
    };
    /** What the window shows, in a line: for a timeout's message, as a
     *  screenshot of a CI run on another machine is lost. */
    const describe = () =>
      js(DESCRIBE).then(
        (d) => JSON.stringify(d),
        (e) => `(could not be read: ${e.message})`,
      );
    /** Polls a page-side condition; returns its value once truthy. The
     *  limit is scaled by `BRAID_TEST_TIME_SCALE`. */
    const until = async (what, script, timeout = 120000, ...args) => {
      const end = Date.now() + scaled(timeout);
      for (;;) {
        const v = await js(script, ...args).catch(() => null);
        if (v) return v;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the window showed: ${await describe()}`);
        await sleep(100);
      }
    };
    return {
      js,
      jsAsync,
      until,
      click: (xpath) => fresh((el) => wd("POST", `/session/${id}/element/${el}/click`, {}), xpath),
      type: (xpath, text) => fresh((el) => wd("POST", `/session/${id}/element/${el}/value`, { text }), xpath),
      /** Clicks, from the page, a button shown only on hover (WebDriver
       * clicks only what is visible) inside the index-th match of a
       * selector; waits for both to exist, as the list may still render. */
      clickHidden: (selector, index, label, timeout = 10000) =>
        until(
          `the ${label} button`,
          "const b = [...document.querySelectorAll(arguments[0])].at(arguments[1])?.querySelector(`[aria-label='${arguments[2]}']`); if (!b) return null; b.click(); return true",
          timeout,
          selector,
          index,
          label,
        ),
      state: (text, timeout) => until(`state "${text}"`, `return (document.querySelector('[data-testid=state]')?.textContent ?? '').startsWith(arguments[0])`, timeout, text),
      /** The n-th answer whole: n assistant messages and the state back
       *  to Idle (a fast model may finish before Streaming is seen). */
      answered: (n, timeout = REAL_MODEL_MS) =>
        until(`answer ${n}`, "return document.querySelectorAll('.message.assistant').length >= arguments[0] && (document.querySelector('[data-testid=state]')?.textContent ?? '').startsWith('Idle')", timeout, n),
      shot: async (name) => {
        // Drawn without compositing (the app's way without a GPU), the
        // page is captured at its next paint, which a still page (no
        // caret blinking) never makes: a speck in the corner changes every
        // 50 ms while the screenshot is taken.
        await js(SPECK_ON).catch(() => undefined);
        try {
          writeFileSync(`e2e/out/${prefix}-${name}.png`, Buffer.from(await wd("GET", `/session/${id}/screenshot`), "base64"));
        } finally {
          await js(SPECK_OFF).catch(() => undefined);
        }
      },
      /** Resizes the window (the screen is 1920×1080). */
      rect: (width, height) => wd("POST", `/session/${id}/window/rect`, { width, height }),
      close: () => wd("DELETE", `/session/${id}`),
    };
  }

  // Stops only what this test started, by pid: the driver and everything
  // below it (WebKitWebDriver, the app, its web processes). A pattern
  // kill would also end a user's own Braid or another run's.
  const stop = () => {
    const started = driver ? descendants(driver.pid) : [];
    driver?.kill();
    for (const pid of started) {
      try {
        process.kill(pid);
      } catch {
        // already gone with its parent
      }
    }
    xvfb.kill();
  };
  return { app, display, openApp, session, stop };
}

/** The set-up every desktop suite shares, as a Playwright Test fixture
 *  gives it: the app (`desktopApp`, its data in `data`, screenshots named
 *  `<prefix>-…`), and `open()` for a session on a freshly started window
 *  (call it again after closing one: a restart). `body({ open, display,
 *  app, … })` makes the suite's checks. Whatever happens: a throw is a
 *  failed check with a screenshot (`<prefix>-failed.png`), the last
 *  session closes, the app and its driver stop, `cleanup` runs, and the
 *  tally is printed. */
export async function desktopSuite(prefix, { check, finish }, { data, cleanup }, body) {
  const handle = desktopApp(data, prefix);
  let current = null;
  const open = async () => {
    current = handle.session(await handle.openApp());
    return current;
  };
  try {
    await sleep(500);
    await body({ ...handle, open });
  } catch (e) {
    check(false, `${prefix}: ${e.message}`);
    await current?.shot("failed").catch(() => undefined);
  } finally {
    await current?.close().catch(() => undefined);
    handle.stop();
    await cleanup?.();
  }
  finish();
}
