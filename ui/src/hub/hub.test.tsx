import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Download, Recommendations } from "../generated/protocol";
import { DownloadList, progressText } from "./Downloads";
import { count, RecommendedList } from "./ModelHub";
import { timeLeft } from "./useDownloads";

const download = (over: Partial<Download>): Download => ({
  id: "qwen",
  repo: "bartowski/Qwen2.5-1.5B-Instruct-GGUF",
  file: "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf",
  name: "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf",
  bytes: 986_000_000,
  done: 41_000_000,
  speed: 12_000_000,
  eta_seconds: 79,
  state: "running",
  error: null,
  use_when_done: false,
  ...over,
});
const none = () => {};

describe("downloads", () => {
  it("say how far, how fast and how long is left", () => {
    expect(progressText(download({}))).toBe("41 MB of 986 MB · 12 MB/s · 79 s left");
    expect(progressText(download({ state: "paused", speed: 0 }))).toBe("41 MB of 986 MB · Paused");
    expect(progressText(download({ state: "verifying" }))).toContain("Checking the SHA-256");
    expect(timeLeft(5400)).toBe("1 h 30 min left");
    expect(timeLeft(600)).toBe("10 min left");
    expect(timeLeft(null)).toBe("");
  });

  it("offer Pause while running, Resume when paused or failed, and Dismiss once done", () => {
    const html = (d: Download) => renderToStaticMarkup(<DownloadList downloads={[d]} onPause={none} onResume={none} onCancel={none} />);
    expect(html(download({}))).toContain(">Pause<");
    expect(html(download({}))).toContain(">Cancel<");
    const failed = html(download({ state: "failed", error: "the hub failed (503)" }));
    expect(failed).toContain(">Resume<");
    expect(failed).toContain("the hub failed (503)");
    expect(html(download({ state: "done", done: 986_000_000 }))).toContain(">Dismiss<");
  });
});

describe("recommended models", () => {
  const recs: Recommendations = {
    machine: { memory: 24_000_000_000, available: 20_000_000_000, cores: 2, gpu_memory: null },
    models: [
      { repo: "a/small", file: "s.gguf", label: "Small", about: "quick", bytes: 398_000_000, fit: "fits", slow: false, pick: false, on_shelf: true },
      { repo: "a/mid", file: "m.gguf", label: "Mid", about: "good", bytes: 986_000_000, fit: "fits", slow: false, pick: true, on_shelf: false },
      { repo: "a/big", file: "b.gguf", label: "Big", about: "best", bytes: 8_990_000_000, fit: "tight", slow: true, pick: false, on_shelf: false },
    ],
  };

  it("mark the pick, what is on the shelf, and what would be slow here", () => {
    const html = renderToStaticMarkup(<RecommendedList recs={recs} busy={false} onDownload={none} />);
    expect(html).toContain("24.0 GB memory, 20.0 GB free, 2 cores");
    const [small, mid, big] = html.split("<li").slice(1);
    expect(small).toContain("on the shelf");
    expect(small).not.toContain("Download");
    expect(mid).toContain("the pick here");
    expect(big).toContain("9.0 GB · tight · slow on these cores");
  });

  it("count downloads and likes as the hub shows them", () => {
    expect(count(1234)).toBe("1k");
    expect(count(3_400_000)).toBe("3.4M");
    expect(count(7)).toBe("7");
  });
});
