// The state line in words, with its numbers. The wording is Rust's
// (`StatusKind::wording`, generated into STATUS_WORDING), filled the same
// way, so the window, the browser and the CLI agree.
import { STATUS_WORDING, type ContextStatus } from "../generated/protocol";

const n = (x: number) => x.toLocaleString("en-US");

function field(s: ContextStatus, key: string, now: number): string | undefined {
  if (key === "secs" && s.state === "retrying_llm_request") return n(Math.max(0, Math.ceil((s.retry_at - now) / 1000)));
  const value: unknown = (s as Record<string, unknown>)[key];
  if (typeof value === "number") return n(value);
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.join(", ");
  return undefined;
}

export function describe(s: ContextStatus, now: number): string {
  return STATUS_WORDING[s.state].replace(/\{(\w+)\}/g, (whole, key: string) => field(s, key, now) ?? whole);
}

export function isBusy(s: ContextStatus): boolean {
  return s.state !== "idle" && s.state !== "failed";
}
