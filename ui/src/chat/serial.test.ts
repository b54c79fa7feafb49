import { describe, expect, it } from "vitest";
import { serialLoader } from "./serial";

/** A load whose answers the test releases by hand, in any order. */
function manual() {
  const pending: { resolve: (v: number) => void; reject: (e: unknown) => void }[] = [];
  let version = 0;
  const load = () => {
    const asked = ++version;
    return new Promise<number>((resolve, reject) => pending.push({ resolve: () => resolve(asked), reject }));
  };
  return { load, pending };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe("serial loader", () => {
  it("runs one load at a time and one more after it for requests made meanwhile", async () => {
    const m = manual();
    const seen: number[] = [];
    const l = serialLoader(m.load, (v) => seen.push(v), () => {});
    l.request();
    l.request();
    l.request();
    expect(m.pending.length).toBe(1);
    m.pending[0].resolve(0);
    await settle();
    // The three requests made while the first ran fold into one more load.
    expect(m.pending.length).toBe(2);
    m.pending[1].resolve(0);
    await settle();
    expect(seen).toEqual([1, 2]);
    expect(m.pending.length).toBe(2);
  });

  it("a request after a failure still loads, and the failure is reported", async () => {
    const m = manual();
    const errors: unknown[] = [];
    const seen: number[] = [];
    const l = serialLoader(m.load, (v) => seen.push(v), (e) => errors.push(e));
    l.request();
    m.pending[0].reject(new Error("offline"));
    await settle();
    l.request();
    m.pending[1].resolve(0);
    await settle();
    expect(errors.map(String)).toEqual(["Error: offline"]);
    expect(seen).toEqual([2]);
  });

  it("drops answers after close and starts nothing more", async () => {
    const m = manual();
    const seen: number[] = [];
    const l = serialLoader(m.load, (v) => seen.push(v), () => {});
    l.request();
    l.request();
    l.close();
    m.pending[0].resolve(0);
    await settle();
    l.request();
    expect(seen).toEqual([]);
    expect(m.pending.length).toBe(1);
  });
});
