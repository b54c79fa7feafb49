// The state line in words, with its numbers. The wording is Rust's
// (`StatusKind::wording`, generated into STATUS_WORDING), filled the same
// way, so the window, the browser and the CLI agree.
import { STATUS_WORDING, type AnswerSpeed, type ContextStatus } from "../generated/protocol";

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

/** An answer's pace in words: "0.4 s to the first token · 41 tokens/s"
 *  ("about" when the tokens are Braid's count, not the server's). */
export function describeSpeed(s: AnswerSpeed): string {
  const wait = `${(Math.round(s.first_token_ms / 100) / 10).toFixed(1)} s to the first token`;
  if (s.streaming_ms < 100 || s.output_tokens === 0) return wait;
  const rate = (s.output_tokens * 1000) / s.streaming_ms;
  const shown = rate >= 10 ? Math.round(rate).toString() : rate.toFixed(1);
  return `${wait} · ${s.reported ? "" : "about "}${shown} tokens/s`;
}
