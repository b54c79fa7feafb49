// The real desktop app under Xvfb, driven over WebDriver: tauri-driver in
// front of WebKitWebDriver, spoken to with plain fetch (W3C WebDriver).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

/** Xvfb and tauri-driver for the app, with its data in `data`. Screenshots
 *  are e2e/out/<prefix>-<name>.png. */
export function desktopApp(data, prefix) {
  const app = process.env.BRAID_DESKTOP_BIN ?? resolve("../target/debug/braid-desktop");
  const driverBin = [process.env.TAURI_DRIVER, join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "bin/tauri-driver")]
    .find((p) => p && existsSync(p)) ?? "tauri-driver";
  const port = 4444 + Math.floor(Math.random() * 400) * 2;
  const display = `:${110 + Math.floor(Math.random() * 50)}`;
  mkdirSync("e2e/out", { recursive: true });
  const xvfb = spawn("Xvfb", [display, "-screen", "0", "1280x800x24"], { stdio: "ignore" });
  const env = { ...process.env, DISPLAY: display, HOME: data, XDG_DATA_HOME: join(data, "share"), BRAID_NO_KEYCHAIN: "1" };
  const driver = spawn(driverBin, ["--port", String(port), "--native-port", String(port + 1), "--native-driver", "/usr/bin/WebKitWebDriver"], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });

  async function wd(method, path, body) {
    const r = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(`${method} ${path}: ${json.value?.message ?? r.status}`);
    return json.value;
  }

  /** A session on a freshly started app; tauri-driver answers /status
   *  before WebKitWebDriver is ready, so the first attempts may fail. */
  async function openApp() {
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
    /** Polls a page-side condition; returns its value once truthy. */
    const until = async (what, script, timeout = 120000, ...args) => {
      const end = Date.now() + timeout;
      for (;;) {
        const v = await js(script, ...args).catch(() => null);
        if (v) return v;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await sleep(100);
      }
    };
    return {
      js,
      jsAsync,
      until,
      click: async (xpath) => wd("POST", `/session/${id}/element/${await find(xpath)}/click`, {}),
      type: async (xpath, text) => wd("POST", `/session/${id}/element/${await find(xpath)}/value`, { text }),
      state: (text, timeout) => until(`state "${text}"`, `return (document.querySelector('[data-testid=state]')?.textContent ?? '').startsWith(arguments[0])`, timeout, text),
      shot: async (name) => writeFileSync(`e2e/out/${prefix}-${name}.png`, Buffer.from(await wd("GET", `/session/${id}/screenshot`), "base64")),
      close: () => wd("DELETE", `/session/${id}`),
    };
  }

  const stop = () => {
    driver.kill();
    xvfb.kill();
    spawnSync("pkill", ["-f", app]);
  };
  return { app, display, openApp, session, stop };
}
