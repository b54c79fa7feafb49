import * as Popover from "@radix-ui/react-popover";
import { useState, type ReactNode } from "react";
import { Tip } from "../Tip";
import type { GenerationSettings, ToolUse } from "../generated/protocol";

const TOOL_USE: { id: ToolUse; label: string; hint: string }[] = [
  {
    id: "as_needed",
    label: "Tools: as the message needs",
    hint: "Tools go with a message that mentions files, paths, commands, code or agents, and stay once used; a plain question goes alone, short and quick.",
  },
  { id: "auto", label: "Tools: always", hint: "Every tool goes with each message; the model calls them when it needs to." },
  { id: "on_request", label: "Tools: only with /tool", hint: "Plain chat; a tool is offered only when you ask for it with /tool." },
  { id: "off", label: "Tools: off", hint: "No tools at all." },
];

interface Props {
  generation: GenerationSettings;
  /** What applies now (the setting, or the model's default). */
  toolUse: ToolUse;
  onChange: (settings: GenerationSettings) => void;
  /** More of the conversation's settings, shown first in the panel. */
  children?: ReactNode;
}

/** An empty field is the model's default; anything else must parse. */
function parse(text: string, integer: boolean): number | null | undefined {
  const t = text.trim();
  if (t === "") return null;
  const n = Number(t);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) return undefined;
  return n;
}

/** How often a cut answer goes on by itself; empty is the default (once). */
export const CONTINUE_CUT: [number | null, string][] = [
  [null, "Continue once (default)"],
  [0, "Stop and wait for Continue"],
  [3, "Continue up to 3 times"],
  [10, "Continue up to 10 times"],
];

/** The conversation's settings behind one button, so the header stays on
 *  one row: what the caller adds (approval, fitting), then how the model
 *  is asked (tools, temperature, longest answer, cut answers). */
export function GenerationControls({ generation, toolUse, onChange, children }: Props) {
  const [use, setUse] = useState<ToolUse | null>(generation.tool_use);
  const [temperature, setTemperature] = useState(generation.temperature?.toString() ?? "");
  const [maxTokens, setMaxTokens] = useState(generation.max_output_tokens?.toString() ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  // Opening the panel shows what is stored; while it is open the form is
  // the truth (a snapshot arriving late never undoes a typed value).
  const onOpenChange = (open: boolean) => {
    if (!open) return;
    setUse(generation.tool_use);
    setTemperature(generation.temperature?.toString() ?? "");
    setMaxTokens(generation.max_output_tokens?.toString() ?? "");
    setProblem(null);
  };
  const defaultUse = TOOL_USE.find((t) => t.id === toolUse)!;

  // The whole form is sent each time, so two quick edits never undo
  // each other.
  const commit = (nextUse: ToolUse | null, continueCut = generation.continue_cut) => {
    const t = parse(temperature, false);
    const m = parse(maxTokens, true);
    if (t === undefined) return setProblem("The temperature is a number from 0 to 2, or empty for the model's default.");
    if (m === undefined) return setProblem("The longest answer is a whole number of tokens, or empty for the model's.");
    setProblem(null);
    const next = { tool_use: nextUse, temperature: t, max_output_tokens: m, continue_cut: continueCut };
    if (next.tool_use !== generation.tool_use || t !== generation.temperature || m !== generation.max_output_tokens || continueCut !== generation.continue_cut) onChange(next);
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === "Enter") commit(use);
  };

  return (
    <Popover.Root onOpenChange={onOpenChange}>
      <Tip label="Folder, tool approval, long conversations, tools, temperature and the longest answer">
        <Popover.Trigger className="generation-trigger">Options</Popover.Trigger>
      </Tip>
      <Popover.Portal>
        <Popover.Content
          className="generation-panel"
          role="group"
          aria-label="Conversation settings"
          align="end"
          sideOffset={4}
          collisionPadding={8}
          // Esc in a field that uses it itself (a path being typed) leaves
          // the field, not the panel.
          onEscapeKeyDown={(e) => (e.target as HTMLElement | null)?.closest?.("[data-own-escape]") && e.preventDefault()}
        >
          {children}
          <label>
            <span>Tools</span>
            <select
              aria-label="Tool use"
              value={use ?? ""}
              title={defaultUse.hint}
              onChange={(e) => {
                const next = (e.target.value || null) as ToolUse | null;
                setUse(next);
                commit(next);
              }}
            >
              <option value="">{generation.tool_use ? "Tools: model default" : `Tools: model default (${defaultUse.label.replace("Tools: ", "")})`}</option>
              {TOOL_USE.map((t) => <option key={t.id} value={t.id}>{t.label}</option>)}
            </select>
          </label>
          <label>
            <span>Temperature</span>
            <input
              aria-label="Temperature"
              inputMode="decimal"
              placeholder="model default"
              value={temperature}
              onChange={(e) => setTemperature(e.target.value)}
              onBlur={() => commit(use)}
              onKeyDown={onKey}
            />
          </label>
          <label>
            <span>Longest answer</span>
            <input
              aria-label="Longest answer (tokens)"
              inputMode="numeric"
              placeholder="model's limit"
              value={maxTokens}
              onChange={(e) => setMaxTokens(e.target.value)}
              onBlur={() => commit(use)}
              onKeyDown={onKey}
            />
          </label>
          <label>
            <span>Answers cut at the limit</span>
            <select
              aria-label="Answers cut at the output limit"
              value={generation.continue_cut ?? ""}
              title="An answer that reaches the longest answer goes on by itself, joined into one answer"
              onChange={(e) => commit(use, e.target.value === "" ? null : Number(e.target.value))}
            >
              {CONTINUE_CUT.map(([value, label]) => <option key={label} value={value ?? ""}>{label}</option>)}
            </select>
          </label>
          {problem ? <p role="alert" className="generation-problem">{problem}</p> : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
