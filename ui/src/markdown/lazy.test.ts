import { describe, expect, it } from "vitest";
import { heavy, need } from "./lazy";
import { pluginsFor } from "./Markdown";

describe("maths and highlighting", () => {
  it("load on first need, and blocks get them from then on", async () => {
    expect(heavy.maths).toBeUndefined();
    // Asked for (and not yet there): the block goes without for now.
    expect(pluginsFor("$x^2$").rehype).toHaveLength(0);
    expect(pluginsFor("plain").rehype).toHaveLength(0);
    await need(true, false);
    expect(pluginsFor("$x^2$").rehype).toHaveLength(1);
    expect(heavy.highlight).toBeUndefined();
    await need(false, true);
    expect(pluginsFor("```rust\nfn x() {}\n```").rehype).toHaveLength(1);
  });
});
