import { describe, expect, it } from "vitest";
import { choiceKey } from "./choiceKey";
import type { ModelChoice } from "../generated/protocol";

describe("choiceKey", () => {
  it("is the same whatever order the choice's keys came in", () => {
    // As the backend's JSON gives it: keys sorted.
    const fromBackend = JSON.parse('{"model":"smollm2-135m","provider_id":"peer"}') as ModelChoice;
    expect(choiceKey(fromBackend)).toBe(choiceKey({ provider_id: "peer", model: "smollm2-135m" }));
    expect(choiceKey(fromBackend)).not.toBe(choiceKey({ provider_id: "peer", model: "other" }));
  });
});
