import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { LocalModelsView } from "../generated/protocol";
import { formatSize, FoundModels, LocalShelf } from "./LocalModelsPanel";

const view: LocalModelsView = {
  dir: "/home/me/.local/share/braid/models",
  models: [
    { name: "SmolLM2-135M-Instruct.Q4_1.gguf", label: "SmolLM2-135M-Instruct (Q4_1)", bytes: 98_000_000, default: false, bundled: true, linked: false, memory: { bytes: 248_000_000, fit: "fits" }, unreadable: null },
    { name: "qwen2.5-7b-instruct.Q4_K_M.gguf", label: "qwen2.5-7b-instruct (Q4_K_M)", bytes: 4_680_000_000, default: true, bundled: false, linked: false, memory: null, unreadable: null },
  ],
  settings: { context: 8192, threads: 2, unload_after_minutes: 30, gpu_layers: 0 },
  defaults: { context: 4096, threads: 1, unload_after_minutes: 30, gpu_layers: 0 },
  gpu: false,
  cores: 2,
  found: [
    { app: "LM Studio", name: "Qwen2.5-0.5B-Instruct-Q4_K_M.gguf", path: "/home/me/.lmstudio/models/q/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf", bytes: 398_000_000, on_shelf: false, memory: { bytes: 30_000_000_000, fit: "too_big" }, unreadable: null },
    { app: "Ollama", name: "qwen2.5-7b-instruct.Q4_K_M.gguf", path: "/home/me/.ollama/models/blobs/sha256-aa", bytes: 4_680_000_000, on_shelf: true, memory: null, unreadable: null },
  ],
};
const none = () => {};

describe("the built-in model's shelf", () => {
  it("sizes read as people write them", () => {
    expect(formatSize(98_000_000)).toBe("98 MB");
    expect(formatSize(4_680_000_000)).toBe("4.7 GB");
    expect(formatSize(1200)).toBe("1 kB");
  });

  it("marks the default, offers Make default on the others and Remove only on the user's own", () => {
    const html = renderToStaticMarkup(<LocalShelf view={view} busy={false} onDefault={none} onRemove={none} onSettings={none} />);
    const [starter, qwen] = html.split("<li>").slice(1);
    expect(starter).toContain("98 MB · ships with Braid");
    expect(starter).toContain("needs ≈ 248 MB · fits");
    expect(starter).toContain("Make default");
    expect(starter).not.toContain("Remove");
    expect(qwen).toContain(">default<");
    expect(qwen).toContain("4.7 GB");
    expect(qwen).not.toContain("Make default");
    expect(qwen).toContain("Remove");
  });

  it("shows the settings with what this machine was fitted to, the threads capped at its cores", () => {
    const html = renderToStaticMarkup(<LocalShelf view={view} busy={false} onDefault={none} onRemove={none} onSettings={none} />);
    expect(html).toContain('value="8192"');
    expect(html).toMatch(/max="2"[^>]*value="2"/);
    expect(html).toContain("Fitted here: 4,096 tokens and 1 of 2 cores");
    expect(html).toMatch(/<button type="button"[^>]*>Fit to this machine/);
    expect(html).not.toMatch(/disabled=""[^>]*>Fit to this machine/);
  });

  it("an empty shelf says where models go", () => {
    const html = renderToStaticMarkup(<LocalShelf view={{ ...view, models: [] }} busy={false} onDefault={none} onRemove={none} onSettings={none} />);
    expect(html).toContain("No model yet");
    expect(html).toContain(view.dir);
  });

  it("offers other apps' models to use in place, except those already on the shelf", () => {
    const html = renderToStaticMarkup(<FoundModels view={view} busy={false} onLink={none} />);
    expect(html).toContain("Qwen2.5-0.5B-Instruct-Q4_K_M");
    expect(html).toContain(">LM Studio<");
    expect(html).toContain("398 MB");
    expect(html).toContain("needs ≈ 30.0 GB · too big");
    expect(html).toContain("Use in place");
    expect(html).not.toContain("Ollama");
    expect(renderToStaticMarkup(<FoundModels view={{ ...view, found: [] }} busy={false} onLink={none} />)).toBe("");
  });
  it("marks a file whose header cannot be read and offers nothing that would load it", () => {
    const why = "/home/me/jan/models/x/x.gguf is not a GGUF model Braid can read: arrays are nested more than 8 deep";
    const found = [{ ...view.found[0], memory: null, unreadable: why }];
    const html = renderToStaticMarkup(<FoundModels view={{ ...view, found }} busy={false} onLink={none} />);
    expect(html).toContain("cannot be used: arrays are nested more than 8 deep");
    expect(html).not.toContain("Use in place");
    const models = [{ ...view.models[0], memory: null, unreadable: why }];
    const shelf = renderToStaticMarkup(<LocalShelf view={{ ...view, models }} busy={false} onDefault={none} onRemove={none} onSettings={none} />);
    expect(shelf).toContain("cannot be used: arrays");
    expect(shelf).not.toContain("Make default");
  });
  it("offers GPU layers only where the build runs on a GPU, and the idle unload always", () => {
    const cpu = renderToStaticMarkup(<LocalShelf view={view} busy={false} onDefault={none} onRemove={none} onSettings={none} />);
    expect(cpu).toContain("Unload after (min)");
    expect(cpu).not.toContain("GPU layers");
    expect(cpu).toContain("This build runs on the CPU");
    const gpu = renderToStaticMarkup(<LocalShelf view={{ ...view, gpu: true }} busy={false} onDefault={none} onRemove={none} onSettings={none} />);
    expect(gpu).toContain("GPU layers");
  });
});
