import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Backend } from "../backend/types";
import { StateLine } from "../chat/StateLine";
import { formFromView, newForm } from "./form";
import { connectionLine, ProviderEditor } from "./ProviderEditor";
import { SettingsPanel } from "./SettingsPanel";

const backend = {} as Backend;
const view = { id: "openai", kind: "open_ai_compatible" as const, name: "OpenAI", base_url: "https://api.openai.com/v1", default_model: "gpt-4o", key: "keychain" as const };

describe("components", () => {
  it("the key field of a provider with a stored key is empty and masked", () => {
    const html = renderToStaticMarkup(<ProviderEditor backend={backend} initial={formFromView(view)} onSaved={() => {}} onClose={() => {}} />);
    expect(html).toContain('type="password"');
    expect(html).toMatch(/type="password"[^>]*value=""/);
    expect(html).toContain("Key stored in the system keychain");
    expect(html).toContain("Remove the stored key");
  });

  it("settings list providers with the default marked and no key anywhere", () => {
    const html = renderToStaticMarkup(
      <SettingsPanel backend={backend} settings={{ providers: [view], default_provider: "openai", fallback: null, built_in_models: false, conversations: { strategy: null, summarize_at_percent: null, continue_cut: null, model: null, tool_policy: null, sandbox: null, working_dir: null }, instructions: { about_me: "", how_to_answer: "" } }} onChange={() => {}} onClose={() => {}} />,
    );
    expect(html).toContain("OpenAI");
    expect(html).toContain(">default<");
    expect(html).toContain("gpt-4o");
    expect(html).not.toContain("Make default");
  });

  it("a failed state shows its message and a Retry button; Idle has none", () => {
    const failed = renderToStaticMarkup(<StateLine status={{ state: "failed", error_code: "network", message: "could not reach OpenAI", recoverable: true }} notice={null} onRetry={() => {}} />);
    expect(failed).toContain("Failed: could not reach OpenAI");
    expect(failed).toContain(">Retry<");
    expect(renderToStaticMarkup(<StateLine status={{ state: "idle" }} notice={null} onRetry={() => {}} />)).not.toContain("Retry");
  });
});

describe("the provider form", () => {
  it("offers presets for a new provider and none when editing one", () => {
    const html = renderToStaticMarkup(<ProviderEditor backend={{} as never} initial={newForm()} onSaved={() => {}} onClose={() => {}} />);
    for (const label of ["llama.cpp", "Ollama", "LM Studio", "vLLM", "OpenRouter", "OpenAI", "Anthropic", "Gemini"]) expect(html).toContain(`>${label}</button>`);
    expect(html).toContain('value=""');
    const editing = renderToStaticMarkup(<ProviderEditor backend={{} as never} initial={{ ...newForm(), id: "p", name: "Mine", baseUrl: "http://127.0.0.1:11434/v1" }} onSaved={() => {}} onClose={() => {}} />);
    expect(editing).not.toContain("Start from");
  });
  it("says after saving what the connection found", () => {
    expect(connectionLine("Ollama", [{ id: "qwen2.5" }] as never, null)).toBe("Saved Ollama: connected, 1 model (qwen2.5).");
    expect(connectionLine("Ollama", null, "nothing answers at 127.0.0.1:11434")).toBe("Saved Ollama, but the connection failed: nothing answers at 127.0.0.1:11434");
  });
});
