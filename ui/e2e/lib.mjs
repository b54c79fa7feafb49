// What the end-to-end scripts share: checks that count, the server, the
// browser, and the real LLM peer from ../shared/peers/llm-peer.sh.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
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
    process.exit(failures.length ? 1 : 0);
  };
  return { check, finish };
}

export const tempDir = (name) => mkdtempSync(join(tmpdir(), `braid-${name}-`));

/** braid-server on a free port; resolves with its URL (token included). */
export function startServer(db, extra = [], cwd = undefined) {
  const bin = resolve(process.env.BRAID_SERVER_BIN ?? "../target/debug/braid-server");
  const server = spawn(bin, ["--bind", "127.0.0.1:0", "--db", db, "--ui", resolve("dist"), ...extra], {
    env: { ...process.env, BRAID_SERVER_TOKEN: "e2e-token-0123456789abcdef", BRAID_NO_KEYCHAIN: "1" },
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

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** `BRAID_LLM_PEER_SCRIPT`, else shared/peers/llm-peer.sh in the nearest
 *  ancestor (CI puts shared/ beside the clone). */
function peerScript() {
  if (process.env.BRAID_LLM_PEER_SCRIPT) return process.env.BRAID_LLM_PEER_SCRIPT;
  for (let d = resolve("."); d !== dirname(d); d = dirname(d)) {
    const p = join(d, "shared/peers/llm-peer.sh");
    if (existsSync(p)) return p;
  }
  throw new Error("no shared/peers/llm-peer.sh above this directory; set BRAID_LLM_PEER_SCRIPT");
}

/** Starts the real llama.cpp server (no API key); returns its URL and a stop. */
export function startPeer() {
  const script = peerScript();
  const env = { ...process.env };
  delete env.LLM_PEER_API_KEY;
  execFileSync("bash", [script, "start"], { env, stdio: ["ignore", "ignore", "inherit"] });
  const url = execFileSync("bash", [script, "url"], { env }).toString().trim();
  return { url, stop: () => execFileSync("bash", [script, "stop"], { env, stdio: "ignore" }) };
}
