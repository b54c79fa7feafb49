import { describe, expect, it } from "vitest";
import type { BranchSummary } from "../generated/protocol";
import { branchOrder } from "../branches/label";

const branch = (id: string, name: string) => ({ id, name, message_count: 1 }) as BranchSummary;

describe("the branch menu's order", () => {
  const many = [branch("b3", "idea 19"), branch("main", "main"), branch("b1", "idea 2"), branch("b2", "idea 20"), branch("b4", "Idea 3")];
  it("puts main first, then names as people count", () => {
    expect(branchOrder(many).map((b) => b.name)).toEqual(["main", "idea 2", "Idea 3", "idea 19", "idea 20"]);
  });
  it("filters by name, keeping the branch in use", () => {
    expect(branchOrder(many, "19", "b1").map((b) => b.name)).toEqual(["idea 2", "idea 19"]);
    expect(branchOrder(many, "  ").length).toBe(5);
  });
  it("lists unnamed versions after the named branches, by id, under their id", () => {
    const withVersions = [branch("b12", ""), branch("b2", "idea"), branch("b9", ""), branch("main", "main")];
    expect(branchOrder(withVersions).map((b) => b.id)).toEqual(["main", "b2", "b9", "b12"]);
    expect(branchOrder(withVersions, "unnamed b1").map((b) => b.id)).toEqual(["b12"]);
  });
  it("orders 200 branches naturally", () => {
    const lots = Array.from({ length: 200 }, (_, i) => branch(`b${i}`, `idea ${200 - i}`));
    const names = branchOrder(lots).map((b) => Number(b.name.split(" ")[1]));
    expect(names).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });
});
