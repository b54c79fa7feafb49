// The agent types a member can be, as the team panel's select offers them:
// the three coding CLIs, the conversation's own model, each provider's
// default model, and any other program (read as plain text).
import type { AgentType, SettingsView } from "../generated/protocol";

export interface AgentOption {
  key: string;
  label: string;
}

export function agentKey(agent: AgentType): string {
  switch (agent.kind) {
    case "api":
      return agent.model ? `api:${agent.model.provider_id}:${agent.model.model}` : "api:";
    case "other":
      return "other";
    default:
      return agent.kind;
  }
}

export function agentOf(key: string, previous: AgentType): AgentType {
  if (key === "claude-code" || key === "openai-codex" || key === "google-gemini") return { kind: key };
  if (key === "other") return { kind: "other", name: previous.kind === "other" ? previous.name : "plain text" };
  const [, provider, ...model] = key.split(":");
  return { kind: "api", model: provider ? { provider_id: provider, model: model.join(":") } : null };
}

export function agentOptions(settings: SettingsView | null): AgentOption[] {
  const models = (settings?.providers ?? [])
    .filter((p) => p.default_model)
    .map((p) => ({ key: `api:${p.id}:${p.default_model}`, label: `${p.name} · ${p.default_model}` }));
  return [
    { key: "api:", label: "The conversation's model" },
    ...models,
    { key: "claude-code", label: "Claude Code (claude CLI)" },
    { key: "openai-codex", label: "Codex (codex CLI)" },
    { key: "google-gemini", label: "Gemini CLI (gemini)" },
    { key: "other", label: "Another program (plain text)" },
  ];
}
