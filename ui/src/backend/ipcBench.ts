// The page half of the Channel-vs-window-events measurement (make
// bench-ipc). The command it calls exists only in builds with the
// `ipc-bench` feature; elsewhere the call fails and nothing else changes.
import { Channel, invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";

type Stamped = { sent_us: number };

const nowUs = () => (performance.timeOrigin + performance.now()) * 1000;

async function run(via: "channel" | "event", n: number, intervalUs: number) {
  const lat: number[] = [];
  let done: () => void = () => undefined;
  const all = new Promise<void>((r) => (done = r));
  const got = (m: Stamped) => {
    lat.push(nowUs() - m.sent_us);
    if (lat.length === n) done();
  };
  const channel = new Channel<Stamped>();
  channel.onmessage = got;
  const unlisten = via === "event" ? await listen<Stamped>("ipc-bench", (e) => got(e.payload)) : () => undefined;
  const t0 = performance.now();
  await invoke("ipc_bench", { via, n, intervalUs, onEvent: channel });
  await all;
  const totalMs = performance.now() - t0;
  unlisten();
  lat.sort((a, b) => a - b);
  return { n, median_us: Math.round(lat[n >> 1]), p95_us: Math.round(lat[Math.floor(n * 0.95)]), total_ms: Math.round(totalMs), per_s: Math.round(n / (totalMs / 1000)) };
}

declare global {
  interface Window {
    __braidIpcBench?: (n: number) => Promise<unknown>;
  }
}

/** Alternating runs, so neither way gets the warm or the cold slot. */
window.__braidIpcBench = async (n: number) => {
  const out: Record<string, unknown[]> = { paced_channel: [], paced_event: [], burst_channel: [], burst_event: [] };
  for (let round = 0; round < 3; round++) {
    out.paced_channel.push(await run("channel", n, 1000));
    out.paced_event.push(await run("event", n, 1000));
    out.burst_channel.push(await run("channel", n, 0));
    out.burst_event.push(await run("event", n, 0));
  }
  return out;
};
