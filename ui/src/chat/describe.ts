// The state line in words, with its numbers: the same wording as the Rust
// `ContextStatus::describe`, so the window, the browser and the CLI agree.
import type { ContextStatus } from "../generated/protocol";

const n = (x: number) => x.toLocaleString("en-US");

export function describe(s: ContextStatus, now: number): string {
  switch (s.state) {
    case "idle": return "Idle";
    case "processing_user_message": return "Processing message…";
    case "resolving_file_references": return "Resolving file references…";
    case "enhancing_system_prompt": return "Preparing system prompt…";
    case "optimizing_context": return "Optimising context…";
    case "reading_images": return `Reading images (${s.done}/${s.total} done)`;
    case "preparing_llm_request": return "Preparing request…";
    case "connecting_to_llm": return "Connecting…";
    case "awaiting_llm_first_chunk": return "Waiting for the first token…";
    case "streaming_llm_response": return `Streaming (${n(s.chunks)} chunks, ${n(s.chars)} chars)`;
    case "processing_llm_response": return "Processing response…";
    case "retrying_llm_request": {
      const secs = Math.max(0, Math.ceil((s.retry_at - now) / 1000));
      return `Retrying in ${secs} s (${s.attempt}/${s.max})`;
    }
    case "parsing_tool_calls": return "Parsing tool calls…";
    case "awaiting_tool_approval": return `Awaiting approval: ${s.tool_names.join(", ")}`;
    case "executing_tool": return `Executing tool ${s.index}/${s.total}: ${s.tool_name}`;
    case "collecting_tool_results": return "Collecting tool results…";
    case "processing_tool_results": return "Processing tool results…";
    case "tool_auto_loop": return `Auto-processing (round ${s.depth}, ${s.tools_executed} tools executed)`;
    case "summarizing": return "Summarising older messages…";
    case "awaiting_sub_agents": return `Waiting for sub-agents (${s.done}/${s.total} done)`;
    case "cancelling": return "Cancelling…";
    case "failed": return `Failed: ${s.message}`;
  }
}

export function isBusy(s: ContextStatus): boolean {
  return s.state !== "idle" && s.state !== "failed";
}
