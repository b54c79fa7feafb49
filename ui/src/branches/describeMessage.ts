// One line for a message in lists of messages (compare, previews): who
// and the start of its text, or what kind of message it is.
import type { Message } from "../generated/protocol";

export function describeMessage(m: Message, max = 80): string {
  const b = m.body;
  const text = b.type === "text" ? b.parts.map((p) => p.text).join("") : b.type === "tool_request" ? `called ${b.calls.map((c) => c.name).join(", ")}` : b.type === "file_reference" ? `@${b.path}` : `[${b.type.replace("_", " ")}]`;
  const who = b.type === "text" ? `${b.role}: ` : b.type === "tool_request" ? "assistant: " : "";
  const line = `${who}${text}`.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
