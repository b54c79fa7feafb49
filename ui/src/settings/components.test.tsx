import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Backend } from "../backend/types";
import { StateLine } from "../chat/StateLine";
import { formFromView } from "./form";
import { ProviderEditor } from "./ProviderEditor";
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
      <SettingsPanel backend={backend} settings={{ providers: [view], default_provider: "openai", fallback: null, built_in_models: false, conversations: { strategy: null, summarize_at_percent: null, continue_cut: null } }} onChange={() => {}} onClose={() => {}} />,
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
