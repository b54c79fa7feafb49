import { describe, expect, it } from "vitest";
import type { ContextSnapshot } from "../generated/protocol";
import { snapshotOf, textMessage } from "../testing/fixtures";
import { meter, partsLabel } from "./meter";

const snap = (usage: [number, number] | null, window = 10_000): ContextSnapshot => {
  const answer = textMessage(2, "assistant", "a");
  answer.meta = usage ? { usage: { prompt_tokens: usage[0], completion_tokens: usage[1] } } : {};
  return snapshotOf([textMessage(1, "user", "q"), answer], {
    effective_model: { provider_id: "p", provider_name: "P", model: "m", context_window: window, vision: false, tools: true },
  });
};

describe("context meter", () => {
  it("shows the reported tokens against the window", () => {
    expect(meter(snap([1_200, 300]))).toMatchObject({ used: 1_500, level: "ok", label: "1,500 / 10,000 tokens (15 %)" });
  });
  it("warns from 80 % and alarms from 92 %", () => {
    expect(meter(snap([7_900, 200]))?.level).toBe("warn");
    expect(meter(snap([9_000, 300]))).toMatchObject({ level: "full", label: "9,300 / 10,000 tokens (93 %) — near the limit" });
  });
  it("says when nothing was reported, and is absent without a model", () => {
    expect(meter(snap(null))?.label).toBe("— / 10,000 tokens (not reported yet)");
    expect(meter({ ...snap(null), effective_model: null })).toBeNull();
    expect(meter(null)).toBeNull();
  });
});

describe("context meter parts", () => {
  it("splits the window by what Braid counted, and uses it when nothing is reported", () => {
    const s = snap(null, 4_096);
    s.context = { window: 4_096, system: 100, tools: 364, messages: 2_000, reserved_output: 1_024, sent_messages: 8, left_out: 3, left_out_references: [], estimated: false, tools_held_back: [] };
    const m = meter(s)!;
    expect(partsLabel(m.parts)).toBe("System 100 · Tools 364 · Messages 2,000 · Reserved for the answer 1,024");
    expect(m.label).toBe("2,464 / 4,096 tokens (60 %, counted by Braid)");
    s.context = { ...s.context, estimated: true };
    expect(meter(s)!.label).toBe("2,464 / 4,096 tokens (60 %, estimated by Braid)");
    s.context = { ...s.context, left_out_references: [7, 9] };
    expect(meter(s)!.label).toBe("2,464 / 4,096 tokens (60 %, estimated by Braid) · 2 references left out");
    expect(meter(s)!.heldBack).toBe(0);
    s.context = { ...s.context, tools: 0, tools_held_back: ["read_file", "run_command"] };
    expect(meter(s)!.heldBack).toBe(2);
  });
});
