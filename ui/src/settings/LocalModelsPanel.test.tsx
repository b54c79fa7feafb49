import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { LocalModelsView } from "../generated/protocol";
import { formatSize, LocalShelf } from "./LocalModelsPanel";

const view: LocalModelsView = {
  dir: "/home/me/.local/share/braid/models",
  models: [
    { name: "SmolLM2-135M-Instruct.Q4_1.gguf", label: "SmolLM2-135M-Instruct (Q4_1)", bytes: 98_000_000, default: false, bundled: true },
    { name: "qwen2.5-7b-instruct.Q4_K_M.gguf", label: "qwen2.5-7b-instruct (Q4_K_M)", bytes: 4_680_000_000, default: true, bundled: false },
  ],
  settings: { context: 8192, threads: 2 },
  defaults: { context: 4096, threads: 2 },
  cores: 2,
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
    expect(html).toContain("Fitted here: 4,096 tokens and 2 of 2 cores");
    expect(html).toMatch(/<button type="button"[^>]*>Fit to this machine/);
    expect(html).not.toMatch(/disabled=""[^>]*>Fit to this machine/);
  });

  it("an empty shelf says where models go", () => {
    const html = renderToStaticMarkup(<LocalShelf view={{ ...view, models: [] }} busy={false} onDefault={none} onRemove={none} onSettings={none} />);
    expect(html).toContain("No model yet");
    expect(html).toContain(view.dir);
  });
});
