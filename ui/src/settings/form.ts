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

export function newForm(kind: ProviderKind = "open_ai_compatible"): ProviderForm {
  const k = KINDS.find((x) => x.kind === kind) ?? KINDS[0];
  return { id: null, kind: k.kind, name: k.name, baseUrl: k.baseUrl, defaultModel: "", apiKey: "", clearKey: false, storedKey: null };
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
  if (!hasKey && (f.kind !== "open_ai_compatible" || (hosted && url?.hostname === "api.openai.com"))) {
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
