import { describe, expect, it } from "vitest";
import { formFromView, newForm, PRESETS, presetOf, toInput, validate, withKind, withPreset } from "./form";

describe("provider form", () => {
  it("starts empty; a preset fills in kind, name and URL, and says when a key is needed", () => {
    const f = newForm();
    expect([f.name, f.baseUrl]).toEqual(["", ""]);
    expect(validate(f).name).toBeTruthy();
    const openai = withPreset(f, PRESETS.find((p) => p.id === "openai")!);
    expect(openai.baseUrl).toBe("https://api.openai.com/v1");
    expect(validate(openai)).toEqual({ apiKey: "This provider needs an API key." });
    expect(validate({ ...openai, apiKey: "sk-abc" })).toEqual({});
    for (const p of PRESETS) {
      const filled = withPreset({ ...f, apiKey: "sk-abc" }, p);
      expect(presetOf(filled)?.id).toBe(p.id);
      expect(validate(filled)).toEqual({});
      expect(!!validate({ ...filled, apiKey: "" }).apiKey).toBe(p.needsKey);
    }
  });

  it("needs no key for a local server", () => {
    expect(validate({ ...newForm(), name: "llama", baseUrl: "http://127.0.0.1:8089/v1" })).toEqual({});
  });

  it("refuses bad URLs, empty names and keys with spaces", () => {
    const f = { ...newForm(), apiKey: "sk" };
    expect(validate({ ...f, baseUrl: "localhost:8080" }).baseUrl).toMatch(/URL/);
    expect(validate({ ...f, baseUrl: "ftp://x.org" }).baseUrl).toMatch(/http/);
    expect(validate({ ...f, name: "  " }).name).toBeTruthy();
    expect(validate({ ...f, apiKey: "sk abc" }).apiKey).toMatch(/spaces/);
  });

  it("will not send a key over plain http to another machine", () => {
    expect(validate({ ...newForm(), baseUrl: "http://example.com/v1", apiKey: "sk" }).baseUrl).toMatch(/https/);
  });

  it("Anthropic and Gemini always need a key, unless one is stored", () => {
    const a = withKind(newForm(), "anthropic");
    expect(a.baseUrl).toBe("https://api.anthropic.com/v1");
    expect(a.name).toBe("Anthropic");
    expect(validate(a).apiKey).toBeTruthy();
    expect(validate({ ...a, storedKey: "keychain" })).toEqual({});
    expect(validate({ ...a, storedKey: "keychain", clearKey: true }).apiKey).toBeTruthy();
  });

  it("keeps what the user typed when the kind changes", () => {
    const f = withKind({ ...newForm(), name: "Work", baseUrl: "https://proxy.corp/v1" }, "gemini");
    expect(withKind(newForm(), "anthropic").name).toBe("Anthropic");
    expect([f.name, f.baseUrl]).toEqual(["Work", "https://proxy.corp/v1"]);
  });

  it("sends a new key, keeps the stored one, or clears it", () => {
    const f = formFromView({ id: "p", kind: "anthropic", name: "A", base_url: "https://api.anthropic.com/v1", default_model: "claude-sonnet-4", key: "keychain" });
    expect(f.apiKey).toBe("");
    expect(toInput(f)).toEqual({ id: "p", kind: "anthropic", name: "A", base_url: "https://api.anthropic.com/v1", default_model: "claude-sonnet-4", key: { action: "keep" } });
    expect(toInput({ ...f, apiKey: " sk-new " }).key).toEqual({ action: "set", key: "sk-new" });
    expect(toInput({ ...f, clearKey: true }).key).toEqual({ action: "clear" });
    expect(toInput({ ...f, defaultModel: " " }).default_model).toBeNull();
  });
});
