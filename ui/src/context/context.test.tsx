import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { countOf, strategyOf, switchTo } from "./FittingSettings";
import { SummaryCard } from "./SummaryCard";
import { CATEGORY_LABEL } from "./ContextPanel";

describe("fitting settings", () => {
  it("carry the count between the strategies that keep the latest, and start the others at their default", () => {
    expect(switchTo("importance_scoring", { kind: "intelligent", keep_last: 6 })).toEqual({ kind: "importance_scoring", keep_last: 6 });
    expect(switchTo("recent_n", { kind: "intelligent", keep_last: 6 })).toEqual({ kind: "recent_n", n: 20 });
    expect(switchTo("intelligent", { kind: "recent_n", n: 40 })).toEqual({ kind: "intelligent", keep_last: 10 });
  });
  it("never keep fewer than one message", () => {
    expect(strategyOf("recent_n", 0)).toEqual({ kind: "recent_n", n: 1 });
    expect(strategyOf("intelligent", Number.NaN)).toEqual({ kind: "intelligent", keep_last: 1 });
    expect(countOf({ kind: "recent_n", n: 7 })).toBe(7);
  });
  it("name every part of a request", () => {
    expect(Object.keys(CATEGORY_LABEL).sort()).toEqual(["base_prompt", "chat_format", "draft", "files", "images", "instructions", "messages", "resources", "summary", "team", "tools"]);
  });
});

describe("a summary card", () => {
  const item = { key: "m9", kind: "summary" as const, id: 9, count: 4, text: "Budget 40.", inForce: true };
  const actions = { edit: () => {}, undo: () => {} };
  it("offers edit, export and undo while it is in force", () => {
    const html = renderToStaticMarkup(<SummaryCard item={item} actions={actions} />);
    expect(html).toContain("4 earlier messages summarised — the model reads this instead");
    expect(html).toContain(">Edit<");
    expect(html).toContain(">Export<");
    expect(html).toContain(">Undo summary<");
  });
  it("says when it was taken back, and only exports then", () => {
    const html = renderToStaticMarkup(<SummaryCard item={{ ...item, inForce: false }} actions={actions} />);
    expect(html).toContain("taken back: the messages are sent again");
    expect(html).not.toContain(">Undo summary<");
    expect(html).not.toContain(">Edit<");
  });
});
