// The provider form: what the user edits, how it is checked before it is
// sent, and what is sent. Pure, so every rule is unit-tested.
import type { KeyLocation, ProviderInput, ProviderKind, ProviderView } from "../generated/protocol";

export interface ProviderForm {
  /** `null` for a provider not saved yet. */
  id: string | null;
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  defaultModel: string;
  /** A new key; empty keeps the stored one. Never filled from the backend. */
  apiKey: string;
  clearKey: boolean;
  storedKey: KeyLocation | null;
}

export type FormErrors = Partial<Record<"name" | "baseUrl" | "apiKey", string>>;

export const KINDS: { kind: ProviderKind; label: string; baseUrl: string; name: string }[] = [
  { kind: "open_ai_compatible", label: "OpenAI-compatible (OpenAI, Ollama, llama.cpp, LM Studio…)", baseUrl: "https://api.openai.com/v1", name: "OpenAI" },
  { kind: "anthropic", label: "Anthropic", baseUrl: "https://api.anthropic.com/v1", name: "Anthropic" },
  { kind: "gemini", label: "Google Gemini", baseUrl: "https://generativelanguage.googleapis.com/v1beta", name: "Gemini" },
];

/** Where people's models usually are: a preset fills in the kind, the
 *  name and the URL, and says whether a key is needed. */
export interface Preset {
  id: string;
  label: string;
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  needsKey: boolean;
}

export const PRESETS: Preset[] = [
  { id: "llama.cpp", label: "llama.cpp", kind: "open_ai_compatible", name: "llama.cpp", baseUrl: "http://127.0.0.1:8080/v1", needsKey: false },
  { id: "ollama", label: "Ollama", kind: "open_ai_compatible", name: "Ollama", baseUrl: "http://127.0.0.1:11434/v1", needsKey: false },
  { id: "lm-studio", label: "LM Studio", kind: "open_ai_compatible", name: "LM Studio", baseUrl: "http://127.0.0.1:1234/v1", needsKey: false },
  { id: "vllm", label: "vLLM", kind: "open_ai_compatible", name: "vLLM", baseUrl: "http://127.0.0.1:8000/v1", needsKey: false },
  { id: "openrouter", label: "OpenRouter", kind: "open_ai_compatible", name: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1", needsKey: true },
  { id: "openai", label: "OpenAI", kind: "open_ai_compatible", name: "OpenAI", baseUrl: "https://api.openai.com/v1", needsKey: true },
  { id: "anthropic", label: "Anthropic", kind: "anthropic", name: "Anthropic", baseUrl: "https://api.anthropic.com/v1", needsKey: true },
  { id: "gemini", label: "Gemini", kind: "gemini", name: "Gemini", baseUrl: "https://generativelanguage.googleapis.com/v1beta", needsKey: true },
];

/** A new provider: nothing filled in until a preset is chosen or the
 *  fields are typed (no one else's name and URL to clear first). */
export function newForm(kind: ProviderKind = "open_ai_compatible"): ProviderForm {
  return { id: null, kind, name: "", baseUrl: "", defaultModel: "", apiKey: "", clearKey: false, storedKey: null };
}

/** The form filled in from a preset (a key already typed stays). */
export function withPreset(f: ProviderForm, p: Preset): ProviderForm {
  return { ...f, kind: p.kind, name: p.name, baseUrl: p.baseUrl, defaultModel: "" };
}

/** The preset the form's URL is, if any. */
export function presetOf(f: ProviderForm): Preset | undefined {
  return PRESETS.find((p) => p.kind === f.kind && p.baseUrl === f.baseUrl.trim());
}

export function formFromView(v: ProviderView): ProviderForm {
  return {
    id: v.id,
    kind: v.kind,
    name: v.name,
    baseUrl: v.base_url,
    defaultModel: v.default_model ?? "",
    apiKey: "",
    clearKey: false,
    storedKey: v.key,
  };
}

/** Switching the kind of a new provider moves name and URL along while
 *  they still hold the previous kind's defaults. */
export function withKind(f: ProviderForm, kind: ProviderKind): ProviderForm {
  const before = KINDS.find((x) => x.kind === f.kind);
  const after = KINDS.find((x) => x.kind === kind) ?? KINDS[0];
  return {
    ...f,
    kind,
    name: !f.name.trim() || f.name === before?.name ? after.name : f.name,
    baseUrl: !f.baseUrl.trim() || f.baseUrl === before?.baseUrl ? after.baseUrl : f.baseUrl,
  };
}

function isLocal(url: URL): boolean {
  return ["127.0.0.1", "localhost", "[::1]", "0.0.0.0"].includes(url.hostname);
}

export function validate(f: ProviderForm): FormErrors {
  const errors: FormErrors = {};
  if (!f.name.trim()) errors.name = "Give the provider a name.";
  let url: URL | null = null;
  try {
    url = new URL(f.baseUrl.trim());
  } catch {
    errors.baseUrl = "Enter a URL such as https://api.openai.com/v1 or http://127.0.0.1:8089/v1.";
  }
  if (url && url.protocol !== "http:" && url.protocol !== "https:") errors.baseUrl = "The URL must start with http:// or https://.";
  if (url && url.protocol === "http:" && !isLocal(url) && f.apiKey.trim()) {
    errors.baseUrl = "Use https:// to send an API key to another machine.";
  }
  const key = f.apiKey.trim();
  if (key && /\s/.test(key)) errors.apiKey = "An API key has no spaces; check what was pasted.";
  const hasKey = key !== "" || (f.storedKey !== null && !f.clearKey);
  const hosted = url !== null && !isLocal(url);
  if (!hasKey && (f.kind !== "open_ai_compatible" || (hosted && (url?.hostname === "api.openai.com" || url?.hostname === "openrouter.ai")))) {
    errors.apiKey = "This provider needs an API key.";
  }
  return errors;
}

export function toInput(f: ProviderForm): ProviderInput {
  const key = f.apiKey.trim();
  return {
    id: f.id,
    kind: f.kind,
    name: f.name.trim(),
    base_url: f.baseUrl.trim(),
    default_model: f.defaultModel.trim() || null,
    key: key ? { action: "set", key } : f.clearKey ? { action: "clear" } : { action: "keep" },
  };
}

export function keyLabel(k: KeyLocation | null): string {
  switch (k) {
    case "env": return "Key from the environment (BRAID_…_API_KEY)";
    case "keychain": return "Key stored in the system keychain";
    case "file": return "Key stored in Braid's private key file";
    default: return "No key stored";
  }
}
